"""Long-press context menus of the list apps, each item checked on the app's SQLite store, and the
recents screen (KEYCODE_APP_SWITCH) with swipe-to-dismiss and Clear all on the one task list."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from spa_bench.phone.api import PhoneConfig
from spa_bench.phone.system import PhoneOS
from spa_bench.phone.system.tasks import LAUNCHER
from spa_bench.phone.ui import View
from spa_bench.phone.vfs import VirtualFS

KEEP, MESSAGES, CONTACTS = "com.google.android.keep", "com.android.messaging", "com.android.contacts"
NOTES_DB = f"/data/data/{KEEP}/databases/notes.db"
SMS_DB = "/data/data/com.android.providers.telephony/databases/mmssms.db"
CONTACTS_DB = "/data/data/com.android.providers.contacts/databases/contacts2.db"


@pytest.fixture
def phone(tmp_path: Path) -> PhoneOS:
    return PhoneOS(PhoneConfig(), VirtualFS(tmp_path / "fs"))


def query(phone: PhoneOS, db: str, sql: str) -> list[tuple[object, ...]]:
    conn = sqlite3.connect(phone.fs.host_path(db))
    try:
        return conn.execute(sql).fetchall()
    finally:
        conn.close()


def find(phone: PhoneOS, **kw: str) -> View:
    view = phone.frame().find(**kw)
    assert view is not None, kw
    return view


def long_press(phone: PhoneOS, view: View) -> None:
    x, y = view.bounds.center
    phone.swipe(x, y, x, y, 800)


def menu(phone: PhoneOS) -> list[str]:
    lists = [v for v in phone.frame().views() if v.class_name == "android.widget.ListView"]
    return [c.text for lst in lists for row in lst.children for c in row.children]


def choose(phone: PhoneOS, title: str) -> None:
    phone.tap(*find(phone, rid="android:id/title", text=title).bounds.center)


def test_notes_menu_pins_copies_and_deletes(phone: PhoneOS) -> None:
    phone.start_activity(KEEP)
    long_press(phone, find(phone, text="Shopping list"))
    assert menu(phone) == ["Pin", "Make a copy", "Delete"]
    choose(phone, "Pin")
    assert menu(phone) == []
    assert query(phone, NOTES_DB, "SELECT pinned FROM notes WHERE title = 'Shopping list'") == [(1,)]
    long_press(phone, find(phone, text="Shopping list"))
    assert menu(phone)[0] == "Unpin"
    phone.press_key(4)  # BACK closes the menu and nothing changes
    assert menu(phone) == [] and phone.current_focus()[0] == KEEP
    long_press(phone, find(phone, text="Book recommendations"))
    choose(phone, "Make a copy")
    assert query(phone, NOTES_DB, "SELECT count(*) FROM notes WHERE title = 'Book recommendations'") == [(2,)]
    long_press(phone, find(phone, text="Wi-Fi password"))
    choose(phone, "Delete")
    assert query(phone, NOTES_DB, "SELECT trashed FROM notes WHERE title = 'Wi-Fi password'") == [(1,)]
    assert find(phone, rid="android:id/message").text == "Note moved to trash"  # the toast


def test_a_tap_outside_closes_the_menu_without_choosing(phone: PhoneOS) -> None:
    phone.start_activity(KEEP)
    long_press(phone, find(phone, text="Shopping list"))
    assert menu(phone)
    phone.tap(1000, 2150)
    assert menu(phone) == []
    long_press(phone, find(phone, text="Shopping list"))
    search = find(phone, rid=f"{KEEP}:id/search_box")
    phone.tap(*search.bounds.center)  # on the search bar, above the list: closes the menu only
    assert menu(phone) == [] and not phone.keyboard_shown()
    assert query(phone, NOTES_DB, "SELECT sum(pinned), sum(trashed), count(*) FROM notes") == [(2, 1, 14)]


def test_messages_menus_mark_unread_delete_and_copy(phone: PhoneOS) -> None:
    phone.start_activity(MESSAGES)
    long_press(phone, find(phone, text="Alice Chen"))
    assert menu(phone) == ["Mark as unread", "Delete"]
    choose(phone, "Mark as unread")
    assert query(phone, SMS_DB, "SELECT read FROM sms WHERE body = 'Perfect, see you there'") == [(0,)]
    long_press(phone, find(phone, text="Alice Chen"))
    assert menu(phone)[0] == "Mark as read"
    phone.press_key(4)
    phone.tap(*find(phone, text="Alice Chen").bounds.center)
    long_press(phone, find(phone, text="Yes! 12:30 at Luigi's?"))
    assert menu(phone) == ["Copy text", "Delete"]
    choose(phone, "Copy text")
    assert phone.get_clipboard() == "Yes! 12:30 at Luigi's?"
    long_press(phone, find(phone, text="Yes! 12:30 at Luigi's?"))
    choose(phone, "Delete")
    assert query(phone, SMS_DB, "SELECT count(*) FROM sms WHERE body LIKE 'Yes! 12:30%'") == [(0,)]
    phone.press_key(4)
    threads = query(phone, SMS_DB, "SELECT count(*) FROM threads")[0][0]
    long_press(phone, find(phone, text="Alice Chen"))
    choose(phone, "Delete")
    assert query(phone, SMS_DB, "SELECT count(*) FROM threads")[0][0] == threads - 1  # type: ignore[operator]
    assert query(phone, SMS_DB, "SELECT count(*) FROM sms WHERE address = '+1 650-555-0101'") == [(0,)]


def test_contacts_menu_favourite_copy_delete(tmp_path: Path) -> None:
    phone = PhoneOS(PhoneConfig(locale="zh"), VirtualFS(tmp_path / "fs"))
    phone.start_activity(CONTACTS)
    row = find(phone, text="Bob Li")
    long_press(phone, row)
    assert menu(phone) == ["添加到收藏", "复制电话号码", "删除"]
    choose(phone, "添加到收藏")
    starred = "SELECT starred FROM raw_contacts WHERE display_name = 'Bob Li'"
    assert query(phone, CONTACTS_DB, starred) == [(1,)]
    long_press(phone, find(phone, text="Bob Li"))  # the first row now: under 收藏 (favourites)
    assert menu(phone)[0] == "从收藏中移除"
    choose(phone, "复制电话号码")
    assert phone.get_clipboard() == "+1 650-555-0102"
    long_press(phone, find(phone, text="Bob Li"))
    choose(phone, "删除")
    remaining = "SELECT count(*) FROM raw_contacts WHERE display_name = 'Bob Li'"
    assert query(phone, CONTACTS_DB, remaining) == [(0,)]


# -- recents ----------------------------------------------------------------------------------------------
def test_recents_swipe_to_dismiss_and_clear_all_agree_with_the_task_list(phone: PhoneOS) -> None:
    for package in ("com.android.settings", KEEP, MESSAGES):
        phone.start_activity(package)
    ids = {p: phone.tasks.task_id(p) for p in ("com.android.settings", KEEP, MESSAGES)}
    assert len(set(ids.values())) == 3
    phone.press_key(187)
    assert [t[1] for t in phone.tasks.recent_tasks()] == [MESSAGES, KEEP, "com.android.settings"]
    card = find(phone, rid="com.google.android.apps.nexuslauncher:id/task", desc="Keep Notes")
    x, y = card.bounds.center
    phone.swipe(x, y, x - 500, y, 150)  # fling the card sideways
    assert [t[1] for t in phone.tasks.recent_tasks()] == [MESSAGES, "com.android.settings"]
    assert phone.tasks.task_id(KEEP) is None
    assert phone.frame().find(desc="Keep Notes") is None
    phone.swipe(540, 1500, 540, 900, 300)  # a vertical swipe scrolls, it dismisses nothing
    assert len(phone.tasks.recent_tasks()) == 2
    assert phone.tasks.package_of(ids[MESSAGES]) == MESSAGES  # `am stack remove ID` finds its task
    phone.start_activity(KEEP)
    phone.press_key(187)
    phone.tap(*find(phone, text="Clear all").bounds.center)
    assert phone.tasks.recent_tasks() == [] and phone.current_focus()[0] == LAUNCHER


def test_the_task_list_survives_a_snapshot(phone: PhoneOS, tmp_path: Path) -> None:
    phone.start_activity(KEEP)
    phone.start_activity(MESSAGES)
    before = phone.tasks.recent_tasks()
    fresh = PhoneOS(PhoneConfig(), VirtualFS(tmp_path / "fs"))
    fresh.load_state(phone.save_state())
    assert fresh.tasks.recent_tasks() == before
