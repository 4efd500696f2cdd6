"""`run-as PKG CMD`: system/core/run-as refuses what the virtual phone's apps are - release builds (not
debuggable) - and unknown or system packages, in its own words. Agents reach app data with `adb root`.
"""

from __future__ import annotations

from spa_bench.phone.shell.context import CommandContext, CommandTable

TABLE = CommandTable()
command = TABLE.command

USAGE = "usage: run-as <package-name> [--user <uid>] <command> [<args>]\n"
# Packages that run under a system uid (below AID_APP = 10000), which run-as rejects first.
SYSTEM_UID_PACKAGES = frozenset({"android", "com.android.settings", "com.android.providers.settings",
                                 "com.android.shell"})


@command("run-as")
def run_as(args: list[str], ctx: CommandContext) -> int:
    if not args:
        ctx.err(USAGE)
        return 1
    package = args[0]
    info = next((p for p in ctx.system.packages() if p.name == package), None)
    if info is None:
        ctx.err(f"run-as: unknown package: {package}\n")
    elif package in SYSTEM_UID_PACKAGES:
        ctx.err(f"run-as: package not an application: {package}\n")
    else:
        ctx.err(f"run-as: package not debuggable: {package}\n")
    return 1
