"""`log` and `logcat` against AOSP's formats: the print formats of liblog's logprint.cpp
(android_log_formatLogLine, transcribed below as printf formats), logcat.cpp's dividers, `-g` line and
error messages, toybox log's messages. Through the real adb server, adbutils' `d.logcat()` (which
streams `logcat -v time` while `log` writes) sees the line as it is written.
"""

from __future__ import annotations

import re
import time
from pathlib import Path

import pytest

from spa_bench.phone.shell import Shell
from spa_bench.phone.shell.testing import FakePhone
from spa_bench.phone.system.logd import LogBuffer

# logprint.cpp, android_log_formatLogLine: the prefix of each format (suffix "\n"; process: "  (%s)\n")
AOSP_PREFIX = {
    "brief": "%c/%-8s(%5d): ",
    "tag": "%c/%-8s: ",
    "process": "%c(%5d) ",
    "thread": "%c(%5d:%5d) ",
    "time": "%s %c/%-8s(%5d): ",
    "threadtime": "%s %5d %5d %c %-8s: ",
}
FROZEN = "01-15 09:30:00.000"  # FakePhone's log clock: 2026-01-15 09:30 UTC, '%m-%d %H:%M:%S' + '.%03ld'


@pytest.fixture
def phone(tmp_path: Path) -> FakePhone:
    return FakePhone(tmp_path)


@pytest.fixture
def sh(phone: FakePhone) -> Shell:
    return Shell(phone)


def run(sh: Shell, command: str, stdin: bytes = b"") -> tuple[str, str, int]:
    result = sh.run(command, stdin)
    return result.stdout.decode(), result.stderr.decode(), result.exit_code


def test_every_print_format_is_logprints(sh: Shell, phone: FakePhone) -> None:
    assert run(sh, "log -p i -t TAG hello") == ("", "", 0)
    entry = phone.logd.entries(["main"])[-1]
    pid, tid = entry.pid, entry.tid
    values = {"brief": ("I", "TAG", pid), "tag": ("I", "TAG"), "process": ("I", pid),
              "thread": ("I", pid, tid), "time": (FROZEN, "I", "TAG", pid),
              "threadtime": (FROZEN, pid, tid, "I", "TAG")}
    for fmt, prefix in AOSP_PREFIX.items():
        suffix = "  (TAG)\n" if fmt == "process" else "\n"
        expected = "--------- beginning of main\n" + prefix % values[fmt] + "hello" + suffix
        assert run(sh, f"logcat -d -v {fmt}")[0] == expected, fmt
    assert run(sh, "logcat -d -v raw")[0] == "--------- beginning of main\nhello\n"
    assert run(sh, "logcat -d")[0] == run(sh, "logcat -d -v threadtime")[0]  # threadtime is the default
    # FORMAT_LONG: "[ %s %5d:%5d %c/%-8s ]\n" then the message and a blank line
    assert run(sh, "logcat -d -v long")[0].endswith(f"[ {FROZEN} {pid:5d}:{tid:5d} I/TAG      ]\nhello\n\n")
    # modifiers: year ("%Y-%m-%d %H:%M:%S"), usec (".%06ld"), epoch ("%19lld"), zone (" %z")
    assert f"2026-{FROZEN}" in run(sh, "logcat -d -v time,year")[0]
    assert "01-15 09:30:00.000000 I/TAG" in run(sh, "logcat -d -v time,usec")[0]
    assert f"{1768469400:19d}.000 I/TAG" in run(sh, "logcat -d -v time,epoch")[0]
    assert f"{FROZEN} +0000 I/TAG" in run(sh, "logcat -d -v time,zone")[0]
    assert f"I/TAG     (shell:{pid:5d}): hello" in run(sh, "logcat -d -v brief,uid")[0]  # "%5s:" of the name


def test_message_lines_and_log_options(sh: Shell, phone: FakePhone) -> None:
    run(sh, "log -t Multi 'one\ntwo'")  # a message with a newline prints as two lines, one prefix each
    run(sh, "log -p e stdin-ignored-when-words-given")
    out = run(sh, "logcat -d -v tag")[0]
    assert out == ("--------- beginning of main\nI/Multi   : one\nI/Multi   : two\n"
                   "E/log     : stdin-ignored-when-words-given\n")  # toybox log's default tag is "log"
    run(sh, "log -t Lines", b"first\nsecond\n")  # no MESSAGE: each line of stdin is one entry
    assert run(sh, "logcat -d -v tag -s Lines")[0].endswith("I/Lines   : first\nI/Lines   : second\n")
    assert run(sh, "log -p x hi") == ("", "log: bad -p 'x'\n", 1)
    assert run(sh, "log -p vv hi")[1] == "log: bad -p 'vv'\n"
    before = len(phone.logd.entries(["main"]))
    run(sh, "log -p s -t Quiet never")  # SILENT is never loggable
    assert len(phone.logd.entries(["main"])) == before
    out, err, code = run(sh, "log -t Long " + "x" * 1500)
    assert (err, code) == ("log: log cut at 1024 bytes\n", 1)
    assert len(phone.logd.entries(["main"])[-1].message) == 1024


def test_filterspecs_tail_buffers_and_clear(sh: Shell, phone: FakePhone) -> None:
    for prio, tag in (("v", "A"), ("d", "A"), ("i", "B"), ("w", "B"), ("e", "C")):
        run(sh, f"log -p {prio} -t {tag} {prio}{tag}")

    def tags(command: str) -> list[str]:
        return re.findall(r"^([VDIWEF]/\w+)", run(sh, command)[0], re.M)

    assert tags("logcat -d -v brief") == ["V/A", "D/A", "I/B", "W/B", "E/C"]
    assert tags("logcat -d -v brief -s B") == ["I/B", "W/B"]  # -s is *:S; B alone is B:V
    assert tags("logcat -d -v brief B:W *:S") == ["W/B"]
    assert tags("logcat -d -v brief *:I") == ["I/B", "W/B", "E/C"]
    assert tags("logcat -d -v brief '*'") == ["D/A", "I/B", "W/B", "E/C"]  # '*' alone means *:D
    assert tags("logcat -d -v brief A:S") == ["I/B", "W/B", "E/C"]
    assert tags("logcat -d -v brief -t 2") == ["W/B", "E/C"]
    assert tags("logcat -d -v brief -e ^e") == ["E/C"]
    assert tags("logcat -d -v brief -m 1") == ["V/A"]
    assert run(sh, "logcat -d -b system") == ("", "", 0)  # nothing there: not even a divider
    assert run(sh, "logcat -d -b nosuch") == ("", "logcat: Unknown -b buffer 'nosuch'.\n", 1)
    assert run(sh, "logcat -d -v fancy")[1] == "logcat: Invalid -v 'fancy'.\n"
    assert run(sh, "logcat -d A:q")[1] == "logcat: Invalid filter expression 'A:q'.\n"
    assert run(sh, "logcat -d -m 0")[1] == "logcat: -m '0' isn't an integer greater than zero.\n"
    assert run(sh, "logcat -c") == ("", "", 0)
    assert run(sh, "logcat -d") == ("", "", 0)


def test_logcat_g_and_the_bounded_ring(sh: Shell, phone: FakePhone) -> None:
    # logcat.cpp: "%s: ring buffer is %lu %sB (%lu %sB consumed, %lu %sB readable), max entry is %d B,
    # max payload is %d B\n" with sizes scaled by format_of_size
    assert run(sh, "logcat -g -b main")[0] == ("main: ring buffer is 256 KiB (0 B consumed, 0 B readable), "
                                               "max entry is 5120 B, max payload is 4068 B\n")
    logd = LogBuffer(phone.logd._clock, ring_bytes=4096)
    for n in range(200):
        logd.write(4, "Ring", f"message {n}", pid=1, uid=2000)
    kept = logd.entries(["main"])
    assert logd.usage("main")[1] <= 4096 and kept[-1].message == "message 199"
    assert kept[0].message != "message 0"  # the oldest were pruned


def test_logcat_file_option_and_binary(sh: Shell, phone: FakePhone) -> None:
    run(sh, "log -t F hi")
    assert run(sh, "logcat -d -v tag -f /data/local/tmp/log.txt") == ("", "", 0)
    assert phone.fs.read_bytes("/data/local/tmp/log.txt") == b"--------- beginning of main\nI/F       : hi\n"
    raw = sh.run("logcat -d -B").stdout
    # struct logger_entry: u16 len, u16 hdr_size (28), i32 pid, u32 tid, sec, nsec, lid, uid; then payload
    assert raw[2:4] == (28).to_bytes(2, "little") and raw[28:] == b"\x04F\0hi\0"


# -- through the real adb server ----------------------------------------------------------------------
def test_adbutils_logcat_streams_what_log_writes(running_phone, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """adbutils' d.logcat(): `logcat --clear`, then a streamed `logcat -v time`; the test writes with
    `log -p i -t TAG hello` afterwards and finds 'I/TAG...hello' in the file while logcat still runs."""
    d = running_phone.device()
    out = tmp_path / "logcat.txt"
    stop = d.logcat(out, clear=True, command="logcat -v time", re_filter="I/TAG")
    try:
        d.shell(["log", "-p", "i", "-t", "TAG", "hello"])
        deadline = time.monotonic() + 10
        while not re.search(r"I/TAG.*hello", out.read_text(encoding="utf-8")) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert re.search(r"^\d\d-\d\d \d\d:\d\d:\d\d\.\d{3} I/TAG     \(\s*\d+\): hello$",
                         out.read_text(encoding="utf-8"), re.M)
        assert "logcat" in d.shell("ps -A -o NAME")  # a following logcat is a running process
    finally:
        # adbutils' copier checks for stop between lines: a phone that logs nothing more never lets it see
        # the stop, so the test logs once more, as a real phone's chatter would
        stop.stop_nowait()
        d.shell(["log", "-t", "After", "done"])
        stop.stop(timeout=10)
    deadline = time.monotonic() + 10
    while "logcat" in d.shell("ps -A -o NAME").split() and time.monotonic() < deadline:
        time.sleep(0.05)
    assert "logcat" not in d.shell("ps -A -o NAME").split()  # the client hung up: logcat ended
    assert "I/TAG" in running_phone.shell("logcat -d -v brief -s TAG")
