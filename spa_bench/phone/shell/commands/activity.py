"""The activity manager's shell face: am (start, force-stop, broadcast, ...) and monkey's launcher mode.

Output mimics Android 14's ActivityManagerShellCommand: `Starting: Intent { cmp=pkg/.Act }`,
`Error type 3` for a missing activity, the SecurityException of a non-exported component or a protected
broadcast sent by the shell user (am_access), `Broadcasting: Intent { act=X flg=0x400000 (has extras) }` and
`Broadcast completed: result=0` (uiautomator2 parses `result=` and `data="..."`).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

from spa_bench.phone.api import PackageInfo
from spa_bench.phone.shell.commands.am_access import (
    activity_refusal,
    broadcast_refusal,
    may_receive,
    service_refusal,
)
from spa_bench.phone.shell.commands.intents import resolve_implicit, safe_uri
from spa_bench.phone.shell.context import CommandContext, CommandTable
from spa_bench.phone.system import app_receivers
from spa_bench.phone.system.packages import ACTIVITY_ALIASES

TABLE = CommandTable()
command = TABLE.command

ACTION_MAIN = "android.intent.action.MAIN"
LAUNCHER_CATEGORY = "android.intent.category.LAUNCHER"
HOME_CATEGORY = "android.intent.category.HOME"
SETTINGS_PACKAGE = "com.android.settings"
FLAG_RECEIVER_INCLUDE_BACKGROUND = 0x400000
FLAG_ACTIVITY_NEW_TASK = 0x10000000
NOT_RUNNING = "Service not stopped: was not running.\n"  # no service here ever keeps running


def short_component(package: str, activity: str) -> str:
    """ComponentName.flattenToShortString: `pkg/.Act` when the class is inside the package."""
    if activity.startswith(package + "."):
        return f"{package}/{activity[len(package):]}"
    return f"{package}/{activity}"


def full_activity(package: str, activity: str) -> str:
    return package + activity if activity.startswith(".") else activity


@dataclass
class Intent:
    """What `am` options describe; only what the virtual phone can act on is kept."""

    action: str | None = None
    data: str | None = None
    mime: str | None = None
    categories: list[str] = field(default_factory=list)
    component: tuple[str, str] | None = None  # (package, full class name)
    package: str | None = None
    flags: int = 0
    extras: dict[str, str] = field(default_factory=dict)

    def describe(self, flags: int | None = None) -> str:
        """Intent.toString as am prints it (secure: `dat=` through Uri.toSafeString)."""
        parts = []
        if self.action:
            parts.append(f"act={self.action}")
        if self.categories:
            parts.append(f"cat=[{','.join(self.categories)}]")
        if self.data:
            parts.append(f"dat={safe_uri(self.data)}")
        if self.mime:
            parts.append(f"typ={self.mime}")
        shown_flags = self.flags if flags is None else flags
        if shown_flags:
            parts.append(f"flg=0x{shown_flags:x}")
        if self.package:
            parts.append(f"pkg={self.package}")
        if self.component:
            parts.append(f"cmp={short_component(*self.component)}")
        if self.extras:
            parts.append("(has extras)")
        return "Intent { " + " ".join(parts) + " }"


@dataclass
class AmOptions:
    intent: Intent
    wait: bool = False
    stop_first: bool = False


_VALUE_FLAGS = {"--user", "-P", "--start-profiler", "--sampling", "--streaming", "-R", "--display",
                "--windowingMode", "--activityType", "--task", "--attach-agent", "--attach-agent-bind",
                "--receiver-permission", "--allow-background-activity-starts", "-i", "--checkin"}
_EXTRA_FLAGS = {"-e", "--es", "--ez", "--ei", "--el", "--ef", "--ed", "--eu", "--ecn", "--eia", "--eial",
                "--ela", "--elal", "--efa", "--efal", "--esa", "--esal"}


class AmError(Exception):
    pass


def parse_intent(args: list[str]) -> AmOptions:
    intent = Intent()
    opts = AmOptions(intent)
    i = 0

    def value() -> str:
        nonlocal i
        if i >= len(args):
            raise AmError(f"Error: No argument for option {args[i - 1]}" if i else "Error: argument expected")
        i += 1
        return args[i - 1]

    positional = False
    while i < len(args):
        a = args[i]
        i += 1
        if a == "-a":
            intent.action = value()
        elif a == "-d":
            intent.data = value()
        elif a == "-t":
            intent.mime = value()
        elif a == "-c":
            intent.categories.append(value())
        elif a == "-n":
            comp = value()
            pkg, sep, cls = comp.partition("/")
            if not sep or not pkg or not cls:
                raise AmError(f"Error: Bad component name: {comp}")
            intent.component = (pkg, full_activity(pkg, cls))
        elif a == "-p":
            intent.package = value()
        elif a == "-f":
            intent.flags |= int(value(), 0)
        elif a in _EXTRA_FLAGS:
            key = value()
            raw = value()
            intent.extras[key] = raw.lower() if a == "--ez" else raw
        elif a in ("--esn",):
            intent.extras[value()] = ""
        elif a == "-W":
            opts.wait = True
        elif a == "-S":
            opts.stop_first = True
        elif a in _VALUE_FLAGS:
            value()
        elif a.startswith("-"):
            continue  # -D, -N, --activity-*, --receiver-*, --grant-* ... carry no data we use
        else:
            if "/" in a and ":" not in a:
                pkg, _, cls = a.partition("/")
                intent.component = (pkg, full_activity(pkg, cls))
                positional = True
            elif ":" in a:
                intent.data = a
            else:
                intent.package = a
                positional = True
    if positional and not (intent.action or intent.data or intent.mime or intent.categories):
        # Intent.parseCommandArgs: a bare package or component means "launch it"
        intent.action = ACTION_MAIN
        intent.categories.append(LAUNCHER_CATEGORY)
    return opts


def _package(ctx: CommandContext, name: str) -> PackageInfo | None:
    return next((p for p in ctx.system.packages() if p.name == name), None)


def _resolve(ctx: CommandContext, intent: Intent) -> tuple[str, str | None, dict[str, str]] | None:
    """(package, activity or None for the launcher activity, screen arguments) the intent starts."""
    if intent.component:
        return intent.component[0], intent.component[1], {}
    launch = intent.action in (None, ACTION_MAIN) and not intent.data
    if intent.package and launch and (not intent.categories or LAUNCHER_CATEGORY in intent.categories):
        info = _package(ctx, intent.package)
        return (info.name, None, {}) if info and info.launcher_activity else None
    installed = {p.name for p in ctx.system.packages()}
    target = resolve_implicit(intent.action, intent.data, intent.mime, installed)
    if target is None or (intent.package and target.package != intent.package):
        return None
    return target.package, target.activity, target.args


def am_start(args: list[str], ctx: CommandContext, verb: str = "start") -> int:
    """Start an activity. An explicit component must be exported unless the caller is root; implicit
    intents resolve only to exported activities (the intents table lists their filters)."""
    opts = parse_intent(args)
    intent = opts.intent
    if HOME_CATEGORY in intent.categories and not intent.component:
        ctx.out(f"Starting: {intent.describe()}\n")
        ctx.system.press_key(3)
        return 0
    target = _resolve(ctx, intent)
    if target is None:
        ctx.out(f"Starting: {intent.describe()}\n")
        ctx.err("Error: Activity not started, unable to resolve "
                f"{intent.describe(intent.flags | FLAG_ACTIVITY_NEW_TASK)}\n")
        return 255
    package, activity, screen_args = target
    ctx.out(f"Starting: {intent.describe()}\n")
    info = _package(ctx, package)
    if intent.component and activity is not None and info is not None and not ctx.root:
        refusal = activity_refusal(info, info.component("activity", activity),
                                   intent.describe(intent.flags | FLAG_ACTIVITY_NEW_TASK), verb)
        if refusal is not None:
            ctx.err(refusal)
            return 255
    if activity is not None:  # an activity-alias starts its target (the intent keeps the alias)
        activity = ACTIVITY_ALIASES.get((package, activity), activity)
    if opts.stop_first:
        ctx.system.force_stop(package)
    before = ctx.system.current_focus()
    had_task = any(p == package for p, _a in ctx.system.recent_tasks())
    started = time.monotonic()
    try:
        resolved = ctx.system.start_activity(package, activity, {**screen_args, **intent.extras} or None)
    except KeyError:
        cls = activity or "(launcher)"
        ctx.err(f"Error type 3\nError: Activity class {{{package}/{cls}}} does not exist.\n")
        return 255
    elapsed = int((time.monotonic() - started) * 1000)
    pkg, _, cls = resolved.partition("/")
    brought = before == (pkg, full_activity(pkg, cls))
    if brought:
        ctx.out("Warning: Activity not started, intent has been delivered to currently running top-most "
                "instance.\n")
    elif had_task and activity is None and before[0] != pkg:
        ctx.out("Warning: Activity not started, its current task has been brought to the front\n")
        brought = True
    if opts.wait:
        state = "HOT" if brought else "COLD"
        ctx.out(f"Status: ok\nLaunchState: {state}\nActivity: {short_component(pkg, full_activity(pkg, cls))}"
                f"\nTotalTime: {elapsed}\nWaitTime: {elapsed}\nComplete\n")
    return 0


def am_broadcast(args: list[str], ctx: CommandContext) -> int:
    """Send a broadcast. The shell may not send a protected one; an explicit one to a receiver the shell
    may not reach is delivered to no one (result=0, as Android only logs it)."""
    opts = parse_intent(args)
    intent = opts.intent
    ctx.out(f"Broadcasting: {intent.describe(intent.flags | FLAG_RECEIVER_INCLUDE_BACKGROUND)}\n")
    refusal = None if ctx.root else broadcast_refusal(intent.action or "", "broadcast")
    if refusal is not None:
        ctx.err(refusal)
        return 255
    info = _package(ctx, intent.component[0]) if intent.component else None
    receiver = info.component("receiver", intent.component[1]) if info and intent.component else None
    if not may_receive(receiver, ctx.root):
        ctx.out("Broadcast completed: result=0\n")
        return 0
    helper = app_receivers.deliver(ctx.system, intent.action or "", dict(intent.extras)) \
        if isinstance(ctx.system, app_receivers.ReceiverHost) else None
    if helper is not None:  # an installed helper APK's receiver (uiautomator2's keyboard, Clipper)
        data_part = "" if helper.data is None else f', data="{helper.data}"'
        ctx.out(f"Broadcast completed: result={helper.code}{data_part}\n")
        return 0
    code, data = ctx.system.broadcast(intent.action or "", dict(intent.extras))
    ctx.out(f"Broadcast completed: result={code}" + (f', data="{data}"' if data else "") + "\n")
    return 0


def am_service(args: list[str], ctx: CommandContext, stop: bool) -> int:
    """startservice / start-foreground-service / stopservice. Services here do nothing when started, so
    what matters is am's answer: not found, refused (not exported, or a permission the shell lacks), or
    started. Only explicit service intents are resolved (Android 5+ has no implicit service starts)."""
    intent = parse_intent(args).intent
    ctx.out(f"{'Stopping' if stop else 'Starting'} service: {intent.describe()}\n")
    info = _package(ctx, intent.component[0]) if intent.component else None
    service = info.component("service", intent.component[1]) if info and intent.component else None
    if info is None or service is None:
        ctx.err(NOT_RUNNING if stop else "Error: Not found; no service started.\n")
        return 255
    refusal = None if ctx.root else service_refusal(info, service)
    if refusal is not None:
        ctx.err(refusal)
        return 255
    if stop:
        ctx.err(NOT_RUNNING)
        return 255
    return 0


def am_instrument(args: list[str], ctx: CommandContext) -> int:
    target = next((a for a in reversed(args) if "/" in a), args[-1] if args else "")
    pkg, _, runner = target.partition("/")
    info = f"ComponentInfo{{{pkg}/{runner}}}"
    ctx.out(f"INSTRUMENTATION_STATUS: Error=Unable to find instrumentation info for: {info}\n"
            "INSTRUMENTATION_STATUS_CODE: -1\n")
    ctx.err(f"android.util.AndroidException: INSTRUMENTATION_FAILED: {target}\n")
    return 1


@command("am")
def am(args: list[str], ctx: CommandContext) -> int:
    if not args or args[0] in ("help", "-h"):
        ctx.out("Activity manager (activity) commands:\n  help\n  start [options] <INTENT>\n"
                "  force-stop [--user <USER_ID> | all | current] <PACKAGE>\n"
                "  broadcast [--user <USER_ID> | all | current] <INTENT>\n  get-current-user\n")
        return 0
    verb, rest = args[0], args[1:]
    try:
        if verb in ("start", "start-activity"):
            return am_start(rest, ctx, verb)
        if verb in ("startservice", "start-service", "startforegroundservice", "start-foreground-service",
                    "stopservice", "stop-service"):
            return am_service(rest, ctx, stop=verb.startswith("stop"))
        if verb == "broadcast":
            return am_broadcast(rest, ctx)
        if verb == "instrument":
            return am_instrument(rest, ctx)
        if verb == "stack":
            from spa_bench.phone.shell.commands.tasks import am_stack  # tasks imports this module

            return am_stack(rest, ctx)
    except AmError as exc:
        ctx.err(f"{exc}\n")
        return 255
    packages = [a for a in rest if not a.startswith("-") and a not in ("all", "current")]
    if verb in ("force-stop", "stop-app", "kill"):
        for pkg in packages[-1:]:
            ctx.system.force_stop(pkg)
        return 0
    if verb == "kill-all":
        return 0
    if verb == "get-current-user":
        ctx.out("0\n")
        return 0
    ctx.err(f"Unknown command: {verb}\n")
    return 255


@command("monkey")
def monkey(args: list[str], ctx: CommandContext) -> int:
    """Only the launcher mode agents use (`monkey -p PKG -c ...LAUNCHER 1`): no random events."""
    ctx.out("".join(f"  bash arg: {a}\n" for a in args))
    packages = [args[i + 1] for i, a in enumerate(args[:-1]) if a == "-p"]
    counts = [a for a in args if a.isdigit() and args.index(a) > 0 and args[args.index(a) - 1] not in
              ("-s", "--throttle", "--pct-touch", "-v")]
    launchable = [p for p in packages if (info := _package(ctx, p)) and info.launcher_activity]
    if not launchable:
        ctx.err("** No activities found to run, monkey aborted.\n")
        return 252
    started = time.monotonic()
    injected = 0
    if counts and int(counts[-1]) > 0:
        ctx.system.start_activity(launchable[0], None)
        injected = 1
    elapsed = int((time.monotonic() - started) * 1000)
    ctx.out(f"Events injected: {injected}\n## Network stats: elapsed time={elapsed}ms "
            f"(0ms mobile, 0ms wifi, {elapsed}ms not connected)\n")
    return 0
