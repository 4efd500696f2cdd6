"""`spa-bench run`: agents x tasks x repeats on virtual phones or real devices, with live progress."""

from __future__ import annotations

import contextlib
import signal
import threading
from collections.abc import Iterator
from pathlib import Path
from types import FrameType
from typing import TYPE_CHECKING

import typer
from pydantic import ValidationError
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.table import Table

from spa_bench.cli.common import Column, cli_table, console, console_err
from spa_bench.cli.tasks import (
    AppOpt,
    CatOpt,
    DiffOpt,
    LangOpt,
    LimitOpt,
    PhonesOpt,
    PortableOpt,
    RepeatsOpt,
    SampleOpt,
    SuiteOpt,
    TagOpt,
    TaskOpt,
    TasksDir,
    build_filter,
    narrow,
)
from spa_bench.errors import ConfigError
from spa_bench.runner.events import Events

if TYPE_CHECKING:
    from spa_bench.device.device import Device
    from spa_bench.models.config import ModelConfig
    from spa_bench.results.schema import EpisodeLog
    from spa_bench.runner.run import RunResult
    from spa_bench.runner.scheduler import Attempt

# the rate with its interval takes 20 characters: steps and time per episode are left to --wide, so that
# "oracle (reference)" keeps 13 characters at 80 columns
SUMMARY_COLUMNS = (Column("agent", right=False), Column("episodes"), Column("success"),
                   Column("rate [95% CI]"), Column("errors"), Column("steps", wide_only=True),
                   Column("time", wide_only=True), Column("tampered"), Column("said done", wide_only=True),
                   Column("undecided", wide_only=True))


class ProgressEvents(Events):
    """Scheduler events shown as a rich progress bar plus one line per notable event: the first error of
    each kind (spa_bench.runner.error_kinds) with its episode and cause. The bar shows once the run is
    planned (its agents built), so a run refused before that prints only its error."""

    def __init__(self, progress: Progress, total: int) -> None:
        self.progress = progress
        self.task = progress.add_task("episodes", total=total, running=0, failed=0, success="-")
        self.lock = threading.Lock()
        self.running = 0
        self.failed = 0
        self.judged = 0
        self.passed = 0
        self.seen_kinds: set[str] = set()

    def planned(self, total: int, already_done: int) -> None:
        self.progress.start()  # no-op once started
        self.progress.update(self.task, total=total, completed=already_done)

    def _first_of_kind(self, log: EpisodeLog) -> None:
        from spa_bench.runner.error_kinds import error_kind, error_message

        kind = error_kind(log)
        if kind is None or kind in self.seen_kinds:
            return
        self.seen_kinds.add(kind)
        self.progress.console.print(f"[red]✗ first {kind}:[/] {log.episode_id}: {error_message(log)} "
                                    f"(further ones are counted in the summary)", highlight=False)

    def _update(self, advance: int = 0) -> None:
        rate = f"{self.passed}/{self.judged}" if self.judged else "-"
        self.progress.update(self.task, advance=advance, running=self.running, failed=self.failed,
                             success=rate)

    def started(self, attempt: Attempt, device: Device) -> None:
        with self.lock:
            self.running += 1
            self._update()

    def finished(self, log: EpisodeLog) -> None:
        from spa_bench.evaluation.policy import decide_success

        success = decide_success(log).success
        with self.lock:
            self.running -= 1
            if success is not None:
                self.judged += 1
                self.passed += int(success)
            if log.termination in ("agent_error", "harness_error"):
                self.failed += 1
            self._update(advance=1 if log.termination != "interrupted" else 0)
            self._first_of_kind(log)

    def retrying(self, attempt: Attempt, device: Device, error: BaseException) -> None:
        with self.lock:
            self.running -= 1
            self._update()
        self.progress.console.print(f"[yellow]↻[/] {attempt.job.episode_id}: device {device.serial} "
                                    f"failed ({error}); retrying (attempt {attempt.number + 1})")

    def device_removed(self, device: Device, reason: str) -> None:
        self.progress.console.print(f"[red]✗ device {device.serial} taken out:[/] {reason}")

    def device_added(self, device: Device) -> None:
        self.progress.console.print(f"[green]+ device {device.serial} joined[/]")

    def gave_up(self, attempt: Attempt, error: BaseException) -> None:
        with self.lock:
            self.running -= 1
            self.failed += 1
            self._update(advance=1)
        self.progress.console.print(f"[red]✗[/] {attempt.job.episode_id}: gave up: {error}")


def summary_table(result: RunResult, wide: bool = False) -> Table:
    """Per agent: success as the one policy decides it (spa_bench.evaluation.policy), the same figure
    the metrics and the report show, with its 95% Wilson interval in percent; undecided episodes (no
    verdict yet, evaluator errors, infrastructure failures) are left out of the rate. steps and time:
    means per episode. `tampered`: episodes whose agent changed device state behind the GUI (the shell
    audit), all of them failed.
    A reference agent (the full task was revealed to it: the oracle) is marked "(reference)"."""
    from spa_bench.evaluation.metrics import wilson_interval
    from spa_bench.evaluation.policy import decide_success

    by_agent: dict[str, list[EpisodeLog]] = {}
    for log in result.logs:
        by_agent.setdefault(log.agent.name, []).append(log)
    rows = []
    for agent, logs in sorted(by_agent.items()):
        decided = [s for s in (decide_success(log).success for log in logs) if s is not None]
        passed = sum(1 for s in decided if s)
        errors = sum(1 for log in logs if log.termination in ("agent_error", "harness_error", "device_error"))
        done = sum(1 for log in logs if log.termination == "done")
        steps = sum(len(log.steps) for log in logs) / len(logs)
        secs = sum(log.timings.total_s for log in logs) / len(logs)
        low, high = wilson_interval(passed, len(decided)) if decided else (0.0, 0.0)
        rate = (f"{100 * passed / len(decided):.1f}% [{100 * low:.1f}, {100 * high:.1f}]" if decided
                else "n/a")
        tampered = sum(1 for log in logs if log.shell_audit is not None and log.shell_audit.tampered)
        name = f"{agent} (reference)" if any(log.agent.reference for log in logs) else agent
        rows.append([name, str(len(logs)), f"{passed}/{len(decided)}", rate, str(errors), f"{steps:.1f}",
                     f"{secs:.1f}s", str(tampered), str(done), str(len(logs) - len(decided))])
    return cli_table(f"run {result.manifest.run_id}", SUMMARY_COLUMNS, rows, wide)


def _install_sigint(stop: threading.Event) -> None:
    """First Ctrl-C: stop cleanly after the current steps; second: abort."""
    previous = signal.getsignal(signal.SIGINT)

    def handler(signum: int, frame: FrameType | None) -> None:
        if stop.is_set():
            signal.signal(signal.SIGINT, previous)
            raise KeyboardInterrupt
        stop.set()
        console_err.print("[yellow]stopping after the current steps (Ctrl-C again to abort)...[/]")

    signal.signal(signal.SIGINT, handler)


def run(
    ctx: typer.Context,
    tasks_dir: Path | None = TasksDir, suite: list[str] = SuiteOpt, lang: list[str] = LangOpt,
    app_: list[str] = AppOpt, difficulty: list[int] = DiffOpt, category: list[str] = CatOpt,
    task: list[str] = TaskOpt, tag: list[str] = TagOpt, portable: bool = PortableOpt,
    limit: int | None = LimitOpt, sample: int | None = SampleOpt,
    agent: list[str] = typer.Option([], "--agent", help="Agent: a registered name or path/to/file.py:Class"
                                                       " (repeatable). Default: oracle, noop, random."),
    agent_arg: list[str] = typer.Option([], "--agent-arg", help="key=value passed to every agent."),
    agent_config: Path | None = typer.Option(None, "--agent-config",
                                             help="YAML list of {agent, name, args}."),
    import_: list[str] = typer.Option([], "--import", help="Python file (or importable module) to load "
                                                           "first: its @register_agent classes become "
                                                           "--agent names (repeatable)."),
    repeats: int = RepeatsOpt,
    seed: int = typer.Option(0, "--seed", help="Run seed (per-instance seeds derive from it), and that of "
                                               "--sample."),
    instance_seed: str | None = typer.Option(
        None, "--instance-seed", help="A secret (16+ characters) that draws the parameterised tasks' "
                                      "instances instead of --seed: a private split; the manifest records "
                                      "only a hash of it (publish it later to let others verify)."),
    instance_seed_file: Path | None = typer.Option(None, "--instance-seed-file",
                                                   help="The same secret, read from a file."),
    phones: int = PhonesOpt,
    device: list[str] = typer.Option([], "--device", help="Use this device (serial); repeatable. "
                                     "SERIAL=CONSOLE_PORT names the emulator console of an emulator reached "
                                     "over TCP (found by itself for 127.0.0.1:P and `spa-bench phone`)."),
    farm: Path | None = typer.Option(None, "--farm", help="Use the emulators of this farm.json "
                                                          "(`spa-bench farm compose`; docker/README.md)."),
    skip_missing_apps: bool = typer.Option(
        False, "--skip-missing-apps", help="Leave out tasks whose apps are not installed on the devices "
                                           "(default: refuse the run, naming them)."),
    size: str = typer.Option("1080x2400", "--size", help="Virtual phone screen size."),
    vary: str | None = typer.Option(
        None, "--vary", help="Each episode on a device varied from its default, drawn per episode: "
                             "DIMS[:SEED], DIMS a comma list of screen, density, font-scale, dark, "
                             "navigation, locale (e.g. screen,font-scale,dark:7)."),
    phone_clock: str | None = typer.Option(
        None, "--phone-clock", help="Freeze the virtual phones' clocks at this time (ISO 8601 UTC, e.g. "
                                    "2026-01-15T09:30): the same screens on every rerun; a gesture's "
                                    "duration then passes on the phone's clock without being waited out."),
    executor: str = typer.Option("local", "--executor", help="local: one thread per device here; "
                                 "ray: device actors on a Ray cluster (the ray extra of spa-bench)."),
    ray_address: str | None = typer.Option(None, "--ray-address", help="With --executor ray: the head, "
                                                                       "HOST:PORT."),
    phones_per_node: int | None = typer.Option(None, "--phones-per-node", min=1,
                                               help="With --executor ray: virtual phones per worker host "
                                                    "(at most its `spa-bench worker --phones`)."),
    artifact_dir: Path | None = typer.Option(None, "--artifact-dir",
                                             help="With --executor ray: a folder all hosts share, where "
                                                  "episode files are left for this driver to copy."),
    out: Path = typer.Option(Path("results"), "--out", "-o", help="Where the product goes: the folder "
                                                                  "that receives the run folder "
                                                                  "(OUT/<run-id>/)."),
    resume: Path | None = typer.Option(None, "--resume", help="Continue the run in this run folder."),
    max_steps: int | None = typer.Option(None, "--max-steps", min=1, help="Override every task's limit."),
    step_timeout: float = typer.Option(300.0, "--step-timeout", help="Seconds per agent step."),
    episode_timeout: float = typer.Option(3600.0, "--episode-timeout", help="Seconds per episode."),
    settle: float = typer.Option(0.0, "--settle", help="Seconds to wait after each action (real devices)."),
    max_retries: int = typer.Option(2, "--max-retries", min=0, help="Retries after device failures."),
    budget_usd: float | None = typer.Option(None, "--budget-usd", min=0,
                                            help="Start no new episode once finished ones cost more (USD)."),
    secret_env: list[str] = typer.Option(
        [], "--secret-env", help="Environment variable whose value is redacted from every file and "
                                 "output of the run (repeatable; secret-named ones such as *_API_KEY are "
                                 "redacted anyway)."),
    model_cache: Path | None = typer.Option(
        None, "--model-cache", help="Folder of model replies keyed by request content: a rerun sends no "
                                    "request already answered (replay a run offline, debug for free)."),
    model_cache_replay: bool = typer.Option(
        False, "--model-cache-replay", help="With --model-cache: a request not in the cache is an error, "
                                            "never sent."),
    judge_model: str | None = typer.Option(None, "--judge-model",
                                           help="MLLM judge for tasks without state checks (e.g. gpt-4o)."),
    judge_base_url: str | None = typer.Option(None, "--judge-base-url", help="The judge's endpoint."),
    judge_api_key_env: str = typer.Option("OPENAI_API_KEY", "--judge-api-key-env",
                                          help="Environment variable with the judge's key ('' = none)."),
    wide: bool = typer.Option(False, "--wide", help="Every column of the summary table."),
    live: bool = typer.Option(False, "--live", help="Serve a page on 127.0.0.1 that shows each phone's "
                                                    "screen, task and step while the run goes, and the "
                                                    "verdicts as episodes end (stops with the run)."),
    live_port: int = typer.Option(8766, "--live-port", help="With --live: the page's port (0: a free one)."),
) -> None:
    """Run agents on tasks and write results/<run-id>/ (manifest, episode logs, screenshots)."""
    from spa_bench.device.console import parse_device
    from spa_bench.runner.config import AgentConfig, RunConfig, load_agent_config_file, parse_agent_args
    from spa_bench.runner.run import resume_run, run_benchmark

    extra = parse_agent_args(agent_arg)
    from spa_bench.cli.bundle import read_instance_seed

    secret = read_instance_seed(instance_seed, instance_seed_file)
    console_ports: dict[str, int] = {}
    given = [parse_device(text) for text in device]  # SERIAL or SERIAL=CONSOLE_PORT
    device = [serial for serial, _ in given]
    console_ports.update({serial: port for serial, port in given if port is not None})
    if farm is not None:
        from spa_bench.farm.model import load_farm

        emulators = load_farm(farm)
        device = [*device, *(e.serial for e in emulators.emulators)]
        console_ports = emulators.console_ports()
    stop = threading.Event()
    _install_sigint(stop)
    columns = (TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(),
               TextColumn("running {task.fields[running]}  failed {task.fields[failed]}  "
                          "success {task.fields[success]}"), TimeElapsedColumn(), TextColumn("eta"),
               TimeRemainingColumn())
    progress = Progress(*columns, console=console, transient=False)
    from spa_bench.registry import import_plugins

    import_plugins(import_)  # before any agent is looked up by name
    if resume is not None:
        _refuse_plan_changes(ctx, resume, out)
        given_phones = _given(ctx, "phones")
        with _shown(progress), _live_page(live, live_port, resume):
            events = ProgressEvents(progress, total=0)
            result = resume_run(resume, events, stop, agent_args=extra or None,
                                phones=phones if given_phones else None, devices=device or None,
                                ray_address=ray_address, instance_seed=secret)
    else:
        agents = load_agent_config_file(agent_config) if agent_config else []
        agents += [AgentConfig(agent=name, args=dict(extra)) for name in agent]
        if not agents:
            agents = [AgentConfig(agent=name) for name in ("oracle", "noop", "random")]
        try:
            config = RunConfig(
                tasks_dir=tasks_dir,
                filter=narrow(tasks_dir, build_filter(suite, lang, app_, difficulty, category, task, tag,
                                                      portable), limit, sample, seed),
                agents=agents, repeats=repeats, seed=seed, phones=phones, devices=device, phone_size=size,
                vary=vary,
                console_ports=console_ports, skip_missing_apps=skip_missing_apps,
                phone_clock=phone_clock, executor=executor, ray_address=ray_address,
                phones_per_node=phones_per_node, artifact_dir=artifact_dir,
                out=out, max_steps=max_steps, step_timeout_s=step_timeout, episode_timeout_s=episode_timeout,
                settle_s=settle, max_retries=max_retries, budget_usd=budget_usd,
                secret_env=secret_env, model_cache=model_cache, model_cache_replay=model_cache_replay,
                judge=_judge_config(judge_model, judge_base_url, judge_api_key_env), instance_seed=secret)
        except ValidationError as exc:  # its str() ends with a documentation URL: say what is wrong
            raise ConfigError(_config_problem(exc)) from None
        except ValueError as exc:
            raise ConfigError(str(exc).splitlines()[-1] if "\n" in str(exc) else str(exc)) from None
        if live and config.run_id is None:  # the page watches the run folder from its start
            from spa_bench.runner.run import new_run_id

            config.run_id = new_run_id()
        with _shown(progress), _live_page(live, live_port, config.out / (config.run_id or "")):
            events = ProgressEvents(progress, total=0)
            result = run_benchmark(config, events, stop, _argv())
    console.print(summary_table(result, wide))
    _print_repeats(result, wide)
    s = result.summary
    _print_errors(result)
    if s.removed_devices:
        for serial, reason in s.removed_devices.items():
            console.print(f"[red]device {serial} was taken out:[/] {reason}")
    if s.failed:
        console.print(f"[red]{len(s.failed)} episode(s) failed on every device they were tried on[/]")
    if s.undone:
        console.print(f"[yellow]{len(s.undone)} episode(s) not run; continue with "
                      f"`spa-bench run --resume {result.run_dir}`[/]")
    if s.budget_usd is not None:
        unknown = f" ({s.cost_unknown} episode(s) of unknown cost not counted)" if s.cost_unknown else ""
        verdict = "stopped by the budget" if s.stopped_by_budget else "within budget"
        console.print(f"agent cost ${s.spent_usd:.4f} of budget ${s.budget_usd:.4f}{unknown}: {verdict}")
    console.print(f"results: {result.run_dir}")
    _write_report(result.run_dir)
    if s.interrupted:
        raise typer.Exit(130)
    if s.undone and not s.stopped_by_budget:  # its devices were lost: the run did not do what it planned
        console_err.print(f"[red]{len(s.undone)} of {s.planned} episode(s) could not be run[/] (no device "
                          f"was left for them, see above); exit 1")
        raise typer.Exit(1)
    from spa_bench.runner.error_kinds import every_episode_errored

    if every_episode_errored(result.logs, len(set(s.failed) - {log.episode_id for log in result.logs})):
        console_err.print("[red]every episode of this run ended in an error[/] (see above); exit 1")
        raise typer.Exit(1)


def _config_problem(exc: ValidationError) -> str:
    """The first problem of a RunConfig as the option the user gave: `--executor 'rey': not one of local,
    ray; did you mean 'ray'?` rather than pydantic's field name and wording."""
    import difflib
    import re

    first = exc.errors()[0]
    where = ".".join(str(p) for p in first["loc"])
    message = str(first["msg"]).removeprefix("Value error, ")
    option = {"step_timeout_s": "--step-timeout", "episode_timeout_s": "--episode-timeout",
              "settle_s": "--settle", "phone_size": "--size"}.get(where, "--" + where.replace("_", "-"))
    if first["type"] == "literal_error" and "." not in where:
        allowed = re.findall(r"'([^']*)'", str(first.get("ctx", {}).get("expected", "")))
        value = str(first.get("input"))
        near = difflib.get_close_matches(value, allowed, n=1)
        hint = f"; did you mean {near[0]!r}?" if near else ""
        return f"{option} {value!r}: not one of {', '.join(allowed)}{hint}"
    if not where:
        return message
    return f"{option}: {message}" if "." not in where else f"{where}: {message}"


# what `--resume RUN` takes besides the run folder: where to run (not what), and redacted agent arguments
# given back (spa_bench.runner.run.resume_run refuses an argument that would change an agent)
RESUME_TAKES = ("phones", "device", "farm", "ray_address", "agent_arg", "import_", "wide", "instance_seed",
                "instance_seed_file", "live", "live_port")


def _given(ctx: typer.Context, name: str) -> bool:
    """Whether the option was given (on the command line or by its environment variable)."""
    source = ctx.get_parameter_source(name)
    return source is not None and source.name != "DEFAULT"  # typer's own click: compare by name


def _refuse_plan_changes(ctx: typer.Context, resume: Path, out: Path) -> None:
    """A resumed run keeps the plan its manifest records (agents, tasks, repeats, seed, limits, ...): an
    option that would change it is refused, naming it, rather than silently ignored. `--out` is taken
    when it is the run folder's parent (a resume command written like the first one)."""
    refused = []
    for param in ctx.command.params:
        name = param.name
        if name is None or name == "resume" or name in RESUME_TAKES or not _given(ctx, name):
            continue
        if name == "out" and out.resolve() == resume.resolve().parent:
            continue
        refused.append(max(param.opts, key=len))
    if refused:
        takes = ", ".join("--" + n.strip("_").replace("_", "-") for n in RESUME_TAKES if n != "wide")
        raise ConfigError(f"--resume {resume} continues the run as its manifest planned it; "
                          f"{', '.join(refused)} would change that plan (or be ignored), refused. "
                          f"A resume takes {takes} (redacted agent arguments only); start a new run for "
                          f"another plan, and compare the two with `spa-bench report`")


@contextlib.contextmanager
def _shown(progress: Progress) -> Iterator[None]:
    """The progress display, started by the run's `planned` event and always stopped."""
    try:
        yield
    finally:
        progress.stop()


def _print_repeats(result: RunResult, wide: bool) -> None:
    """pass@k and pass^k per agent, and the tasks that flip, when the run has repeats."""
    from spa_bench.report.repeats import outcomes_of, repeats_view
    from spa_bench.report.terminal import repeats_notes, repeats_table

    view = repeats_view(outcomes_of(result.logs))
    if view is None:
        return
    console.print(repeats_table(view, wide))
    for line in repeats_notes(view):
        console.print(line, highlight=False, soft_wrap=True)


def _print_errors(result: RunResult) -> None:
    """Errors by kind under the summary table, each with its first episode and cause; and an agent whose
    every episode ended in an error, by name."""
    from spa_bench.runner.error_kinds import ERROR_TERMINATIONS, count_errors, error_kind, error_message

    counts = count_errors(result.logs)
    if counts:
        console.print("errors by kind: " + ", ".join(f"{kind} {n}" for kind, n in counts.items()),
                      highlight=False)
        for kind in counts:
            first = min((log for log in result.logs if error_kind(log) == kind),
                        key=lambda log: log.started_at)
            console.print(f"  first {kind}: {first.episode_id}: {error_message(first)}", highlight=False,
                          soft_wrap=True)
    by_agent: dict[str, list[EpisodeLog]] = {}
    for log in result.logs:
        by_agent.setdefault(log.agent.name, []).append(log)
    for agent, logs in sorted(by_agent.items()):
        if len(by_agent) > 1 and all(log.termination in ERROR_TERMINATIONS for log in logs):
            console.print(f"[red]agent {agent}: every one of its {len(logs)} episode(s) ended in an error[/]",
                          highlight=False)


def _judge_config(model: str | None, base_url: str | None, key_env: str) -> ModelConfig | None:
    """The judge that scores tasks without checks after each episode (key components always run)."""
    if model is None:
        return None
    from spa_bench.evaluation.judge_config import default_judge_config

    return default_judge_config(model, base_url=base_url, api_key_env=key_env or None)


def _write_report(run_dir: Path) -> None:
    """The run's HTML report; a report that cannot be written must not fail a run whose logs are safe."""
    from spa_bench.report import write_report

    try:
        report = write_report([run_dir])
    except Exception as exc:
        console_err.print(f"[red]report not written:[/] {exc!r} (retry with `spa-bench report {run_dir}`)")
        return
    console.print(f"report: {report.path}", highlight=False, soft_wrap=True)


def _argv() -> list[str]:
    import sys

    return list(sys.argv)


def _live_page(live: bool, port: int, run_dir: Path) -> contextlib.AbstractContextManager[object]:
    """--live: the studio's live page over the run folder while the run goes (spa_bench.studio.live)."""
    if not live:
        return contextlib.nullcontext()
    from spa_bench.studio.live import serving_live

    return serving_live([run_dir], port, lambda line: console.print(line, highlight=False, soft_wrap=True))
