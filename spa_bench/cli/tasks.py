"""`spa-bench tasks ...`."""

from __future__ import annotations

import typer

app = typer.Typer(help="tasks commands.", no_args_is_help=True)
