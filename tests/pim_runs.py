"""Shared by the app test modules: run agents over a suite on virtual phones, read the logs back."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from spa_bench.results.schema import EpisodeLog
from spa_bench.runner.config import AgentConfig, RunConfig
from spa_bench.runner.run import run_benchmark
from spa_bench.tasks.repository import TaskFilter


def run_suite(
    suites: list[str],
    out: Path,
    agents: list[str],
    phones: int = 2,
    ids: list[str] | None = None,
    tasks_dir: Path | None = None,
    repeats: int = 1,
) -> dict[str, EpisodeLog]:
    """One run over `suites` (or `ids`), `repeats` instances of each task; the logs by episode id
    ("<agent>__<task>__r<instance>")."""
    task_filter = TaskFilter(ids=ids) if ids else TaskFilter(suites=suites)
    kwargs: dict[str, object] = {}
    if tasks_dir is not None:
        kwargs["tasks_dir"] = tasks_dir
    config = RunConfig(
        filter=task_filter,
        agents=[AgentConfig(agent=a) for a in agents],
        phones=phones,
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


# -- one run per session, shared by the four app test modules ------------------------------------------
SUITES = ["clock", "contacts", "messages", "calendar"]
_RUNS: dict[str, dict[str, EpisodeLog]] = {}


def shared_run(key: str, make: Callable[[], dict[str, EpisodeLog]]) -> dict[str, EpisodeLog]:
    """Run `make` once per test session (the apps' modules share the oracle/noop run and the near misses)."""
    if key not in _RUNS:
        _RUNS[key] = make()
    return _RUNS[key]


# -- near misses: a golden script with one value changed ---------------------------------------------
Mutation = Callable[[list[dict[str, Any]]], None]


def _replace(index: int, **changes: Any) -> Mutation:
    def apply(script: list[dict[str, Any]]) -> None:
        step = script[index]
        for key, value in changes.items():
            if key in ("text", "resource_id", "content_desc") and key in step.get("selector", {}):
                step["selector"][key] = value
            else:
                step[key] = value

    return apply


def _drop(index: int) -> Mutation:
    def apply(script: list[dict[str, Any]]) -> None:
        del script[index]

    return apply


def _chain(*mutations: Mutation) -> Mutation:
    def apply(script: list[dict[str, Any]]) -> None:
        for m in mutations:
            m(script)

    return apply


# task id -> (what goes wrong, mutation of its golden script)
NEAR_MISSES: dict[str, tuple[str, Mutation]] = {
    "clock_alarm_new_en": ("wrong hour", _replace(1, text="6")),
    "clock_alarm_off_en": ("wrong alarm switched", _replace(2, content_desc="9:00 PM")),
    "clock_alarm_weekdays_zh": ("Saturday instead of Friday", _replace(8, resource_id="day_button_5")),
    "clock_timer_zh": ("52 minutes instead of 25", _replace(1, text="52")),
    "contacts_favourite_en": (
        "Anna Li instead of Anna Lin",
        _chain(_replace(0, text="Anna Li"), _replace(1, text="Anna Li")),
    ),
    "contacts_delete_zh": (
        "黄磊 instead of 杨磊",
        _chain(_replace(0, text="黄磊"), _replace(1, text="黄磊")),
    ),
    "contacts_create_en": ("a digit swapped in the number", _replace(3, text="6505550132")),
    "messages_reply_en": ("reply to Anna Li instead of Alice Chen", _replace(0, text="Anna Li")),
    "messages_new_to_contact_zh": (
        "张薇 instead of 赵敏",
        _chain(_replace(1, text="张薇"), _replace(2, text="张薇")),
    ),
    "calendar_create_tomorrow_en": ("today instead of tomorrow", _drop(0)),
    "calendar_reschedule_zh": ("ends at 11:30, not 10:30", _replace(5, text="11:30")),
}


def write_near_misses(tasks_root: Path, out: Path) -> list[str]:
    """Copies of the near-miss tasks (id + "__near") with their scripts mutated, in a task tree at `out`."""
    import yaml

    made = []
    for suite in SUITES:
        for path in sorted((tasks_root / suite).glob("*.yaml")):
            for task in yaml.safe_load(path.read_text()):
                if task["id"] not in NEAR_MISSES:
                    continue
                _, mutate = NEAR_MISSES[task["id"]]
                mutate(task["golden_script"])
                task["id"] += "__near"
                (out / "near").mkdir(parents=True, exist_ok=True)
                (out / "near" / f"{task['id']}.yaml").write_text(yaml.safe_dump(task, allow_unicode=True))
                made.append(task["id"])
    return made


# -- the checks each app module makes ---------------------------------------------------------------------
TASKS_ROOT = Path(__file__).resolve().parents[1] / "tasks"


def near_miss_logs(tmp: Callable[[str], Path]) -> dict[str, EpisodeLog]:
    def make() -> dict[str, EpisodeLog]:
        tree = tmp("near_tasks")
        ids = write_near_misses(TASKS_ROOT, tree)
        return run_suite([], tmp("near_run"), ["oracle"], ids=ids, tasks_dir=tree)

    return shared_run("near", make)


def assert_near_misses_fail(logs: dict[str, EpisodeLog], prefix: str) -> int:
    """Every near miss of the app ran its whole (mutated) script and the state check said no."""
    mine = {k: v for k, v in logs.items() if v.task.id.startswith(prefix)}
    assert mine, f"no near misses for {prefix}"
    for log in mine.values():
        assert log.termination == "done" and all(s.valid for s in log.steps), log.episode_id
        assert not state_success(log), (log.episode_id, NEAR_MISSES[log.task.id.removesuffix("__near")][0])
    return len(mine)


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


# -- a file's tasks, three instances of the parameterised ones, in one run --------------------------------
