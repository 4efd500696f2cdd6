"""`spa-bench device ...`: prepare a real device or emulator for spa-bench's tasks."""

from __future__ import annotations

import typer

from spa_bench.cli.common import console
from spa_bench.errors import ConfigError

app = typer.Typer(help="Prepare a device (emulator or phone) over ADB.", no_args_is_help=True)


@app.command("seed")
def seed(
    serial: str = typer.Option(..., "--serial", help="The device: emulator-5556, 127.0.0.1:15555, ..."),
    language: str = typer.Option(..., "--language", help="en or zh: the locale the device is in."),
    adb_port: int | None = typer.Option(None, "--adb-port",
                                        help="The adb server's port (default $ANDROID_ADB_SERVER_PORT "
                                             "or 5037)."),
    deskclock_package: str | None = typer.Option(
        None, "--deskclock-package", help="The clock app whose alarms.db gets the alarms (default: "
                                          "com.android.deskclock, or the build installed in its place)."),
) -> None:
    """Clear the device's contacts, SMS, call log, calendar, DeskClock alarms and seeded /sdcard folders,
    and write the virtual phone's seed into them (needs adb root), so the portable suite's checks find
    the data they expect."""
    from spa_bench.device.device import Device, start_adb_server
    from spa_bench.device.seeding import LANGUAGES, seed_device, sync_pusher
    from spa_bench.device.transport import AdbTransport

    if language not in LANGUAGES:
        raise ConfigError(f"--language must be one of {', '.join(LANGUAGES)}, not {language!r}")
    if adb_port is None:
        start_adb_server()
    device = Device(serial, transport=AdbTransport(port=adb_port))
    device.connect()
    report = seed_device(device, sync_pusher(device), language, deskclock_package)
    console.print(f"seeded {serial} ({language}): {report.summary()}", highlight=False, soft_wrap=True)
