"""Enter in a text field behaves as Android's TextView does: a multi-line field (inputType textMultiLine -
Keep's note body, Messages' compose box, Email's body) takes a newline and keeps the keyboard up; a
single-line one runs its IME action (Keep's title moves on to the body, a search field searches). An IME's
performEditorAction (ADBKeyboard's ADB_EDITOR_CODE) types nothing, multi-line or not."""

from __future__ import annotations

import sqlite3
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from spa_bench.phone.api import PhoneConfig
from spa_bench.phone.shell import Shell
from spa_bench.phone.system import PhoneOS
from spa_bench.phone.u2rpc.methods import U2Methods
from spa_bench.phone.ui import EditText, View
from spa_bench.phone.vfs import VirtualFS

KEEP = "com.google.android.keep"
MESSAGES = "com.android.messaging"
EMAIL = "com.android.email"
ENTER = 66


@pytest.fixture
def phone(tmp_path: Path) -> PhoneOS:
    return PhoneOS(PhoneConfig(), VirtualFS(tmp_path / "fs"))


def find(phone: PhoneOS, **kw: str) -> View:
    view = phone.frame().find(**kw)
    assert view is not None, kw
    return view


def tap(phone: PhoneOS, **kw: str) -> None:
    phone.tap(*find(phone, **kw).bounds.center)


def edit(phone: PhoneOS, rid: str) -> EditText:
    view = find(phone, rid=rid)
    assert isinstance(view, EditText), rid
    return view


def test_enter_in_a_note_body_is_a_newline_and_the_keyboard_stays(phone: PhoneOS) -> None:
    phone.start_activity(KEEP)
    tap(phone, text="Shopping list")
    body_rid = f"{KEEP}:id/edit_note_text"
    before = edit(phone, body_rid).value
    tap(phone, rid=body_rid)
    Shell(phone).run("input keyevent KEYCODE_ENTER")
    phone.input_text("tea")
    assert phone.keyboard_shown() and edit(phone, body_rid).focused
    assert edit(phone, body_rid).value == before + "\ntea"
    # the dump writes the newline as uiautomator's serializer does (&#10;, as in real dumps)
    xml = phone.dump_hierarchy()
    assert "&#10;tea" in xml
    node = next(n for n in ET.fromstring(xml).iter("node") if n.get("resource-id") == body_rid)
    assert node.get("text", "").endswith("\ntea")


def test_enter_in_the_note_title_moves_on_to_the_body(phone: PhoneOS) -> None:
    phone.start_activity(KEEP)
    tap(phone, text="Shopping list")
    title_rid, body_rid = f"{KEEP}:id/editable_title", f"{KEEP}:id/edit_note_text"
    tap(phone, rid=title_rid)
    phone.press_key(ENTER)
    assert edit(phone, title_rid).value == "Shopping list"  # no newline in a title
    assert edit(phone, body_rid).focused and phone.keyboard_shown()


def test_enter_in_messages_compose_is_a_newline_not_send(phone: PhoneOS, tmp_path: Path) -> None:
    db = phone.fs.host_path("/data/data/com.android.providers.telephony/databases/mmssms.db")

    def sms_count() -> int:
        conn = sqlite3.connect(db)
        try:
            return int(conn.execute("SELECT COUNT(*) FROM sms").fetchone()[0])
        finally:
            conn.close()

    phone.start_activity(MESSAGES)
    tap(phone, rid=f"{MESSAGES}:id/conversation_row")
    compose = f"{MESSAGES}:id/compose_message_text"
    tap(phone, rid=compose)
    sent = sms_count()
    phone.input_text("Running late")
    phone.press_key(ENTER)
    phone.input_text("Sorry")
    assert edit(phone, compose).value == "Running late\nSorry" and phone.keyboard_shown()
    assert sms_count() == sent  # Enter sent nothing
    tap(phone, rid=f"{MESSAGES}:id/send_message_button")
    assert sms_count() == sent + 1


def test_email_body_takes_newlines_and_the_subject_moves_on(phone: PhoneOS) -> None:
    phone.start_activity(EMAIL)
    tap(phone, rid=f"{EMAIL}:id/compose_button")
    tap(phone, rid=f"{EMAIL}:id/subject")
    phone.input_text("Plan")
    phone.press_key(ENTER)  # single-line: its action is next
    assert edit(phone, f"{EMAIL}:id/subject").value == "Plan"
    assert edit(phone, f"{EMAIL}:id/body").focused
    phone.input_text("Hi,")
    phone.press_key(ENTER)
    assert U2Methods(phone).pressKey("enter")  # uiautomator2's d.press("enter") is the same key
    phone.input_text("See you")
    assert edit(phone, f"{EMAIL}:id/body").value == "Hi,\n\nSee you" and phone.keyboard_shown()


def test_an_editor_action_types_no_newline(phone: PhoneOS) -> None:
    """ADBKeyboard's ADB_EDITOR_CODE is InputConnection.performEditorAction: TextView.onEditorAction, which
    in a body without a listener only takes the keyboard down."""
    sh = Shell(phone)
    sh.run("ime enable com.android.adbkeyboard/.AdbIME")
    sh.run("ime set com.android.adbkeyboard/.AdbIME")
    phone.start_activity(KEEP)
    tap(phone, text="Shopping list")
    body_rid = f"{KEEP}:id/edit_note_text"
    before = edit(phone, body_rid).value
    tap(phone, rid=body_rid)
    sh.run("am broadcast -a ADB_EDITOR_CODE --ei code 6")
    assert edit(phone, body_rid).value == before and not phone.keyboard_shown()
