"""Shell scripts with arguments and background jobs, as mksh (Android's /system/bin/sh) runs them:
`sh FILE ARGS` and `sh -c CMD NAME ARGS` set $0 $1.. $# $* ; `CMD &` runs a job whose pid is `$!`,
which `kill` reaches and `wait` waits for; `read` takes a line of stdin, or over an adb v1 stream (which
gives commands no stdin) the next line the client sends. adbutils' start_recording/stop_recording is such
a script: `screenrecord "$1" &`, `PID=$!`, `read ANY`, `kill -INT $PID`, `wait`.
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from spa_bench.phone.shell import Shell
from spa_bench.phone.shell.testing import FakePhone


@pytest.fixture
def phone(tmp_path: Path) -> FakePhone:
    return FakePhone(tmp_path)


@pytest.fixture
def sh(phone: FakePhone) -> Shell:
    return Shell(phone)


def out(sh: Shell, command: str, stdin: bytes = b"") -> str:
    return sh.run(command, stdin).output.decode()


def test_positional_parameters(sh: Shell, phone: FakePhone) -> None:
    phone.fs.write_bytes("/data/local/tmp/args.sh", b'echo "$# $0 [$1] [$2] [$3] $*"\n')
    assert out(sh, "sh /data/local/tmp/args.sh one 'two words'") == \
        "2 /data/local/tmp/args.sh [one] [two words] [] one two words\n"
    assert out(sh, "sh -c 'echo $0 $1 $#' myname first") == "myname first 1\n"
    assert out(sh, "sh -c 'echo $0 $#'") == "/system/bin/sh 0\n"


def test_background_job_pid_kill_and_wait(sh: Shell, phone: FakePhone) -> None:
    script = ("sleep 1 &\nPID=$!\nps -o PID,NAME -p $PID\nkill -INT $PID; echo \"kill $?\"\nwait\n"
              "echo \"status $? after wait\"\nps -p $PID -o PID | wc -l\n")
    phone.fs.write_bytes("/data/local/tmp/job.sh", script.encode())
    lines = out(sh, "sh /data/local/tmp/job.sh").splitlines()
    assert lines[0].split() == ["PID", "NAME"] and lines[1].split()[1] == "sleep"  # the job's process
    assert lines[2:] == ["kill 0", "status 0 after wait", "1"]  # after wait only ps's header: it is gone
    assert out(sh, "echo $!") == "\n"  # no job in this shell


def test_read_splits_a_line_over_names(sh: Shell) -> None:
    assert out(sh, 'read A B; echo "[$A][$B] $?"', b"hello big world\nnext\n") == "[hello][big world] 0\n"
    assert out(sh, 'read A; echo "[$A] $?"', b"") == "[] 1\n"  # end of input


def test_adbutils_screen_recording_script(running_phone, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """adbutils' own start/stop: the script runs over a kept v1 stream; the newline it sends stops it."""
    d = running_phone.device()
    d.start_recording(str(tmp_path / "out.mp4"))
    time.sleep(1.0)
    assert "screenrecord" in d.shell("ps -A -o NAME").split()  # the job is the recording process
    d.stop_recording()
    data = (tmp_path / "out.mp4").read_bytes()
    assert data[4:8] == b"ftyp" and b"moov" in data  # a finished MP4 (SIGINT lets screenrecord close it)
    assert "screenrecord" not in d.shell("ps -A -o NAME").split()
