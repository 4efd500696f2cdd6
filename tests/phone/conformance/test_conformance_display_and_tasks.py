"""The display, focus and task dumps through the parsers AndroidWorld, android_env, adbutils and AppAgent
use, on real captures (android-captures/shell) and on the phone, portrait, rotated and with `wm size`."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from conftest import Sh
from reference_parsers import (
    ADBUTILS_DISPLAY_RE,
    ADBUTILS_FOCUSED_RE,
    adbutils_rotation,
    adbutils_wm_size,
    androidenv_current_activity,
    androidenv_orientation,
    androidenv_task_id,
    androidworld_logical_screen_size,
    androidworld_orientation,
    androidworld_physical_frame_boundary,
    androidworld_recents_ids,
    androidworld_screen_size,
    appagent_window_size,
)

from spa_bench.phone.system import PhoneOS


def shell_capture(captures: Path, *parts: str) -> str:
    return captures.joinpath("shell", *parts).read_bytes().decode("utf-8").replace("\r", "")


def grep(text: str, word: str) -> str:
    return "".join(line + "\n" for line in text.splitlines() if word in line)


@pytest.mark.conformance("AndroidWorld adb_utils.py")
def test_logical_screen_size_from_dumpsys_input(captures: Path, sh: Sh) -> None:
    """get_logical_screen_size reads `dumpsys input | grep logicalFrame` on every action."""
    real = shell_capture(captures, "dumpsys_input", "mtk_tb8168_android13_bugreport_dumpsys_input.txt")
    assert androidworld_logical_screen_size(grep(real, "logicalFrame")) == (480, 800)
    vivo = shell_capture(captures, "dumpsys_input", "cryptoloot_dumpsys_input.txt")
    assert androidworld_logical_screen_size(grep(vivo, "logicalFrame")) == (720, 1612)
    assert androidworld_logical_screen_size(sh("dumpsys input | grep logicalFrame")) == (1080, 2400)
    sh("settings put system accelerometer_rotation 0")
    sh("settings put system user_rotation 1")  # AndroidWorld's change_orientation('landscape')
    assert androidworld_logical_screen_size(sh("dumpsys input | grep logicalFrame")) == (2400, 1080)
    assert androidworld_screen_size(sh("wm size")) == (1080, 2400)  # the physical size does not turn


@pytest.mark.conformance("AndroidWorld adb_utils.py")
def test_orientation_from_dumpsys_window(captures: Path, sh: Sh) -> None:
    real = shell_capture(captures, "dumpsys_window", "mtk_tb8168_android13_bugreport_dumpsys_window.txt")
    assert androidworld_orientation(grep(real, "mCurrentRotation")) == 0
    assert androidworld_orientation(sh("dumpsys window | grep mCurrentRotation")) == 0
    for rotation in (1, 2, 3, 0):
        sh("settings put system accelerometer_rotation 0")
        sh(f"settings put system user_rotation {rotation}")
        assert androidworld_orientation(sh("dumpsys window | grep mCurrentRotation")) == rotation


@pytest.mark.conformance("android_env adb_call_parser.py")
def test_orientation_from_dumpsys_input(captures: Path, sh: Sh) -> None:
    """_get_orientation: the first InputDeviceOrientation/SurfaceOrientation digit of a device whose
    PhysicalWidth is not negative."""
    real = shell_capture(captures, "dumpsys_input", "mtk_tb8168_android13_bugreport_dumpsys_input.txt")
    assert androidenv_orientation(real) == 0
    assert androidenv_orientation(sh("dumpsys input")) == 0
    sh("settings put system user_rotation 3")
    assert androidenv_orientation(sh("dumpsys input")) == 3


@pytest.mark.conformance("adbutils shell.py")
def test_adbutils_rotation_window_size_and_focus(captures: Path, sh: Sh) -> None:
    real_display = shell_capture(captures, "dumpsys_display", "mtk_tb8168_android13_dumpsys_display.txt")
    assert adbutils_rotation(real_display) == 0
    real_viewport = ADBUTILS_DISPLAY_RE.search(real_display)
    assert real_viewport is None or real_viewport.group("width") == "480"  # isActive=false there
    assert adbutils_rotation(sh("dumpsys display")) == 0
    viewport = ADBUTILS_DISPLAY_RE.search(sh("dumpsys display"))
    assert viewport and (viewport.group("width"), viewport.group("height")) == ("1080", "2400")
    sh("settings put system user_rotation 1")
    assert adbutils_rotation(sh("dumpsys display")) == 1
    for name in ("samsung_s24_wm_size.txt",):
        assert adbutils_wm_size(shell_capture(captures, "wm", name)) == (1440, 3120)
    sh("wm size 720x1280")
    assert adbutils_wm_size(sh("wm size")) == (720, 1280)
    real_window = shell_capture(captures, "dumpsys_window", "csdndocs_androidL_mCurrentFocus_mFocusedApp.txt")
    assert ADBUTILS_FOCUSED_RE.search(real_window)
    sh("am start -n com.android.settings/.Settings")
    m = ADBUTILS_FOCUSED_RE.search(sh("dumpsys window windows"))
    assert m and (m.group("package"), m.group("activity")) == ("com.android.settings",
                                                               "com.android.settings.Settings")


@pytest.mark.conformance("wm / dumpsys captures")
def test_wm_size_and_density_lines(captures: Path, sh: Sh) -> None:
    """`Physical size: WxH` / `Physical density: N` as the S24 prints them; overrides add an
    `Override ...` line; bad values get WindowManagerShellCommand's errors."""
    line = re.compile(r"^Physical size: \d+x\d+$")
    assert line.match(shell_capture(captures, "wm", "samsung_s24_wm_size.txt").strip())
    assert line.match(sh("wm size").strip())
    density = shell_capture(captures, "wm", "samsung_s24_wm_density.txt")
    assert re.match(r"^Physical density: \d+$", density.strip())
    assert re.match(r"^Physical density: \d+$", sh("wm density").strip())
    assert sh("wm size 720x1280") == "" and sh("wm density 320") == ""
    assert sh("wm size") == "Physical size: 1080x2400\nOverride size: 720x1280\n"
    assert sh("wm density") == "Physical density: 420\nOverride density: 320\n"
    assert sh("wm size 1080x") == "Error: bad size 1080x\n"
    assert sh("wm density 12") == "Error: density must be >= 72\n"
    assert sh("wm size reset") == sh("wm density reset") == ""
    assert sh("wm size") == "Physical size: 1080x2400\n"


@pytest.mark.conformance("AppAgent and_controller.py")
def test_appagent_device_size(captures: Path, sh: Sh) -> None:
    assert appagent_window_size(shell_capture(captures, "wm", "samsung_s24_wm_size.txt")) == (1440, 3120)
    assert appagent_window_size(sh("wm size")) == (1080, 2400)


@pytest.mark.conformance("wm / dumpsys captures")
def test_rendering_follows_rotation_and_size_overrides(phone: PhoneOS, sh: Sh) -> None:
    """screencap, dump bounds and taps all use the logical display: rotated, or at the forced size."""
    from io import BytesIO

    from PIL import Image

    def png_size() -> tuple[int, int]:
        sh("screencap -p /sdcard/s.png")
        return Image.open(BytesIO(phone.fs.read_bytes("/sdcard/s.png"))).size

    def root_bounds() -> str:
        sh("uiautomator dump /sdcard/d.xml")
        xml = sh("cat /sdcard/d.xml")
        return re.search(r'<hierarchy rotation="(\d)"><node [^>]*bounds="([^"]+)"', xml).groups()  # type: ignore[union-attr]

    sh("am start -n com.android.settings/.Settings")
    assert png_size() == (1080, 2400)
    sh("settings put system user_rotation 1")
    assert png_size() == (2400, 1080)
    rotation, bounds = root_bounds()  # the app's window: full width, between the status and nav bars
    assert rotation == "1" and bounds.startswith("[0,") and "][2400," in bounds
    sh("settings put system user_rotation 0")
    sh("wm size 720x1280")
    assert png_size() == (720, 1280)
    assert root_bounds()[1].startswith("[0,") and "][720," in root_bounds()[1]
    title = phone.frame().find(text="Network & internet")
    assert title is not None and title.bounds.right <= 720
    sh(f"input tap {title.bounds.center[0]} {title.bounds.center[1]}")
    assert phone.current_focus()[1].endswith("NetworkDashboardActivity")
    sh("wm density 280")
    assert phone.frame().screen.width == 720 and phone.kit.dp(100) == 175  # laid out again at 280 dpi


@pytest.mark.conformance("AndroidWorld adb_utils.py")
def test_close_recents_reads_ids_and_removes_tasks(captures: Path, phone: PhoneOS, sh: Sh) -> None:
    """close_recents: `id=(\\d+)` over `dumpsys activity recents`, then `am stack remove ID` for each. On
    Android 13 that regex meets the same fields in the real dump and ours (mRecentsUid=, uids); the task
    ids are `taskId=`/`#N` and `am stack remove` takes them."""
    real = shell_capture(captures, "dumpsys_activity",
                         "mtk_tb8168_android13_bugreport_dumpsys_activity_recents.txt")
    sh("am start -n com.android.settings/.Settings")
    sh("am start -n com.android.deskclock/.DeskClock")
    ours = sh("dumpsys activity recents")
    def fields(text: str) -> set[str]:
        return {m.group(1) for m in re.finditer(r"(\w*)id=\d+", text)}
    assert fields(ours) <= fields(real) | {"mRecentsUid"}
    assert androidworld_recents_ids(ours) and androidworld_recents_ids(real)
    header = re.compile(r"^  \* Recent #(\d+): Task\{[0-9a-f]+ #(\d+) type=(standard|home) ")
    for text in (real, ours):
        headers = [header.match(line) for line in text.splitlines() if line.startswith("  * Recent #")]
        assert headers and all(headers)
        task_ids = [int(h.group(2)) for h in headers if h]
        assert [int(t) for t in re.findall(r"^    taskId=(\d+) rootTaskId=\d+$", text, re.M)] == task_ids
    for recents_id in androidworld_recents_ids(ours):  # what close_recents does: nothing breaks
        assert sh(f"am stack remove {recents_id}") == ""
    ids = re.findall(r"^    taskId=(\d+) ", ours, re.M)
    for task in ids:
        sh(f"am stack remove {task}")
    assert [p for p, _a in phone.recent_tasks()] == ["com.google.android.apps.nexuslauncher"]


@pytest.mark.conformance("android_env adb_call_parser.py")
def test_current_activity_and_task_id_from_am_stack_list(sh: Sh) -> None:
    sh("am start -n com.android.settings/.Settings")
    visible = sh("am stack list | grep -E visible=true")
    assert androidenv_current_activity(visible) == "com.android.settings/com.android.settings.Settings"
    task = androidenv_task_id(sh("am stack list"), "com.android.settings/com.android.settings.Settings")
    assert task > 0 and f"taskId={task} rootTaskId={task}" in sh("dumpsys activity recents")


@pytest.mark.conformance("wm / dumpsys captures")
def test_resumed_activity_lines(captures: Path, sh: Sh) -> None:
    """`ResumedActivity: ActivityRecord{hash u0 pkg/.Act tN}` and `mFocusedApp=` as Android 13 prints."""
    real = shell_capture(captures, "dumpsys_activity", "mtk_tb8168_android13_dumpsys_activity_activities.txt")
    record = re.compile(r"ActivityRecord\{[0-9a-f]+ u0 ([\w.]+)/([\w.$]+)\} t(\d+)\}")
    assert record.search(grep(real, "ResumedActivity"))
    sh("am start -n com.android.settings/.Settings")
    m = record.search(grep(sh("dumpsys activity activities"), "ResumedActivity"))
    assert m and m.group(1) == "com.android.settings"
    assert f"t{m.group(3)}" in grep(sh("dumpsys window"), "mFocusedApp")


@pytest.mark.conformance("wm / dumpsys captures")
def test_task_ids_are_distinct(phone: PhoneOS) -> None:
    """`am stack remove ID` must hit one task: the installed packages' task ids never collide."""
    from spa_bench.phone.shell.commands.ids import HOME_ROOT_TASK_ID, task_id

    ids = [task_id(p.name) for p in phone.packages()]
    assert len(set(ids)) == len(ids) and HOME_ROOT_TASK_ID not in ids


@pytest.mark.conformance("AndroidWorld adb_utils.py")
def test_physical_frame_boundary_in_portrait(captures: Path, sh: Sh) -> None:
    """get_physical_frame_boundary turns the rotated physicalFrame back to portrait: the panel, whatever
    the rotation; with `wm size` the letterboxed area."""
    real = shell_capture(captures, "dumpsys_input", "mtk_tb8168_android13_bugreport_dumpsys_input.txt")
    assert androidworld_physical_frame_boundary(grep(real, "physicalFrame"), 0) == (0, 0, 480, 800)
    for rotation in (0, 1, 3):
        sh(f"settings put system user_rotation {rotation}")
        orientation = androidworld_orientation(sh("dumpsys window | grep mCurrentRotation"))
        frame = androidworld_physical_frame_boundary(sh("dumpsys input | grep physicalFrame"), orientation)
        assert frame == (0, 0, 1080, 2400), rotation
    sh("settings put system user_rotation 0")
    sh("wm size 540x1080")  # half the width: letterboxed top and bottom on the 1080x2400 panel
    assert androidworld_physical_frame_boundary(sh("dumpsys input | grep physicalFrame"), 0) == \
        (0, 120, 1080, 2280)
