"""Call every public function of AndroidWorld's android_world/env/adb_utils.py against one device.

Run by scripts/peer-suites in a separate interpreter that has android_env 1.2.3 (its pins clash with
ours) and with an android_world checkout on PYTHONPATH:

    python peer_androidworld_adb_utils.py --adb ADB --adb-server-port P --serial emulator-5556 \
        --apk some.apk --json out.json

The calls go as AndroidWorld makes them: through android_env's AdbCallParser over an AdbController
(the real `adb` binary, android_env's own retries and server restarts). A call is ok when it returns
without raising and, for an AdbResponse, with status OK. Some functions are called twice (on and off,
landscape and portrait) so the device is left as found. The arguments name apps the virtual phone has
where AndroidWorld names Google's (the call itself is AndroidWorld's); Clipper (the clipboard calls)
and Google's deskclock are apps the phone does not have, and stay in the list as AndroidWorld calls them.
This is our measuring code, not part of spa-bench's test suite.
"""

from __future__ import annotations

import argparse
import json
import traceback
from collections.abc import Callable
from typing import Any

from android_env.components import adb_call_parser, adb_controller, config_classes
from android_env.proto import adb_pb2
from android_world.env import adb_utils


class AdbEnv:
    """The one method adb_utils needs of an AndroidEnv: execute_adb_call."""

    def __init__(self, parser: adb_call_parser.AdbCallParser) -> None:
        self._parser = parser

    def execute_adb_call(self, request: adb_pb2.AdbRequest) -> adb_pb2.AdbResponse:
        return self._parser.parse(request)


def calls(env: AdbEnv, apk: str) -> list[tuple[str, Callable[[], Any]]]:
    """(label, thunk) for each call, in an order that leaves the phone as it was where it can."""
    a = adb_utils
    settings = adb_pb2.AdbRequest.SettingsRequest.Namespace
    contacts_db = "/data/data/com.android.providers.contacts/databases/contacts2.db"
    return [
        ("check_ok", lambda: a.check_ok(adb_pb2.AdbResponse(status=adb_pb2.AdbResponse.Status.OK))),
        ("extract_package_name", lambda: a.extract_package_name("com.android.settings/.Settings")),
        ("get_adb_activity", lambda: a.get_adb_activity("settings")),
        ("generate_swipe_command", lambda: a.generate_swipe_command(100, 200, 300, 400, 500)),
        ("generate_drag_and_drop_command", lambda: a.generate_drag_and_drop_command(100, 200, 300, 400)),
        ("extract_broadcast_data",
         lambda: a.extract_broadcast_data('Broadcast completed: result=-1, data="x"')),
        ("retry", lambda: a.retry(2)(lambda: 1)()),
        ("set_root_if_needed", lambda: a.set_root_if_needed(env)),
        ("get_api_level", lambda: a.get_api_level(env)),
        ("issue_generic_request", lambda: a.issue_generic_request("shell echo hello", env)),
        ("get_current_activity", lambda: a.get_current_activity(env)),
        ("start_activity", lambda: a.start_activity("com.android.settings/.Settings", None, env)),
        ("tap_screen", lambda: a.tap_screen(540, 1200, env)),
        ("double_tap", lambda: a.double_tap(540, 1200, env)),
        ("long_press", lambda: a.long_press(540, 1200, env)),
        ("press_back_button", lambda: a.press_back_button(env)),
        ("press_home_button", lambda: a.press_home_button(env)),
        ("press_enter_button", lambda: a.press_enter_button(env)),
        ("press_keyboard_generic", lambda: a.press_keyboard_generic("KEYCODE_A", env)),
        ("type_text", lambda: a.type_text("hello world\nsecond line", env)),
        ("get_all_package_names", lambda: a.get_all_package_names(env)),
        ("get_all_apps", lambda: a.get_all_apps(env)),
        ("launch_app settings", lambda: a.launch_app("settings", env)),
        ("launch_app contacts", lambda: a.launch_app("contacts", env)),
        ("launch_app clock", lambda: a.launch_app("clock", env)),
        ("launch_app camera", lambda: a.launch_app("camera", env)),
        ("close_app settings", lambda: a.close_app("settings", env)),
        ("close_recents", lambda: a.close_recents(env)),
        ("send_android_intent start", lambda: a.send_android_intent(
            "start", "android.intent.action.VIEW", env, data_uri="https://example.com")),
        ("send_android_intent broadcast", lambda: a.send_android_intent(
            "broadcast", "android.intent.action.AIRPLANE_MODE", env, extras={"state": "false"})),
        ("toggle_wifi off", lambda: a.toggle_wifi(env, "off")),
        ("toggle_wifi on", lambda: a.toggle_wifi(env, "on")),
        ("toggle_bluetooth on", lambda: a.toggle_bluetooth(env, "on")),
        ("toggle_bluetooth off", lambda: a.toggle_bluetooth(env, "off")),
        ("set_brightness max", lambda: a.set_brightness("max", env)),
        ("set_brightness min", lambda: a.set_brightness("min", env)),
        ("toggle_airplane_mode on", lambda: a.toggle_airplane_mode("on", env)),
        ("check_airplane_mode", lambda: a.check_airplane_mode(env)),
        ("toggle_airplane_mode off", lambda: a.toggle_airplane_mode("off", env)),
        ("clear_app_data", lambda: a.clear_app_data("com.android.providers.contacts", env)),
        ("install_apk", lambda: a.install_apk(apk, env)),
        ("set_clipboard_contents", lambda: a.set_clipboard_contents("clip text", env)),
        ("get_clipboard_contents", lambda: a.get_clipboard_contents(env)),
        ("change_orientation landscape", lambda: a.change_orientation("landscape", env)),
        ("get_orientation", lambda: a.get_orientation(env)),
        ("change_orientation portrait", lambda: a.change_orientation("portrait", env)),
        ("grant_permissions", lambda: a.grant_permissions(
            "com.android.contacts", "android.permission.READ_CONTACTS", env)),
        ("execute_sql_command", lambda: a.execute_sql_command(
            contacts_db, "SELECT count(*) FROM raw_contacts;", env)),
        ("get_call_state", lambda: a.get_call_state(env)),
        ("call_emulator", lambda: a.call_emulator(env, "5551234")),
        ("end_call_if_active (incoming)", lambda: a.end_call_if_active(env)),
        ("call_phone_number", lambda: a.call_phone_number(env, "5551234")),
        ("end_call_if_active (outgoing)", lambda: a.end_call_if_active(env)),
        ("clear_android_emulator_call_log", lambda: a.clear_android_emulator_call_log(env)),
        ("text_emulator", lambda: a.text_emulator(env, "5551234", "hello from the emulator")),
        ("set_default_app", lambda: a.set_default_app(
            "sms_default_application", "com.android.messaging", env)),
        ("disable_headsup_notifications", lambda: a.disable_headsup_notifications(env)),
        ("enable_headsup_notifications", lambda: a.enable_headsup_notifications(env)),
        ("put_settings", lambda: a.put_settings(settings.SYSTEM, "screen_off_timeout", "600000", env)),
        ("get_all_settings", lambda: a.get_all_settings(env)),
        ("delete_contacts", lambda: a.delete_contacts(env)),
        ("get_screen_size", lambda: a.get_screen_size(env)),
        ("get_logical_screen_size", lambda: a.get_logical_screen_size(env)),
        ("get_physical_frame_boundary", lambda: a.get_physical_frame_boundary(env)),
        ("set_screen_size", lambda: a.set_screen_size(1080, 2400, env)),
        ("uiautomator_dump", lambda: a.uiautomator_dump(env)),
    ]


def failure_of(value: Any) -> str | None:
    """An AdbResponse (or a tuple holding one) whose status is not OK is a failed call."""
    responses = [v for v in (value if isinstance(value, tuple) else (value,))
                 if isinstance(v, adb_pb2.AdbResponse)]
    for response in responses:
        if response.status != adb_pb2.AdbResponse.Status.OK:
            status = adb_pb2.AdbResponse.Status.Name(response.status)
            return f"{status}: {response.error_message.strip()[:160]}"
    return None


def describe(exc: BaseException) -> str:
    """One line: for a failed adb command, the command and the last line the device printed."""
    cause = exc.__cause__
    output = getattr(cause, "stdout", None) or getattr(cause, "output", None)
    command = getattr(cause, "cmd", None)
    if isinstance(output, bytes) and isinstance(command, list):
        lines = [line for line in output.decode("utf-8", "replace").splitlines() if line.strip()]
        shown = " ".join(str(part) for part in command[3:])  # past `adb -P PORT`
        return f"`adb {shown}` printed: {lines[-1] if lines else '(nothing)'}"[:240]
    return f"{type(exc).__name__}: {' '.join(str(exc).split())}"[:240]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--adb", required=True)
    parser.add_argument("--adb-server-port", type=int, required=True)
    parser.add_argument("--serial", required=True)
    parser.add_argument("--apk", required=True)
    parser.add_argument("--json", required=True)
    args = parser.parse_args()

    controller = adb_controller.AdbController(config_classes.AdbControllerConfig(
        adb_path=args.adb, adb_server_port=args.adb_server_port, device_name=args.serial, default_timeout=60))
    controller.init_server()
    env = AdbEnv(adb_call_parser.AdbCallParser(controller))
    public = {name for name in dir(adb_utils)
              if not name.startswith("_") and callable(getattr(adb_utils, name))
              and getattr(getattr(adb_utils, name), "__module__", "") == adb_utils.__name__}
    plan = calls(env, args.apk)
    covered = {label.split()[0] for label, _ in plan}
    missing = sorted(public - covered)
    results = []
    for label, thunk in plan:
        try:
            error = failure_of(thunk())
        except Exception as exc:  # a call's exception is its result: record it and go on
            error = describe(exc)
            traceback.print_exc()
        print("ok   " + label if error is None else f"FAIL {label}: {error}", flush=True)
        results.append({"call": label, "ok": error is None, "error": error or ""})
    for name in missing:  # a function added upstream that this driver does not call yet counts as failed
        results.append({"call": name, "ok": False, "error": "not called by this driver (new upstream?)"})
    with open(args.json, "w") as out:
        json.dump(results, out, indent=1)


if __name__ == "__main__":
    main()
