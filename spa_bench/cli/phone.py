"""`spa-bench phone ...`: run the virtual phone."""

from __future__ import annotations

import signal
from pathlib import Path
from types import FrameType

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
    from dataclasses import replace

    from spa_bench.phone.api import PhoneConfig
    from spa_bench.phone.server import VirtualPhone, check_locale, parse_size
    from spa_bench.phone.system.clock import parse_clock

    width, height = parse_size(size)
    config = replace(PhoneConfig(), port=port, locale=check_locale(locale), width=width, height=height,
                     data_dir=data_dir, frozen_clock=parse_clock(clock) if clock else None)
    phone = VirtualPhone(config)
    phone.start()
    config = phone.config  # with --port 0, the pair it bound
    if ready_file is not None:
        from spa_bench.phone.process import write_ready_file

        write_ready_file(ready_file, config.port)

    # Ctrl-C and SIGTERM only note the request; the loop below stops the phone. A KeyboardInterrupt, or
    # phone.stop() run inside a handler, can land while the main thread holds the lock inside
    # phone.wait() (an Event's), and stop() then waits forever for that lock: the likely cause of one
    # hang after Ctrl-C seen under load (test_cli_start_prints_connect_line_and_stops_on_sigint).
    requested: list[int] = []

    def _on_signal(signum: int, _frame: FrameType | None) -> None:
        requested.append(signum)

    previous = {sig: signal.signal(sig, _on_signal) for sig in (signal.SIGINT, signal.SIGTERM)}
    if exit_with_parent:
        from spa_bench.phone.process import stop_when_stdin_closes

        stop_when_stdin_closes(phone.stop)
    try:
        console.print(f"Virtual phone running: ADB on 127.0.0.1:{config.port}, console on 127.0.0.1:"
                      f"{config.console_port}, {width}x{height}, locale {config.locale}, data in {data_dir}",
                      highlight=False)
        console.print(f"Connect with:  adb connect 127.0.0.1:{config.port}", highlight=False)
        if 5555 <= config.port <= 5585 and config.port % 2 == 1:
            console.print(f"(an adb server started after it also lists it as {phone.emulator_serial})",
                          highlight=False)
        console.print("Press Ctrl-C to stop.", highlight=False)
        while not requested and not phone.wait(0.5):
            pass
        console.print("stopping the phone..." if signal.SIGINT in requested else "phone stopped",
                      highlight=False)
    finally:
        phone.stop()
        for sig, handler in previous.items():
            signal.signal(sig, handler)
