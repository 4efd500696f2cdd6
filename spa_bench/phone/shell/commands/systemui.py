"""`cmd statusbar`, `cmd notification` and `dumpsys notification`, reached from `cmd` and `dumpsys`.

They need a phone with SystemUI (`SystemUiHost`); a phone without one (the shell tests' FakePhone)
answers as a device whose service is missing does.
"""

from __future__ import annotations

import itertools
from typing import Any, Protocol, runtime_checkable

from spa_bench.phone.shell.context import CommandContext
from spa_bench.phone.system.notifications import (
    SHELL_CHANNEL,
    SHELL_NOTIFICATION_ID,
    SHELL_PACKAGE,
    Notification,
    dump_notifications,
    notification_to_string,
)

# NotificationShellCmd's help texts (AOSP services/core/.../notification/NotificationShellCmd.java).
USAGE = """usage: cmd notification SUBCMD [args]

SUBCMDs:
  allow_listener COMPONENT [user_id (current user if not specified)]
  disallow_listener COMPONENT [user_id (current user if not specified)]
  allow_assistant COMPONENT [user_id (current user if not specified)]
  remove_assistant COMPONENT [user_id (current user if not specified)]
  allow_dnd PACKAGE [user_id (current user if not specified)]
  disallow_dnd PACKAGE [user_id (current user if not specified)]
  suspend_package PACKAGE
  unsuspend_package PACKAGE
  reset_assistant_user_set [user_id (current user if not specified)]
  get_approved_assistant [user_id (current user if not specified)]
  post [--help | flags] TAG TEXT
"""
NOTIFY_USAGE = """usage: cmd notification post [flags] <tag> <text>

flags:
  -h|--help
  -v|--verbose
  -t|--title <text>
  -i|--icon <iconspec>
  -I|--large-icon <iconspec>
  -S|--style <style> [styleargs]
  -c|--content-intent <intentspec>

styles: (default none)
  bigtext
  bigpicture --picture <iconspec>
  inbox --line <text> --line <text> ...
  messaging --conversation <title> --message <who>:<text> ...
  media

an <iconspec> is one of
  file:///data/local/tmp/<img.png>
  content://<provider>/<path>
  @[<package>:]drawable/<img>
  data:base64,<B64DATA==>

an <intentspec> is (broadcast|service|activity) <args>
  <args> are as described in `am start`
"""
_STYLES = ("bigtext", "bigpicture", "inbox", "messaging", "media")
_ICON_PREFIXES = ("/", "http:", "https:", "content:", "file:", "android.resource:", "@", "data:")
# `am start` options that take one value, skipped when they appear inside a content intent.
_INTENT_VALUED = {"-a", "-d", "-t", "-c", "-f", "--user"}


@runtime_checkable
class SystemUiHost(Protocol):
    def shade_open(self) -> bool: ...

    def statusbar_command(self, args: list[str]) -> tuple[int, str, str]: ...

    def notification_list(self) -> list[Notification]: ...

    def post_notification(
        self,
        package: str,
        notification_id: int,
        tag: str | None,
        title: str,
        text: str,
        *,
        importance: int = ...,
        channel: str = ...,
        flags: int = ...,
        activity: str | None = ...,
        target_package: str | None = ...,
        extras: dict[str, Any] | None = ...,
    ) -> Notification: ...


def _host(ctx: CommandContext) -> SystemUiHost | None:
    system = ctx.system
    return system if isinstance(system, SystemUiHost) else None


def shade_open(ctx: CommandContext) -> bool:
    """Whether the notification shade is expanded: it then holds the input focus, as on Android."""
    host = _host(ctx)
    return host is not None and host.shade_open()


def cmd_statusbar(args: list[str], ctx: CommandContext) -> int:
    host = _host(ctx)
    if host is None:
        ctx.err("cmd: Can't find service: statusbar\n")
        return 20
    code, out, err = host.statusbar_command(args)
    ctx.out(out)
    ctx.err(err)
    return code


def cmd_notification(args: list[str], ctx: CommandContext) -> int:
    host = _host(ctx)
    if host is None:
        ctx.err("cmd: Can't find service: notification\n")
        return 20
    verb = args[0].replace("-", "_") if args else None
    if verb in (None, "help", "_h"):
        ctx.out(USAGE)
        return 255
    if verb == "get_approved_assistant":
        ctx.out((ctx.system.settings_get("secure", "enabled_notification_assistant") or "null") + "\n")
        return 0
    if verb in ("post", "notify"):
        _post(host, args[1:], ctx)
        return 0  # onCommand returns 0 whatever doNotify answered (usage and errors go to stdout)
    if verb in _ACCESS:
        return _access(verb, args[1:], ctx)
    ctx.out(f"Unknown command: {args[0]}\n")
    return 255


# The grants NotificationManagerService keeps in secure settings (ManagedServices / ZenModeHelper keys):
# verb -> (setting, added or removed, what the argument must be).
_ACCESS = {
    "allow_listener": ("enabled_notification_listeners", True, "listener"),
    "disallow_listener": ("enabled_notification_listeners", False, "listener"),
    "allow_assistant": ("enabled_notification_assistant", True, "assistant"),
    "disallow_assistant": ("enabled_notification_assistant", False, "assistant"),
    "remove_assistant": ("enabled_notification_assistant", False, "assistant"),
    "allow_dnd": ("enabled_notification_policy_access_packages", True, ""),
    "disallow_dnd": ("enabled_notification_policy_access_packages", False, ""),
}


def _access(verb: str, args: list[str], ctx: CommandContext) -> int:
    """allow_/disallow_ listener, assistant or dnd: the colon-separated grant lists `settings get` shows."""
    if not args:
        ctx.out("Error occurred. Check logcat for details. Argument expected after \"" + verb + "\"\n")
        return 0
    key, add, kind = _ACCESS[verb]
    value = args[0]
    if kind and "/" not in value:
        ctx.out(f"Invalid {kind} - must be a ComponentName\n")
        return 255
    current = [v for v in (ctx.system.settings_get("secure", key) or "").split(":") if v and v != value]
    if add:
        current = [value] if kind == "assistant" else [*current, value]  # one assistant at a time
    ctx.system.settings_put("secure", key, ":".join(current))
    return 0


def _post(host: SystemUiHost, args: list[str], ctx: CommandContext) -> int:
    """`cmd notification post [flags] TAG TEXT`, as NotificationShellCmd.doNotify parses it (its return
    value, -1 for a usage error, is not the exit code)."""
    title = ""
    verbose = False
    activity: tuple[str, str] | None = None
    extras: dict[str, Any] = {}
    i = 0
    while i < len(args) and args[i].startswith("-") and args[i] != "--":
        opt = args[i]
        value = args[i + 1] if i + 1 < len(args) else None
        if opt in ("-v", "--verbose"):
            verbose, i = True, i + 1
            continue
        if opt in ("-h", "--help", "--wtf"):
            ctx.out(NOTIFY_USAGE)
            return 0
        if value is None:
            ctx.out(f"Error occurred. Check logcat for details. Argument expected after \"{opt}\"\n")
            return 0
        if opt in ("-t", "--title"):
            title = value
        elif opt in ("-i", "--icon", "-I", "--large-icon", "--largeicon"):
            if not value.startswith(_ICON_PREFIXES):
                ctx.out(f"error: invalid icon: {value}\n")
                return 255
        elif opt in ("-S", "--style"):
            if value.lower() not in _STYLES:
                ctx.out(f"Error occurred. Check logcat for details. unrecognized notification style: "
                        f"{value.lower()}\n")
                return 0
        elif opt in ("--bigtext", "--big-text", "--line", "--message", "--conversation", "--picture"):
            pass  # style contents: the shade shows the content text, as a collapsed notification does
        elif opt in ("-c", "--content-intent", "--intent"):
            i, activity, extras = _intent(args, i + 1)
            continue
        else:
            ctx.out(NOTIFY_USAGE)
            return 0
        i += 2
    rest = args[i + 1:] if i < len(args) and args[i] == "--" else args[i:]
    if len(rest) < 2:
        ctx.out(NOTIFY_USAGE)
        return 255
    tag, text = rest[0], rest[1]
    n = host.post_notification(
        SHELL_PACKAGE, SHELL_NOTIFICATION_ID, tag, title, text, channel=SHELL_CHANNEL, flags=0,
        activity=None if activity is None else activity[1],
        target_package=None if activity is None else activity[0], extras=extras,
    )
    ctx.out(f"posting:\n  {notification_to_string(n)}\n")
    if verbose:
        ctx.out("posted: \n" + dump_notifications([n], redact=False).split("Notification List:\n", 1)[1])
    return 0


def _intent(args: list[str], i: int) -> tuple[int, tuple[str, str] | None, dict[str, Any]]:
    """The content intent's `-n pkg/.Activity` and `--es/--ei` extras; stops at the first non-option."""
    if i < len(args) and args[i] in ("broadcast", "service", "activity"):
        i += 1
    component: tuple[str, str] | None = None
    extras: dict[str, Any] = {}
    while i < len(args) and args[i].startswith("-"):
        opt = args[i]
        if opt == "-n" and i + 1 < len(args) and "/" in args[i + 1]:
            pkg, act = args[i + 1].split("/", 1)
            component = (pkg, pkg + act if act.startswith(".") else act)
            i += 2
        elif opt in ("--es", "--ei") and i + 2 < len(args):
            extras[args[i + 1]] = int(args[i + 2]) if opt == "--ei" and args[i + 2].lstrip("-").isdigit() \
                else args[i + 2]
            i += 3
        elif opt in _INTENT_VALUED:
            i += 2
        else:
            i += 1
    return i, component, extras


def dumpsys_notification(args: list[str], ctx: CommandContext) -> int:
    host = _host(ctx)
    if host is None:
        ctx.err("Can't find service: notification\n")
        return 0
    package = None
    for flag, value in itertools.pairwise(args):
        if flag in ("p", "pkg"):
            package = value
    zen = ctx.system.settings_get("global", "zen_mode") or "0"
    ctx.out(dump_notifications(host.notification_list(), redact="--noredact" not in args, package=package,
                               zen_mode=int(zen) if zen.isdigit() else 0))
    return 0
