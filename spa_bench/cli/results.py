"""`spa-bench results ...`: the results contract."""

from __future__ import annotations

import json
from typing import Literal

import typer

app = typer.Typer(help="Results of runs: their schema and layout.", no_args_is_help=True)


@app.command("schema")
def schema(
    which: str = typer.Argument("all", help="manifest, episode or all"),
) -> None:
    """Print the JSON schema of the run manifest and/or the episode log."""
    from spa_bench.errors import ConfigError
    from spa_bench.results.schema import EpisodeLog, RunManifest

    choice: dict[str, type[RunManifest] | type[EpisodeLog]] = {"manifest": RunManifest,
                                                                "episode": EpisodeLog}
    if which not in (*choice, "all"):
        raise ConfigError(f"unknown schema {which!r}: expected manifest, episode or all")
    selected: list[Literal["manifest", "episode"]] = (
        ["manifest", "episode"] if which == "all" else [which])  # type: ignore[list-item]
    schemas = {name: choice[name].model_json_schema() for name in selected}
    typer.echo(json.dumps(schemas if which == "all" else schemas[selected[0]], indent=2))
