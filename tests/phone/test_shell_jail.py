"""Break-out attempts: nothing the shell does may read or write outside the phone's data dir, and no
command may start a host program."""

from __future__ import annotations

import os
import sqlite3
import subprocess
from pathlib import Path

import pytest

from spa_bench.phone.shell import Shell
from spa_bench.phone.shell.testing import FakePhone


@pytest.fixture
def outside(tmp_path: Path) -> Path:
    d = tmp_path / "outside"
    d.mkdir()
    (d / "secret.txt").write_text("TOP SECRET\n")
    return d


@pytest.fixture
def phone(tmp_path: Path) -> FakePhone:
    return FakePhone(tmp_path / "fs")


@pytest.fixture
def sh(phone: FakePhone) -> Shell:
    return Shell(phone)


def outside_unchanged(outside: Path) -> None:
    assert sorted(p.name for p in outside.iterdir()) == ["secret.txt"]
    assert (outside / "secret.txt").read_text() == "TOP SECRET\n"


@pytest.mark.parametrize("line", [
    "cat ../../../../etc/passwd",
    "cat /../../../../etc/passwd",
    "cat /proc/self/environ",
    "cat /etc/hostname",
    "cd ../../../..; cat etc/passwd",
    "cd /sdcard/../../../../../; cat etc/passwd",
    "ls /etc",
    "cp /etc/passwd /sdcard/",
    "base64 /etc/passwd",
    "grep root /etc/passwd",
])
def test_host_files_are_not_reachable(sh: Shell, line: str) -> None:
    r = sh.run(line)
    assert r.exit_code != 0
    assert b"root:" not in r.stdout
    assert b"No such file or directory" in r.stderr


def test_absolute_host_paths_are_virtual(sh: Shell, phone: FakePhone, outside: Path) -> None:
    r = sh.run(f"cat {outside}/secret.txt")
    assert r.exit_code == 1 and b"SECRET" not in r.stdout
    r = sh.run(f"cat {phone.fs.root}/sdcard/anything")
    assert r.exit_code == 1
    r = sh.run(f"echo x > {outside}/new.txt")
    assert r.exit_code == 1  # the virtual parent folder does not exist
    outside_unchanged(outside)


def test_ls_root_shows_only_the_phone(sh: Shell) -> None:
    listing = sh.run("ls /").stdout.decode().split()
    assert listing == ["data", "sdcard", "system"]
    assert sh.run("ls /..").stdout.decode().split() == listing


def test_planted_symlinks_lead_nowhere(sh: Shell, phone: FakePhone, outside: Path) -> None:
    root = phone.fs.root
    os.symlink(outside, root / "sdcard" / "linkdir")
    os.symlink(outside / "secret.txt", root / "sdcard" / "linkfile")
    os.symlink(outside / "new.txt", root / "sdcard" / "dangling")
    assert "link" not in sh.run("ls -a /sdcard").stdout.decode()
    for line in ("cat /sdcard/linkfile", "cat /sdcard/linkdir/secret.txt", "ls /sdcard/linkdir",
                 "cp /sdcard/linkfile /sdcard/Download/", "cp -r /sdcard/linkdir /sdcard/Download",
                 "md5sum /sdcard/linkfile", "sqlite3 /sdcard/linkfile 'select 1'",
                 "echo x > /sdcard/linkfile", "echo x >> /sdcard/dangling",
                 "echo x > /sdcard/linkdir/new.txt",
                 "touch /sdcard/dangling", "mv /sdcard/linkfile /sdcard/Download/x",
                 "screencap -p /sdcard/linkdir/shot.png", "uiautomator dump /sdcard/linkdir/d.xml",
                 "rm -rf /sdcard/linkdir/secret.txt", "mkdir -p /sdcard/linkdir/sub"):
        r = sh.run(line)
        assert r.exit_code != 0, line
        assert b"SECRET" not in r.stdout, line
        outside_unchanged(outside)
    assert phone.fs.listdir("/sdcard/Download") == []


def test_symlink_in_a_destination_folder_is_not_written_through(sh: Shell, phone: FakePhone,
                                                               outside: Path) -> None:
    root = phone.fs.root
    phone.fs.write_bytes("/sdcard/Download/secret.txt", b"overwrite!")
    phone.fs.mkdir("/sdcard/trap")
    os.symlink(outside / "secret.txt", root / "sdcard" / "trap" / "secret.txt")
    for line in ("cp /sdcard/Download/secret.txt /sdcard/trap",
                 "mv /sdcard/Download/secret.txt /sdcard/trap"):
        assert sh.run(line).exit_code != 0, line
        outside_unchanged(outside)
    phone.fs.mkdir("/sdcard/src")
    phone.fs.write_bytes("/sdcard/src/secret.txt", b"overwrite!")
    phone.fs.mkdir("/sdcard/dst/src", parents=True)
    os.symlink(outside / "secret.txt", root / "sdcard" / "dst" / "src" / "secret.txt")
    assert sh.run("cp -r /sdcard/src /sdcard/dst").exit_code != 0
    outside_unchanged(outside)


def test_redirections_and_outputs_stay_inside(sh: Shell, phone: FakePhone, tmp_path: Path) -> None:
    before = sorted(p.name for p in tmp_path.iterdir())
    sh.run("echo escaped > ../../x.txt")
    sh.run("cd /sdcard; echo escaped > ../../../../y.txt")
    sh.run("screencap -p ../../../../shot.png")
    sh.run("uiautomator dump /../../../dump.xml")
    sh.run("sqlite3 /../../x.db 'create table t(a)'")
    assert sorted(p.name for p in tmp_path.iterdir()) == before
    names = set(phone.fs.listdir("/"))
    assert {"x.txt", "y.txt", "shot.png", "dump.xml", "x.db"} <= names


def test_sqlite_cannot_attach_or_vacuum_into_host_files(sh: Shell, outside: Path) -> None:
    sh.run("sqlite3 /data/local/tmp/a.db 'create table t(x); insert into t values (1)'")
    evil = outside / "evil.db"
    r = sh.run(f"sqlite3 /data/local/tmp/a.db \"attach database '{evil}' as e; create table e.t(x)\"")
    assert r.exit_code == 1 and b"not authorized" in r.stderr
    r = sh.run(f"sqlite3 /data/local/tmp/a.db \"vacuum into '{evil}'\"")
    assert r.exit_code == 1 and b"authorization denied" in r.stderr
    r = sh.run("sqlite3 /data/local/tmp/a.db \"select load_extension('/tmp/x.so')\"")
    assert r.exit_code == 1
    outside_unchanged(outside)


def test_nul_bytes_in_paths_are_refused(sh: Shell) -> None:
    r = sh.run("cat '/sdcard/a\x00/../../etc/passwd'")
    assert r.exit_code == 1 and b"Invalid argument" in r.stderr


def test_no_command_starts_a_host_program(sh: Shell, monkeypatch: pytest.MonkeyPatch) -> None:
    def forbidden(*args: object, **kwargs: object) -> None:
        raise AssertionError(f"host program started: {args!r}")

    monkeypatch.setattr(subprocess.Popen, "__init__", forbidden)
    for name in ("system", "execv", "execve", "execvp", "spawnv", "posix_spawn", "posix_spawnp", "popen",
                 "fork"):
        if hasattr(os, name):
            monkeypatch.setattr(os, name, forbidden)
    lines = ["ls -l /", "sh -c 'id; uname -a'", "app_process / com.x.Main", "CLASSPATH=/x app_process / y",
             "am instrument -w x/y", "toybox", "busybox ls", "sqlite3 /data/local/tmp/z.db 'select 1'",
             "python3 -c 'print(1)'", "/bin/sh -c 'echo'", "/usr/bin/env ls", "bash -c 'uname'", "su -c id",
             "logcat -d", "ps -A", "date", "getprop", "input text hi", "screencap", "reboot",
             "pm install /x.apk", "$(echo ls) /", "`which sh` -c true", "eval ls", "exec ls", "nc -l 1"]
    for line in lines:
        sh.run(line)
    sqlite3.connect(":memory:").close()  # the test itself still works
