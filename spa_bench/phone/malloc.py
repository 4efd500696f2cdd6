"""glibc malloc tuning for phone processes; every function is a no-op where the C library is not glibc.

A phone's memory is mostly the zygote's pages (shared until written) plus what its serving threads
allocate. glibc's malloc gives each new thread an arena of its own (up to 8 per core) and keeps freed
memory in it for the next allocation, so a few requests leave megabytes resident per phone that no one
uses. These calls let the phone, and the zygote before it forks, hand such memory back.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import functools

M_ARENA_MAX = -8  # mallopt's parameter, from glibc's malloc.h


@functools.cache
def _libc() -> ctypes.CDLL | None:
    """glibc, or None elsewhere (musl, macOS, Windows): there mallopt / malloc_trim do not exist or mean
    something else."""
    name = ctypes.util.find_library("c")
    if name is None:
        return None
    try:
        libc = ctypes.CDLL(name)
        libc.gnu_get_libc_version  # noqa: B018  (only glibc has it)
    except (OSError, AttributeError):
        return None
    return libc


def mallopt(param: int, value: int) -> bool:
    """Set one malloc parameter; False if not glibc or glibc refused it."""
    libc = _libc()
    return libc is not None and bool(libc.mallopt(ctypes.c_int(param), ctypes.c_int(value)))


def trim() -> bool:
    """Return free malloc memory to the kernel, in every arena (not only the heap's top); True if some
    was released."""
    libc = _libc()
    return libc is not None and bool(libc.malloc_trim(ctypes.c_size_t(0)))
