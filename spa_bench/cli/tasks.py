"""`spa-bench tasks ...`: list, show, validate, print the schema, import SPA-Bench's files."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import TYPE_CHECKING

import typer
from rich.table import Table

from spa_bench.cli.common import console, console_err
from spa_bench.errors import ConfigError

if TYPE_CHECKING:
    from spa_bench.tasks.repository import TaskFilter, TaskRecord, TaskRepository

app = typer.Typer(help="Browse, validate and import tasks.", no_args_is_help=True)

TasksDir = typer.Option(None, "--tasks-dir", "-t", help="Task tree to use (default: the shipped tasks, "
                                                        "or $SPA_BENCH_TASKS).")
SuiteOpt = typer.Option([], "--suite", "-s", help="Suite: a folder under the task tree or a named suite.")
LangOpt = typer.Option([], "--lang", "-l", help="Language: en or zh.")
AppOpt = typer.Option([], "--app", "-a", help="App package or display name.")
DiffOpt = typer.Option([], "--difficulty", "-d", help="Difficulty 1, 2 or 3.")
CatOpt = typer.Option([], "--category", "-c", help="single_app or cross_app.")
TaskOpt = typer.Option([], "--task", help="Task id or glob pattern, e.g. 'settings_*'.")
TagOpt = typer.Option([], "--tag", help="Tasks carrying this tag (any of those given), e.g. retrieval.")
PortableOpt = typer.Option(False, "--portable", help="Only the portable tasks (tag `portable`): their checks "
                                                      "read only what a stock emulator image has.")
LimitOpt = typer.Option(None, "--limit", min=1, help="At most N of the selected tasks (the first N in the "
                                                     "order `tasks list` shows them).")
SampleOpt = typer.Option(None, "--sample", min=1, help="N of the selected tasks drawn at random by --seed "
                                                       "(the same N tasks for the same seed).")
DEFAULT_PHONES = 1
"""Virtual phones a command starts unless told (`run`, `tasks verify`): one per core is faster, and
`--phones N` says so; one default so that the same command line means the same machine load."""
PhonesOpt = typer.Option(DEFAULT_PHONES, "--phones", min=1, help="Virtual phones to start (when no "
                                                                 "--device); more run episodes in parallel.")
RepeatsOpt = typer.Option(1, "--repeats", "--seeds", min=1, help="Instances of each task (a parameterised "
                                                                 "task draws new values for each); --seeds "
                                                                 "is the same option.")


def _repository(tasks_dir: Path | None) -> TaskRepository:
    from spa_bench.tasks.repository import TaskRepository, default_tasks_root

    return TaskRepository(tasks_dir if tasks_dir is not None else default_tasks_root())


def narrow(tasks_dir: Path | None, selected: TaskFilter, limit: int | None, sample: int | None,
           seed: int) -> TaskFilter:
    """The filter narrowed to `--sample N` tasks drawn by `seed`, then the first `--limit N`, named by id
    (so the run's manifest records exactly which tasks). Unchanged without either option."""
    import random

    repo = _repository(tasks_dir)
    _known_values(repo, selected)
    if limit is None and sample is None:
        return selected
    ids = [r.id for r in repo.select(selected)]
    if not ids:
        return selected  # selects nothing already; an empty id list would select everything
    if sample is not None and sample < len(ids):
        chosen = set(random.Random(seed).sample(ids, sample))
        ids = [i for i in ids if i in chosen]
    return selected.model_copy(update={"ids": ids[:limit] if limit is not None else ids})


def _known_values(repo: TaskRepository, selected: TaskFilter) -> None:
    """A filter value that no task in the tree has (an app, a tag, a difficulty, a task id without
    wildcards) is a ConfigError naming it, with "did you mean" and what there is, rather than an empty
    selection."""
    import difflib

    records = repo.select()
    names = {name for r in records for name in r.app_names}
    tags = {t for r in records for t in r.tags}
    # option, values given, values known, values listed in the message (None: too many to list)
    given: list[tuple[str, list[str], set[str], set[str] | None]] = [
        ("--app", selected.apps, names | {p for r in records for p in r.packages}, names),
        ("--tag", selected.tags, tags, tags),
        ("--difficulty", [str(d) for d in selected.difficulties], {str(r.difficulty) for r in records}, None),
        ("--task", [i for i in selected.ids if not any(c in i for c in "*?[")], {r.id for r in records},
         None)]
    for option, values, known, shown in given:
        folded = {k.casefold() for k in known}
        for value in values:
            if value.casefold() in folded:
                continue
            near = difflib.get_close_matches(value, sorted(known), n=1)
            hint = f"; did you mean {near[0]!r}?" if near else ""
            listed = sorted(shown if shown is not None else known)
            there = f" (there are: {', '.join(listed)})" if len(listed) <= 60 else \
                " (`spa-bench tasks list` lists them)"
            raise ConfigError(f"{option} {value!r}: no task in {repo.root} has it{hint}{there}")


def build_filter(suite: list[str], lang: list[str], app_: list[str], difficulty: list[int],
                 category: list[str], task: list[str], tag: list[str] | None = None,
                 portable: bool = False) -> TaskFilter:
    from pydantic import ValidationError

    from spa_bench.tasks.repository import TaskFilter

    try:
        tags = [*(tag or []), *(["portable"] if portable else [])]
        return TaskFilter.model_validate({"suites": suite, "languages": lang, "apps": app_,
                                          "difficulties": difficulty, "categories": category, "ids": task,
                                          "tags": tags})
    except ValidationError as exc:
        import difflib

        err = exc.errors()[0]
        field = str(err["loc"][0])
        option = {"languages": "--lang", "categories": "--category", "difficulties": "--difficulty"}.get(
            field, field)
        allowed = {"languages": ["en", "zh"], "categories": ["single_app", "cross_app"]}.get(field)
        if allowed is None:
            raise ConfigError(f"{option}: {err['msg']} (got {err.get('input')!r})") from None
        value = str(err.get("input"))
        near = difflib.get_close_matches(value, allowed, n=1, cutoff=0.4)
        hint = f"; did you mean {near[0]!r}?" if near else ""
        raise ConfigError(f"{option} {value!r}: not one of {', '.join(allowed)}{hint}") from None


WIDE_TASKS = 120  # terminal columns from which `tasks list` shows suite, category and apps


@app.command("list")
def list_tasks(
    tasks_dir: Path | None = TasksDir, suite: list[str] = SuiteOpt, lang: list[str] = LangOpt,
    app_: list[str] = AppOpt, difficulty: list[int] = DiffOpt, category: list[str] = CatOpt,
    task: list[str] = TaskOpt, tag: list[str] = TagOpt, portable: bool = PortableOpt,
    limit: int | None = LimitOpt, sample: int | None = SampleOpt,
    seed: int = typer.Option(0, "--seed", help="Seed of --sample."),
    counts: bool = typer.Option(False, "--counts", help="Print counts per language (apps, difficulty, "
                                                       "cross-app, retrieval, infeasible, parameterised, "
                                                       "portable) instead of the tasks."),
    as_json: bool = typer.Option(False, "--json", help="One JSON object per line."),
) -> None:
    """List tasks (fast: reads the index, does not build tasks)."""
    repo = _repository(tasks_dir)
    selected = build_filter(suite, lang, app_, difficulty, category, task, tag, portable)
    records = repo.select(narrow(tasks_dir, selected, limit, sample, seed))
    if as_json:
        for r in records:
            typer.echo(json.dumps({"id": r.id, "suite": r.suite, "language": r.language,
                                   "category": r.category, "difficulty": r.difficulty,
                                   "apps": list(r.packages), "instruction": r.instruction,
                                   "tags": list(r.tags), "parameterised": r.parameterised,
                                   "retrieval": r.retrieval, "infeasible": r.infeasible,
                                   "near_misses": r.near_misses, "file": str(r.file)},
                                  ensure_ascii=False))
        return
    if counts:
        _print_counts(records)
        return
    # below WIDE_TASKS columns suite, category and apps are left out (the id starts with the app; --json
    # has every field): id, language, difficulty and the instruction stay readable at 80 columns
    narrow_terminal = console.width < WIDE_TASKS
    left_out = ("suite", "cat", "apps") if narrow_terminal else ()
    caption = (f"left out at this width: {', '.join(left_out)} (a wider terminal or --json shows them)"
               if left_out and records else None)
    table = Table(title=f"{len(records)} tasks", title_justify="left", caption=caption,
                  caption_justify="left")
    columns = [c for c in ("id", "suite", "lang", "cat", "diff", "apps") if c not in left_out]
    for col in columns:
        table.add_column(col, overflow="fold", max_width=32 if col == "id" else 16, no_wrap=col != "id")
    table.add_column("instruction", overflow="fold", ratio=1, min_width=24)
    for r in records:
        cells = {"id": r.id, "suite": r.suite, "lang": r.language,
                 "cat": "cross" if r.category == "cross_app" else "single", "diff": str(r.difficulty),
                 "apps": ", ".join(r.app_names[:1] if r.category == "single_app" else r.packages)}
        table.add_row(*(cells[c] for c in columns), r.instruction)
    if not records:
        console_err.print("[yellow]no task matches the filters[/]")
    console.print(table)


# the launcher and the system UI are where tasks start, not apps of their own
_NOT_APPS = frozenset({"com.google.android.apps.nexuslauncher", "com.android.systemui"})


_COUNTED = ("tasks", "apps", "difficulty 1", "difficulty 2", "difficulty 3", "cross-app", "retrieval",
            "infeasible", "parameterised", "portable", "with near misses")


def _count_column(records: list[TaskRecord]) -> list[str]:
    """The figures of `_COUNTED`, in that order, then the number of tasks of each hard category."""
    from spa_bench.tasks.model import HARD_CATEGORIES

    by_difficulty = Counter(r.difficulty for r in records)
    apps = {p for r in records for p in r.packages if p not in _NOT_APPS}
    parameterised = sum(r.parameterised for r in records)
    share = f"{parameterised} ({100 * parameterised / len(records):.0f}%)" if records else "0"
    return [str(len(records)), str(len(apps)), *(str(by_difficulty[d]) for d in (1, 2, 3)),
            str(sum(r.category == "cross_app" for r in records)), str(sum(r.retrieval for r in records)),
            str(sum(r.infeasible for r in records)), share, str(sum("portable" in r.tags for r in records)),
            str(sum(r.near_misses > 0 for r in records)),
            *(str(sum(c in r.tags for r in records)) for c in HARD_CATEGORIES)]


def _print_counts(records: list[TaskRecord]) -> None:
    """One column per language and one for all: narrow enough for any terminal."""
    languages = sorted({r.language for r in records})
    columns = [_count_column([r for r in records if r.language == lang]) for lang in languages]
    columns.append(_count_column(records))
    table = Table(title=f"{len(records)} tasks", title_justify="left")
    table.add_column("")
    for name in (*languages, "all"):
        table.add_column(name, justify="right")
    from spa_bench.tasks.model import HARD_CATEGORIES

    labels = (*_COUNTED, *(f"hard: {c.replace('_', ' ')}" for c in HARD_CATEGORIES))
    for i, label in enumerate(labels):
        table.add_row(label, *(column[i] for column in columns))
    console.print(table)


@app.command("show")
def show(task_id: str = typer.Argument(..., help="Task id."), tasks_dir: Path | None = TasksDir,
         as_json: bool = typer.Option(False, "--json", help="Print JSON instead of YAML.")) -> None:
    """Print one task, validated, with defaults filled in."""
    from spa_bench.tasks.spa_import import task_to_yaml

    task = _repository(tasks_dir).get(task_id)
    if as_json:
        typer.echo(task.model_dump_json(indent=2))
    else:
        typer.echo(task_to_yaml(task, complete=True), nl=False)
        typer.echo(f"# max steps: {task.step_limit}; starts in: {task.start_package or 'home screen'}")


@app.command("validate")
def validate(paths: list[Path] = typer.Argument(None, help="Task trees to check (default: the "
                                                           "shipped tasks, or $SPA_BENCH_TASKS)."),
             tasks_dir: list[Path] = typer.Option([], "--tasks-dir", "-t",
                                                  help="Task tree to check, as the other commands name "
                                                       "it (repeatable; the same as giving it as PATHS)."),
             ) -> None:
    """Check every task file; print each problem (file, task, field) and exit 1 if there is any."""
    from spa_bench.tasks.repository import TaskRepository, default_tasks_root

    roots = [*(paths or []), *tasks_dir] or [default_tasks_root()]
    total_valid, all_problems = 0, []
    for root in roots:
        if root.is_file():
            raise ConfigError(f"{root}: give the folder that holds task files, not a file")
        repo = TaskRepository(root)
        if not repo.task_files():
            raise ConfigError(f"{root}: no task files (*.yaml) found")
        valid, problems = repo.validate()
        total_valid += valid
        all_problems += problems
    for problem in all_problems:
        console_err.print(f"[red]✗[/] {problem}", highlight=False, soft_wrap=True)
    if all_problems:
        console_err.print(f"[bold red]{len(all_problems)} problem(s)[/]; {total_valid} valid task(s)")
        raise typer.Exit(1)
    console.print(f"[green]✓[/] {total_valid} tasks valid in {', '.join(str(r) for r in roots)}")


@app.command("schema")
def schema() -> None:
    """Print the JSON schema of a task file."""
    from spa_bench.tasks.model import Task

    typer.echo(json.dumps(Task.model_json_schema(), indent=2, ensure_ascii=False))


@app.command("import-spa-bench")
def import_spa_bench(
    files: list[Path] = typer.Argument(..., help="SPA-Bench CSV files, and the cross-app-split folder "
                                                 "(or its JSON files)."),
    out: Path = typer.Option(..., "--out", "-o", help="Folder to write YAML files into "
                                                      "(<out>/<category>/<language>/<id>.yaml)."),
    app_map: Path | None = typer.Option(None, "--app-map", help="YAML {app name: {package: ...}} for "
                                                                "apps spa-bench does not know."),
) -> None:
    """Convert SPA-Bench's task files into spa-bench YAML tasks."""
    from spa_bench.tasks.spa_import import import_spa_bench as run_import
    from spa_bench.tasks.spa_import import load_app_map

    result = run_import(files, out, load_app_map(app_map) if app_map else None)
    by = Counter((t.language, t.category) for t in result.tasks)
    summary = ", ".join(f"{n} {lang} {cat}" for (lang, cat), n in sorted(by.items()))
    console.print(f"[green]✓[/] imported {len(result.tasks)} tasks ({summary}) into {out}")


@app.command("verify")
def verify(
    tasks_dir: Path | None = TasksDir, suite: list[str] = SuiteOpt, lang: list[str] = LangOpt,
    app_: list[str] = AppOpt, difficulty: list[int] = DiffOpt, category: list[str] = CatOpt,
    task: list[str] = TaskOpt, tag: list[str] = TagOpt, portable: bool = PortableOpt,
    limit: int | None = LimitOpt, sample: int | None = SampleOpt,
    repeats: int = typer.Option(3, "--repeats", "--seeds", min=1,
                                help="Instances of every parameterised task (--seeds is the same option)."),
    seed: int = typer.Option(0, "--seed", help="The runs' seed (which instances are drawn), and that of "
                                               "--sample."),
    phones: int = PhonesOpt,
    device: list[str] = typer.Option([], "--device", help="Run on this virtual phone instead (serial, or "
                                                          "SERIAL=CONSOLE_PORT); repeatable."),
    probe: list[str] = typer.Option([], "--probe", "--probes", help=(
        "Only these probes (repeatable, or comma-separated): oracle, noop, near_miss, answer_spam, "
        "answer_forms, infeasible, act_infeasible, shell_tamper, intent_tamper, key_search.")),
    all_forms: bool = typer.Option(False, "--all-forms", help=(
        "answer_forms: every negated, hedged and either-or form on every instance (default: one per "
        "episode, by its seed).")),
    out: Path | None = typer.Option(None, "--out", "-o", help="Where the product goes: the folder of the "
                                                              "probes' runs (default "
                                                              "results/verify-<time>)."),
    report: Path | None = typer.Option(None, "--report", help="Also write the outcome to FILE.json or "
                                                              "FILE.html."),
    all_rows: bool = typer.Option(False, "--all", help="A row for every task, not only those with problems."),
    vary: str | None = typer.Option(None, "--vary", help="Run every probe on devices varied per episode, as "
                                                         "`spa-bench run --vary` does: DIMS[:SEED]."),
) -> None:
    """Attack every task's checks on virtual phones: the oracle must pass; noop, near misses, answer spam,
    negated / hedged / either-or answers, declaring infeasible (except on infeasible tasks, and after acting
    on them), reaching the goal over adb shell or with explicit intents, and an agent that looks for the
    answer key must fail. Exits 1 on any false pass or broken task."""
    from datetime import UTC, datetime

    from spa_bench.device.console import parse_device
    from spa_bench.verify.outcome import PROBES
    from spa_bench.verify.present import problem_lines, task_table, totals_table, write_report
    from spa_bench.verify.run import VerifyConfig
    from spa_bench.verify.run import verify as run_verify

    if vary is not None:
        from spa_bench.runner.vary import parse_vary

        parse_vary(vary)  # a bad spec stops here, in one line, before any phone starts
    probe = [p.strip() for text in probe for p in text.split(",") if p.strip()]
    unknown = [p for p in probe if p not in PROBES]
    if unknown:
        import difflib

        near = difflib.get_close_matches(unknown[0], PROBES, n=1)
        hint = f"; did you mean {near[0]!r}?" if near else ""
        raise ConfigError(f"--probe {unknown[0]!r}: not a probe{hint} (one of {', '.join(PROBES)})")
    if report is not None and report.suffix.lower() not in (".json", ".html", ".htm"):
        raise ConfigError(f"--report {report}: give a .json or .html file")
    given = [parse_device(text) for text in device]
    folder = out or Path("results") / f"verify-{datetime.now(UTC):%Y%m%d-%H%M%S}"
    if folder.exists() and any(folder.iterdir()):
        raise ConfigError(f"--out {folder}: the folder is not empty")
    config = VerifyConfig(out=folder, tasks_dir=tasks_dir,
                          filter=narrow(tasks_dir, build_filter(suite, lang, app_, difficulty, category,
                                                                task, tag, portable), limit, sample, seed),
                          seeds=repeats,
                          run_seed=seed, phones=phones, devices=[serial for serial, _ in given],
                          console_ports={serial: port for serial, port in given if port is not None},
                          probes=tuple(p for p in PROBES if not probe or p in probe), vary=vary,
                          all_forms=all_forms)
    result = run_verify(config, progress=lambda line: console_err.print(f"[dim]{line}[/]", highlight=False))
    if not result.tasks:
        raise ConfigError("no task matches the filter")
    console.print(task_table(result, only_problems=not all_rows))
    console.print(totals_table(result))
    for line in problem_lines(result):
        console_err.print(f"[red]✗[/] {line}", highlight=False, soft_wrap=True)
    if report is not None:
        write_report(result, report)
        console.print(f"report: {report}")
    if result.false_passes or result.problems:
        console_err.print(f"[bold red]{result.false_passes} false pass(es), {result.problems} problem(s)[/]")
        raise typer.Exit(1)
    ran = ", ".join(p for p, c in result.counts().items() if c.episodes)
    console.print(f"[green]✓[/] {len(result.tasks)} tasks ({ran}): no false pass, no problem")
