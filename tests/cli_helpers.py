"""Helpers for tests: run the real `spa-bench` entry point in-process and capture what it prints and its
exit code; find a free loopback port; start an adb server of the test's own."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from dataclasses import dataclass

import pytest


@dataclass
class CliResult:
    code: int
    out: str
    err: str


def run_cli(capsys: pytest.CaptureFixture[str], *args: str) -> CliResult:
    from spa_bench.cli import main
    from spa_bench.cli.common import state

    old_argv = sys.argv
    sys.argv = ["spa-bench", *args]
    state.debug = False
    code = 0
    try:
        main()
    except SystemExit as exc:
        code = int(exc.code or 0)
    finally:
        sys.argv = old_argv
    captured = capsys.readouterr()
    return CliResult(code, captured.out, captured.err)


def free_port() -> int:
    """A loopback port that is free right now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


ADB_SERVER_ATTEMPTS = 20


def start_private_adb_server(adb: str, env: dict[str, str]) -> int:
    """Start an adb server of our own on a free loopback port and return the port.

    A picked port can be taken before adb binds it (by a phone or another test's adb server, under
    pytest-xdist). adb says "daemon started successfully" only when it started the server itself: on a port
    another adb server holds it says nothing and would use that server, and on one a phone holds it waits
    for an answer that never comes. Either way the port is given up for another."""
    for _ in range(ADB_SERVER_ATTEMPTS):
        port = str(free_port())
        try:
            started = subprocess.run([adb, "-P", port, "start-server"], capture_output=True, text=True,
                                     timeout=30, env=dict(env, ANDROID_ADB_SERVER_PORT=port))
        except subprocess.TimeoutExpired:
            continue
        if started.returncode == 0 and "daemon started successfully" in started.stdout + started.stderr:
            return int(port)
    raise RuntimeError(f"could not start an adb server of our own in {ADB_SERVER_ATTEMPTS} attempts")


def kill_adb_server(adb: str, port: int) -> None:
    subprocess.run([adb, "-P", str(port), "kill-server"], capture_output=True, timeout=30, check=False,
                   env=dict(os.environ, ANDROID_ADB_SERVER_PORT=str(port)))
