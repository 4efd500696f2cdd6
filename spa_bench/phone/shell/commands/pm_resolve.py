"""`pm resolve-activity` / `cmd package resolve-activity`: which activity an intent starts, printed as
PackageManagerShellCommand.printResolveInfo does. `--brief` gives the ResolveInfo's first line and the
component (`ComponentName.flattenToShortString`), `--components` the component alone, and nothing
found is `No activity found`. A launcher intent resolves to the component that declares the LAUNCHER
filter: for Camera2 its activity-alias `com.android.camera.CameraLauncher`, not the target it starts.
"""

from __future__ import annotations

from spa_bench.phone.shell.commands.activity import (
    ACTION_MAIN,
    LAUNCHER_CATEGORY,
    AmError,
    parse_intent,
    short_component,
)
from spa_bench.phone.shell.commands.intents import resolve_implicit
from spa_bench.phone.shell.context import CommandContext
from spa_bench.phone.system.packages import ACTIVITY_ALIASES

MATCH_LAUNCHER = 0x108000  # IntentFilter.MATCH_CATEGORY_EMPTY | MATCH_ADJUSTMENT_NORMAL
MATCH_CATEGORY_SCHEME = 0x208000  # a data scheme matched, as for tel:, sms:, http:


def launcher_entry(package: str, launcher_activity: str) -> str:
    """The component the launcher lists: a built-in app's alias of its launcher activity, if it has one."""
    return next((alias for (pkg, alias), target in ACTIVITY_ALIASES.items()
                 if pkg == package and target == launcher_activity), launcher_activity)


def pm_resolve_activity(args: list[str], ctx: CommandContext) -> int:
    brief = "--brief" in args
    components = "--components" in args
    rest = [a for a in args if a not in ("--brief", "--components")]
    try:
        intent = parse_intent(rest).intent
    except AmError as exc:
        ctx.err(f"{exc}\n")
        return 255
    packages = {p.name: p for p in ctx.system.packages()}
    found: tuple[str, str, int] | None = None
    if intent.component is not None:
        pkg, cls = intent.component
        info = packages.get(pkg)
        if info is not None and (info.component("activity", cls) is not None
                                 or (pkg, cls) in ACTIVITY_ALIASES):
            found = (pkg, cls, 0)
    elif intent.package and intent.action in (None, ACTION_MAIN) and not intent.data and \
            (not intent.categories or LAUNCHER_CATEGORY in intent.categories):
        info = packages.get(intent.package)
        if info is not None and info.launcher_activity:
            found = (info.name, launcher_entry(info.name, info.launcher_activity), MATCH_LAUNCHER)
    else:
        target = resolve_implicit(intent.action, intent.data, intent.mime, set(packages))
        if target is not None and (intent.package is None or intent.package == target.package):
            match = MATCH_CATEGORY_SCHEME if intent.data and ":" in intent.data else MATCH_LAUNCHER
            found = (target.package, target.activity, match)
    if found is None:
        ctx.out("No activity found\n")
        return 0
    pkg, cls, match = found
    if brief or components:
        if not components:
            ctx.out(f"priority=0 preferredOrder=0 match=0x{match:x} specificIndex=-1 isDefault=false\n")
        ctx.out(short_component(pkg, cls) + "\n")
        return 0
    # ResolveInfo.dump's head and ActivityInfo's identifying lines
    ctx.out(f"priority=0 preferredOrder=0 match=0x{match:x} specificIndex=-1 isDefault=false\n"
            f"ActivityInfo:\n  name={cls}\n  packageName={pkg}\n  enabled=true exported=true "
            f"directBootAware=false\n")
    aliased = ACTIVITY_ALIASES.get((pkg, cls))
    if aliased is not None:
        ctx.out(f"  targetActivity={aliased}\n")
    return 0


__all__ = ["launcher_entry", "pm_resolve_activity"]
