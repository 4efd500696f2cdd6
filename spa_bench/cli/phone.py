"""`spa-bench phone ...`: run the virtual phone."""

from __future__ import annotations

from pathlib import Path

import typer

from spa_bench.cli.common import console

app = typer.Typer(help="Run the virtual phone (an Android device in pure Python that speaks ADB).",
                  no_args_is_help=True)


@app.command("start")
def start(
    port: int = typer.Option(5555, "--port", help="ADB port on 127.0.0.1; the console listens on port - 1. "
                                                  "0: a free pair, picked as the phone binds it."),
    locale: str = typer.Option("en", "--locale", help="System language: en or zh."),
    size: str = typer.Option("1080x2400", "--size", help="Screen size WIDTHxHEIGHT in pixels."),
    data_dir: Path = typer.Option(Path("phone-data"), "--data-dir",
                                  help="Where the phone keeps its files and snapshots."),
    clock: str | None = typer.Option(None, "--clock", help="Freeze the phone's clock at this time "
                                                           "(ISO 8601, UTC: 2026-01-15T09:30)."),
    ready_file: Path | None = typer.Option(None, "--ready-file",
                                           help="Once both ports listen, write {\"port\": P, ...} (JSON) "
                                                "here: how a program that started the phone with "
                                                "--port 0 learns its port."),
    exit_with_parent: bool = typer.Option(False, "--exit-with-parent",
                                          help="Stop when stdin reaches end of file (the harness that "
                                               "started the phone, holding the other end, has gone)."),
) -> None:
    """Run one phone in the foreground until Ctrl-C (or the console's `kill`)."""
    from spa_bench.phone.foreground import phone_config, run_phone

    config = phone_config(port=port, locale=locale, size=size, data_dir=data_dir, clock=clock)
    run_phone(config, ready_file=ready_file, parent_fd=0 if exit_with_parent else None,
              say=lambda line: console.print(line, highlight=False))
