"""Stable identities shared by dumpsys, ps, am stack and the recents dump: object hashes, pids, task ids.

They are hashes of names, so repeated dumps agree with each other and with `ps` without any state.
"""

from __future__ import annotations

import zlib

from spa_bench.phone.system.tasks import task_id_of

LAUNCHER_PACKAGE = "com.google.android.apps.nexuslauncher"
HOME_ROOT_TASK_ID = 1  # the home root task; its child task carries the launcher's task id


def obj_id(text: str) -> str:
    """A stable 7-hex-digit identity hash, like Integer.toHexString(System.identityHashCode(o))."""
    return f"{zlib.crc32(text.encode('utf-8')) & 0xFFFFFFF:07x}"


def pid_of(package: str) -> int:
    """A stable pid for a package's process (also used by `ps` and `pidof`)."""
    return 2000 + zlib.crc32(package.encode("utf-8")) % 28000


def task_id(package: str) -> int:
    """A task id per package: the task manager's own (one formula for recents, dumps and `am stack`)."""
    return task_id_of(package)
