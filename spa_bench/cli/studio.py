"""`spa-bench studio`: a local web page over a phone - see it, act on it, inspect its elements."""

from __future__ import annotations

import contextlib
import threading
from pathlib import Path

import typer

from spa_bench.cli.common import console


def studio(
    port: int = typer.Option(8765, "--port", help="The page's port on 127.0.0.1 (0: a free one)."),
    device: str | None = typer.Option(None, "--device", help="Use this ADB device (127.0.0.1:5555, "
                                                             "emulator-5554, a phone's serial) instead of "
                                                             "starting a virtual phone."),
    adb_port: int | None = typer.Option(None, "--adb-port", help="With --device: the adb server's "
                                                                 "port (default $ANDROID_ADB_SERVER_PORT "
                                                                 "or 5037)."),
    locale: str = typer.Option("en", "--locale", help="The virtual phone's UI language: en or zh (its "
                                                      "base snapshot for that language)."),
    size: str = typer.Option("1080x2400", "--size", help="The virtual phone's screen, WIDTHxHEIGHT."),
    density: int | None = typer.Option(None, "--density", help="`wm density` in dpi, as --vary draws it."),
    dark: bool = typer.Option(False, "--dark", help="Dark theme (`cmd uimode night yes`)."),
    font_scale: float | None = typer.Option(None, "--font-scale", help="Settings' font size (0.85-1.3)."),
    tasks_dir: Path | None = typer.Option(None, "--tasks-dir", help="Tasks to record from and to play "
                                                                    "(default: the shipped tasks)."),
    record_dir: Path = typer.Option(Path("studio-tasks"), "--record-dir",
                                    help="Where recorded tasks are written (TASK_ID/LANGUAGE.yaml)."),
    out: Path = typer.Option(Path("studio-runs"), "--out", "-o", help="Where plays (run folders of the "
                                                                      "agent `human`) and verifications go."),
    seed: int = typer.Option(0, "--seed", help="The plays' run seed (which instance of a task is drawn)."),
    run: list[Path] = typer.Option([], "--run", help="Watch this run folder instead of a phone (repeatable): "
                                                     "each phone's screen, task and step while the run "
                                                     "goes, and the verdicts (an ended run: its final "
                                                     "state)."),
) -> None:
    """Serve the studio page until Ctrl-C: the live screen (click taps, drag swipes, hold long-presses,
    keys and text in any language), and an inspector showing each element's bounds, ids, text, flags and
    the selector a golden script should use, with whether it is unique, beside the UI tree."""
    from spa_bench.device.device import Device
    from spa_bench.device.transport import AdbTransport
    from spa_bench.errors import ConfigError
    from spa_bench.phone.apps.labels import LabelTranslator
    from spa_bench.results.schema import DeviceVariation
    from spa_bench.runner.pool import BASE_SNAPSHOT, start_virtual_pool
    from spa_bench.runner.vary import LOCALES, apply_variation
    from spa_bench.studio.phone import StudioPhone
    from spa_bench.studio.server import Studio, StudioServer

    if run:
        from spa_bench.studio.live import serving_live

        def say(line: str) -> None:
            console.print(f"spa-bench studio {line}; Ctrl-C stops it", highlight=False, soft_wrap=True)

        with contextlib.suppress(KeyboardInterrupt), serving_live(run, port, say):
            threading.Event().wait()
        return
    if locale not in LOCALES:
        raise ConfigError(f"--locale must be one of {', '.join(LOCALES)}, not {locale!r}")
    with contextlib.ExitStack() as stack:
        if device is None:
            console.print(f"starting a virtual phone ({size}, {locale})...", highlight=False)
            pool = start_virtual_pool(1, size=size)
            stack.callback(pool.close)
            phone = pool.devices[0]
            phone.load_snapshot(BASE_SNAPSHOT.format(language=locale))
        else:
            phone = Device(device, transport=AdbTransport(port=adb_port))
            phone.connect()
        variation = DeviceVariation(name="studio", density=density, font_scale=font_scale,
                                    dark=True if dark else None)
        apply_variation(phone, variation)
        studio_state = Studio(StudioPhone(phone, LabelTranslator), tasks_dir=tasks_dir, record_dir=record_dir,
                              runs_dir=out, seed=seed)
        server = StudioServer(studio_state, port=port)
        server.start()
        stack.callback(server.stop)
        console.print(f"spa-bench studio on {server.url} ({phone.serial}); Ctrl-C stops it", highlight=False)
        stop = threading.Event()
        with contextlib.suppress(KeyboardInterrupt):
            stop.wait()
