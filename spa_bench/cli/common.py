"""Shared CLI state and consoles."""

from __future__ import annotations

from dataclasses import dataclass

from rich.console import Console

console = Console()
console_err = Console(stderr=True)


@dataclass
class CliState:
    debug: bool = False


state = CliState()
