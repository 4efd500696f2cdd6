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


def _only_device(adb_port: int | None) -> str:
    """The serial of the one device the adb server lists (as plain `adb` picks it), or a clear error."""
    import adbutils

    from spa_bench.errors import ConfigError

    client = adbutils.AdbClient(port=adb_port) if adb_port else adbutils.AdbClient()
    try:
        serials = [d.serial for d in client.device_list() if d.serial]
    except adbutils.AdbError as exc:
        raise ConfigError(f"no adb server answered ({exc}): start a phone (spa-bench phone start) and "
                          f"`adb connect` it, or give --device SERIAL") from None
    if len(serials) != 1:
        listed = ", ".join(serials) or "none"
        raise ConfigError(f"--device is needed: the adb server lists {len(serials)} devices ({listed})")
    return str(serials[0])


@app.command("dump")
def dump(
    device: str | None = typer.Option(None, "--device", help="The device's serial (127.0.0.1:5555, "
                                                             "emulator-5554, ...); default: the only one."),
    adb_port: int | None = typer.Option(None, "--adb-port", help="The adb server's port (default "
                                                                 "$ANDROID_ADB_SERVER_PORT or 5037)."),
    all_nodes: bool = typer.Option(False, "--all", help="Every node of the dump, not only the elements "
                                                        "an agent sees (numbered as the agent sees them)."),
    xml: bool = typer.Option(False, "--xml", help="Print the uiautomator XML as the device wrote it."),
) -> None:
    """Print the current screen's elements with the selector a golden script should use for each:
    a resource id first, then the label (in both UI languages where the virtual phone's apps have it),
    with whether it is unique on the screen or needs `nth`."""
    from spa_bench.device.device import Device
    from spa_bench.device.elements import parse_hierarchy
    from spa_bench.device.selectors import propose
    from spa_bench.device.transport import AdbTransport
    from spa_bench.phone.apps.labels import LabelTranslator

    serial = device or _only_device(adb_port)
    phone = Device(serial, transport=AdbTransport(port=adb_port))
    phone.connect()
    raw = phone.dump_hierarchy()
    if xml:
        typer.echo(raw)
        return
    package, activity, _ = phone.foreground()
    elements = parse_hierarchy(raw)
    translate = LabelTranslator(package)
    lines = []
    for element in elements:
        if element.index < 0 and not all_nodes:
            continue
        proposal = propose(element, elements, translate)
        label = element.text or element.content_desc
        number = f"[{element.index}]" if element.index >= 0 else "[-]"
        bounds = "[{},{}][{},{}]".format(*element.bounds)
        parts = (number, element.class_name.rpartition(".")[2], repr(label) if label else "", bounds)
        head = " ".join(part for part in parts if part)
        if proposal is None:
            selector = "-  (nothing names it: tap it by x, y)"
        else:
            where = "" if proposal.unique else \
                f"  (not unique: {proposal.matches} match, nth picks this one)"
            selector = proposal.as_yaml() + where
        lines.append(f"{head}\n    selector: {selector}")
    typer.echo(f"{serial}: {package or '?'}/{activity or '?'}, {len(lines)} elements")
    typer.echo("\n".join(lines))
