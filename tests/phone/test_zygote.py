"""Phones forked from the zygote (spa_bench.phone.zygote) behave as phones started as new interpreters:
they serve ADB and the console, run in their data dir, stop on SIGTERM, take the caller's environment as
it is when they start (not as it was when the zygote started), and die with the process that started
them, however it ends."""

from __future__ import annotations

import json
import os
import select
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path
from typing import Any

import pytest

from spa_bench.device.console import EmulatorConsole
from spa_bench.phone import process, zygote

pytestmark = pytest.mark.skipif(not zygote.zygote_supported(), reason="the zygote needs Linux (fork, pidfd)")


def _gone_within(pid: int, seconds: float) -> bool:
    """True once process `pid` has exited (waited for on its pidfd, no polling)."""
    try:
        fd = os.pidfd_open(pid)
    except ProcessLookupError:
        return True
    try:
        ready, _, _ = select.select([fd], [], [], seconds)
        return bool(ready)
    finally:
        os.close(fd)


def _logged_within(phone: Any, text: str, timeout: float) -> bool:
    deadline = time.monotonic() + timeout
    while text not in phone.log_tail():
        if time.monotonic() > deadline or not phone.alive:
            return False
        time.sleep(0.05)
    return True


def test_forked_phones_serve_run_in_their_data_dir_and_stop(tmp_path: Path) -> None:
    assert process.use_zygote()
    pool = process.start_phone_processes(2, data_root=tmp_path / "phones")
    try:
        for phone in pool.phones:
            assert isinstance(phone.process, zygote.ForkedPhone)
            assert Path(os.readlink(f"/proc/{phone.pid}/cwd")) == phone.data_dir.resolve()
            ready = json.loads((phone.data_dir / process.READY_FILE).read_text())
            assert ready["pid"] == phone.pid and ready["port"] == phone.port
            # the phone writes its ready file first, then prints the connect line (the contract of
            # `spa-bench phone start`: the file exists once the line shows); wait for the line
            assert _logged_within(phone, "Connect with:  adb connect 127.0.0.1:", 30), phone.log_tail()
            assert EmulatorConsole(phone.console_port).command("avd name").strip()
        first, second = pool.phones
        first.stop()
        assert not first.alive and _gone_within(first.pid, 0)
        assert second.alive
        second.kill()
        assert _gone_within(second.pid, 30)
    finally:
        pool.stop()


def test_a_forked_phone_takes_the_environment_of_its_start(tmp_path: Path,
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    """The zygote may be older than the caller's $HOME: a phone reads its console token from the $HOME
    in force when it is started."""
    zygote.shared_zygote()  # started before HOME changes
    home = tmp_path / "home"
    home.mkdir()
    (home / ".emulator_console_auth_token").write_text("sesame")
    monkeypatch.setenv("HOME", str(home))
    with process.start_phone_processes(1, data_root=tmp_path / "phones") as pool:
        # a command past `auth`: the phone's token is the one under the new $HOME
        EmulatorConsole(pool.phones[0].console_port).command("avd snapshot list")


HARNESS = textwrap.dedent("""
    import json, sys, time
    from pathlib import Path
    from spa_bench.phone.process import start_phone_processes

    pool = start_phone_processes(2, data_root=Path(sys.argv[1]))
    print(json.dumps([p.pid for p in pool.phones]), flush=True)
    time.sleep(600)
""")


def test_forked_phones_die_with_the_process_that_started_them(tmp_path: Path) -> None:
    harness = subprocess.Popen([sys.executable, "-c", HARNESS, str(tmp_path / "phones")],
                               stdout=subprocess.PIPE, text=True)
    try:
        assert harness.stdout is not None
        pids = json.loads(harness.stdout.readline())
        assert len(pids) == 2 and all(not _gone_within(pid, 0) for pid in pids)
        harness.send_signal(signal.SIGKILL)
        harness.wait(timeout=30)
        deadline = time.monotonic() + 60
        assert all(_gone_within(pid, max(0.0, deadline - time.monotonic())) for pid in pids)
    finally:
        if harness.poll() is None:
            harness.kill()


def test_without_the_zygote_each_phone_is_a_new_interpreter(tmp_path: Path,
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SPA_BENCH_PHONE_ZYGOTE", "0")
    with process.start_phone_processes(1, data_root=tmp_path / "phones") as pool:
        phone = pool.phones[0]
        assert isinstance(phone.process, subprocess.Popen)
        args = Path(f"/proc/{phone.pid}/cmdline").read_bytes().split(b"\0")
        assert b"start" in args and b"--exit-with-parent" in args
        assert Path(os.readlink(f"/proc/{phone.pid}/cwd")) == phone.data_dir.resolve()
