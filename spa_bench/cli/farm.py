"""`spa-bench farm ...`: generate the docker emulator farm's compose file and farm.json."""

from __future__ import annotations

from pathlib import Path

import typer

from spa_bench.cli.common import console
from spa_bench.errors import ConfigError

app = typer.Typer(help="The docker emulator farm (docker/README.md).", no_args_is_help=True)


@app.command("compose")
def compose(
    n: int = typer.Argument(..., min=1, help="Number of emulators (one container each)."),
    out: Path = typer.Option(Path("docker-compose.yml"), "--out", "-o", help="Compose file to write."),
    farm_file: Path | None = typer.Option(None, "--farm-file",
                                          help="farm.json to write (default: farm.json beside --out)."),
    image: str = typer.Option("spa-bench-emulator:provisioned", "--image", help="Provisioned image."),
    base_port: int = typer.Option(15554, "--base-port", help="Host console port of the first emulator "
                                                             "(even); adb is +1, the next emulator +2."),
    cpus: float = typer.Option(2.0, "--cpus", help="CPUs per emulator container."),
    memory: str = typer.Option("4g", "--memory", help="Memory limit per emulator container."),
) -> None:
    """Write a compose file with N emulators and the farm.json that `spa-bench run --farm` reads."""
    from pydantic import ValidationError

    from spa_bench.farm.compose import generate, write

    try:
        files = generate(n, image=image, base_port=base_port, cpus=cpus, memory=memory)
    except ValidationError as exc:
        raise ConfigError(str(exc.errors()[0]["msg"]).removeprefix("Value error, ")) from None
    except ValueError as exc:
        raise ConfigError(str(exc)) from None
    farm_path = farm_file if farm_file is not None else out.parent / "farm.json"
    write(files, out, farm_path)
    serials = ", ".join(e.serial for e in files.farm.emulators)
    console.print(f"wrote {out} and {farm_path}: {n} emulator(s) at {serials}", highlight=False,
                  soft_wrap=True)
