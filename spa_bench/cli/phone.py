"""`spa-bench phone ...`: run the virtual phone."""

from __future__ import annotations

import typer

app = typer.Typer(help="Run the virtual phone (an Android device in pure Python that speaks ADB).",
                  no_args_is_help=True)
