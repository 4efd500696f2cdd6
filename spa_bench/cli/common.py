"""Shared CLI state, consoles, and the tables every command prints.

Tables are made to read well in an 80-column terminal: by default they show the columns most people
look at, every header kept whole (a header is never cut to `ev…`), and only the first column (agent or
evaluator names) folds when space is short; `--wide` adds the remaining columns.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rich.console import Console
from rich.table import Table

console = Console()
console_err = Console(stderr=True)


@dataclass
class CliState:
    debug: bool = False


state = CliState()


@dataclass(frozen=True)
class Column:
    """One column of a CLI table: its header, alignment, and whether only `--wide` shows it."""

    header: str
    right: bool = True
    wide_only: bool = False


def cli_table(title: str, columns: Sequence[Column], rows: Sequence[Sequence[str]], wide: bool) -> Table:
    """A table of `rows` (one cell per column, in order) with the columns shown at this width."""
    shown = [i for i, column in enumerate(columns) if wide or not column.wide_only]
    table = Table(title=title, title_justify="left")
    for position, i in enumerate(shown):
        column = columns[i]
        first = position == 0
        table.add_column(column.header, justify="right" if column.right else "left",
                         min_width=None if first else len(column.header), no_wrap=not first,
                         overflow="fold")
    for row in rows:
        table.add_row(*(row[i] for i in shown))
    return table
