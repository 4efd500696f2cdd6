"""The display as the window manager, display manager and input manager report it: `wm` and the
`dumpsys window displays`, `dumpsys display` and `dumpsys input` sections.

`wm size WxH` / `wm density N` write the overrides where WindowManagerService keeps them (settings
`global display_size_forced`, `secure display_density_forced`) and the phone lays its screens out again
at the new size; messages follow WindowManagerShellCommand (`Error: bad size ...`, `Error: bad number
java.lang.NumberFormatException: ...`, `Error: density must be >= 72`). Rotation comes from
`system user_rotation` while `accelerometer_rotation` is 0, and shows in `mCurrentRotation=ROTATION_N`
(AndroidWorld's get_orientation), the DisplayViewport `orientation=N` (adbutils' rotation), and
`dumpsys input`'s `logicalFrame=[0, 0, W, H]` / `InputDeviceOrientation: N` (AndroidWorld's
get_logical_screen_size, android_env's get_orientation).
"""

from __future__ import annotations

from spa_bench.phone.shell.commands.settings import settings_delete
from spa_bench.phone.shell.context import CommandContext, CommandTable
from spa_bench.phone.system.display import (
    AUTO_ROTATE_KEY,
    DENSITY_KEY,
    MIN_FORCED_PX,
    SIZE_KEY,
    USER_ROTATION_KEY,
    DisplayState,
    display_state,
)

TABLE = CommandTable()
command = TABLE.command

DISPLAY_UNIQUE_ID = "local:4619827259835644672"
MIN_DENSITY = 72
WM_USAGE = """Window manager (window) commands:
  help
      Print this help text.
  size [reset|WxH|WdpxHdp] [-d DISPLAY_ID]
    Return or override display size.
    width and height in pixels unless suffixed with 'dp'.
  density [reset|DENSITY] [-d DISPLAY_ID]
    Return or override display density.
  user-rotation [-d DISPLAY_ID] [free|lock] [rotation]
    Print or set user rotation mode and user rotation.
  dismiss-keyguard
    Dismiss the keyguard, prompting user for auth if necessary.
"""


def state(ctx: CommandContext) -> DisplayState:
    return display_state(ctx.system.config, ctx.system.settings_get)


def _delete(ctx: CommandContext, key: tuple[str, str]) -> None:
    settings_delete(ctx, *key)


class _BadNumber(ValueError):
    pass


def _dimension(text: str, density: int) -> int:
    """WindowManagerShellCommand.parseDimension: pixels, or dp scaled by density / 160."""
    raw = text[:-2] if text.endswith("dp") else text
    try:
        value = int(raw)
    except ValueError:
        raise _BadNumber(f'java.lang.NumberFormatException: For input string: "{raw}"') from None
    return value * density // 160 if text.endswith("dp") else value


def _wm_size(args: list[str], ctx: CommandContext) -> int:
    d = state(ctx)
    if not args:
        ctx.out(f"Physical size: {d.physical_width}x{d.physical_height}\n")
        if d.override_size:
            ctx.out(f"Override size: {d.override_size[0]}x{d.override_size[1]}\n")
        return 0
    size = args[0]
    if size == "reset":
        _delete(ctx, SIZE_KEY)
        return 0
    div = size.find("x")
    if div <= 0 or div >= len(size) - 1:
        ctx.err(f"Error: bad size {size}\n")
        return 255
    try:
        w = _dimension(size[:div], d.density)
        h = _dimension(size[div + 1:], d.density)
    except _BadNumber as exc:
        ctx.err(f"Error: bad number {exc}\n")
        return 255
    # setForcedDisplaySize clamps to [200, 2 x initial] and treats the initial size as a reset
    w = min(max(w, MIN_FORCED_PX), d.physical_width * 2)
    h = min(max(h, MIN_FORCED_PX), d.physical_height * 2)
    if (w, h) == (d.physical_width, d.physical_height):
        _delete(ctx, SIZE_KEY)
    else:
        ctx.system.settings_put(*SIZE_KEY, f"{w},{h}")
    return 0


def _wm_density(args: list[str], ctx: CommandContext) -> int:
    d = state(ctx)
    if not args:
        ctx.out(f"Physical density: {d.physical_density}\n")
        if d.override_density:
            ctx.out(f"Override density: {d.override_density}\n")
        return 0
    if args[0] == "reset":
        _delete(ctx, DENSITY_KEY)
        return 0
    try:
        density = int(args[0])
    except ValueError:
        ctx.err(f'Error: bad number java.lang.NumberFormatException: For input string: "{args[0]}"\n')
        return 255
    if density < MIN_DENSITY:
        ctx.err(f"Error: density must be >= {MIN_DENSITY}\n")
        return 255
    if density == d.physical_density:
        _delete(ctx, DENSITY_KEY)
    else:
        ctx.system.settings_put(*DENSITY_KEY, str(density))
    return 0


def _wm_user_rotation(args: list[str], ctx: CommandContext) -> int:
    if not args:
        locked = ctx.system.settings_get(*AUTO_ROTATE_KEY) != "1"
        ctx.out(("lock" if locked else "free") + f" {state(ctx).rotation if locked else 0}\n")
        return 0
    mode, rest = args[0], args[1:]
    if mode not in ("free", "lock"):
        ctx.err(f"Error: lock mode needs to be either free or lock, but got {mode}\n")
        return 255
    if mode == "free":
        ctx.system.settings_put(*AUTO_ROTATE_KEY, "1")
        return 0
    if rest:
        if not rest[0].isdigit() or not 0 <= int(rest[0]) <= 3:
            ctx.err(f"Error: rotation needs to be an integer in [0, 3], but got {rest[0]}\n")
            return 255
        ctx.system.settings_put(*USER_ROTATION_KEY, rest[0])
    ctx.system.settings_put(*AUTO_ROTATE_KEY, "0")
    return 0


@command("wm")
def wm(args: list[str], ctx: CommandContext) -> int:
    args = [a for i, a in enumerate(args) if a != "-d" and (i == 0 or args[i - 1] != "-d")]
    verb, rest = (args[0], args[1:]) if args else ("", [])
    if verb == "size":
        return _wm_size(rest, ctx)
    if verb == "density":
        return _wm_density(rest, ctx)
    if verb == "user-rotation":
        return _wm_user_rotation(rest, ctx)
    if verb in ("dismiss-keyguard", "fixed-to-user-rotation"):
        return 0
    if verb in ("", "help", "-h"):
        ctx.out(WM_USAGE)
        return 0
    ctx.err(f"Unknown command: {verb}\n")
    return 255


# -- dumpsys sections -----------------------------------------------------------------------------

def dump_displays(ctx: CommandContext, focus_lines: list[str]) -> str:
    """`dumpsys window displays`: init (physical), base (override) and cur (rotated) sizes."""
    d = state(ctx)
    pw, ph = d.physical_width, d.physical_height
    nw, nh = d.natural_size
    cw, ch = d.logical_size
    base = f" base={nw}x{nh} {d.density}dpi" if (d.override_size or d.override_density) else ""
    small, large = min(nw, nh), max(nw, nh)
    lines = ["WINDOW MANAGER DISPLAY CONTENTS (dumpsys window displays)",
             "  Display: mDisplayId=0 rootTasks=3",
             f"    init={pw}x{ph} {d.physical_density}dpi{base} cur={cw}x{ch} app={cw}x{ch} "
             f"rng={small}x{small}-{large}x{large}",
             "    deferred=false mLayoutNeeded=false",
             f"    mCurrentRotation=ROTATION_{d.rotation * 90}", ""]
    return "\n".join(lines + focus_lines) + "\n"


def _viewport(d: DisplayState) -> str:
    w, h = d.logical_size
    return (f"DisplayViewport{{type=INTERNAL, valid=true, isActive=true, displayId=0, "
            f"uniqueId='{DISPLAY_UNIQUE_ID}', physicalPort=0, orientation={d.rotation}, "
            f"logicalFrame=Rect(0, 0 - {w}, {h}), physicalFrame=Rect({_physical(d)}), "
            f"deviceWidth={w}, deviceHeight={h}}}")


def _panel(d: DisplayState) -> tuple[int, int]:
    """The panel's size in the current rotation."""
    return (d.physical_height, d.physical_width) if d.rotation % 2 else (d.physical_width, d.physical_height)


def _physical_frame(d: DisplayState) -> tuple[int, int, int, int]:
    """Where the logical display lands on the panel (rotated panel coordinates), letterboxed."""
    lw, lh = d.logical_size
    pw, ph = _panel(d)
    scale = min(pw / lw, ph / lh)
    fw, fh = round(lw * scale), round(lh * scale)
    left, top = (pw - fw) // 2, (ph - fh) // 2
    return left, top, left + fw, top + fh


def _physical(d: DisplayState) -> str:
    left, top, right, bottom = _physical_frame(d)
    return f"{left}, {top} - {right}, {bottom}"


def dump_display(ctx: CommandContext) -> str:
    d = state(ctx)
    w, h = d.logical_size
    pw, ph, dpi = d.physical_width, d.physical_height, d.physical_density
    lines = ["DISPLAY MANAGER (dumpsys display)", "  mSafeMode=false", "  mPendingTraversal=false",
             f"  mViewports=[{_viewport(d)}]", "", "Display Devices: size=1",
             f'  DisplayDeviceInfo{{"Built-in Screen": uniqueId="{DISPLAY_UNIQUE_ID}", {pw} x {ph}, '
             f"modeId 1, defaultModeId 1, density {dpi}, {float(dpi)} x {float(dpi)} dpi, "
             "touch INTERNAL, rotation 0, type INTERNAL, state ON, FLAG_DEFAULT_DISPLAY}",
             f"    mCurrentOrientation={d.rotation}", f"    mCurrentDisplayRect=Rect(0, 0 - {w}, {h})",
             "", "Logical Displays: size=1", "  Display 0:",
             f'    mBaseDisplayInfo=DisplayInfo{{"Built-in Screen", displayId 0, real {pw} x {ph}, '
             f"rotation 0, density {dpi}}}",
             f'    mOverrideDisplayInfo=DisplayInfo{{"Built-in Screen", displayId 0, real {w} x {h}, '
             f"rotation {d.rotation}, density {d.density}}}"]
    return "\n".join(lines) + "\n"


def dump_input(ctx: CommandContext) -> str:
    """`dumpsys input` in Android 13's layout (InputReader's touch mapper and its viewport), cut down to
    the devices an emulator has: the touchscreen and the virtual keyboard."""
    d = state(ctx)
    w, h = d.logical_size
    left, top, right, bottom = _physical_frame(d)
    pw, ph = _panel(d)
    viewport = (f"Viewport INTERNAL: displayId=0, uniqueId={DISPLAY_UNIQUE_ID}, port=0, "
                f"orientation={d.rotation}, logicalFrame=[0, 0, {w}, {h}], "
                f"physicalFrame=[{left}, {top}, {right}, {bottom}], deviceSize=[{pw}, {ph}], isActive=[1]")
    lines = [
        "INPUT MANAGER (dumpsys input)", "", "Input Manager State:", "  Interactive: true",
        "  System UI Lights Out: false", "  Pointer Speed: 0", "  Show Touches: false", "",
        "Event Hub State:", "  BuiltInKeyboardId: -2", "  Devices:",
        "    -1: Virtual", "      Classes: KEYBOARD | ALPHAKEY", "      Path: <virtual>",
        "    2: virtio_input_multi_touch_1", "      Classes: TOUCH | TOUCH_MT",
        "      Path: /dev/input/event2", "",
        "Input Reader State (Nums of device: 2):",
        "  Device 2: virtio_input_multi_touch_1", "    Generation: 2", "    IsExternal: false",
        "    AssociatedDisplayPort: <none>", "    Sources: 0x00001002", "    KeyboardType: 0",
        "    Touch Input Mapper (mode - DIRECT):", "      Parameters:", "        GestureMode: MULTI_TOUCH",
        "        DeviceType: TOUCH_SCREEN", "        OrientationAware: true",
        "        Orientation: ORIENTATION_0",
        "      Raw Touch Axes:",
        f"        X: min=0, max={d.physical_width - 1}, flat=0, fuzz=0, resolution=0",
        f"        Y: min=0, max={d.physical_height - 1}, flat=0, fuzz=0, resolution=0",
        f"      {viewport}",
        f"      DisplayWidth: {w}px", f"      DisplayHeight: {h}px",
        f"      PhysicalWidth: {right - left}px", f"      PhysicalHeight: {bottom - top}px",
        f"      PhysicalLeft: {left}", f"      PhysicalTop: {top}",
        f"      InputDeviceOrientation: {d.rotation}",
        "  Device -1: Virtual", "    Generation: 1", "    IsExternal: false", "    Sources: 0x00000301",
        "    KeyboardType: 2", "    Keyboard Input Mapper:", "      Parameters:",
        "        OrientationAware: false", "      KeyboardType: 2", "      Orientation: 0",
        "  Configuration:", "    ExcludedDeviceNames: []", "    Viewports:", f"      {viewport}", "",
        "Input Dispatcher State:", "  DispatchEnabled: true", "  DispatchFrozen: false",
        "  FocusedApplications:", "",
    ]
    return "\n".join(lines) + "\n"
