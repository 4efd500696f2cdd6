"""The `spa-bench` command line: a thin layer that parses options and calls the library.

Each command group lives in its own module and is mounted here. Library errors (SpaBenchError) are
printed as one red line with exit code 1 (2 for usage errors); `--debug` shows the traceback instead.
"""

from __future__ import annotations

import sys
from typing import Any

import typer
from rich.markup import escape

from spa_bench import __version__
from spa_bench.cli import agents as agents_cli
from spa_bench.cli import bundle as bundle_cli
from spa_bench.cli import device as device_cli
from spa_bench.cli import evaluate as evaluate_cli
from spa_bench.cli import farm as farm_cli
from spa_bench.cli import phone as phone_cli
from spa_bench.cli import report as report_cli
from spa_bench.cli import results as results_cli
from spa_bench.cli import run as run_cli
from spa_bench.cli import serve_env as serve_env_cli
from spa_bench.cli import studio as studio_cli
from spa_bench.cli import tasks as tasks_cli
from spa_bench.cli import worker as worker_cli
from spa_bench.cli.common import console_err, state
from spa_bench.errors import ConfigError, SpaBenchError
from spa_bench.secrets import scrub_text

app = typer.Typer(
    name="spa-bench",
    help="Benchmark smartphone GUI agents on Android devices (or the built-in virtual phone).",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    add_completion=False,
)
app.command("run")(run_cli.run)
app.command("report")(report_cli.report)
app.command("evaluate")(evaluate_cli.evaluate)
app.command("worker")(worker_cli.worker)
app.command("serve-env")(serve_env_cli.serve_env)
app.command("studio")(studio_cli.studio)
app.add_typer(agents_cli.app, name="agents")
app.add_typer(tasks_cli.app, name="tasks")
app.add_typer(results_cli.app, name="results")
app.add_typer(phone_cli.app, name="phone")
app.add_typer(farm_cli.app, name="farm")
app.add_typer(device_cli.app, name="device")
app.add_typer(bundle_cli.app, name="bundle")


def _version(value: bool) -> None:
    if value:
        typer.echo(f"spa-bench {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    version: bool = typer.Option(False, "--version", callback=_version, is_eager=True,
                                 help="Print the version and exit."),
    debug: bool = typer.Option(False, "--debug", help="Show full tracebacks on errors."),
) -> None:
    state.debug = debug


def _flags_shown_as_flags(command: Any) -> None:
    """Options that take no value (--wide, --json, --help) show no value placeholder in help, where
    typer would print `<bool>` and invite `--wide true`."""
    from types import SimpleNamespace

    # --help is made on first use and kept (click's Command.get_help_option): make it now to mark it too
    help_option = command.get_help_option(SimpleNamespace(help_option_names=["--help"]))
    for param in [*command.params, *([help_option] if help_option else [])]:
        if getattr(param, "is_flag", False):
            param.metavar = ""
    for sub in getattr(command, "commands", {}).values():
        _flags_shown_as_flags(sub)


def _version_alone(args: list[str]) -> None:
    """`spa-bench --version` takes no value: `--version true` is a usage error, not a version."""
    if "--version" not in args:
        return
    at = args.index("--version")
    if any(not arg.startswith("-") for arg in args[:at]):
        return  # after a command name: that command's own options decide
    extra = [arg for arg in args if arg not in ("--version", "--debug")]
    if extra:
        console_err.print(f"Usage: spa-bench --version\nError: --version takes no value and no command "
                          f"(got {' '.join(extra)!r})", highlight=False, markup=False)
        sys.exit(2)


def main() -> None:
    """Console-script entry point."""
    try:
        _version_alone(sys.argv[1:])
        command = typer.main.get_command(app)
        _flags_shown_as_flags(command)
        # Without standalone mode click returns the code of typer.Exit instead of exiting.
        code = command(standalone_mode=False)
        if isinstance(code, int) and code:
            sys.exit(code)
    except SpaBenchError as exc:
        if state.debug:
            raise
        # escaped: messages hold brackets of their own ("pip install 'spa-bench[ray]'", lists)
        console_err.print(f"[bold red]error:[/] {escape(scrub_text(str(exc)))}", highlight=False,
                          soft_wrap=True)
        sys.exit(2 if isinstance(exc, ConfigError) else 1)
    except KeyboardInterrupt:
        console_err.print("[yellow]interrupted[/]")
        sys.exit(130)
    except typer.Exit as exc:
        sys.exit(exc.exit_code)
    except typer.Abort:
        console_err.print("[yellow]aborted[/]")
        sys.exit(130)
    except Exception as exc:  # click usage errors and friends
        if _is_usage_error(exc):
            exc.show()  # type: ignore[attr-defined]
            sys.exit(int(getattr(exc, "exit_code", 2)))
        if state.debug:
            raise
        console_err.print(f"[bold red]internal error:[/] {scrub_text(repr(exc))} (run with --debug for the "
                          "traceback)",
                          highlight=False, soft_wrap=True)
        sys.exit(1)


def _is_usage_error(exc: Exception) -> bool:
    """Click's exceptions, whichever click raised them: newer typer releases vendor their own copy
    (`typer._click`), whose classes are not click's but share typer's public base class."""
    import click

    if isinstance(exc, click.ClickException):
        return True
    return isinstance(exc, getattr(typer, "TyperException", ())) and hasattr(exc, "show")
