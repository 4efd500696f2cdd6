"""Run one phone in this process until it is asked to stop: `spa-bench phone start` and every phone a
zygote forks (spa_bench.phone.zygote) share this loop.

Ctrl-C and SIGTERM only note the request; the loop stops the phone. A KeyboardInterrupt, or phone.stop()
run inside a signal handler, can land while the main thread holds the lock inside phone.wait() (an
Event's), and stop() then waits forever for that lock: the likely cause of one hang after Ctrl-C seen
under load (test_cli_start_prints_connect_line_and_stops_on_sigint).
"""

from __future__ import annotations

import os
import signal
import threading
from collections.abc import Callable
from pathlib import Path
from types import FrameType

from spa_bench.phone import malloc
from spa_bench.phone.api import PhoneConfig


def phone_config(*, port: int, locale: str, size: str, data_dir: Path, clock: str | None) -> PhoneConfig:
    """A phone's config from `phone start`'s options (checked: a bad size, locale or clock raises)."""
    from dataclasses import replace

    from spa_bench.phone.server import check_locale, parse_size
    from spa_bench.phone.system.clock import parse_clock

    width, height = parse_size(size)
    return replace(PhoneConfig(), port=port, locale=check_locale(locale), width=width, height=height,
                   data_dir=data_dir, frozen_clock=parse_clock(clock) if clock else None)


def stop_when_closed(fd: int, stop: Callable[[], None]) -> threading.Thread:
    """Call `stop` (from a daemon thread) once `fd`, the read end of a pipe, reaches end of file or fails:
    the process holding its only write end has exited. Whatever is written is ignored."""

    def watch() -> None:
        try:
            while os.read(fd, 4096):
                pass
        except OSError:
            pass
        stop()

    thread = threading.Thread(target=watch, name="exit-with-parent", daemon=True)
    thread.start()
    return thread


IDLE_TICK_S = 0.5


class IdleTrim:
    """Releases the screen's band buffer and hands the memory malloc keeps free back to the kernel once a
    phone that served commands has had none for a whole tick: between an agent's steps, not in the middle
    of them. A phone stepped back to back never trims; trimming after every step cost 0.8 ms on 8-9 (0.2
    for the trim, the rest page faults on the 1 MB the next step takes again), which a phone stepped by an
    agent that thinks between steps pays once per step - while it would otherwise wait - for 1.8 MB less
    memory while it waits."""

    def __init__(self, activity: Callable[[], int], release: Callable[[], None] = lambda: None) -> None:
        self._activity = activity  # a number that changes with every command (the ADB audit's next seq)
        self._release = release  # what the phone keeps only to serve the next command faster
        self._seen = activity()
        self._worked = False

    def tick(self) -> None:
        now = self._activity()
        if now != self._seen:
            self._seen, self._worked = now, True
        elif self._worked:
            self._worked = False
            self._release()
            malloc.trim()


def run_phone(config: PhoneConfig, *, ready_file: Path | None = None, parent_fd: int | None = None,
              say: Callable[[str], None] = print) -> None:
    """Start a phone on `config`, name its port in `ready_file`, and serve until SIGINT, SIGTERM, the
    console's `kill`, or end of file on `parent_fd` (the harness that started it has gone)."""
    from spa_bench.phone.process import write_ready_file
    from spa_bench.phone.server import VirtualPhone

    # One malloc arena, before the serving threads start: glibc would give each new thread an arena of its
    # own (up to 8 per core), each keeping its own free memory; a phone's threads take turns on the GIL.
    malloc.mallopt(malloc.M_ARENA_MAX, 1)
    phone = VirtualPhone(config)
    phone.start()
    config = phone.config  # with port 0, the pair it bound
    if ready_file is not None:
        write_ready_file(ready_file, config.port)
    requested: list[int] = []

    def _on_signal(signum: int, _frame: FrameType | None) -> None:
        requested.append(signum)

    previous = {sig: signal.signal(sig, _on_signal) for sig in (signal.SIGINT, signal.SIGTERM)}
    if parent_fd is not None:
        stop_when_closed(parent_fd, phone.stop)
    try:
        say(f"Virtual phone running: ADB on 127.0.0.1:{config.port}, console on 127.0.0.1:"
            f"{config.console_port}, {config.width}x{config.height}, locale {config.locale}, "
            f"data in {config.data_dir}")
        say(f"Connect with:  adb connect 127.0.0.1:{config.port}")
        if 5555 <= config.port <= 5585 and config.port % 2 == 1:
            say(f"(an adb server started after it also lists it as {phone.emulator_serial})")
        say("Press Ctrl-C to stop.")
        idle = IdleTrim(phone.audit.mark, phone.release_frame_buffer)
        while not requested and not phone.wait(IDLE_TICK_S):
            idle.tick()
        say("stopping the phone..." if signal.SIGINT in requested else "phone stopped")
    finally:
        phone.stop()
        for sig, handler in previous.items():
            signal.signal(sig, handler)
