"""`spa-bench agents ...`: what agents are available."""

from __future__ import annotations

import typer
from rich.table import Table

from spa_bench.cli.common import console

app = typer.Typer(help="Agent adapters.", no_args_is_help=True)


@app.command("list")
def list_agents() -> None:
    """List registered agents: built-ins and those installed through the `spa_bench.agents` entry point.
    Any class can also be used directly with --agent path/to/file.py:ClassName."""
    from spa_bench.agent import AGENTS

    table = Table(title="agents", title_justify="left")
    for col in ("name", "source", "defined in"):
        table.add_column(col)
    for entry in AGENTS.entries():
        table.add_row(entry.name, entry.source, entry.target or "(registered in code)")
    console.print(table)
