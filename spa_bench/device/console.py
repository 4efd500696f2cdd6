"""A client for the emulator console (telnet on the emulator's even port: 5554 for emulator-5554).

Real emulators and the virtual phone both speak it; we use it to load snapshots. The auth token lives in
~/.emulator_console_auth_token (an empty file means no auth).
"""

from __future__ import annotations

import socket
import time
from pathlib import Path

from spa_bench.errors import ConfigError, DeviceCommandFailed, DeviceOffline, DeviceTimeout

TOKEN_FILE = Path("~/.emulator_console_auth_token")


def parse_device(text: str) -> tuple[str, int | None]:
    """`SERIAL` or `SERIAL=CONSOLE_PORT` (a device over TCP whose emulator console is on that port)."""
    serial, sep, console = text.partition("=")
    if not sep:
        return serial, None
    if not console.isdigit() or not 0 < int(console) < 65536:
        raise ConfigError(f"--device {text!r}: the console port after '=' must be a port number")
    return serial, int(console)


class EmulatorConsole:
    def __init__(self, port: int, host: str = "127.0.0.1", timeout: float = 30.0,
                 token_file: Path = TOKEN_FILE) -> None:
        self.host, self.port, self.timeout = host, port, timeout
        self.token_file = token_file

    def _read_until_status(self, sock: socket.socket) -> str:
        """Read until a line that is OK or starts with KO; return everything before it."""
        data = b""
        deadline = time.monotonic() + self.timeout
        while True:
            lines = data.split(b"\r\n") if b"\r\n" in data else data.split(b"\n")
            for i, line in enumerate(lines[:-1]):
                text = line.decode("utf-8", "replace").strip()
                if text == "OK" or text.startswith("KO"):
                    if text.startswith("KO"):
                        raise DeviceCommandFailed(f"console {self.port}: {text}")
                    return "\n".join(x.decode("utf-8", "replace") for x in lines[:i])
            if time.monotonic() > deadline:
                raise DeviceTimeout(f"console {self.port}: no answer within {self.timeout:.0f} s")
            chunk = sock.recv(65536)
            if not chunk:
                raise DeviceOffline(f"console {self.port}: connection closed")
            data += chunk

    def command(self, line: str) -> str:
        """Run one console command (authenticating first when a token exists); return its output."""
        try:
            sock = socket.create_connection((self.host, self.port), timeout=self.timeout)
        except TimeoutError:
            raise DeviceTimeout(f"console {self.host}:{self.port}: connect timed out") from None
        except OSError as exc:
            raise DeviceOffline(f"console {self.host}:{self.port}: {exc.strerror or exc}") from None
        with sock:
            try:
                self._read_until_status(sock)  # greeting
                token_path = self.token_file.expanduser()
                token = token_path.read_text().strip() if token_path.is_file() else ""
                if token:
                    sock.sendall(f"auth {token}\r\n".encode())
                    self._read_until_status(sock)
                sock.sendall(line.encode() + b"\r\n")
                return self._read_until_status(sock)
            except TimeoutError:
                raise DeviceTimeout(f"console {self.port}: {line!r} timed out") from None
            except OSError as exc:
                raise DeviceOffline(f"console {self.port}: {exc}") from None

    def snapshot_load(self, name: str) -> None:
        self.command(f"avd snapshot load {name}")

    def snapshot_save(self, name: str) -> None:
        self.command(f"avd snapshot save {name}")
