"""A private adb server for a benchmark: on a free port, with $HOME in a temporary folder (the phones'
console token and adb's keys stay there), killed at the end however the benchmark ends."""

from __future__ import annotations

import os
import socket
import subprocess
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextmanager
def private_adb_server(prefix: str) -> Iterator[tuple[Path, str]]:
    """(the temporary folder, the adb server's port); this process's environment points at both."""
    from adbutils._utils import adb_path

    with tempfile.TemporaryDirectory(prefix=prefix) as tmp:
        port = str(free_port())
        os.environ["ANDROID_ADB_SERVER_PORT"] = port
        os.environ["HOME"] = tmp
        subprocess.run([adb_path(), "start-server"], capture_output=True, check=True, timeout=60)
        try:
            yield Path(tmp), port
        finally:
            subprocess.run([adb_path(), "-P", port, "kill-server"], capture_output=True, timeout=30,
                           check=False)
