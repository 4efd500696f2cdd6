"""adbd's own state: whether it runs as root, and its `root:` / `unroot:` services.

As daemon/restart_service.cpp does on a debuggable (userdebug) build: `root:` answers
`restarting adbd as root` (or `adbd is already running as root`), sets service.adb.root, and adbd
restarts - every host connection drops, and the adb server reconnects (the adb CLI waits for the device
to go away and come back; adbutils just reads the answer). `unroot:` is the reverse. The flag lives on
the phone's system (`adb_root`), which the shell and the sync service consult for file permissions.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

from spa_bench.phone.adb.stream import Stream
from spa_bench.phone.api import PhoneSystem

# Let the reply and the stream's close reach the host before the connections drop.
RESTART_DELAY_S = 0.2
ALREADY_ROOT = b"adbd is already running as root\n"
NOT_ROOT = b"adbd not running as root\n"


class Adbd:
    def __init__(self, system: PhoneSystem) -> None:
        self.system = system
        self.on_restart: Callable[[], None] = lambda: None  # set by the server: drop every connection

    def _switch(self, stream: Stream, to_root: bool) -> None:
        with self.system.lock:
            if self.system.adb_root == to_root:
                stream.write(ALREADY_ROOT if to_root else NOT_ROOT)
                return
        stream.write(b"restarting adbd as root\n" if to_root else b"restarting adbd as non root\n")
        threading.Thread(target=self._restart, args=(to_root,), name="adbd-restart", daemon=True).start()

    def _restart(self, to_root: bool) -> None:
        """The new adbd: root and the dropped connections together, under the system's lock, as on a device
        where only the restarted adbd runs as root. `id` reads the flag under that lock, so a host that
        reads uid 0 has it from a connection made after the drop (the harness's become_root relies on
        it: under load the restart can come seconds late, and a command sent on an old connection then
        fails with "connection reset")."""
        time.sleep(RESTART_DELAY_S)
        with self.system.lock:
            self.system.adb_root = to_root
            self.on_restart()

    def root(self, stream: Stream) -> None:
        self._switch(stream, True)

    def unroot(self, stream: Stream) -> None:
        self._switch(stream, False)
