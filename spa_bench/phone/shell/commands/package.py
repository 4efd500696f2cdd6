"""The package manager and input-method manager: pm, ime, and `cmd` routing to the shell services.

`pm list packages` prints `package:NAME` lines (adbutils and uiautomator2 regex them); `-f` adds the APK
path (`package:/system/...apk=NAME`). `pm install`/`uninstall` are pm_install's: an APK's manifest is
registered (its code never runs), and uninstalling a system app fails like on a real phone.
"""

from __future__ import annotations

from spa_bench.phone.api import PackageInfo
from spa_bench.phone.shell.commands.pm_dump import launcher_table, resolver_tables
from spa_bench.phone.shell.commands.pm_install import pm_install, pm_uninstall
from spa_bench.phone.shell.commands.pm_session import pm_session
from spa_bench.phone.shell.context import CommandContext, CommandTable
from spa_bench.phone.system.access import package_uid

TABLE = CommandTable()
command = TABLE.command

LATIN_IME = "com.android.inputmethod.latin/.LatinIME"
ADBKEYBOARD_IME = "com.android.adbkeyboard/.AdbIME"
BIND_INPUT_METHOD = "android.permission.BIND_INPUT_METHOD"
INSTALL_TIME = "2024-01-01 00:00:00"  # the virtual phone's apps were all "installed" at its build


def _find(ctx: CommandContext, name: str) -> PackageInfo | None:
    return next((p for p in ctx.system.packages() if p.name == name), None)


def list_packages(args: list[str], ctx: CommandContext) -> int:
    show_path = "-f" in args
    only_third = "-3" in args
    only_system = "-s" in args
    rest = [a for i, a in enumerate(args) if not a.startswith("-") and (i == 0 or args[i - 1] != "--user")]
    needle = rest[0] if rest else ""
    for p in sorted(ctx.system.packages(), key=lambda p: p.name):
        if (only_third and p.system) or (only_system and not p.system) or needle not in p.name:
            continue
        ctx.out(f"package:{p.apk_path}={p.name}\n" if show_path else f"package:{p.name}\n")
    return 0


def dump_package(ctx: CommandContext, info: PackageInfo) -> str:
    """A short `dumpsys package NAME` with the fields adbutils' app_info reads."""
    flags = "SYSTEM HAS_CODE ALLOW_CLEAR_USER_DATA" if info.system else "HAS_CODE ALLOW_CLEAR_USER_DATA"
    activity = info.launcher_activity or ""
    store = getattr(ctx.system, "package_store", None)
    record = store.get(info.name) if store is not None else None
    version = ("versionCode=34 minSdk=34 targetSdk=34", "versionName=14")
    installed = (INSTALL_TIME, INSTALL_TIME)
    if record is not None:
        m = record.manifest
        version = (f"versionCode={m.version_code} minSdk={m.min_sdk} targetSdk={m.target_sdk}",
                   f"versionName={m.version_name or 'null'}")
        installed = (record.first_install_time, record.last_update_time)
        if m.debuggable:
            flags = "DEBUGGABLE " + flags
    if record is not None:
        tables = resolver_tables(record.manifest)
    else:
        from spa_bench.phone.shell.commands.pm_resolve import launcher_entry  # it imports am's parser

        tables = launcher_table(info, launcher_entry(info.name, activity)) if activity else []
    lines = [
        *tables,
        "Packages:",
        f"  Package [{info.name}] ({_hash(info.name)}):",
        f"    userId={package_uid(info.name)}",
        f"    pkg=Package{{{_hash(info.name + 'pkg')} {info.name}}}",
        f"    codePath={info.apk_path.rsplit('/', 1)[0]}",
        f"    resourcePath={info.apk_path.rsplit('/', 1)[0]}",
        f"    {version[0]}",
        f"    {version[1]}",
        f"    pkgFlags=[ {flags} ]",
        f"    timeStamp={installed[1]}",
        f"    firstInstallTime={installed[0]}",
        f"    lastUpdateTime={installed[1]}",
        "    installerPackageName=null",
        "    User 0: ceDataInode=0 installed=true hidden=false suspended=false stopped=false "
        "notLaunched=false enabled=0",
    ]
    perms = getattr(ctx.system, "permissions", None)
    if perms is not None:
        from spa_bench.phone.system.permissions import dump_runtime

        lines += dump_runtime(perms, info.name, "      ")
    return "\n".join(lines) + "\n"


def _change_permission(ctx: CommandContext, verb: str, package: str, permission: str) -> int:
    """`pm grant|revoke PACKAGE PERMISSION`: silent on success; a permission the app has not requested
    fails with PermissionManagerService's SecurityException, as on a device."""
    if not permission:
        ctx.err(f"Exception occurred while executing '{verb}':\n"
                "java.lang.IllegalArgumentException: no permission specified\n")
        return 255
    change = getattr(ctx.system, "change_permission", None)
    error = change(verb, package, permission) if change is not None else None
    if error is not None:
        ctx.err(f"Exception occurred while executing '{verb}':\n{error}\n")
        return 255
    return 0


def _hash(text: str) -> str:
    """A stable 7-hex-digit id, like the object hashes in dumpsys output."""
    value = 0
    for ch in text.encode("utf-8"):
        value = (value * 31 + ch) & 0xFFFFFFF
    return f"{value:07x}"


@command("pm")
def pm(args: list[str], ctx: CommandContext) -> int:
    if not args:
        ctx.err("Package manager (package) commands:\n  list packages [-f] [-d] [-e] [-s] [-3] [FILTER]\n"
                "  path PACKAGE\n  clear PACKAGE\n  dump PACKAGE\n")
        return 1
    verb, rest = args[0], args[1:]
    names = [a for a in rest if not a.startswith("-")]
    if verb == "list":
        if rest and rest[0] == "packages":
            return list_packages(rest[1:], ctx)
        if rest and rest[0] in ("users",):
            ctx.out("Users:\n\tUserInfo{0:Owner:c13} running\n")
            return 0
        ctx.err(f"Error: unknown list type '{rest[0] if rest else ''}'\n")
        return 255
    if verb == "path":
        info = _find(ctx, names[0]) if names else None
        if info is None:
            return 1
        ctx.out(f"package:{info.apk_path}\n")
        return 0
    if verb == "clear":
        try:
            ctx.system.clear_package(names[-1] if names else "")
        except KeyError:
            ctx.err("Failed\n")
            return 255
        ctx.out("Success\n")
        return 0
    if verb == "dump":
        info = _find(ctx, names[0]) if names else None
        if info is not None:
            ctx.out(dump_package(ctx, info))
        return 0
    if verb in ("grant", "revoke", "enable", "disable", "disable-user", "hide", "unhide"):
        target = names[0] if names else ""
        if _find(ctx, target) is None:
            ctx.err(f"Exception occurred while executing '{verb}':\n"
                    f"java.lang.IllegalArgumentException: Unknown package: {target}\n")
            return 255
        if verb in ("grant", "revoke"):
            return _change_permission(ctx, verb, target, names[1] if len(names) > 1 else "")
        if verb in ("enable", "disable", "disable-user"):
            state = {"enable": "enabled", "disable": "disabled", "disable-user": "disabled-user"}[verb]
            ctx.out(f"Package {target} new state: {state}\n")
        return 0
    if verb == "resolve-activity":
        from spa_bench.phone.shell.commands.pm_resolve import pm_resolve_activity  # it imports am's parser

        return pm_resolve_activity(rest, ctx)
    if verb == "install":
        return pm_install(rest, ctx)
    if verb in ("install-create", "install-write", "install-commit", "install-abandon"):
        return pm_session(verb, rest, ctx)
    if verb == "uninstall":
        return pm_uninstall(rest, ctx)
    if verb == "get-install-location":
        ctx.out("0[auto]\n")
        return 0
    ctx.err(f"Unknown command: {verb}\n")
    return 255


# -- ime ------------------------------------------------------------------------------------------

def installed_imes(ctx: CommandContext) -> list[str]:
    """The built-in keyboards, then each installed APK's input-method services (a service guarded by
    BIND_INPUT_METHOD, as InputMethodManagerService requires), e.g. uiautomator2's
    com.github.uiautomator/.AdbKeyboard."""
    packages = ctx.system.packages()
    names = {p.name for p in packages}
    found = [ime for ime in (LATIN_IME, ADBKEYBOARD_IME) if ime.split("/")[0] in names]
    for p in packages:
        for c in p.components:
            if c.kind == "service" and c.permission == BIND_INPUT_METHOD and not p.system:
                short = f"{p.name}/{c.name[len(p.name):]}" if c.name.startswith(p.name + ".") else \
                    f"{p.name}/{c.name}"
                if short not in found:
                    found.append(short)
    return found


def ime_info(ctx: CommandContext, ime_id: str, indent: str) -> str:
    """InputMethodInfo.dump, as `ime list` and `dumpsys input_method` print it (Android 13's fields)."""
    pkg, _, short = ime_id.partition("/")
    cls = pkg + short if short.startswith(".") else short
    info = next((p for p in ctx.system.packages() if p.name == pkg), None)
    service = info.component("service", cls) if info else None
    exported = "true" if service is None or service.exported else "false"
    settings = f"{pkg}.settings.SettingsActivity" if pkg == LATIN_IME.split("/")[0] else "null"
    lines = [
        f"mId={ime_id} mSettingsActivityName={settings} mIsVrOnly=false "
        "mSupportsSwitchingToNextInputMethod=true mInlineSuggestionsEnabled=false "
        "mSupportsInlineSuggestionsWithTouchExploration=false mSuppressesSpellChecker=false "
        "mShowInInputMethodPicker=true mSupportsStylusHandwriting=false",
        "mIsDefaultResId=0x0",
        "Service:",
        "  priority=0 preferredOrder=0 match=0x108000 specificIndex=-1 isDefault=false",
        "  ServiceInfo:",
        f"    name={cls}",
        f"    packageName={pkg}",
        f"    enabled=true exported={exported} directBootAware=false",
        "    permission=android.permission.BIND_INPUT_METHOD",
        "    flags=0x0",
        "    ApplicationInfo:",
        f"      packageName={pkg}",
        f"      processName={pkg}",
        f"      sourceDir={info.apk_path if info else ''}",
        f"      dataDir=/data/user/0/{pkg}",
    ]
    return "".join(f"{indent}{line}\n" for line in lines)


def _enabled(ctx: CommandContext) -> list[str]:
    raw = ctx.system.settings_get("secure", "enabled_input_methods")
    return [x for x in (raw or LATIN_IME).split(":") if x]


@command("ime")
def ime(args: list[str], ctx: CommandContext) -> int:
    if not args:
        ctx.out("ime <command>:\n  list [-a] [-s]\n  enable ID\n  disable ID\n  set ID\n  reset\n")
        return 0
    verb, rest = args[0], [a for a in args[1:] if not a.startswith("-")]
    imes = installed_imes(ctx)
    enabled = _enabled(ctx)
    if verb == "list":
        shown = imes if "-a" in args else [i for i in imes if i in enabled]
        if "-s" in args:
            ctx.out("".join(f"{i}\n" for i in shown))
        else:
            ctx.out("".join(f"{i}:\n" + ime_info(ctx, i, "  ") for i in shown))
        return 0
    if verb in ("enable", "disable", "set") and not rest:
        ctx.err(f"Error: no input method ID given to '{verb}'\n")
        return 255
    target = rest[0] if rest else ""
    if verb in ("enable", "disable", "set") and target not in imes:
        ctx.err(f"Unknown input method {target} cannot be {verb}d for user #0\n"
                if verb != "set" else f"Unknown input method {target} cannot be selected for user #0\n")
        return 255
    if verb == "enable":
        state = "already enabled" if target in enabled else "now enabled"
        if target not in enabled:
            ctx.system.settings_put("secure", "enabled_input_methods", ":".join([*enabled, target]))
        ctx.out(f"Input method {target}: {state}\n")
        return 0
    if verb == "disable":
        state = "now disabled" if target in enabled else "already disabled"
        ctx.system.settings_put("secure", "enabled_input_methods",
                                ":".join(i for i in enabled if i != target))
        if ctx.system.settings_get("secure", "default_input_method") == target:
            remaining = [i for i in enabled if i != target] or [LATIN_IME]  # the system picks another
            ctx.system.settings_put("secure", "default_input_method", remaining[0])
        ctx.out(f"Input method {target}: {state}\n")
        return 0
    if verb == "set":
        if target not in enabled:  # switchToInputMethodLocked: "IME is not found or not enabled"
            ctx.err(f"Unknown input method {target} cannot be selected for user #0\n")
            return 255
        ctx.system.settings_put("secure", "default_input_method", target)
        ctx.out(f"Input method {target} selected for user #0\n")
        return 0
    if verb == "reset":
        ctx.system.settings_put("secure", "enabled_input_methods", LATIN_IME)
        ctx.system.settings_put("secure", "default_input_method", LATIN_IME)
        ctx.out(f"Reset current and enabled IMEs for user #0\n  Selected: {LATIN_IME}\n")
        return 0
    ctx.err(f"Unknown command: {verb}\n")
    return 255


# -- cmd ------------------------------------------------------------------------------------------

_CMD_SERVICES = {"package": "pm", "activity": "am", "input": "input", "settings": "settings",
                 "input_method": "ime", "wifi": "svc", "window": "wm",
                 "statusbar": "", "notification": "", "clipboard": "", "uimode": "",
                 "overlay": ""}  # these: handled below


@command("cmd")
def cmd(args: list[str], ctx: CommandContext) -> int:
    """`cmd SERVICE ...` reaches the same code as the classic wrappers (pm, am, input, settings, ime)."""
    if not args:
        ctx.err("cmd: No service specified; use -l to list all running services. Use -w to start and "
                "wait for a service.\n")
        return 20
    if args[0] == "-l":
        ctx.out("Currently running services:\n" + "".join(f"  {s}\n" for s in sorted(_CMD_SERVICES)))
        return 0
    service = _CMD_SERVICES.get(args[0])
    if service is None:
        ctx.err(f"cmd: Can't find service: {args[0]}\n")
        return 20
    rest = args[1:]
    if args[0] == "clipboard":  # ClipboardService's binder has no onShellCommand: Binder's default answer
        ctx.err("No shell command implementation.\n")
        return 0
    if args[0] in ("uimode", "overlay"):
        from spa_bench.phone.shell.commands import uimode

        return (uimode.cmd_uimode if args[0] == "uimode" else uimode.cmd_overlay)(rest, ctx)
    if args[0] in ("statusbar", "notification"):
        from spa_bench.phone.shell.commands import systemui

        return (systemui.cmd_statusbar if args[0] == "statusbar" else systemui.cmd_notification)(rest, ctx)
    if args[0] == "wifi":
        verb = {"set-wifi-enabled": ["wifi"]}.get(rest[0] if rest else "")
        if verb is None:
            ctx.err(f"Unknown command: {' '.join(rest)}\n")
            return 255
        rest = [*verb, "enable" if rest[1:2] == ["enabled"] else "disable"]
    return ctx.shell.run_argv([service, *rest], ctx)
