"""Notifications: `cmd notification post` as NotificationShellCmd answers, `dumpsys notification` in
NotificationRecord's format (AOSP NotificationRecord.toString/dump, redacted unless --noredact), an SMS
arriving as a heads-up and a shade entry that opens its conversation, dismissal by swipe and Clear all."""

from __future__ import annotations

import re
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from spa_bench.phone.api import PhoneConfig
from spa_bench.phone.system import PhoneOS
from spa_bench.phone.system.shade import HEADS_UP_WINDOW
from spa_bench.phone.vfs import VirtualFS

if TYPE_CHECKING:
    from conftest import PhoneHandle

MESSAGES = "com.android.messaging"
CONVERSATION = "com.android.messaging.ui.conversation.ConversationActivity"
# NotificationRecord.toString():
#   "NotificationRecord(0x%08x: pkg=%s user=%s id=%d tag=%s importance=%d key=%s: %s)"
RECORD = re.compile(r"^    NotificationRecord\(0x[0-9a-f]{8}: pkg=(\S+) user=UserHandle\{0\} id=(-?\d+) "
                    r"tag=(\S+) importance=(\d) key=(0\|\S+\|-?\d+\|\S+\|\d+): (Notification\(.*\))\)$")
NOTIFICATION = re.compile(r"^Notification\(channel=\S+ shortcut=\S+ contentView=\S+ vibrate=\S+ sound=\S+ "
                          r"defaults=0x[0-9a-f]+ flags=0x[0-9a-f]+ color=0x[0-9a-f]{8}.* vis=\w+\)$")


@pytest.fixture
def phone(running_phone: PhoneHandle) -> PhoneHandle:
    running_phone.reset()
    return running_phone


@pytest.fixture
def os_phone(tmp_path: Path) -> PhoneOS:
    return PhoneOS(PhoneConfig(), VirtualFS(tmp_path / "fs"))


def test_cmd_notification_post_and_dumpsys(phone: PhoneHandle) -> None:
    out = phone.shell("cmd notification post -t 'Build done' ci_tag 'All 42 checks passed'")
    first, second = out.splitlines()[:2]
    assert first == "posting:" and NOTIFICATION.match(second.strip()), out
    dump = phone.shell("dumpsys notification").splitlines()
    assert dump[0] == "Current Notification Manager state:" and dump[1] == "  Notification List:"
    m = RECORD.match(dump[2])
    assert m is not None, dump[2]
    pkg, nid, tag, importance, key, notification = m.groups()
    assert (pkg, nid, tag, importance) == ("com.android.shell", "1138", "ci_tag", "3")
    assert key == "0|com.android.shell|1138|ci_tag|2000" and NOTIFICATION.match(notification)
    assert "      key=0|com.android.shell|1138|ci_tag|2000" in dump
    assert "                android.text=String [length=20]" in dump  # redacted by default
    full = phone.shell("dumpsys notification --noredact")
    assert "android.title=String (Build done)" in full
    assert "android.text=String (All 42 checks passed)" in full
    filtered = phone.shell("dumpsys notification p com.android.messaging")
    assert filtered.startswith("Current Notification Manager state (filtered to 'com.android.messaging'):\n")
    assert "ci_tag" not in filtered and "  Notification List:" in filtered  # the header: one is posted
    assert "    mZenMode=ZEN_MODE_OFF" in dump
    phone.shell("settings put global zen_mode 1")
    assert "    mZenMode=ZEN_MODE_IMPORTANT_INTERRUPTIONS" in phone.shell("dumpsys notification")


def test_cmd_notification_usage_and_errors(phone: PhoneHandle) -> None:
    assert phone.shell("cmd notification post -h").startswith("usage: cmd notification post [flags]")
    proc = phone.adb.run("shell", "cmd notification post only_a_tag", serial=phone.serial, check=False)
    assert proc.returncode == 0 and b"usage: cmd notification post" in proc.stdout  # onCommand says 0
    assert "error: invalid icon: nonsense" in phone.shell("cmd notification post -i nonsense t x")
    assert "Unknown command: frob" in phone.adb.run("shell", "cmd notification frob", serial=phone.serial,
                                                    check=False).stdout.decode()
    assert "Notification List" not in phone.shell("dumpsys notification")


def test_listener_and_dnd_grants_are_the_secure_settings(phone: PhoneHandle) -> None:
    comp = "com.example.agent/.NotificationWatcher"
    assert phone.shell(f"cmd notification allow_listener {comp}") == ""
    assert phone.shell("settings get secure enabled_notification_listeners").strip() == comp
    phone.shell("cmd notification allow_dnd com.example.agent")
    assert phone.shell("settings get secure enabled_notification_policy_access_packages").strip() == \
        "com.example.agent"
    phone.shell(f"cmd notification disallow_listener {comp}")
    assert phone.shell("settings get secure enabled_notification_listeners").strip() == ""
    refused = phone.adb.run("shell", "cmd notification allow_listener nocomponent", serial=phone.serial,
                            check=False)
    assert refused.returncode == 255 and b"Invalid listener - must be a ComponentName" in refused.stdout
    phone.shell("cmd notification allow_assistant com.example/.Assist")
    assert phone.shell("cmd notification get_approved_assistant").strip() == "com.example/.Assist"


def test_posted_notification_is_in_the_shade_and_opens_its_intent(phone: PhoneHandle) -> None:
    phone.shell("cmd notification post -c activity -n com.android.settings/.Settings tag1 'Tap me'")
    phone.shell("cmd statusbar expand-notifications")
    xml = phone.shell("uiautomator dump /sdcard/d.xml >/dev/null && cat /sdcard/d.xml")
    assert 'text="Tap me"' in xml and 'resource-id="com.android.systemui:id/expandableNotificationRow"' in xml
    row = phone.phone.system.frame().find(rid="com.android.systemui:id/expandableNotificationRow")
    phone.shell(f"input tap {row.bounds.center[0]} {row.bounds.center[1]}")
    assert phone.phone.system.current_focus()[0] == "com.android.settings"
    assert not phone.phone.system.shade_open()
    assert "tag=tag1" in phone.shell("dumpsys notification")  # shell notifications are not auto-cancel


def test_incoming_sms_heads_up_then_opens_the_conversation(os_phone: PhoneOS) -> None:
    app = os_phone.apps[MESSAGES]
    thread = app.sms.thread_for("+1 650-555-0101")  # type: ignore[attr-defined]
    app.notify_received(thread, "+1 650-555-0101", "Running 10 min late")  # type: ignore[attr-defined]
    names = [w.name for w in os_phone.frame().windows]
    assert HEADS_UP_WINDOW in names
    assert not os_phone.frame().windows[names.index(HEADS_UP_WINDOW)].focusable  # the app keeps focus
    heads_up = os_phone.frame().windows[names.index(HEADS_UP_WINDOW)].root
    texts = [v.text for v in heads_up.walk() if v.text]
    assert "Alice Chen" in texts and "Running 10 min late" in texts and "Messages" in texts
    icons = os_phone.frame().find(rid="com.android.systemui:id/notification_icon_area")
    assert icons is not None and [v.desc for v in icons.children] == ["Messages notification: Alice Chen"]
    (n,) = os_phone.notification_list()
    assert n.importance == 4 and n.package == MESSAGES and n.id == thread
    os_phone.tap(*heads_up.bounds.center)
    assert os_phone.current_focus() == (MESSAGES, CONVERSATION)
    assert os_phone.tasks.top().args == {"thread_id": thread}
    assert os_phone.notification_list() == []  # auto-cancelled by the tap
    os_phone.press_key(4)  # BACK goes to the conversation list (the back stack the app builds)
    assert os_phone.current_focus() == (MESSAGES, "com.android.messaging.ui.conversationlist."
                                                  "ConversationListActivity")


def test_console_sms_send_posts_the_notification(phone: PhoneHandle) -> None:
    """The emulator console's `sms send` (the Messages app's inbound path) ends in a heads-up, a record in
    `dumpsys notification` and a shade entry that opens the sender's conversation."""
    from console_client import ConsoleClient

    client = ConsoleClient(phone.phone.config.console_port)
    try:
        assert client.cmd(f"auth {phone.phone.console_token}").endswith("OK\r\n")
        assert client.cmd("sms send +16505550101 Running late, 10 min") == "OK\r\n"
    finally:
        client.close()
    dump = phone.shell("dumpsys notification --noredact")
    (record,) = [m for m in map(RECORD.match, dump.splitlines()) if m]
    assert record.group(1) == "com.android.messaging" and record.group(4) == "4"  # importance HIGH
    assert "android.title=String (Alice Chen)" in dump
    assert "android.text=String (Running late, 10 min)" in dump
    system = phone.phone.system
    assert system.heads_up_active()
    phone.shell("cmd statusbar expand-notifications")
    row = system.frame().find(rid="com.android.systemui:id/expandableNotificationRow")
    phone.shell(f"input tap {row.bounds.center[0]} {row.bounds.center[1]}")
    assert system.current_focus() == (MESSAGES, CONVERSATION)
    thread = system.tasks.top().args["thread_id"]
    assert "+1 650-555-0101" in phone.shell(f"content query --uri content://sms --where thread_id={thread}")
    assert "Notification List" not in phone.shell("dumpsys notification")


def test_heads_up_times_out_but_stays_in_the_shade(tmp_path: Path) -> None:
    from spa_bench.phone.system.clock import PhoneClock

    now = [100.0]
    phone = PhoneOS(PhoneConfig(), VirtualFS(tmp_path / "fs"), PhoneClock(monotonic=lambda: now[0]))
    phone.post_notification(MESSAGES, 1, None, "Bob Li", "ok", importance=4)
    assert phone.heads_up_active()
    now[0] += 6
    assert not phone.heads_up_active() and HEADS_UP_WINDOW not in [w.name for w in phone.frame().windows]
    phone.expand_shade("notifications")
    assert phone.frame().find(text="Bob Li") is not None


def test_do_not_disturb_hides_the_heads_up_not_the_notification(os_phone: PhoneOS) -> None:
    os_phone.settings_put("global", "zen_mode", "1")
    os_phone.post_notification(MESSAGES, 1, None, "Bob Li", "ok", importance=4)
    assert not os_phone.heads_up_active() and len(os_phone.notification_list()) == 1


def test_dismiss_by_swipe_and_clear_all(os_phone: PhoneOS) -> None:
    for i, title in enumerate(("First", "Second", "Third")):
        os_phone.post_notification(MESSAGES, i, None, title, "body")
    os_phone.expand_shade("notifications")
    row = os_phone.frame().find(text="Second")
    assert row is not None
    y = row.bounds.center[1]
    os_phone.swipe(200, y, 1000, y, 200)
    assert [n.title for n in os_phone.notification_list()] == ["Third", "First"]
    clear = os_phone.frame().find(rid="com.android.systemui:id/dismiss_text")
    assert clear is not None and clear.text == "Clear all"
    os_phone.tap(*clear.bounds.center)
    assert os_phone.notification_list() == [] and not os_phone.shade_open()
    os_phone.expand_shade("notifications")
    assert os_phone.frame().find(text="No notifications") is not None
