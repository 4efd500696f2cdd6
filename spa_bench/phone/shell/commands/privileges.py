"""Changing user in the shell: `su` and `run-as`.

`su [WHO [COMMAND...]]` is the emulator image's su (system/extras/su, userdebug only): root (`root`/`0`,
the default) runs COMMAND, or the commands on stdin, as uid 0 without `adb root`; `shell`/`2000` runs
them as the shell user; anything else is `invalid uid/gid`. `run-as PKG CMD` (system/core/run-as) refuses
what the virtual phone's apps are - release builds, not debuggable - and unknown or system-uid packages.
"""

from __future__ import annotations

from spa_bench.phone.shell.context import CommandContext, CommandTable

TABLE = CommandTable()
command = TABLE.command

USAGE = "usage: run-as <package-name> [--user <uid>] <command> [<args>]\n"
# Packages that run under a system uid (below AID_APP = 10000), which run-as rejects first.
SYSTEM_UID_PACKAGES = frozenset({"android", "com.android.settings", "com.android.providers.settings",
                                 "com.android.shell"})


ROOT_NAMES = frozenset({"root", "0"})
SHELL_NAMES = frozenset({"shell", "2000"})


@command("su")
def su(args: list[str], ctx: CommandContext) -> int:
    who = args[0] if args else "root"
    user = who.split(",")[0]
    if user not in ROOT_NAMES | SHELL_NAMES:
        ctx.err(f"su: invalid uid/gid '{user}'\n")
        return 1
    saved = ctx.state.su
    ctx.state.su = user in ROOT_NAMES
    try:
        if len(args) > 1:
            return ctx.shell.run_argv(args[1:], ctx)
        return ctx.shell.run_nested(ctx.stdin.decode("utf-8", errors="replace"), ctx)  # `echo cmd | su`
    finally:
        ctx.state.su = saved


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
