"""The tamper classifier on the command lines real agent programs send over adb.

Every row of the three source tables is a line as the program's code builds it, read from the repositories
(AppAgent d951ec8, MobileAgent 11cea57, android_world d9c569f); only format placeholders are filled with
plausible values (serial emulator-5554, coordinates, package names from the same repository). AppAgent and
Mobile-Agent run the whole host line with shell=True, so their rows keep the `adb ... shell` prefix.
AndroidWorld passes an argument list to adb (`issue_generic_request(['shell', ...])`), so its rows are the
device line adb sends: the arguments after 'shell' joined with spaces; its non-shell calls keep the prefix.
The compound and edge cases further down are built by us from those rows, and say so.
"""

from __future__ import annotations

import pytest

from spa_bench.evaluation.tamper import CommandVerdict, classify_command, classify_commands

_ALL_KINDS = {"gui_input", "capture", "read", "tooling", "navigation", "state_change", "unknown"}
S = "adb -s emulator-5554"  # AppAgent: f"adb -s {self.device} ..."
ADB = "/opt/platform-tools/adb"  # Mobile-Agent: adb_path, set by the user in run.py
ADB_S = f"{ADB} -s emulator-5554 "  # Mobile-Agent-v3.5 AdbTools: adb_path + f" -s {device} " + args

AA = "mnotgod96/AppAgent scripts/and_controller.py"
APPAGENT = [
    (f"{AA} list_all_devices", "adb devices", "read"),
    (f"{AA} get_device_size", f"{S} shell wm size", "read"),
    (f"{AA} get_screenshot",
     f"{S} shell screencap -p /sdcard/task_Settings_2024-03-21_19-30-11_1.png", "capture"),
    (f"{AA} get_screenshot", f"{S} pull /sdcard/task_Settings_2024-03-21_19-30-11_1.png "
     "./tasks/task_Settings_2024-03-21_19-30-11/task_Settings_2024-03-21_19-30-11_1.png", "read"),
    (f"{AA} get_xml",
     f"{S} shell uiautomator dump /sdcard/task_Settings_2024-03-21_19-30-11_1.xml", "capture"),
    (f"{AA} get_xml",
     f"{S} pull /sdcard/1.xml ./apps/Settings/demos/self_explore_2024-03-21_19-30-11/1.xml", "read"),
    (f"{AA} back", f"{S} shell input keyevent KEYCODE_BACK", "gui_input"),
    (f"{AA} tap", f"{S} shell input tap 540 1200", "gui_input"),
    (f"{AA} text", f"{S} shell input text Turn%son%sWi-Fi", "gui_input"),
    (f"{AA} long_press", f"{S} shell input swipe 540 1200 540 1200 1000", "gui_input"),
    (f"{AA} swipe", f"{S} shell input swipe 540 1200 540 768 400", "gui_input"),
    (f"{AA} swipe_precise", f"{S} shell input swipe 100 100 900 1500 400", "gui_input"),
]

MA1 = "X-PLUG/MobileAgent Mobile-Agent-v1/MobileAgent/controller.py"
MA2 = "X-PLUG/MobileAgent Mobile-Agent-v2/MobileAgent/controller.py"
MAE = "X-PLUG/MobileAgent Mobile-Agent-E/MobileAgentE/controller.py"
MA35 = "X-PLUG/MobileAgent Mobile-Agent-v3.5/mobile_use/utils.py AdbTools"
MOBILE_AGENT = [
    (f"{MA1} get_size", f"{ADB} shell wm size", "read"),
    (f"{MA1} slide", f"{ADB} shell input swipe 540 1200 540 600 500", "gui_input"),
    # alone, without the screencap that follows it in get_screenshot, the rm deletes a file
    (f"{MA2} get_screenshot", f"{ADB} shell rm /sdcard/screenshot.png", "state_change"),
    (f"{MA2} get_screenshot", f"{ADB} shell screencap -p /sdcard/screenshot.png", "capture"),
    (f"{MA2} get_screenshot", f"{ADB} pull /sdcard/screenshot.png ./screenshot", "read"),
    (f"{MA2} tap", f"{ADB} shell input tap 540 1200", "gui_input"),
    (f"{MA2} type (space)", f"{ADB} shell input text %s", "gui_input"),
    (f"{MA2} type (newline)", f"{ADB} shell input keyevent 66", "gui_input"),
    (f"{MA2} type (letter)", f"{ADB} shell input text a", "gui_input"),
    (f"{MA2} type (punctuation)", f'{ADB} shell input text "("', "gui_input"),
    (f"{MA2} type (punctuation)", f'{ADB} shell input text ";"', "gui_input"),
    (f"{MA2} type (punctuation)", f"{ADB} shell input text \"'\"", "gui_input"),
    (f"{MA2} type (other: ADBKeyboard)",
     f'{ADB} shell am broadcast -a ADB_INPUT_TEXT --es msg "你"', "gui_input"),
    (f"{MA2} slide", f"{ADB} shell input swipe 540 1600 540 600 500", "gui_input"),
    (f"{MA2} back", f"{ADB} shell input keyevent 4", "gui_input"),
    (f"{MA2} home", f"{ADB} shell am start -a android.intent.action.MAIN -c android.intent.category.HOME",
     "navigation"),
    (f"{MAE} start_recording", f"{ADB} shell rm /sdcard/screenrecord.mp4", "state_change"),
    (f"{MAE} start_recording", f"{ADB} shell screenrecord /sdcard/screenrecord.mp4", "capture"),
    (f"{MAE} end_recording", f"{ADB} shell pkill -SIGINT screenrecord", "capture"),
    (f"{MAE} end_recording", f"{ADB} pull /sdcard/screenrecord.mp4 ./recording.mp4", "read"),
    (f"{MAE} enter", f"{ADB} shell input keyevent KEYCODE_ENTER", "gui_input"),
    (f"{MAE} home", f"{ADB} shell input keyevent KEYCODE_HOME", "gui_input"),
    (f"{MAE} switch_app", f"{ADB} shell input keyevent KEYCODE_APP_SWITCH", "gui_input"),
    # the > is the host's: the PNG goes to a host file, the device only runs screencap -p
    (f"{MA35} get_screenshot", f"{ADB} -s emulator-5554 exec-out screencap -p > ./screenshot/screenshot.png",
     "capture"),
    (f"{MA35} click", f"{ADB_S}shell input tap 540 1200", "gui_input"),
    (f"{MA35} long_press", f"{ADB_S}shell input swipe 540 1200 540 1200 800", "gui_input"),
    (f"{MA35} type", f"{ADB_S}shell ime enable com.android.adbkeyboard/.AdbIME", "gui_input"),
    (f"{MA35} type", f"{ADB_S}shell ime set com.android.adbkeyboard/.AdbIME", "gui_input"),
    (f"{MA35} type", f'{ADB_S}shell am broadcast -a ADB_INPUT_TEXT --es msg "Hello world"', "gui_input"),
    (f"{MA35} type", f"{ADB_S}shell ime disable com.android.adbkeyboard/.AdbIME", "gui_input"),
    (f"{MA35} get_package_name", f"{ADB_S}shell pm list packages -3", "read"),
    (f"{MA35} open_app", f"{ADB_S}shell monkey -p com.android.settings -c android.intent.category.LAUNCHER 1",
     "navigation"),
]

AW = "google-research/android_world android_world/env/adb_utils.py"
AWF = "google-research/android_world android_world/utils/file_utils.py"
AWO = "google-research/android_world android_world"
MMSSMS = "/data/data/com.android.providers.telephony/databases/mmssms.db"
ANDROID_WORLD = [
    (f"{AW} long_press", "input swipe 540 1200 540 1200 1000", "gui_input"),
    (f"{AW} press_keyboard_generic", "input keyevent KEYCODE_DEL", "gui_input"),
    (f"{AW} _launch_default_app", "am start -a android.intent.action.VIEW -d content://com.android.calendar",
     "navigation"),
    (f"{AW} launch_app (by package)", "monkey -p com.google.android.deskclock 1", "navigation"),
    (f"{AW} close_recents", "dumpsys activity recents", "read"),
    (f"{AW} close_recents", "am stack remove 12", "navigation"),
    (f"{AW} close_app", "am force-stop com.android.chrome", "navigation"),
    (f"{AW} generate_swipe_command (no duration)", "input swipe 540 2000 540 600 ", "gui_input"),
    (f"{AW} generate_drag_and_drop_command", "input draganddrop 540 1200 540 600 4000", "gui_input"),
    (f"{AW} get_api_level", "getprop ro.build.version.sdk", "read"),
    (f"{AW} toggle_wifi", "svc wifi disable", "state_change"),
    (f"{AW} toggle_bluetooth", "svc bluetooth enable", "state_change"),
    (f"{AW} set_brightness", "settings put system screen_brightness 255", "state_change"),
    (f"{AW} clear_app_data", "pm clear com.simplemobiletools.calendar.pro", "state_change"),
    (f"{AW} toggle_airplane_mode", "settings put global airplane_mode_on 1", "state_change"),
    (f"{AW} install_apk", "adb -s emulator-5554 install /tmp/android_world.apk", "state_change"),
    (f"{AW} check_airplane_mode", "settings get global airplane_mode_on", "read"),
    (f"{AW} get_clipboard_contents", "am broadcast -a clipper.get", "read"),
    (f"{AW} set_clipboard_contents", r"am broadcast -a clipper.set -e text Hello\ world", "state_change"),
    (f"{AW} change_orientation", "settings put system accelerometer_rotation 0", "state_change"),
    (f"{AW} change_orientation", "settings put system user_rotation 1", "state_change"),
    (f"{AW} grant_permissions", "pm grant com.dimowner.audiorecorder android.permission.RECORD_AUDIO",
     "state_change"),
    (f"{AW} execute_sql_command (sms_validators.clear_sms_and_threads)",
     f'sqlite3 {MMSSMS} "DELETE FROM sms;"',
     "state_change"),
    (f"{AW} get_call_state", "dumpsys telephony.registry", "read"),
    (f"{AW} call_emulator", "adb -s emulator-5554 emu gsm call 5551234567", "state_change"),
    (f"{AW} end_call_if_active", "input keyevent KEYCODE_ENDCALL", "gui_input"),
    (f"{AW} clear_android_emulator_call_log",
     "content delete --uri content://call_log/calls", "state_change"),
    (f"{AW} call_phone_number", "am start -a android.intent.action.CALL -d tel:5551234567", "state_change"),
    (f"{AW} text_emulator", "adb -s emulator-5554 emu sms send 5551234567 Hello", "state_change"),
    (f"{AW} set_default_app",
     "settings put secure sms_default_application com.simplemobiletools.smsmessenger",
     "state_change"),
    (f"{AW} disable_headsup_notifications", "settings put global heads_up_notifications_enabled 0",
     "state_change"),
    (f"{AW} get_all_settings", "settings list secure", "read"),
    (f"{AW} delete_contacts", "pm clear com.android.providers.contacts", "state_change"),
    (f"{AW} get_screen_size", "wm size", "read"),
    (f"{AW} get_logical_screen_size", "dumpsys input | grep logicalFrame", "read"),
    (f"{AW} get_orientation", "dumpsys window | grep mCurrentRotation", "read"),
    (f"{AW} set_screen_size", "wm size 1080x2400", "state_change"),
    (f"{AW} set_root_if_needed", "whoami", "read"),
    (f"{AW} set_root_if_needed", "adb -s emulator-5554 root", "read"),
    (f"{AW} uiautomator_dump", "uiautomator dump /sdcard/window_dump.xml", "capture"),
    (f"{AW} uiautomator_dump", "cat /sdcard/window_dump.xml", "read"),
    (f"{AWO}/env/interface.py display_message (send_android_intent)",
     'am broadcast -a com.example.ACTION_UPDATE_OVERLAY --es task_type_string "" '
     '--es goal_string "Open Clock"',
     "state_change"),
    (f"{AWO}/env/interface.py hide_automation_ui", "settings put system pointer_location 0", "state_change"),
    (f"{AWO}/env/actuation.py execute_adb_action (clear_text)",
     "input keycombination 113 29 && input keyevent 67",
     "gui_input"),
    (f"{AWO}/env/tools.py open_web_page", "am start -a android.intent.action.VIEW -d http://www.google.com",
     "navigation"),
    (f"{AWO}/env/tools.py send_sms",
     'am start -a android.intent.action.SENDTO -d sms:5551234567 --es sms_body '
     '"See you at 5"', "state_change"),  # the extras fill the message in: no tap did (issue 33)
    (f"{AWO}/utils/contacts_utils.py add_contact", "am start -a android.intent.action.INSERT -t "
     'vnd.android.cursor.dir/contact -e name "Jane Doe" -e phone 5551234567', "state_change"),
    (f"{AWO}/utils/contacts_utils.py list_contacts",
     "content query --uri content://contacts/phones/ --projection display_name:number", "read"),
    (f"{AWF} remove_single_file", "rm -r /storage/emulated/0/Download/receipt.pdf", "state_change"),
    (f"{AWF} clear_directory", "ls -1 /storage/emulated/0/Download", "read"),
    (f"{AWF} clear_directory", "rm -r /storage/emulated/0/Download/*", "state_change"),
    (f"{AWF} create_file", "echo 'k3JxQ' > /storage/emulated/0/Documents/Markor/note.md", "state_change"),
    (f"{AWF} mkdir", "mkdir -p /storage/emulated/0/Documents/Markor", "state_change"),
    (f"{AWF} copy_dir",
     "cp -a /data/data/android_world/snapshots/org.videolan.vlc/. /data/data/org.videolan.vlc/",
     "state_change"),
    (f"{AWF} check_file_or_folder_exists", "find /storage/emulated/0/Documents -type f -o -type d", "read"),
    (f"{AWF} check_file_exists", '\n  if [ -f "/sdcard/Download/receipt.pdf" ]; then\n      echo "Exists"\n  '
     'else\n      echo "Does not exist"\n  fi\n  ', "read"),
    (f"{AWF} copy_file_to_device", "chmod 777 /sdcard/Download/receipt.pdf", "state_change"),
    (f"{AWF} get_file_list_with_metadata", "ls /storage/emulated/0/Download -ll -au", "read"),
    (f"{AWO}/utils/app_snapshot.py restore_snapshot",
     "restorecon -RD /data/data/org.videolan.vlc", "state_change"),
    (f"{AWO}/utils/datetime_utils.py advance_system_time", "date", "read"),
    (f"{AWO}/utils/datetime_utils.py advance_system_time", "date 1015170423.16", "state_change"),
    (f"{AWO}/utils/datetime_utils.py _set_timezone_to_utc", "service call alarm 3 s16 UTC", "state_change"),
    (f"{AWO}/task_evals/common_validators/sms_validators.py get_sent_messages",
     "content query --uri content://sms/sent", "read"),
    (f"{AWO}/task_evals/common_validators/sms_validators.py get_android_time", "date +%s", "read"),
    (f"{AWO}/task_evals/utils/user_data_generation.py clear_internal_storage",
     "find /storage/emulated/0/ -mindepth 1 -type f -delete", "state_change"),
    (f"{AWO}/task_evals/utils/user_data_generation.py _clear_external_downloads",
     "content delete --uri content://media/external/downloads", "state_change"),
    (f"{AWO}/task_evals/single/osmand.py _clear_tracks",
     "rm -rf /storage/emulated/0/Android/data/net.osmand/files/tracks/*",
     "state_change"),
    (f"{AWO}/task_evals/single/system.py _SystemBrightnessToggle.is_successful",
     "settings get system screen_brightness", "read"),
    (f"{AWO}/env/setup_device/apps.py AndroidWorldApp.setup",
     "appops set com.example.androidworld android:system_alert_window allow",
     "state_change"),
    (f"{AWO}/env/setup_device/apps.py AudioRecorder.setup",
     "monkey -p com.dimowner.audiorecorder -candroid.intent.category.LAUNCHER 1",
     "navigation"),
    (f"{AWO}/env/setup_device/apps.py OsmAndApp.setup", "chcon u:object_r:media_rw_data_file:s0 "
     "/storage/emulated/0/Android/data/net.osmand/files/Liechtenstein_europe.obf", "state_change"),
]

# openatx/uiautomator2 (the installed package, uiautomator2/core.py and _input.py): what its connect and
# its text input send, so an agent driving the phone with uiautomator2 is not taken for a tamperer
U2 = "openatx/uiautomator2 uiautomator2/core.py"
U2I = "openatx/uiautomator2 uiautomator2/_input.py"  # its _broadcast: am broadcast -a ACTION --es KEY V
UIAUTOMATOR2 = [
    (f"{U2} _check_device_file_hash", "toybox md5sum /data/local/tmp/u2.jar", "read"),
    (f"{U2} launch_uiautomator",
     "CLASSPATH=/data/local/tmp/u2.jar app_process / com.wetest.uia2.Main -p 9008", "tooling"),
    ("openatx/uiautomator2 uiautomator2/_input.py set_input_ime",
     "ime enable com.github.uiautomator/.AdbKeyboard", "gui_input"),
    (f"{U2I} set_input_ime", "ime set com.github.uiautomator/.AdbKeyboard", "gui_input"),
    (f"{U2I} send_keys", "am broadcast -a ADB_KEYBOARD_INPUT_TEXT --es text 5L2g5aW9", "gui_input"),
    (f"{U2I} send_keys", "am broadcast -a ADB_KEYBOARD_HIDE", "gui_input"),
    (f"{U2I} clear_text", "am broadcast -a ADB_KEYBOARD_CLEAR_TEXT", "gui_input"),
    (f"{U2I} send_action", "am broadcast -a ADB_KEYBOARD_EDITOR_CODE --es code 3", "gui_input"),
    (f"{U2I} clipboard", "am broadcast -a ADB_KEYBOARD_GET_CLIPBOARD", "read"),
    # the same action sent to another app's receiver runs that app's code
    (f"{U2I} (retargeted)", "am broadcast -a ADB_KEYBOARD_SET_TEXT -n com.other/.X --es text x",
     "state_change"),
]

ROWS = APPAGENT + MOBILE_AGENT + ANDROID_WORLD + UIAUTOMATOR2


@pytest.mark.parametrize(("source", "command", "kind"), ROWS,
                         ids=[f"{source} {i}" for i, (source, _, _) in enumerate(ROWS)])
def test_real_agent_command_lines(source: str, command: str, kind: str) -> None:
    verdict = classify_command(command)
    assert (verdict.kind, verdict.command) == (kind, command), verdict.reason
    assert verdict.changes_state == (kind in ("state_change", "unknown"))
    assert verdict.reason and "\n" not in verdict.reason


def test_the_agents_own_tools_in_data_local_tmp_are_tooling_and_nothing_else_is() -> None:
    assert classify_command("rm /data/local/tmp/u2.jar").kind == "tooling"
    assert classify_command("chmod 755 /data/local/tmp/minicap").kind == "tooling"
    assert classify_command("rm /data/local/tmp/../data/com.android.providers.settings/databases/settings.db"
                            ).changes_state
    assert classify_command("CLASSPATH=/sdcard/evil.jar app_process / Evil").changes_state
    assert classify_command("app_process / com.example.Main").changes_state
    assert classify_command("rm /data/local/tmp/u2.jar /sdcard/DCIM/photo.jpg").changes_state


def test_the_real_rows_cover_every_kind_but_unknown() -> None:
    assert {kind for _, _, kind in ROWS} == _ALL_KINDS - {"unknown"}
    assert (len(APPAGENT), len(MOBILE_AGENT)) >= (12, 30) and len(ANDROID_WORLD) >= 60


def test_reasons_name_the_program_and_sub_command_that_decided() -> None:
    reason = classify_command("settings put global airplane_mode_on 1").reason
    assert reason == "settings put: writes a setting"
    assert classify_command(f"{ADB} shell pkill -SIGINT screenrecord").reason.startswith("pkill screenrecord")
    typed = classify_command(f'{ADB} shell am broadcast -a ADB_INPUT_TEXT --es msg "你"')
    assert "ADB_INPUT_TEXT" in typed.reason
    assert "ADBKeyboard" in classify_command(f"{ADB_S}shell ime set com.android.adbkeyboard/.AdbIME").reason
    assert "CALL" in classify_command("am start -a android.intent.action.CALL -d tel:5551234567").reason


# ---- the own-capture rule, on the sequences the programs send ------------------------------------------

def test_mobile_agent_screenshots_remove_only_their_own_capture() -> None:
    # Mobile-Agent-v2 controller.py: get_screenshot, tap, get_screenshot (rm first, then screencap and pull)
    step = [f"{ADB} shell rm /sdcard/screenshot.png", f"{ADB} shell screencap -p /sdcard/screenshot.png",
            f"{ADB} pull /sdcard/screenshot.png ./screenshot"]
    verdicts = classify_commands([*step, f"{ADB} shell input tap 540 1200", *step])
    assert [v.kind for v in verdicts] == [
        "capture", "capture", "read", "gui_input", "capture", "capture", "read"]
    assert verdicts[0].reason == "rm: clears the path of its own capture"
    assert verdicts[4].reason == "rm: removes its own capture"
    assert not any(v.changes_state for v in verdicts)


def test_mobile_agent_e_screenshot_and_recording_sequences_are_captures() -> None:
    # Mobile-Agent-E controller.py: save_screenshot_to_file, then start_recording and end_recording
    verdicts = classify_commands([
        f"{ADB} shell rm /sdcard/screenshot.png", f"{ADB} shell screencap -p /sdcard/screenshot.png",
        f"{ADB} pull /sdcard/screenshot.png screenshot.png", f"{ADB} shell rm /sdcard/screenshot.png",
        f"{ADB} shell rm /sdcard/screenrecord.mp4", f"{ADB} shell screenrecord /sdcard/screenrecord.mp4",
        f"{ADB} shell pkill -SIGINT screenrecord", f"{ADB} pull /sdcard/screenrecord.mp4 out.mp4"])
    assert [v.kind for v in verdicts] == [
        "capture", "capture", "read", "capture", "capture", "capture", "capture", "read"]
    assert not any(v.changes_state for v in verdicts)


def test_removing_anything_but_its_own_capture_is_a_change() -> None:
    # built from Mobile-Agent-v2 get_screenshot and AndroidWorld file_utils.remove_single_file
    capture = f"{ADB} shell screencap -p /sdcard/screenshot.png"
    near_misses = [f"{ADB} shell rm /storage/emulated/0/Download/receipt.pdf",
                   f"{ADB} shell rm /sdcard/screenshot.png /sdcard/DCIM/photo.jpg",
                   f"{ADB} shell rm /sdcard/*.png"]
    for line in near_misses:
        assert classify_commands([capture, line])[1].kind == "state_change", line
    # the same file under another name of the shared storage is still its own capture
    assert classify_commands([capture, "rm /storage/emulated/0/screenshot.png"])[1].kind == "capture"
    # and in one line, capture then removal
    assert classify_command("screencap -p /sdcard/s.png && rm /sdcard/s.png").kind == "capture"


def test_a_capture_over_a_user_file_is_a_change_and_so_is_its_removal() -> None:
    # Mobile-Agent's screencap -p /sdcard/screenshot.png, aimed at AndroidWorld's task files instead
    for path in ("/sdcard/Download/receipt.pdf", "/storage/emulated/0/Documents/Markor/note.md",
                 "/data/data/com.android.providers.telephony/databases/mmssms.db"):
        verdicts = classify_commands([f"screencap -p {path}", f"rm {path}"])
        assert [v.kind for v in verdicts] == ["state_change", "state_change"], path
    assert classify_command("uiautomator dump /data/local/tmp/window.xml").kind == "capture"


# ---- compound lines, built by us from the real rows above ------------------------------------------------

@pytest.mark.parametrize(("command", "kind"), [
    (f"su 0 sh -c 'sqlite3 {MMSSMS} \"DELETE FROM sms;\"'", "state_change"),
    ("su -c 'settings get global airplane_mode_on'", "read"),
    ("su 0 am start -a android.intent.action.MAIN -c android.intent.category.HOME", "navigation"),
    ("su root settings put global airplane_mode_on 1", "state_change"),
    ("sh -c 'uiautomator dump /sdcard/window_dump.xml && cat /sdcard/window_dump.xml'", "capture"),
    ("dumpsys window | grep mCurrentRotation; settings put system user_rotation 1", "state_change"),
    ("am force-stop com.android.chrome || true", "navigation"),
    ("(cd /storage/emulated/0 && rm -r Download/*)", "state_change"),
    ("run-as org.videolan.vlc cat app_db/vlc_media.db", "read"),
    ("run-as org.videolan.vlc rm app_db/vlc_media.db", "state_change"),
    ("settings get global airplane_mode_on > /sdcard/airplane.txt", "state_change"),
    ("settings get global airplane_mode_on 2>/dev/null", "read"),
    ("settings get global airplane_mode_on >> /dev/null 2>&1", "read"),
    ("echo 'k3JxQ' | tee /storage/emulated/0/Documents/Markor/note.md", "state_change"),
    # quoted operators are text to type, not commands; a substitution runs, and is classified
    ('am broadcast -a ADB_INPUT_TEXT --es msg "a; rm -rf /sdcard & reboot"', "gui_input"),
    ('input text "$(settings put global airplane_mode_on 1)"', "state_change"),
    ("input text '$(settings put global airplane_mode_on 1)'", "gui_input"),
    # no SQL on the command line: statements come from stdin, unseen
    (f"sqlite3 {MMSSMS}", "unknown"),
    # Mobile-Agent-v3 harmonyos_controller.py tap, as if sent to an Android shell: a program not known here
    ("uitest uiInput click 540 1200", "unknown"),
    ("sh /data/local/tmp/setup.sh", "unknown"),
    ("eval " * 500 + "settings get global airplane_mode_on", "unknown"),  # deeper than is read: a change
    ("", "state_change"),  # an interactive shell: see the test below
    ("   \n ", "state_change"),
])
def test_compound_lines(command: str, kind: str) -> None:
    verdict = classify_command(command)
    assert verdict.kind == kind, verdict.reason
    assert verdict.changes_state == (kind in ("state_change", "unknown"))


def test_an_empty_line_is_an_interactive_shell_whose_commands_are_not_seen() -> None:
    # the device opened `adb shell` with no command: what was typed or piped into it is not in the record
    reason = "an interactive shell: its commands are not seen"
    assert classify_command("  ") == CommandVerdict("  ", "state_change", True, reason)
    assert classify_command("") == CommandVerdict("", "state_change", True, reason)
    for host_line in ("adb shell", "adb -s emulator-5554 shell -T", "adb shell < cmds.txt"):
        verdict = classify_command(host_line)
        assert verdict.changes_state and "interactive shell" in verdict.reason, (host_line, verdict)
    assert classify_command("echo 'settings put global x 1' | adb shell").changes_state
    assert not classify_command("adb shell true").changes_state


def test_the_adb_prefix_is_stripped_and_the_device_line_classified() -> None:
    device_line = "settings put global airplane_mode_on 1"  # AndroidWorld toggle_airplane_mode
    expected = classify_command(device_line)
    for prefix in ("adb -s emulator-5554 shell", "adb -s emulator-5554 -P 5037 shell", f"{ADB} shell",
                   "adb shell", "adb -e shell"):
        verdict = classify_command(f"{prefix} {device_line}")
        assert (verdict.kind, verdict.reason) == (expected.kind, expected.reason), prefix
    # quoted for the host, the redirection reaches the device; unquoted, it writes a host file
    assert classify_command('adb -s emulator-5554 shell "wm size > /sdcard/size.txt"').kind == "state_change"
    assert classify_command("adb -s emulator-5554 shell wm size > size.txt").kind == "read"


@pytest.mark.parametrize(("command", "kind"), [
    (f'sqlite3 {MMSSMS} "SELECT address, body FROM sms;"', "read"),
    (f"sqlite3 {MMSSMS} \"SELECT body FROM sms WHERE body = 'DELETE FROM sms';\"", "read"),
    (f"sqlite3 {MMSSMS} \"SELECT replace(body, 'a', 'b') FROM sms\"", "read"),
    (f'sqlite3 {MMSSMS} "PRAGMA table_info(sms)"', "read"),
    (f"sqlite3 {MMSSMS} .tables", "read"),
    (f'sqlite3 {MMSSMS} ".schema sms"', "read"),
    (f"sqlite3 {MMSSMS} .dump", "read"),
    (f'sqlite3 {MMSSMS} "SELECT * FROM sms; DELETE FROM threads;"', "state_change"),
    (f"sqlite3 {MMSSMS} \"UPDATE sms SET read = 1\"", "state_change"),
    (f"sqlite3 {MMSSMS} \"INSERT INTO sms (address, body) VALUES ('5551234567', 'hi')\"", "state_change"),
    (f"sqlite3 {MMSSMS} \"REPLACE INTO threads (_id) VALUES (1)\"", "state_change"),
    (f'sqlite3 {MMSSMS} "PRAGMA user_version = 3"', "state_change"),
    (f'sqlite3 {MMSSMS} "VACUUM"', "state_change"),
    (f'sqlite3 {MMSSMS} ".restore /sdcard/backup.db"', "state_change"),
    (f'sqlite3 {MMSSMS} ".import /sdcard/sms.csv sms"', "state_change"),
])
def test_sqlite3_reads_are_told_from_writes(command: str, kind: str) -> None:
    # the database of AndroidWorld sms_validators.clear_sms_and_threads; the SQL is ours
    assert classify_command(command).kind == kind


@pytest.mark.parametrize(("command", "kind"), [
    ("dumpsys battery", "read"), ("dumpsys battery set level 5", "state_change"),
    ("dumpsys battery unplug", "state_change"), ("dumpsys deviceidle", "read"),
    ("dumpsys deviceidle force-idle", "state_change"), ("date -s 20240101.120000", "state_change"),
    ("wm density", "read"), ("wm density 320", "state_change"), ("wm size reset", "state_change"),
    ("cmd statusbar expand-notifications", "navigation"), ("cmd statusbar collapse", "navigation"),
    ("cmd wifi set-wifi-enabled disabled", "state_change"), ("cmd package list packages", "read"),
    ("cmd package uninstall com.android.chrome", "state_change"), ("logcat -d", "read"),
    ("logcat -c", "state_change"), ("am startservice -n com.example/.Service", "state_change"),
    ("am broadcast -a ADB_INPUT_B64 --es msg SGVsbG8=", "gui_input"),
    ("am broadcast -a ADB_INPUT_TEXT -n com.android.adbkeyboard/.AdbReceiver --es msg hi", "gui_input"),
    ("am broadcast -a ADB_INPUT_TEXT -n com.example.androidworld/.Receiver --es msg hi", "state_change"),
    ("am broadcast -a ADB_CLEAR_TEXT", "gui_input"), ("setprop persist.sys.timezone UTC", "state_change"),
    ("content insert --uri content://settings/system --bind name:s:x --bind value:s:1", "state_change"),
])
def test_near_misses_of_the_same_program(command: str, kind: str) -> None:
    assert classify_command(command).kind == kind
