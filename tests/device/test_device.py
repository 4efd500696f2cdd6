"""Device on a ScriptedTransport: what it sends and how it reads real devices' answers, with no phone."""

from __future__ import annotations

import android_captures
import pytest
from android_captures import FakeAndroid, capture, getprop, screenshot

from spa_bench.actions import Key, LongPress, Scroll, Selector, Swipe, Tap, TypeText
from spa_bench.device.device import OBSERVE_COMMAND, Device, InvalidAction
from spa_bench.device.elements import parse_hierarchy
from spa_bench.device.observation import parse_focus, png_length, split_observation
from spa_bench.device.transport import Request, Response, ScriptedTransport
from spa_bench.errors import DeviceCommandFailed, DeviceOffline


@pytest.fixture
def vivo_home() -> FakeAndroid:
    return android_captures.vivo_home()

def device_on(phone: FakeAndroid) -> tuple[Device, ScriptedTransport]:
    transport = ScriptedTransport(phone)
    return Device(phone.serial, transport=transport, console_port=5554), transport


def test_observe_is_one_shell_command_read_apart(vivo_home: FakeAndroid) -> None:
    device, transport = device_on(vivo_home)
    device.info()
    before = len(transport.requests)
    obs = device.observe()
    assert transport.commands()[before:] == [OBSERVE_COMMAND]
    assert obs.screenshot_png == vivo_home.png
    assert obs.hierarchy_xml == vivo_home.dump.read_text(encoding="utf-8")
    assert len(obs.all_elements) == len(parse_hierarchy(obs.hierarchy_xml)) > 20
    # the Android 13 capture: the focused window is the notification shade (no activity), so the
    # focused app's activity is reported, with its short name expanded
    assert (obs.package, obs.activity) == ("com.mediatek.camera", "com.mediatek.camera.CameraLauncher")
    assert obs.keyboard_shown is False  # "mInputShown=false"
    assert (obs.width, obs.height) == (1080, 2400)


@pytest.mark.parametrize(("capture_file", "expected"), [
    ("shell/dumpsys_window/csdndocs_androidL_mCurrentFocus_mFocusedApp.txt",
     ("com.tct.launcher", "com.tct.launcher.Launcher")),
    ("shell/dumpsys_window/appium_issue5181_2015_mCurrentFocus_lines.txt",  # mCurrentFocus=null first
     ("com.lookout.enterprise", "com.lookout.enterprise.ui.android.activity.StartActivity")),
    ("shell/dumpsys_window/cryptoloot_dumpsys_window_windows.txt", (None, None)),  # no focus lines
])
def test_focus_lines_of_real_devices(capture_file: str, expected: tuple[str | None, str | None]) -> None:
    package, activity, keyboard = parse_focus(capture(capture_file).read_text(encoding="utf-8"))
    assert (package, activity) == expected and keyboard is False


def test_info_from_getprop_and_wm_size_of_real_devices(vivo_home: FakeAndroid) -> None:
    vivo_home.wm_size = capture("shell/wm/samsung_s24_wm_size.txt").read_text(encoding="utf-8")
    device, transport = device_on(vivo_home)
    info = device.info()
    assert info.model_dump(exclude_none=True) == {
        "serial": "R58M123ABC", "kind": "physical", "model": "motorola edge 20", "android_release": "13",
        "sdk": 33, "screen_width": 1440, "screen_height": 3120, "locale": "pt-BR"}
    assert device.info() is info and len(transport.requests) == 1  # asked once


def test_getprop_of_an_emulator_says_emulator(vivo_home: FakeAndroid) -> None:
    props = getprop(capture("shell/getprop/mtk_tb8168_android13_bugreport_getprop.txt"))
    vivo_home.props = {**props, "ro.kernel.qemu": "1"}
    device, _ = device_on(vivo_home)
    assert device.info().kind == "emulator"


def test_observe_errors_name_what_failed(vivo_home: FakeAndroid) -> None:
    device, _ = device_on(vivo_home)
    vivo_home.png = b"/system/bin/sh: screencap: inaccessible or not found\n"
    with pytest.raises(DeviceCommandFailed, match="screencap returned no PNG"):
        device.observe()
    with pytest.raises(ValueError, match="no PNG"):
        png_length(b"")
    whole = screenshot(10, 10)
    with pytest.raises(ValueError, match="cut short"):
        png_length(whole[:-5])
    with pytest.raises(ValueError, match="uiautomator dump failed"):
        split_observation(whole + b"ERROR: could not get idle state.\n")
    assert split_observation(whole + b"<hierarchy rotation=\"0\"></hierarchy>\nrest") == \
        (whole, "<hierarchy rotation=\"0\"></hierarchy>", "\nrest")


def test_gestures_are_executed_as_resolved(vivo_home: FakeAndroid) -> None:
    device, _ = device_on(vivo_home)
    obs = device.observe()
    icon = next(e for e in obs.elements if e.text == "微信")
    tap = device.execute(Tap(selector=Selector(text="微信")), obs)
    assert tap is not None and tap.points == (icon.center,) and tap.target == icon.bounds
    press = device.execute(LongPress(element=icon.index, duration_ms=800), obs)
    assert press is not None and press.points == (icon.center,) and press.duration_ms == 800
    scroll = device.execute(Scroll(direction="down"), obs)  # the middle half of the screen, finger up
    assert scroll is not None and scroll.points == ((540, 1650), (540, 750)) and scroll.duration_ms == 400
    swipe = device.execute(Swipe(x1=1, y1=2, x2=3, y2=4, duration_ms=50), obs)
    assert swipe is not None and swipe.points == ((1, 2), (3, 4))
    assert device.execute(Key(key="back"), obs) is None
    (x, y), ((sx1, sy1), (sx2, sy2)) = icon.center, scroll.points
    assert vivo_home.inputs == [f"input tap {x} {y}", f"input swipe {x} {y} {x} {y} 800",
                                f"input swipe {sx1} {sy1} {sx2} {sy2} 400", "input swipe 1 2 3 4 50",
                                "input keyevent 4"]


def test_typing_into_a_focused_field_does_not_tap_it(vivo_home: FakeAndroid) -> None:
    vivo_home.dump = capture("uiautomator_dump/firefox_en_720x1557.xml")
    device, _ = device_on(vivo_home)
    obs = device.observe()
    field = next(e for e in obs.elements if e.editable)
    assert field.focused  # Firefox's address bar has focus in this capture
    gesture = device.execute(TypeText(element=field.index, text="spa bench", enter=True), obs)
    assert gesture is not None and gesture.kind == "type" and gesture.points == ()
    assert gesture.target == field.bounds
    assert vivo_home.inputs == ["input text spa%sbench", "input keyevent 66"]


def test_actions_that_make_no_sense_here_are_invalid(vivo_home: FakeAndroid) -> None:
    device, _ = device_on(vivo_home)
    obs = device.observe()
    with pytest.raises(InvalidAction, match="no element 999"):
        device.execute(Tap(element=999), obs)
    with pytest.raises(InvalidAction, match="outside the 1080x2400 screen"):
        device.execute(Tap(x=1080, y=5), obs)
    with pytest.raises(InvalidAction, match="no element matches"):
        device.execute(Tap(selector=Selector(text="no such app")), obs)
    assert vivo_home.inputs == []


def test_exit_codes_and_failures_of_the_transport() -> None:
    def handler(request: Request) -> Response:
        if request.command == "pm clear com.example":
            return Response(stdout=b"Failed\n", exit_code=1)
        raise DeviceOffline("device 'R58M' not found", request.serial)

    device = Device("R58M", transport=ScriptedTransport(handler))
    assert device.run("pm clear com.example").exit_code == 1
    with pytest.raises(DeviceCommandFailed, match="exited 1: Failed"):
        device.check("pm clear com.example")
    with pytest.raises(DeviceOffline, match="not found"):
        device.observe()


def test_snapshots_go_to_the_console_and_devices_to_the_server(vivo_home: FakeAndroid) -> None:
    device, transport = device_on(vivo_home)
    device.load_snapshot("spa-bench-base-en")
    device.wait_online()
    assert [(r.service, r.command, r.port) for r in transport.requests] == [
        ("console", "spa snapshot id spa-bench-base-en", 5554),  # not saved over (test_snapshot_guard)
        ("console", "avd snapshot load spa-bench-base-en", 5554), ("host", "devices", None)]
    with pytest.raises(DeviceCommandFailed, match="needs an emulator console"):
        Device("R58M", transport=transport).load_snapshot("x")


# adbd's own answers to the `root:` service (AOSP packages/modules/adb/daemon/restart_service.cpp).
@pytest.mark.parametrize(("reply", "rooted"), [
    ("restarting adbd as root\n", True),
    ("adbd is already running as root\n", True),
    ("adbd cannot run as root in production builds\n", False),
])
def test_become_root_waits_for_adbd_to_restart(reply: str, rooted: bool) -> None:
    # After "restarting", the old connection still answers for a moment, then the device is offline
    # while the adb server reconnects, then adbd is back as root.
    answers: list[str | None] = ["", "", None, None, "0\n"]

    def handler(request: Request) -> str:
        if request.service == "service":
            assert request.command == "root:"
            return reply
        answer = answers.pop(0)
        if answer is None:
            raise DeviceOffline("device offline", "emulator-5554")
        return answer

    transport = ScriptedTransport(handler)
    device = Device("emulator-5554", transport=transport)
    assert device.become_root(timeout=5) is rooted
    assert transport.requests[0].service == "service"
    if reply.startswith("restarting"):
        # polled until it went away (the third `true`), then until it answered as uid 0
        assert transport.commands() == ["true", "true", "true", "id -u", "id -u"]
    else:
        assert transport.commands() == []


# -- snapshot resets: the console, found or named --------------------------------------------------------
def test_a_phone_over_tcp_has_no_console_and_a_reset_names_the_fix(vivo_home: FakeAndroid) -> None:
    vivo_home.serial = "192.168.1.20:5555"  # a retail phone after `adb tcpip`: ro.kernel.qemu is not set
    device = Device(vivo_home.serial, transport=ScriptedTransport(vivo_home))
    assert device.find_console() is None
    with pytest.raises(DeviceCommandFailed, match=r"--device 192\.168\.1\.20:5555=CONSOLE_PORT.*pm_clear"):
        device.load_snapshot("spa-bench-base-en")


def test_an_emulator_on_loopback_has_its_console_one_port_below(vivo_home: FakeAndroid) -> None:
    vivo_home.serial = "127.0.0.1:6001"
    vivo_home.props["ro.kernel.qemu"] = "1"  # as an emulator image reports itself
    transport = ScriptedTransport(vivo_home)
    device = Device(vivo_home.serial, transport=transport)
    assert device.find_console() == 6000
    device.load_snapshot("spa-bench-base-en")
    assert [(r.port, r.command) for r in transport.requests if r.service == "console"] == [
        (6000, "avd name"), (6000, "spa snapshot id spa-bench-base-en"),
        (6000, "avd snapshot load spa-bench-base-en")]


def test_a_console_that_does_not_answer_is_not_taken(vivo_home: FakeAndroid) -> None:
    vivo_home.serial = "127.0.0.1:6001"
    vivo_home.props["ro.kernel.qemu"] = "1"

    def handler(request: Request) -> Response:
        if request.service == "console":
            raise DeviceOffline("console 127.0.0.1:6000: Connection refused", vivo_home.serial)
        return vivo_home(request)

    assert Device(vivo_home.serial, transport=ScriptedTransport(handler)).find_console() is None


def test_a_run_on_devices_without_console_is_refused_before_any_episode(vivo_home: FakeAndroid) -> None:
    from spa_bench.errors import ConfigError
    from spa_bench.runner.preflight import check_resets
    from spa_bench.tasks.repository import TaskFilter, TaskRepository, default_tasks_root

    repo = TaskRepository(default_tasks_root())
    tasks = repo.load(repo.select(TaskFilter(suites=["smoke"])))
    vivo_home.serial = "192.168.1.20:5555"
    device = Device(vivo_home.serial, transport=ScriptedTransport(vivo_home))
    with pytest.raises(ConfigError, match=r"192\.168\.1\.20:5555 has none.*CONSOLE_PORT"):
        check_resets(tasks, [device])
    cleared = [t.model_copy(update={"setup": t.setup.model_copy(update={"reset": "pm_clear"})})
               for t in tasks]
    check_resets(cleared, [device])  # tasks that reset with pm clear need no console
