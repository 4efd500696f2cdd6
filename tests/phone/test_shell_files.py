"""File and text commands on the VFS: ls, cat, rm, mkdir, mv, cp, touch, stat, md5sum, grep, head, ..."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

from spa_bench.phone.shell import Shell
from spa_bench.phone.shell.testing import FakePhone


@pytest.fixture
def phone(tmp_path: Path) -> FakePhone:
    p = FakePhone(tmp_path / "fs")
    p.fs.write_bytes("/sdcard/Documents/notes.txt", b"alpha\nBeta\ngamma\nalphabet\n")
    p.fs.write_bytes("/sdcard/Documents/.hidden", b"h")
    return p


@pytest.fixture
def sh(phone: FakePhone) -> Shell:
    return Shell(phone)


def run(sh: Shell, line: str) -> tuple[str, str, int]:
    r = sh.run(line)
    return r.stdout.decode(), r.stderr.decode(), r.exit_code


def test_ls_plain_and_all(sh: Shell) -> None:
    assert run(sh, "ls /sdcard/Documents") == ("notes.txt\n", "", 0)
    assert run(sh, "ls -a /sdcard/Documents")[0] == ".\n..\n.hidden\nnotes.txt\n"
    assert run(sh, "ls -A /sdcard/Documents")[0] == ".hidden\nnotes.txt\n"
    assert run(sh, "ls -1 /sdcard/Documents/notes.txt")[0] == "/sdcard/Documents/notes.txt\n"
    assert run(sh, "ls /sdcard/nope") == ("", "ls: /sdcard/nope: No such file or directory\n", 1)


def test_ls_long_and_recursive(sh: Shell) -> None:
    text, _, code = run(sh, "ls -l /sdcard/Documents")
    lines = text.splitlines()
    assert code == 0 and lines[0].startswith("total ")
    fields = lines[1].split()
    assert fields[0] == "-rw-r--r--" and fields[4] == "26" and fields[-1] == "notes.txt"
    assert len(fields) == 8  # mode links user group size date time name
    rec = run(sh, "ls -R /sdcard/DCIM")[0]
    assert rec == "/sdcard/DCIM:\nCamera\n\n/sdcard/DCIM/Camera:\n"
    multi = run(sh, "ls /sdcard/Music /sdcard/Documents")[0]
    assert multi == "/sdcard/Music:\n\n/sdcard/Documents:\nnotes.txt\n"


def test_cat_and_stdin_dash(sh: Shell) -> None:
    assert run(sh, "cat /sdcard/Documents/notes.txt")[0].startswith("alpha\nBeta")
    assert sh.run("cat - /sdcard/Documents/.hidden", stdin=b"in:").stdout == b"in:h"
    assert run(sh, "cat /sdcard") == ("", "cat: /sdcard: Is a directory\n", 1)


def test_mkdir_touch_rm(sh: Shell, phone: FakePhone) -> None:
    assert run(sh, "mkdir /sdcard/a/b") == ("", "mkdir: /sdcard/a/b: No such file or directory\n", 1)
    assert run(sh, "mkdir -p /sdcard/a/b && touch /sdcard/a/b/f && ls /sdcard/a/b")[0] == "f\n"
    assert run(sh, "mkdir /sdcard/a")[1] == "mkdir: /sdcard/a: File exists\n"
    assert run(sh, "rm /sdcard/a")[1] == "rm: /sdcard/a: Is a directory\n"
    assert run(sh, "rm /sdcard/zzz") == ("", "rm: /sdcard/zzz: No such file or directory\n", 1)
    assert run(sh, "rm -f /sdcard/zzz") == ("", "", 0)
    assert run(sh, "rm -rf /sdcard/a") == ("", "", 0)
    assert not phone.fs.exists("/sdcard/a")


def test_layout_roots_cannot_be_removed(sh: Shell, phone: FakePhone) -> None:
    for path in ("/", "/sdcard", "/data", "/data/local/tmp", "/system"):
        _, err, code = run(sh, f"rm -rf {path}")
        assert code == 1 and "Permission denied" in err, path
    assert phone.fs.exists("/sdcard/Documents/notes.txt")
    assert run(sh, "rm -rf /sdcard/Documents") == ("", "", 0)  # an ordinary folder can go


def test_mv_cp(sh: Shell, phone: FakePhone) -> None:
    assert run(sh, "cp /sdcard/Documents/notes.txt /sdcard/Download/") == ("", "", 0)
    assert phone.fs.read_bytes("/sdcard/Download/notes.txt").startswith(b"alpha")
    assert run(sh, "mv /sdcard/Download/notes.txt /sdcard/Download/n2.txt") == ("", "", 0)
    assert run(sh, "ls /sdcard/Download")[0] == "n2.txt\n"
    assert run(sh, "cp /sdcard/Documents /sdcard/Movies")[2] == 1
    assert run(sh, "cp -r /sdcard/Documents /sdcard/Movies && ls -A /sdcard/Movies/Documents")[0] == \
        ".hidden\nnotes.txt\n"
    assert run(sh, "cp /sdcard/x /sdcard/y") == ("", "cp: /sdcard/x: No such file or directory\n", 1)
    assert run(sh, "cp a b c")[1] == "cp: 'c' not directory\n"


def test_stat_md5sum(sh: Shell) -> None:
    data = b"alpha\nBeta\ngamma\nalphabet\n"
    digest = hashlib.md5(data).hexdigest()
    assert run(sh, "md5sum /sdcard/Documents/notes.txt")[0] == f"{digest}  /sdcard/Documents/notes.txt\n"
    assert run(sh, "toybox md5sum /sdcard/Documents/notes.txt")[0].startswith(digest)
    assert sh.run("md5sum", stdin=b"").stdout == b"d41d8cd98f00b204e9800998ecf8427e  -\n"
    assert run(sh, "md5sum /data/local/tmp/u2.jar") == \
        ("", "md5sum: /data/local/tmp/u2.jar: No such file or directory\n", 1)
    assert run(sh, "stat -c '%s %n %F' /sdcard/Documents/notes.txt")[0] == \
        "26 /sdcard/Documents/notes.txt regular file\n"
    text = run(sh, "stat /sdcard/Documents")[0]
    assert "  File: /sdcard/Documents\n" in text and "directory" in text


def test_grep(sh: Shell) -> None:
    f = "/sdcard/Documents/notes.txt"
    assert run(sh, f"grep alpha {f}") == ("alpha\nalphabet\n", "", 0)
    assert run(sh, f"grep -c alpha {f}")[0] == "2\n"
    assert run(sh, f"grep -i beta {f}")[0] == "Beta\n"
    assert run(sh, f"grep -v a {f}")[0] == ""
    assert run(sh, f"grep -vi alpha {f}")[0] == "Beta\ngamma\n"
    assert run(sh, f"grep -E '^(Beta|gamma)$' {f}")[0] == "Beta\ngamma\n"
    assert run(sh, f"grep 'a\\(l\\|m\\)' {f}")[0] == "alpha\ngamma\nalphabet\n"  # BRE alternation
    assert run(sh, f"grep -n gamma {f}")[0] == "3:gamma\n"
    assert run(sh, f"grep -w alpha {f}")[0] == "alpha\n"
    assert run(sh, f"grep -o 'al[a-z]*' {f}")[0] == "alpha\nalphabet\n"
    assert run(sh, f"grep zzz {f}") == ("", "", 1)
    assert run(sh, "grep x /nope")[2] == 2
    assert run(sh, f"grep -q gamma {f} && echo found")[0] == "found\n"
    assert run(sh, f"grep -e Beta -e gamma {f}")[0] == "Beta\ngamma\n"


def test_head_tail_wc(sh: Shell) -> None:
    f = "/sdcard/Documents/notes.txt"
    assert run(sh, f"head -n 2 {f}")[0] == "alpha\nBeta\n"
    assert run(sh, f"head -1 {f}")[0] == "alpha\n"
    assert run(sh, f"tail -n 1 {f}")[0] == "alphabet\n"
    assert run(sh, f"tail -n +3 {f}")[0] == "gamma\nalphabet\n"
    assert run(sh, f"head -c 3 {f}")[0] == "alp"
    assert run(sh, f"wc -l {f}")[0] == f"4 {f}\n"
    assert run(sh, f"cat {f} | wc -l")[0] == "4\n"
    assert run(sh, f"wc {f}")[0].split() == ["4", "4", "26", f]


def test_base64(sh: Shell) -> None:
    assert sh.run("base64", stdin="你好".encode()).stdout == b"5L2g5aW9\n"
    assert sh.run("base64 -d", stdin=b"5L2g5aW9").stdout == "你好".encode()
    assert sh.run("echo -n 'bad!' | base64 -d").stderr == b"base64: bad input\n"
    long = sh.run("base64", stdin=b"x" * 100).stdout
    assert [len(line) for line in long.splitlines()] == [76, 60]


def test_sort_uniq_cut_find(sh: Shell, phone: FakePhone) -> None:
    assert run(sh, "printf '3\\n10\\n2\\n' | sort -n")[0] == "2\n3\n10\n"
    assert run(sh, "printf 'a\\na\\nb\\n' | uniq -c")[0] == "      2 a\n      1 b\n"
    assert run(sh, "echo a:b:c | cut -d: -f2,3")[0] == "b:c\n"
    phone.fs.write_bytes("/sdcard/DCIM/Camera/IMG_1.jpg", b"")
    assert run(sh, "find /sdcard/DCIM -name '*.jpg'")[0] == "/sdcard/DCIM/Camera/IMG_1.jpg\n"
    assert run(sh, "find /sdcard/DCIM -type d")[0] == "/sdcard/DCIM\n/sdcard/DCIM/Camera\n"


def test_misc_builtins(sh: Shell) -> None:
    assert run(sh, "test -d /sdcard && echo dir")[0] == "dir\n"
    assert run(sh, "[ -f /sdcard/Documents/notes.txt ] && echo file")[0] == "file\n"
    assert run(sh, "[ -e /nope ] || echo missing")[0] == "missing\n"
    assert run(sh, "[ 3 -gt 2 -a x = x ] && echo ok")[0] == "ok\n"
    assert run(sh, "[ ! -z abc ] && [ -n abc ] && echo nz")[0] == "nz\n"
    assert run(sh, "[ 1 = 1")[1] == "/system/bin/sh: [: missing ]\n"
    assert run(sh, "which ls am nosuch")[0] == "/system/bin/ls\n/system/bin/am\n"
    assert run(sh, "which nosuch")[2] == 1
    assert run(sh, "whoami; id -u")[0] == "shell\n2000\n"
    assert run(sh, "printf '%s=%d%%\\n' a 5 b 6")[0] == "a=5%\nb=6%\n"
    assert run(sh, "printf '%s' 'a\\nb'")[0] == "a\\nb"  # escapes in arguments stay literal
    assert run(sh, "basename /a/b.txt .txt; dirname /a/b.txt")[0] == "b\n/a\n"
    assert run(sh, "chmod 777 /sdcard/Documents/notes.txt")[2] == 0
    assert run(sh, "chmod 777 /sdcard/none")[2] == 1
    assert run(sh, "ls --bogus")[1] == "ls: Unknown option '-' (see \"ls --help\")\n"
