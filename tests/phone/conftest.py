"""Fixtures for the virtual phone's tests: a private real adb server and phones connected to it.

The adb server is the binary bundled with adbutils, on a private ANDROID_ADB_SERVER_PORT, killed at the
end of the session. Its HOME is a temporary folder, so `adb emu` reads the console token written there
and nothing touches the user's home directory.
"""

from __future__ import annotations

import os
import subprocess
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from cli_helpers import kill_adb_server, start_private_adb_server


def bundled_adb() -> Path:
    import adbutils

    return Path(adbutils.__file__).parent / "binaries" / "adb"


@dataclass
class AdbCli:
    """The adb command line against one private server."""

    binary: Path
    port: int
    home: Path
    env: dict[str, str] = field(default_factory=dict)

    def run(self, *args: str, timeout: float = 60, check: bool = True, input: bytes | None = None,
            serial: str | None = None) -> subprocess.CompletedProcess[bytes]:
        cmd = [str(self.binary), *(["-s", serial] if serial else []), *args]
        proc = subprocess.run(cmd, env=self.env, capture_output=True, timeout=timeout, input=input or b"")
        if check and proc.returncode != 0:
            raise AssertionError(f"{' '.join(cmd)} -> {proc.returncode}\nstdout: {proc.stdout[-2000:]!r}\n"
                                 f"stderr: {proc.stderr[-2000:]!r}")
        return proc

    def text(self, *args: str, serial: str | None = None, timeout: float = 60) -> str:
        return self.run(*args, serial=serial, timeout=timeout).stdout.decode("utf-8", errors="replace")

    def client(self) -> Any:
        import adbutils

        return adbutils.AdbClient(host="127.0.0.1", port=self.port)

    def connect(self, serial: str) -> None:
        for _ in range(50):
            out = self.text("connect", serial)
            if "connected" in out and "cannot" not in out and "failed" not in out:
                break
            time.sleep(0.1)
        for _ in range(100):
            if f"{serial}\tdevice" in self.text("devices"):
                return
            time.sleep(0.05)
        raise AssertionError(f"{serial} never came online:\n{self.text('devices', '-l')}")


@pytest.fixture(scope="session")
def adb_cli(tmp_path_factory: pytest.TempPathFactory) -> Iterator[AdbCli]:
    """A private adb server for the whole session (killed at the end)."""
    home = tmp_path_factory.mktemp("adb-home")
    port = start_private_adb_server(str(bundled_adb()), dict(os.environ, HOME=str(home)))
    env = dict(os.environ, ANDROID_ADB_SERVER_PORT=str(port), HOME=str(home))
    cli = AdbCli(bundled_adb(), port, home, env)
    try:
        yield cli
    finally:
        kill_adb_server(str(cli.binary), port)


@dataclass
class PhoneHandle:
    """A running virtual phone connected to the session's adb server."""

    phone: Any  # spa_bench.phone.server.VirtualPhone
    adb: AdbCli
    serial: str

    def shell(self, command: str, timeout: float = 60) -> str:
        return self.adb.text("shell", command, serial=self.serial, timeout=timeout)

    def device(self) -> Any:
        return self.adb.client().device(self.serial)

    def reset(self) -> None:
        """Back to the state right after boot (snapshot `pristine`, taken when the phone started)."""
        self.phone.snapshots.load("pristine")


@pytest.fixture(scope="module")
def running_phone(tmp_path_factory: pytest.TempPathFactory, adb_cli: AdbCli) -> Iterator[PhoneHandle]:
    """One phone per test module, 1080x2400, English; tests call `reset()` for a clean state."""
    from dataclasses import replace

    from spa_bench.phone.api import PhoneConfig
    from spa_bench.phone.server import AUTO_PORT, VirtualPhone

    data_dir = tmp_path_factory.mktemp("phone")
    config = replace(PhoneConfig(), port=AUTO_PORT, data_dir=data_dir)  # binds a free pair, whatever races
    phone = VirtualPhone(config, token_path=adb_cli.home / ".emulator_console_auth_token")
    phone.start()
    try:
        phone.snapshots.save("pristine")
        adb_cli.connect(phone.serial)
        yield PhoneHandle(phone, adb_cli, phone.serial)
    finally:
        adb_cli.run("disconnect", phone.serial, check=False)
        phone.stop()
