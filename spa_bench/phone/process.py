"""Virtual phones in their own processes.

A phone renders screens and encodes PNGs in Python; run inside the harness process, N phones and the
harness share one GIL and so one core. `start_phone_processes` runs each phone in a process of its own
instead, so a run uses every core: on Linux a fork of this process's warm zygote (spa_bench.phone.zygote:
0.17 s and a shared copy of the code, fonts and pictures), elsewhere or with SPA_BENCH_PHONE_ZYGOTE=0
`python -m spa_bench phone start ...`. The process handle offers what the runner needs: serial, console
port, pid, stop, kill.

A phone process dies with the process that started it, however that one ends (SIGKILL included): it
watches a pipe whose only writer is the harness (a new interpreter's stdin, `--exit-with-parent`; a
zygote's "alive" pipe) and stops when the pipe reaches end of file - which the kernel makes happen when
the harness's descriptors close. (Linux's
PR_SET_PDEATHSIG would not do: it fires when the *thread* that forked the child ends, and phones are
started from worker threads too; and the pipe works on every platform.)
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType

from spa_bench.errors import PhoneError
from spa_bench.phone.server import check_locale, parse_size
from spa_bench.phone.system.clock import parse_clock
from spa_bench.phone.zygote import ForkedPhone, shared_zygote, zygote_supported

READY_TIMEOUT_S = 60.0


@dataclass
class PhoneProcess:
    port: int
    data_dir: Path
    process: subprocess.Popen[bytes] | ForkedPhone  # a new interpreter, or a fork of the zygote
    log_path: Path

    @property
    def pid(self) -> int:
        return self.process.pid

    @property
    def serial(self) -> str:
        return f"127.0.0.1:{self.port}"

    @property
    def console_port(self) -> int:
        return self.port - 1

    @property
    def alive(self) -> bool:
        return self.process.poll() is None

    def log_tail(self, limit: int = 2000) -> str:
        try:
            return self.log_path.read_text(encoding="utf-8", errors="replace")[-limit:]
        except OSError:
            return ""

    def stop(self, timeout: float = 10.0) -> None:
        """SIGTERM (the phone stops cleanly), then SIGKILL if it does not."""
        if self.alive:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=timeout)
        self._close_pipe()

    def _close_pipe(self) -> None:
        if isinstance(self.process, ForkedPhone):
            self.process.close()
        elif self.process.stdin is not None:
            with contextlib.suppress(OSError):
                self.process.stdin.close()

    def kill(self) -> None:
        """Die like a crashed device: no clean-up."""
        if self.alive:
            self.process.kill()
            self.process.wait(timeout=10)
        self._close_pipe()


READY_FILE = "ready.json"  # written by the phone process once both its ports listen: {"port": P}


def _fresh_data_dir(data_dir: Path) -> Path:
    """The phone's data dir, absolute, made if missing, without an earlier phone's ready file."""
    data_dir = data_dir.resolve()
    data_dir.mkdir(parents=True, exist_ok=True)
    (data_dir / READY_FILE).unlink(missing_ok=True)
    return data_dir


def _spawn(data_dir: Path, locale: str, size: str, clock: str | None = None) -> subprocess.Popen[bytes]:
    """`spa-bench phone start --port 0`: the phone picks and binds a free pair itself and names it in
    data_dir/ready.json. The parent never picks a port another process could take before the child binds
    it (and then mistake that process's listener for its phone)."""
    data_dir = _fresh_data_dir(data_dir)
    with open(data_dir / "phone.log", "wb") as log:
        return subprocess.Popen(
            [sys.executable, "-m", "spa_bench", "phone", "start", "--port", "0", "--locale", locale,
             "--size", size, "--data-dir", str(data_dir), *(["--clock", clock] if clock else []),
             "--ready-file", str(data_dir / READY_FILE), "--exit-with-parent"],
            stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.PIPE,  # never written: see the docstring
            cwd=data_dir,  # as a zygote's phones: /proc/PID/cwd tells which phone a process is
            env=dict(os.environ, COLUMNS="200"), start_new_session=True)


def write_ready_file(path: Path, port: int) -> None:
    """Name the phone's ADB port in `path`, whole or not at all (written beside it, then renamed)."""
    partial = path.with_name(path.name + ".partial")
    partial.write_text(json.dumps({"port": port, "console_port": port - 1, "pid": os.getpid()}),
                       encoding="utf-8")
    partial.replace(path)


def read_ready_file(path: Path) -> int | None:
    """The port a phone process reported, None while it has not."""
    try:
        return int(json.loads(path.read_text(encoding="utf-8"))["port"])
    except FileNotFoundError:
        return None


def _wait_ready(process: subprocess.Popen[bytes] | ForkedPhone, data_dir: Path) -> PhoneProcess:
    """The phone once it has reported its ports (it binds them before it reports)."""
    log_path = data_dir / "phone.log"
    deadline = time.monotonic() + READY_TIMEOUT_S
    while time.monotonic() < deadline:
        port = read_ready_file(data_dir / READY_FILE)
        if port is not None:
            return PhoneProcess(port, data_dir, process, log_path)
        if process.poll() is not None:
            tail = log_path.read_text(encoding="utf-8", errors="replace")[-600:]
            raise PhoneError(f"virtual phone in {data_dir} exited at start: {tail}")
        time.sleep(0.02)
    process.kill()
    process.wait(timeout=10)
    raise PhoneError(f"virtual phone in {data_dir} not ready after {READY_TIMEOUT_S:.0f} s")


class ProcessPhonePool:
    """N phone processes; stopping the pool stops them all and removes a data root it created."""

    def __init__(self, phones: list[PhoneProcess], owned_root: Path | None) -> None:
        self.phones = phones
        self._owned_root = owned_root

    @property
    def serials(self) -> list[str]:
        return [p.serial for p in self.phones]

    def stop(self) -> None:
        for phone in self.phones:
            with contextlib.suppress(OSError, subprocess.SubprocessError):
                phone.stop()
        if self._owned_root is not None:
            shutil.rmtree(self._owned_root, ignore_errors=True)

    def __enter__(self) -> ProcessPhonePool:
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.stop()


def use_zygote() -> bool:
    """Fork phones from this process's zygote (spa_bench.phone.zygote) where the platform allows it,
    unless SPA_BENCH_PHONE_ZYGOTE=0 asks for a new interpreter per phone."""
    return zygote_supported() and os.environ.get("SPA_BENCH_PHONE_ZYGOTE", "1") != "0"


def start_phone_processes(n: int, size: str = "1080x2400", locale: str = "en",
                          data_root: Path | None = None, clock: str | None = None) -> ProcessPhonePool:
    """Start n phones, each in its own process (forked from the zygote, or a new interpreter: see
    `use_zygote`), on free port pairs; return when all accept ADB.
    `clock`: freeze the phones' clocks at this ISO 8601 time (spa_bench.phone.system.clock)."""
    if n < 1:
        raise PhoneError(f"invalid number of phones {n}: must be at least 1")
    parse_size(size)
    check_locale(locale)
    if clock:
        parse_clock(clock)
    owned = Path(tempfile.mkdtemp(prefix="spa-phones-")) if data_root is None else None
    root = data_root if data_root is not None else owned
    assert root is not None
    started: list[tuple[subprocess.Popen[bytes] | ForkedPhone, Path]] = []
    phones: list[PhoneProcess] = []
    try:
        zygote = shared_zygote() if use_zygote() else None
        for i in range(n):  # all start at once, then each is waited for
            data_dir = root / f"phone-{i}"
            if zygote is None:
                started.append((_spawn(data_dir, locale, size, clock), data_dir))
                continue
            started.append((zygote.spawn(_fresh_data_dir(data_dir), locale, size, clock), data_dir))
        for process, data_dir in started:
            phones.append(_wait_ready(process, data_dir))
    except BaseException:
        for process, _ in started[len(phones):]:
            with contextlib.suppress(OSError, subprocess.SubprocessError):
                process.kill()
                process.wait(timeout=10)
        ProcessPhonePool(phones, owned).stop()
        raise
    return ProcessPhonePool(phones, owned)
