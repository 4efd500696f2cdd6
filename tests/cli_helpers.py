"""Helpers for tests: run the real `spa-bench` entry point in-process and capture what it prints and its
exit code; find a free loopback port."""

from __future__ import annotations

import socket
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
