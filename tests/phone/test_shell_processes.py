"""ps, pidof, kill and the uiautomator2 server's process, against toybox's output and real clients.

The layout test feeds rows copied from real Android devices' `ps` output (public captures, quoted
with their sources) through the phone's formatter and expects the same bytes: toybox's Android default
columns and its rule that a field overflowing its width pushes the line right until a later field with
room to spare takes the overflow back. uiautomator2 3.7 itself (the real client, through the real adb
server) finds its server as the shell user's `app_process`, and starts and stops it.
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from spa_bench.phone.shell import Shell
from spa_bench.phone.shell.commands.ps_columns import DEFAULT_FIELDS, PsRow, columns, format_table
from spa_bench.phone.shell.testing import FakePhone

# Real `ps` output (toybox, Android 8+), header and rows as captured:
# - "generic_x86:/ $ ps 28688" on an emulator (a CSDN/blog post on Android processes, found by code search)
# - "ps -A | grep servicemanager" on a phone (ZukGit/WordPress_MD_Git, a WifiServiceImpl note)
# - "adb shell ps | grep ALLSAFE" (an OWASP MASTG-style write-up on insecure logging)
CAPTURED_HEADER = "USER           PID  PPID     VSZ    RSS WCHAN            ADDR S NAME"
CAPTURED_ROWS = [
    ("u0_a134      28688 28621   11932   3068 0                   0 S sleep",
     PsRow("u0_a134", 10134, 28688, 28621, 11932, 3068, "0", "S", ("sleep",))),
    ("system         657     1   11620   2788 binder_thread_read  0 S servicemanager",
     PsRow("system", 1000, 657, 1, 11620, 2788, "binder_thread_read", "S", ("servicemanager",))),
    ("u0_a184       4700   319 13821972 135664 0                  0 S infosecadventures.allsafe",
     PsRow("u0_a184", 10184, 4700, 319, 13821972, 135664, "0", "S", ("infosecadventures.allsafe",))),
]


@pytest.fixture
def phone(tmp_path: Path) -> FakePhone:
    return FakePhone(tmp_path)


@pytest.fixture
def sh(phone: FakePhone) -> Shell:
    return Shell(phone)


def run(sh: Shell, command: str) -> tuple[str, str, int]:
    result = sh.run(command)
    return result.stdout.decode(), result.stderr.decode(), result.exit_code


def test_ps_layout_is_toybox_on_real_rows() -> None:
    text = format_table(columns(DEFAULT_FIELDS), [row for _line, row in CAPTURED_ROWS])
    header, *rows = text.splitlines()
    assert header.rstrip() == CAPTURED_HEADER  # toybox pads the last header title (NAME is -27 wide)
    assert rows == [line for line, _row in CAPTURED_ROWS]


def test_ps_selects_and_pidof_finds(sh: Shell, phone: FakePhone) -> None:
    out = run(sh, "ps -A")[0].splitlines()
    names = [line.split()[-1] for line in out[1:]]
    assert names[0] == "init" and {"zygote64", "system_server", "adbd", "sh"} <= set(names)
    assert "com.google.android.apps.nexuslauncher" in names  # the app on screen has a process
    shell_rows = [line.split() for line in run(sh, "ps -u shell")[0].splitlines()[1:]]
    assert {row[0] for row in shell_rows} == {"shell"}
    server = next(row for row in shell_rows if row[-1] == "app_process")  # uiautomator2's server, from boot
    assert run(sh, "pidof app_process") == (server[1] + "\n", "", 0)
    assert run(sh, f"ps -p {server[1]} -o PID,USER,NAME")[0] == f"  PID USER         NAME{' ' * 23}\n" \
        f"{server[1]:>5} shell        app_process\n"
    assert run(sh, "pidof nosuch") == ("", "", 1)
    assert run(sh, "ps -o BOGUS")[1] == "ps: bad -o BOGUS (see \"ps --help\")\n"


def test_kill_is_the_kernels_permission_check(sh: Shell, phone: FakePhone) -> None:
    server = run(sh, "pidof app_process")[0].strip()
    assert run(sh, "kill 1") == ("", "kill: 1: Operation not permitted\n", 1)
    launcher_pid = run(sh, "pidof com.google.android.apps.nexuslauncher")[0].strip()
    assert run(sh, f"kill {launcher_pid}")[1] == f"kill: {launcher_pid}: Operation not permitted\n"
    assert run(sh, "kill 99999") == ("", "kill: 99999: No such process\n", 1)
    assert run(sh, f"kill {server}") == ("", "", 0)
    assert run(sh, "pidof app_process")[2] == 1
    assert run(sh, f"kill {server}")[1] == f"kill: {server}: No such process\n"


# -- the real uiautomator2 client -------------------------------------------------------------------
def _server_pid(d) -> int | None:  # type: ignore[no-untyped-def]
    for line in d.shell("ps -u shell").splitlines():
        fields = line.split()
        if fields and fields[-1] == "app_process":
            return int(fields[1])
    return None


def test_uiautomator2_starts_and_stops_its_server(running_phone) -> None:  # type: ignore[no-untyped-def]
    import adbutils
    import uiautomator2 as u2

    d = running_phone.device()
    pid = _server_pid(d)
    assert pid is not None
    d.shell(f"kill {pid}")
    assert _server_pid(d) is None
    with pytest.raises(adbutils.AdbError):  # nothing listens on the device's 9008 any more
        d.create_connection(adbutils.Network.TCP, 9008)

    u = u2.connect(d)  # this session's adb server: u2.connect(serial) asks the default one (adbutils.adb)
    u.start_uiautomator()  # pings, finds no server, pushes u2.jar and runs app_process over a kept stream
    started = _server_pid(d)
    assert started is not None and started != pid
    assert u.info["sdkInt"] == 34
    u.stop_uiautomator()  # closes that stream: the server ends with it
    deadline = time.monotonic() + 10
    while _server_pid(d) is not None and time.monotonic() < deadline:
        time.sleep(0.05)
    assert _server_pid(d) is None
    u.start_uiautomator()  # leave the phone as other tests expect it: a server running
    assert _server_pid(d) is not None
    assert isinstance(u.window_size(), tuple)


def test_pgrep_and_pkill(sh: Shell, phone: FakePhone) -> None:
    """toybox pgrep/pkill: an extended regex over names (-f: command lines, -x: whole), pids one a line,
    -l with names, -c a count, exit 1 when nothing matches; pkill signals what the user may signal."""
    server = run(sh, "pidof app_process")[0].strip()
    assert run(sh, "pgrep app_process") == (server + "\n", "", 0)
    assert run(sh, "pgrep -f 'uia2\\.Main'")[0] == server + "\n"
    assert run(sh, "pgrep -x app") == ("", "", 1)
    assert f"{server} app_process\n" in run(sh, "pgrep -l app")[0]
    assert run(sh, "pkill init") == ("", "pkill: 1: Operation not permitted\n", 1)
    assert run(sh, "pkill -SIGINT nosuch")[2] == 1
    # Mobile-Agent-E ends its screen recording with `pkill -SIGINT screenrecord`: the file is finished
    phone.fs.write_bytes("/data/local/tmp/rec.sh",
                         b"screenrecord /sdcard/rec.mp4 &\nsleep 1\npkill -SIGINT screenrecord\nwait\n")
    assert run(sh, "sh /data/local/tmp/rec.sh") == ("", "", 0)
    video = phone.fs.read_bytes("/sdcard/rec.mp4")
    assert video[4:8] == b"ftyp" and b"moov" in video
    assert run(sh, "pgrep screenrecord")[2] == 1
