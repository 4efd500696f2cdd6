"""The Email app on a PhoneOS: the store's folders, labels and drafts, compose with a file from the Files
picker (the activity result), a reply in its conversation, drafts kept only when something changed.
(Every task's oracle and noop run is tests/tasks/test_every_task.py.)"""

from __future__ import annotations

import sqlite3
from pathlib import Path

from spa_bench.phone.api import PhoneConfig
from spa_bench.phone.apps.email.store import Draft, EmailStore
from spa_bench.phone.system import PhoneOS
from spa_bench.phone.vfs import VirtualFS

PKG = "com.android.email"
EN = "alex.chen@example.com"
LATER = 1_800_000_000_000  # ms, after every seeded mail


def tap(phone: PhoneOS, rid: str = "", text: str = "") -> None:
    view = phone.frame().find(rid=f"{PKG}:id/{rid}" if rid and ":" not in rid else rid, text=text)
    assert view is not None, (rid, text)
    phone.tap(*view.bounds.center)


def test_store_folders_labels_and_drafts(tmp_path: Path) -> None:
    store = EmailStore(lambda: tmp_path / "email.db")
    store.ensure()
    inbox = store.threads(EN)
    assert [t.subject for t in inbox][:2] == [
        "Q3 planning meeting moved to Thursday",
        "Your flight to Tokyo: booking confirmation",
    ]
    assert len(inbox) == 10 and sum(t.unread for t in inbox) == 3
    assert [t.subject for t in store.threads(EN, "starred")] == [
        "Your flight to Tokyo: booking confirmation",
        "Welcome to the team, Alex",
    ]
    assert {t.subject for t in store.threads(EN, label="Receipts")} == {
        "Invoice #2024-0615 from BrightNet",
        "Your order has shipped",
    }
    assert [t.subject for t in store.threads(EN, query="mission peak")] == ["Hiking this weekend"]
    dinner = next(t for t in inbox if t.subject == "Dinner on Sunday?")
    assert [m.folder for m in dinner.messages] == ["inbox", "sent", "inbox"]
    store.archive(dinner.id)  # the user's own reply stays in Sent
    assert [m.folder for m in store.thread(EN, dinner.id).messages] == ["archive", "sent", "archive"]  # type: ignore[union-attr]
    store.trash(dinner.id)
    assert store.threads(EN, "trash")[0].id == dinner.id and dinner.id not in [
        t.id for t in store.threads(EN)
    ]
    store.restore(dinner.id, EN)
    assert [m.folder for m in store.thread(EN, dinner.id).messages] == ["inbox", "sent", "inbox"]  # type: ignore[union-attr]
    draft_id = store.save(
        EN, "Alex Chen", Draft("bob.li@example.com", "", "Hi", "Draft text"), LATER, "drafts"
    )
    assert draft_id == 1001 and [d.subject for d in store.drafts(EN)] == ["Hi", "Team lunch"]
    sent = store.save(
        EN,
        "Alex Chen",
        Draft("bob.li@example.com; tom.reed@northwind.com", "", "Hi", "Final"),
        LATER + 1,
        "sent",
        draft_id,
    )
    assert sent == draft_id and [d.subject for d in store.drafts(EN)] == ["Team lunch"]
    assert store.message(sent).to == "bob.li@example.com, tom.reed@northwind.com"  # type: ignore[union-attr]
    store.set_labels(dinner.id, ["Family", "Travel"])
    assert store.thread(EN, dinner.id).labels == ("Family", "Travel")  # type: ignore[union-attr]
    assert store.threads("chenxiaoming@example.cn")[0].subject == "关于周四项目评审会的时间调整"


def test_reply_with_a_file_from_the_files_picker(tmp_path: Path) -> None:
    phone = PhoneOS(PhoneConfig(locale="en"), VirtualFS(tmp_path / "fs"))
    phone.start_activity(PKG)
    tap(phone, "search_bar")
    phone.input_text("hiking")
    tap(phone, "subject", "Hiking this weekend")
    tap(phone, "reply")
    tap(phone, "body")
    phone.input_text("See you there")
    tap(phone, "action_attach")
    assert phone.current_focus() == ("com.android.documentsui", "com.android.documentsui.picker.PickActivity")
    tap(phone, text="Documents")
    tap(phone, text="shopping_list.txt")
    assert phone.current_focus() == (PKG, f"{PKG}.ComposeActivity")  # the picked file came back
    assert phone.frame().find(rid=f"{PKG}:id/attachment_name", text="shopping_list.txt") is not None
    tap(phone, "send")
    db = tmp_path / "fs/data/data/com.android.email/databases/email.db"
    with sqlite3.connect(db) as conn:
        rows = conn.execute(
            "SELECT m.thread_id, m.to_addrs, m.subject, m.body, a.path, a.size FROM messages m JOIN "
            "attachments a ON a.message_id = m._id WHERE m._id > 1000"
        ).fetchall()
    assert rows == [
        (
            10,
            "alice.chen@example.com",
            "Re: Hiking this weekend",
            rows[0][3],
            "/sdcard/Documents/shopping_list.txt",
            79,
        )
    ]
    assert rows[0][3].startswith("See you there\n\n") and "> Trail conditions" in rows[0][3]
    # the picker is gone: Files opens on its own browser again
    phone.start_activity("com.android.documentsui")
    assert phone.current_focus()[1] == "com.android.documentsui.files.FilesActivity"


def test_back_keeps_a_draft_and_the_chinese_mailbox(tmp_path: Path) -> None:
    phone = PhoneOS(PhoneConfig(locale="zh"), VirtualFS(tmp_path / "fs"))
    phone.start_activity(PKG)
    assert phone.frame().find(rid=f"{PKG}:id/folder_title", text="收件箱") is not None
    tap(phone, "compose_button")
    phone.input_text("lilei@example.cn")
    phone.press_key(4)  # BACK hides nothing here: the compose screen saves and closes
    store = phone.apps[PKG].store  # type: ignore[attr-defined]
    assert [d.to for d in store.drafts("chenxiaoming@example.cn")] == [
        "lilei@example.cn",
        "liuyang@huaxin-tech.cn",
    ]


def test_an_unchanged_reply_leaves_no_draft(tmp_path: Path) -> None:
    phone = PhoneOS(PhoneConfig(locale="en"), VirtualFS(tmp_path / "fs"))
    store = phone.apps[PKG].store  # type: ignore[attr-defined]
    phone.start_activity(PKG)
    tap(phone, "subject", "Design review notes")
    tap(phone, "reply")
    phone.press_key(4)  # nothing typed: no draft
    assert [d.subject for d in store.drafts(EN)] == ["Team lunch"]
    tap(phone, "forward")
    tap(phone, "to")
    phone.input_text("tom.reed@northwind.com")
    phone.press_key(4)  # the keyboard goes first
    phone.press_key(4)
    first = store.drafts(EN)[0]
    assert (first.subject, first.to, [a.name for a in first.attachments]) == (
        "Fwd: Design review notes",
        "tom.reed@northwind.com",
        ["design_review_notes.docx"],
    )
