"""Shared by the app test modules: run agents over a suite on virtual phones, read the logs back."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from spa_bench.device.device import Device
from spa_bench.results.schema import EpisodeLog
from spa_bench.runner.config import AgentConfig, RunConfig
from spa_bench.runner.pool import DevicePool, start_virtual_pool
from spa_bench.runner.run import run_benchmark
from spa_bench.tasks.repository import TaskFilter, TaskRecord

SHARED_PHONES, SHARED_SIZE = 2, "1080x2400"
# The hard suite's tasks are long (15-40 steps): the test suite runs a seeded sample of each of its files;
# `spa-bench tasks verify --suite hard --seeds 3` runs them all under every probe.
HARD_SUITE, HARD_SAMPLE_PER_FILE, HARD_SAMPLE_SEED = "hard", 2, 2026
_shared: DevicePool | None = None


def shared_devices(n: int) -> list[Device]:
    """`n` virtual phones (at most SHARED_PHONES) shared by every run of this test process, started on
    first use and stopped when the session's adb server is (conftest's adb_env). Runs on them are as
    independent as runs on phones of their own: every episode loads its language's base snapshot."""
    global _shared
    if _shared is None:
        # their clock: $SPA_BENCH_PHONE_CLOCK (conftest)
        _shared = start_virtual_pool(SHARED_PHONES, size=SHARED_SIZE)
    assert n <= SHARED_PHONES, f"the shared pool has {SHARED_PHONES} phones, {n} asked for"
    return _shared.devices[:n]


def on_shared_phones(phones: int = 1, size: str = SHARED_SIZE) -> dict[str, Any]:
    """The RunConfig fields that put a run on `phones` of the shared phones; a run that wants another
    screen size starts phones of its own."""
    if size != SHARED_SIZE:
        return {"phones": phones, "phone_size": size}
    devices = shared_devices(phones)
    return {"devices": [d.serial for d in devices],
            "console_ports": {d.serial: d.console_port for d in devices if d.console_port is not None}}


def on_shared_phones_args(phones: int = 1) -> list[str]:
    """`spa-bench run` options that put a run on `phones` of the shared phones (`--device 127.0.0.1:P`:
    the run finds each one's console itself)."""
    return [option for device in shared_devices(phones) for option in ("--device", device.serial)]


def close_shared_devices() -> None:
    global _shared
    if _shared is not None:
        _shared.close()
        _shared = None


def run_suite(
    suites: list[str],
    out: Path,
    agents: list[str],
    phones: int = 2,
    ids: list[str] | None = None,
    tasks_dir: Path | None = None,
    repeats: int = 1,
) -> dict[str, EpisodeLog]:
    """One run over `suites` (or `ids`), `repeats` instances of each task, on `phones` of the shared
    phones; the logs by episode id ("<agent>__<task>__r<instance>")."""
    task_filter = TaskFilter(ids=ids) if ids else TaskFilter(suites=suites)
    kwargs: dict[str, object] = {}
    if tasks_dir is not None:
        kwargs["tasks_dir"] = tasks_dir
    config = RunConfig(
        filter=task_filter,
        agents=[AgentConfig(agent=a) for a in agents],
        **on_shared_phones(phones),
        out=out,
        seed=11,
        repeats=repeats,
        **kwargs,
    )
    result = run_benchmark(config)
    assert result.summary.undone == [], result.summary.undone
    return {log.episode_id: log for log in result.logs}


def state_success(log: EpisodeLog) -> bool:
    verdicts = [v for v in log.verdicts if v.evaluator == "state"]
    assert len(verdicts) == 1, log.episode_id
    return bool(verdicts[0].success)


def failures(logs: dict[str, EpisodeLog], agent: str, expected: bool) -> list[str]:
    """Episodes of `agent` whose state verdict is not `expected`, with the evidence, for the assert."""
    bad = []
    for log in logs.values():
        if log.agent.name == agent and state_success(log) is not expected:
            evidence = [e.summary for v in log.verdicts for e in v.evidence]
            errors = [e.message for e in log.errors]
            bad.append(f"{log.episode_id}: {evidence} {errors} termination={log.termination}")
    return bad


# -- the checks each app module makes ---------------------------------------------------------------------
TASKS_ROOT = Path(__file__).resolve().parents[1] / "tasks"


def ocr_read(ocr: Any, locale: str, package: str, tmp: Path, png: str) -> list[str]:
    """Boot a phone in `locale`, open `package`, OCR the screen; the normalised texts read."""
    from spa_bench.phone.api import PhoneConfig
    from spa_bench.phone.system import PhoneOS
    from spa_bench.phone.vfs import VirtualFS

    phone = PhoneOS(PhoneConfig(locale=locale), VirtualFS(tmp / "fs"))  # type: ignore[arg-type]
    phone.start_activity(package)
    image = phone.screenshot()
    image.save(png)
    result = ocr(image)
    return [norm(t) for t in (result.txts or ())]


def norm(text: str) -> str:
    return "".join(text.split()).casefold()


def missing_labels(read: list[str], expected: list[str]) -> list[str]:
    return [label for label in expected if not any(norm(label) in r for r in read)]


# -- which tasks the test suite runs ------------------------------------------------------------------------


def hard_sample(records: list[TaskRecord], per_file: int = HARD_SAMPLE_PER_FILE,
                seed: int = HARD_SAMPLE_SEED) -> list[TaskRecord]:
    """The records to run in the suite: all of them, except for the hard suite's files, of which a
    seeded sample of `per_file` tasks each."""
    by_file: dict[Path, list[TaskRecord]] = {}
    for record in records:
        by_file.setdefault(record.file, []).append(record)
    chosen: list[TaskRecord] = []
    for file in sorted(by_file):
        group = sorted(by_file[file], key=lambda r: r.id)
        if group[0].suite == HARD_SUITE:
            group = random.Random(f"{seed}:{file.name}").sample(group, min(per_file, len(group)))
        chosen += group
    return chosen
