"""`spa-bench results ...`."""

from __future__ import annotations

import typer

app = typer.Typer(help="results commands.", no_args_is_help=True)
