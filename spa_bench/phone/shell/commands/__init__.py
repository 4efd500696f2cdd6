"""The shell's commands, one module per domain, each with its own `TABLE` of name -> function."""

from __future__ import annotations

from spa_bench.phone.shell.context import CommandFn


def builtin_commands() -> dict[str, CommandFn]:
    """Merge every domain module's command table (imported here, on first use, not at import time)."""
    from spa_bench.phone.shell.commands import (
        activity,
        builtins,
        dumpsys,
        files,
        input,
        logs,
        misc,
        network,
        package,
        privileges,
        processes,
        screenrecord,
        service,
        settings,
        sqlite,
        text,
        window,
    )

    table: dict[str, CommandFn] = {}
    modules = (builtins, files, text, input, activity, package, settings, sqlite, dumpsys, window, service,
               privileges, misc, logs, processes, network, screenrecord)
    for module in modules:
        for name, fn in module.TABLE.commands.items():
            if name in table:
                raise RuntimeError(f"shell command {name!r} is defined twice")
            table[name] = fn
    return table
