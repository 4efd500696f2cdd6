"""A raw client of the virtual phone's emulator-style console for tests: it reads whole replies (up to
the OK / KO line that ends each) so tests can compare the console's exact wording."""

from __future__ import annotations

import socket


class ConsoleClient:
    def __init__(self, port: int) -> None:
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=5)
        self.buf = b""
        self.greeting = self.reply()

    def reply(self) -> str:
        """Everything up to and including the next line that is OK or starts with KO / OK:."""
        while True:
            text = self.buf.decode("utf-8", "replace")
            lines = text.split("\r\n")
            for i, line in enumerate(lines[:-1]):
                if line == "OK" or line.startswith(("KO:", "OK:")):
                    consumed = "\r\n".join(lines[:i + 1]) + "\r\n"
                    self.buf = self.buf[len(consumed.encode()):]
                    return consumed
            chunk = self.sock.recv(65536)
            if not chunk:
                raise EOFError(text)
            self.buf += chunk

    def cmd(self, line: str) -> str:
        self.sock.sendall(line.encode() + b"\r\n")
        return self.reply()

    def closed(self) -> bool:
        self.sock.settimeout(3)
        try:
            return self.sock.recv(1) == b""
        except OSError:
            return True

    def close(self) -> None:
        self.sock.close()
