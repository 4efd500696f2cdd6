"""`cmd uimode night` and `cmd overlay` (the navigation-bar overlays), reached from `cmd`.

They are how a harness themes and re-navigates a stock device over adb (spa_bench.runner.vary): UiMode's
shell writes the night mode that secure `ui_night_mode` holds (0 auto, 1 no, 2 yes); the overlay manager
switches the navigation mode by enabling one of the framework's navbar overlays, and the framework then
reports the mode in secure `navigation_mode`. This phone has only those overlays, and enabling one
disables the others of its category, as `enable-exclusive --category` does and as the Settings app does.

On this phone `settings put secure navigation_mode 2` alone also switches the bar (the screen reads the
setting). A real device does not: there the setting only reports the overlay that is enabled (SystemUI's
NavigationModeController writes it), so a harness must use the overlay command, as runner.vary does.
Unknown overlays fail as OverlayManagerService's shell fails (stderr, exit 255).
"""

from __future__ import annotations

from spa_bench.phone.shell.commands.settings import without_options
from spa_bench.phone.shell.context import CommandContext
from spa_bench.phone.system.navbar import MODES, NAVIGATION_MODE_KEY, OVERLAY_PREFIX

NIGHT_KEY = ("secure", "ui_night_mode")
_NIGHT = {"auto": "0", "no": "1", "yes": "2"}
UIMODE_USAGE = """UiModeManager service (uimode) commands:
  help
    Print this help text.
  night [yes|no|auto]
    Set or read night mode.
"""
OVERLAY_USAGE = """Overlay manager (overlay) commands:
  help
    Print this help message.
  list [--user USER_ID] [PACKAGE]
    Print information about target and overlay packages.
  enable [--user USER_ID] PACKAGE
    Enable overlay package PACKAGE.
  disable [--user USER_ID] PACKAGE
    Disable overlay package PACKAGE.
  enable-exclusive [--user USER_ID] [--category] PACKAGE
    Enable overlay package PACKAGE and disable all other overlays for
    its target package. If the --category option is given, only disables
    other overlays in the same category.
"""
NAVBAR_TARGET = "android"
DEFAULT_MODE = "threebutton"  # the config this phone ships with (config_navBarInteractionMode 0)


def cmd_uimode(args: list[str], ctx: CommandContext) -> int:
    if not args or args[0] in ("help", "-h"):
        ctx.out(UIMODE_USAGE)
        return 0
    if args[0] != "night":
        ctx.err(f"Unknown command: {args[0]}\n")
        return -1
    if len(args) > 1:
        value = _NIGHT.get(args[1])
        if value is None:
            ctx.err("Error: mode must be 'yes', 'no', or 'auto'\n")
            return -1
        ctx.system.settings_put(*NIGHT_KEY, value)
    current = ctx.system.settings_get(*NIGHT_KEY) or _NIGHT["no"]
    names = {v: k for k, v in _NIGHT.items()}
    ctx.out(f"Night mode: {names.get(current, 'no')}\n")
    return 0


def _current_mode(ctx: CommandContext) -> str:
    value = ctx.system.settings_get(*NAVIGATION_MODE_KEY)
    return next((name for name, v in MODES.items() if v == value), DEFAULT_MODE)


def cmd_overlay(args: list[str], ctx: CommandContext) -> int:
    if not args or args[0] in ("help", "-h"):
        ctx.out(OVERLAY_USAGE)
        return 0
    verb, rest = args[0], without_options(args[1:], "--category")
    if verb == "list":
        if rest and rest[0] != NAVBAR_TARGET and not rest[0].startswith(OVERLAY_PREFIX):
            return 0
        mode = _current_mode(ctx)
        lines = [f"[{'x' if name == mode else ' '}] {OVERLAY_PREFIX}{name}" for name in MODES]
        ctx.out(NAVBAR_TARGET + "\n" + "".join(line + "\n" for line in lines) + "\n")
        return 0
    if verb not in ("enable", "disable", "enable-exclusive"):
        ctx.err(f"Unknown command: {verb}\n")
        return -1
    if not rest:  # ShellCommand.getNextArgRequired's IllegalArgumentException, caught by onCommand
        ctx.err(f'Error: Argument expected after "{args[-1]}"\n')
        return -1
    package = rest[0]
    name = package.removeprefix(OVERLAY_PREFIX)
    if not package.startswith(OVERLAY_PREFIX) or name not in MODES:
        # OverlayManagerService.enforceActor's IllegalArgumentException; enable/disable go through
        # commit(), which rethrows it as a SecurityException that only the shell's exec() catches
        unknown = f"Unable to retrieve overlay information for {package}"
        if verb == "enable-exclusive":
            ctx.err(f"Error: {unknown}\n")
        else:
            ctx.err(f"\nException occurred while executing '{verb}':\n"
                    f"java.lang.SecurityException: commit failed: {unknown}\n")
        return -1
    if verb == "disable":
        if name == _current_mode(ctx):
            ctx.system.settings_put(*NAVIGATION_MODE_KEY, MODES[DEFAULT_MODE])
        return 0
    ctx.system.settings_put(*NAVIGATION_MODE_KEY, MODES[name])
    return 0
