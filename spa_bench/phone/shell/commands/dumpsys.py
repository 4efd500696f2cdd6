"""dumpsys: the system services' text dumps, cut down to the lines clients actually parse.

adbutils reads `mCurrentFocus=Window{... u0 pkg/act}` (app_current), `ResumedActivity: ActivityRecord{...}`
and `ACTIVITY pkg/act id pid=N` (fallbacks); uiautomator2 and agents read `mInputShown=`. The display
sections (`dumpsys window displays`, `dumpsys display`, `dumpsys input`) live in `window`, the task dumps
(`dumpsys activity recents`) in `tasks`. Object ids, task ids and pids are stable hashes of the names
(`ids`), so repeated dumps agree with each other and with `ps`.
"""

from __future__ import annotations

from spa_bench.phone.shell.commands.activity import short_component
from spa_bench.phone.shell.commands.dumpsys_radio import RADIO_SERVICES
from spa_bench.phone.shell.commands.ids import obj_id, pid_of, task_id
from spa_bench.phone.shell.commands.package import LATIN_IME, dump_package, ime_info, installed_imes
from spa_bench.phone.shell.commands.systemui import shade_open
from spa_bench.phone.shell.commands.tasks import dump_recents
from spa_bench.phone.shell.commands.window import DISPLAY_UNIQUE_ID, dump_display, dump_displays, dump_input
from spa_bench.phone.shell.context import CommandContext, CommandTable

TABLE = CommandTable()
command = TABLE.command

SERVICES = ("SurfaceFlinger", "activity", "battery", "display", "input", "input_method", "notification",
            "package", "power", "window")


def _focus(ctx: CommandContext) -> tuple[str, str]:
    return ctx.system.current_focus()


def window_token(package: str, activity: str) -> str:
    return f"Window{{{obj_id('w' + package + activity)} u0 {package}/{activity}}}"


def activity_record(package: str, activity: str) -> str:
    comp = short_component(package, activity)
    # Android 13+: ActivityRecord{hash u0 pkg/.Act} tN} (the task id after the component's brace)
    return f"ActivityRecord{{{obj_id('r' + package + activity)} u0 {comp}}} t{task_id(package)}}}"


SHADE_WINDOW = f"Window{{{obj_id('NotificationShade')} u0 NotificationShade}}"


def _focus_lines(ctx: CommandContext) -> list[str]:
    """While the shade is open it has the focus and the app keeps mFocusedApp (a real Android 13 capture:
    `mCurrentFocus=Window{1651cd4 u0 NotificationShade}` above the camera's ActivityRecord)."""
    pkg, act = _focus(ctx)
    focus = SHADE_WINDOW if shade_open(ctx) else window_token(pkg, act)
    return [f"  mCurrentFocus={focus}", f"  mFocusedApp={activity_record(pkg, act)}"]


def dump_windows(ctx: CommandContext) -> str:
    pkg, act = _focus(ctx)
    w, h = ctx.system.screen_size()
    windows = [window_token(pkg, act), f"Window{{{obj_id('StatusBar')} u0 StatusBar}}",
               f"Window{{{obj_id('NavigationBar0')} u0 NavigationBar0}}"]
    if ctx.system.keyboard_shown():
        windows.insert(0, f"Window{{{obj_id('InputMethod')} u0 InputMethod}}")
    if shade_open(ctx):
        windows.insert(0, SHADE_WINDOW)
    lines = ["WINDOW MANAGER WINDOWS (dumpsys window windows)"]
    for n, win in enumerate(windows):
        lines += [f"  Window #{n} {win}:", f"    mDisplayId=0 rootTaskId={task_id(pkg)} mViewVisibility=0x0",
                  f"    mFrame=[0,0][{w},{h}] mHasSurface=true isReadyForDisplay()=true"]
    orientation = "land" if w > h else "port"
    lines += ["", f"  mGlobalConfiguration={{1.0 ?mcc?mnc [en_US] ldltr {orientation} finger -keyb/v/h "
              "-nav/h}",
              "  mTopFocusedDisplayId=0"]
    if ctx.system.keyboard_shown():
        lines.append(f"  mInputMethodWindow=Window{{{obj_id('InputMethod')} u0 InputMethod}}")
    lines += _focus_lines(ctx)
    return "\n".join(lines) + "\n"


def dump_window(ctx: CommandContext, args: list[str]) -> str:
    section = args[0] if args else ""
    if section in ("windows", "w"):
        return dump_windows(ctx)
    if section in ("displays", "d"):
        return dump_displays(ctx, _focus_lines(ctx))
    return dump_windows(ctx) + "\n" + dump_displays(ctx, _focus_lines(ctx))


def dump_activities(ctx: CommandContext) -> str:
    pkg, act = _focus(ctx)
    record = activity_record(pkg, act)
    lines = ["ACTIVITY MANAGER ACTIVITIES (dumpsys activity activities)",
             "Display #0 (activities from top to bottom):",
             f"  * Task{{{obj_id('t' + pkg)} #{task_id(pkg)} type=standard A=10000:{pkg} U=0 visible=true "
             "mode=fullscreen translucent=false sz=1}",
             f"    mResumedActivity: {record}",
             f"    * Hist  #0: {record}",
             f"      packageName={pkg} processName={pkg}", "",
             "  Resumed activities in task display areas (from top to bottom):",
             f"    Resumed: {record}", "",
             f"  ResumedActivity: {record}", f"  topResumedActivity={record}"]
    return "\n".join(lines) + "\n"


def dump_top(ctx: CommandContext) -> str:
    pkg, act = _focus(ctx)
    comp = short_component(pkg, act)
    lines = [f"TASK 10000:{pkg} id={task_id(pkg)} userId=0",
             f"  ACTIVITY {comp} {obj_id('r' + pkg + act)} pid={pid_of(pkg)}",
             f"    Local Activity {obj_id('l' + pkg + act)} State:",
             "      mResumed=true mStopped=false mFinished=false"]
    return "\n".join(lines) + "\n"


def dump_input_method(ctx: CommandContext) -> str:
    """InputMethodManagerService's dump in Android 13's layout: the installed IMEs, then the current
    method, focused window and the `mShowRequested=... mInputShown=...` line clients grep."""
    ime = ctx.system.settings_get("secure", "default_input_method") or LATIN_IME
    shown = "true" if ctx.system.keyboard_shown() else "false"
    pkg, act = _focus(ctx)
    imes = installed_imes(ctx)
    out = ["Current Input Method Manager state:", f"  Input Methods: mMethodMapUpdateCount={len(imes)}"]
    text = "\n".join(out) + "\n"
    for n, ime_id in enumerate(imes):
        text += f"  InputMethod #{n}:\n" + ime_info(ctx, ime_id, "    ")
    lines = [f"  mCurMethodId={ime}",
             f"  mCurFocusedWindow={window_token(pkg, act)} softInputMode=STATE_UNSPECIFIED|ADJUST_RESIZE",
             f"  mCurId={ime} mHaveConnection=true mBoundToMethod=true mVisibleBound={shown}",
             f"  mShowRequested={shown} mShowExplicitlyRequested=false mShowForced=false mInputShown={shown}",
             "  mInFullscreenMode=false", "  mSystemReady=true mInteractive=true",
             f"  mSettingsObserver=SettingsObserver{{mUserId=0 mRegistered=true mLastEnabled={ime}}}"]
    return text + "\n".join(lines) + "\n"


def dump_battery(ctx: CommandContext, args: list[str]) -> int:
    """BatteryService's dump, or its shell command (`dumpsys battery set level 5`, `unplug`, `reset`), as
    the virtual phone's battery answers them (spa_bench.phone.system.battery)."""
    shell = getattr(ctx.system, "battery_shell", None)
    if shell is None:  # a PhoneSystem without a battery model: a full battery on AC
        from spa_bench.phone.system.battery import Battery

        ctx.out(Battery().dump())
        return 0
    _code, text = shell(args)
    ctx.out(text)
    return 0  # dumpsys exits 0 whatever the service's shell answered (its Shell runs inside dump())


@command("dumpsys")
def dumpsys(args: list[str], ctx: CommandContext) -> int:
    if not args or args[0] == "-l":
        names = sorted((*SERVICES, *RADIO_SERVICES))
        ctx.out("Currently running services:\n" + "".join(f"  {s}\n" for s in names))
        return 0
    service, rest = args[0], args[1:]
    if service == "window":
        ctx.out(dump_window(ctx, rest))
    elif service == "activity":
        sub = rest[0] if rest else "activities"
        if sub in ("recents", "r"):
            ctx.out(dump_recents(ctx))
        else:
            ctx.out(dump_top(ctx) if sub == "top" else dump_activities(ctx))
    elif service == "display":
        ctx.out(dump_display(ctx))
    elif service == "input":
        ctx.out(dump_input(ctx))
    elif service == "input_method":
        ctx.out(dump_input_method(ctx))
    elif service == "package":
        names = [a for a in rest if not a.startswith("-")]
        for info in ctx.system.packages():
            if not names or info.name in names:
                ctx.out(dump_package(ctx, info))
    elif service == "power":
        ctx.out("POWER MANAGER (dumpsys power)\n  mWakefulness=Awake\n"
                "  mHoldingWakeLockSuspendBlocker=false\n  mHoldingDisplaySuspendBlocker=true\n"
                "  Display Power: state=ON\n")
    elif service == "battery":
        return dump_battery(ctx, rest)
    elif service == "notification":
        from spa_bench.phone.shell.commands.systemui import dumpsys_notification

        return dumpsys_notification(rest, ctx)
    elif service == "SurfaceFlinger":
        ctx.out(f"Display {DISPLAY_UNIQUE_ID.split(':')[1]} (HWC display 0): port=0 pnpId=GGL "
                'displayName="Built-in Screen"\n')
    elif service in RADIO_SERVICES and (text := RADIO_SERVICES[service](ctx, rest)) is not None:
        ctx.out(text)
    else:
        ctx.err(f"Can't find service: {service}\n")
    return 0
