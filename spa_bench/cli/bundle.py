"""`spa-bench bundle RUN_DIR [-o FILE]` packs a run with its provenance; `spa-bench bundle verify FILE`
checks one: hashes against the installed harness, verdicts re-scored offline, and (--replay) every
episode run again from the bundle's model-reply cache."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import typer
from typer.core import TyperGroup

from spa_bench.cli.common import console
from spa_bench.errors import ConfigError

if TYPE_CHECKING:
    from spa_bench.bundle.archive import Screenshots
    from spa_bench.runner.events import Events


class _DefaultCreate(TyperGroup):
    """`spa-bench bundle RUN_DIR` means `spa-bench bundle create RUN_DIR`: a first argument that is no
    subcommand (nor an option) is taken as the run folder."""

    def parse_args(self, ctx: Any, args: list[str]) -> list[str]:
        if args and not args[0].startswith("-") and args[0] not in self.commands:
            args = ["create", *args]
        return super().parse_args(ctx, args)


app = typer.Typer(cls=_DefaultCreate, no_args_is_help=True,
                  help="Pack a run into one archive with its provenance (`spa-bench bundle RUN_DIR`, short "
                       "for `bundle create RUN_DIR`), and verify such an archive (`bundle verify FILE`).")

SCREENSHOT_CHOICES: tuple[Screenshots, ...] = ("full", "downscaled", "none")


def read_instance_seed(value: str | None, file: Path | None) -> str | None:
    """--instance-seed SECRET or --instance-seed-file PATH (run, resume, bundle verify)."""
    if value is not None and file is not None:
        raise ConfigError("give --instance-seed or --instance-seed-file, not both")
    if file is None:
        return value
    try:
        return file.read_text(encoding="utf-8").strip()
    except OSError as exc:
        raise ConfigError(f"--instance-seed-file {file}: {exc.strerror or exc}") from None


@app.command("create")
def create(
    run_dir: Path = typer.Argument(..., help="A run folder (results/<run-id>)."),
    out: Path | None = typer.Option(None, "--out", "-o", help="The archive to write (default "
                                                              "RUN_DIR.bundle.tar.gz, beside the run)."),
    screenshots: str = typer.Option("full", "--screenshots", help="full | downscaled (480 px) | none."),
    with_cache: bool = typer.Option(False, "--with-cache", help="Put the run's model-reply cache "
                                                                "(its --model-cache folder) in, for replay."),
    cache_dir: Path | None = typer.Option(None, "--cache-dir", help="With --with-cache: this cache folder "
                                                                    "instead of the one the run recorded."),
) -> None:
    """Write one archive of a run: episode logs, manifest, provenance hashes (and the model cache)."""
    from spa_bench.bundle.archive import write_bundle
    from spa_bench.results.layout import RunLayout

    chosen = next((c for c in SCREENSHOT_CHOICES if c == screenshots), None)
    if chosen is None:
        raise ConfigError(f"--screenshots {screenshots!r}: not one of {', '.join(SCREENSHOT_CHOICES)}")
    cache = None
    if with_cache:
        recorded = RunLayout(run_dir).read_manifest().settings.get("config", {}).get("model_cache")
        cache = cache_dir or (Path(recorded) if recorded else None)
        if cache is None:
            raise ConfigError(f"--with-cache: {run_dir} ran without --model-cache; name the cache with "
                              f"--cache-dir DIR")
    elif cache_dir is not None:
        raise ConfigError("--cache-dir needs --with-cache")
    target = out or run_dir.resolve().with_name(run_dir.resolve().name + ".bundle.tar.gz")
    written = write_bundle(run_dir, target, screenshots=chosen, cache_dir=cache)
    index = written.index
    console.print(f"bundle: {written.path} ({written.bytes / 1e6:.1f} MB, {index.episodes} episodes, "
                  f"{len(index.members)} files, screenshots {index.screenshots}"
                  f"{', model cache' if index.with_cache else ''})", highlight=False, soft_wrap=True)


VERIFY_HELP = ("Check a bundle against the installed spa-bench; exit 1 on any difference.\n\n"
               "(a) every hash (harness, tasks, phone image, adapters, task instances), (b) every verdict "
               "re-scored from the captured device state, (c) with --replay, every episode run again on "
               "fresh virtual phones from the bundle's model cache (no model call), its trajectory and "
               "verdict compared.")


@app.command("verify", help=VERIFY_HELP)
def verify(
    bundle: Path = typer.Argument(..., help="A bundle written by `spa-bench bundle`."),
    replay: bool = typer.Option(False, "--replay", help="Also run every episode again on fresh virtual "
                                                         "phones, model replies from the bundle's cache "
                                                         "only (no model call)."),
    phones: int = typer.Option(1, "--phones", min=1, help="With --replay: virtual phones to start."),
    tasks_dir: Path | None = typer.Option(None, "--tasks-dir", "-t", help="The installed tasks to compare "
                                                                          "with (default: spa-bench's)."),
    instance_seed: str | None = typer.Option(None, "--instance-seed", help="A secret-seed run's seed, once "
                                                                           "published: checked against "
                                                                           "its commitment."),
    instance_seed_file: Path | None = typer.Option(None, "--instance-seed-file",
                                                   help="The same, read from a file."),
    unpack: Path | None = typer.Option(None, "--unpack", help="Leave the bundled run in this folder "
                                                              "(DIR/<run-id>/) with the verification "
                                                              "record, for `spa-bench report`."),
    adapter_dir: Path | None = typer.Option(None, "--adapter-dir", help="Folder of the submitted adapter "
                                                                        "files: an agent the run named by "
                                                                        "FILE.py:Class is found here by "
                                                                        "its file name."),
    import_: list[str] = typer.Option([], "--import", help="Python file or module to load first, so that "
                                                           "its @register_agent names are known."),
    record_in: Path | None = typer.Option(None, "--record-in", help="Write the verification record "
                                                                    "(the report's badge) into this run "
                                                                    "folder, e.g. the run bundled."),
) -> None:
    """Check a bundle against the installed spa-bench (the command's help says how)."""
    from spa_bench.bundle.verification import verify_bundle, write_record
    from spa_bench.results.layout import RunLayout
    from spa_bench.secrets import register_secrets
    from spa_bench.tasks.repository import default_tasks_root

    secret = read_instance_seed(instance_seed, instance_seed_file)
    if secret is not None:
        register_secrets([secret])
    if record_in is not None:
        RunLayout(record_in).read_manifest()  # a clear error now, not after a replay
    if adapter_dir is not None and not adapter_dir.is_dir():
        raise ConfigError(f"--adapter-dir {adapter_dir}: no such folder")
    from spa_bench.registry import import_plugins

    import_plugins(import_)
    with _replay_progress(replay) as events:
        done = verify_bundle(bundle, tasks_dir or default_tasks_root(), replay=replay, phones=phones,
                             instance_seed=secret, unpack_to=unpack, adapter_dir=adapter_dir, events=events)
    index = done.index
    console.print(f"bundle of run {index.run_id}: {index.episodes} episodes, screenshots "
                  f"{index.screenshots}{', model cache' if index.with_cache else ''}", highlight=False)
    commitment = index.provenance.instances.seed_commitment
    if commitment is not None:
        console.print(f"secret instance seed: commitment {commitment[:16]}... "
                      + ("[green]matches the given seed[/]" if done.seed == "revealed" else
                         "[yellow]not given: instances are checked once the seed is published[/]"))
    console.print("(a) hashes against the installed harness:")
    for part in done.parts:
        mark = "[green]same[/]" if part.same else "[red]differs[/]"
        console.print(f"  {part.part}: {mark}{' - ' + part.detail if part.detail else ''}",
                      highlight=False, soft_wrap=True)
    rescoring = done.rescoring
    console.print(f"(b) re-scored offline: {len(rescoring.episodes) - len(rescoring.differ)}/"
                  f"{len(rescoring.episodes)} verdicts as recorded"
                  + (f", {len(rescoring.not_rescored)} not re-scored" if rescoring.not_rescored else ""),
                  highlight=False)
    for item in rescoring.differ:
        changed = f" ({', '.join(item.differing)} changed)" if item.differing else ""
        console.print(f"  [red]✗[/] {item.episode_id}: recorded {item.recorded}, re-scored "
                      f"{item.rescored}{changed}", highlight=False, soft_wrap=True)
    if done.replay is not None:
        for warning in done.replay.warnings:
            console.print(f"[yellow]{warning}[/]", highlight=False)
        same = len(done.replay.episodes) - len(done.replay.differ)
        console.print(f"(c) replayed: {same}/{len(done.replay.episodes)} episodes with the same trajectory "
                      f"and verdict ({done.replay.seconds:.0f} s)", highlight=False)
        for replayed in done.replay.differ:
            console.print(f"  [red]✗[/] {replayed.episode_id}: {replayed.detail}", highlight=False,
                          soft_wrap=True)
    if record_in is not None:
        write_record(record_in, done)
    if unpack is not None:
        console.print(f"run: {unpack / index.run_id}", highlight=False, soft_wrap=True)
    console.print(f"[{'red' if done.differs else 'green'}]{done.line()}[/]", highlight=False, soft_wrap=True)
    if done.differs:
        raise typer.Exit(1)


@contextlib.contextmanager
def _replay_progress(replay: bool) -> Iterator[Events | None]:
    """The replay's progress bar, as `spa-bench run` shows it (it starts when the replay is planned)."""
    if not replay:
        yield None
        return
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    from spa_bench.cli.run import ProgressEvents

    progress = Progress(TextColumn("[bold]replay"), BarColumn(), MofNCompleteColumn(),
                        TextColumn("running {task.fields[running]}  success {task.fields[success]}"),
                        TimeElapsedColumn(), console=console, transient=True)
    try:
        yield ProgressEvents(progress, total=0)
    finally:
        progress.stop()
