"""Screen and input commands: input (tap, swipe, text, keyevent, draganddrop), screencap, uiautomator.

`input text` behaves like Android 14's InputShellCommand: `%s` becomes a space, the virtual keyboard's
key map only knows ASCII, so any other character makes the whole call fail with the same
NullPointerException real phones print (agents must use ADBKeyboard or the clipboard for CJK).
"""

from __future__ import annotations

import re
import struct

from spa_bench.phone import keycodes
from spa_bench.phone.api import DumpMode
from spa_bench.phone.shell.context import CommandContext, CommandTable
from spa_bench.phone.touch import DEFAULT_SWIPE_MS, LONG_PRESS_TIMEOUT_MS, TouchAction, input_swipe

DOUBLE_TAP_MIN_TIME_MS = 40  # ViewConfiguration.DOUBLE_TAP_MIN_TIME: --doubletap's pause

TABLE = CommandTable()
command = TABLE.command

INPUT_USAGE = """Usage: input [<source>] [-d DISPLAY_ID] <command> [<arg>...]

The sources are: \n      dpad
      keyboard
      mouse
      touchpad
      gamepad
      touchnavigation
      joystick
      touchscreen
      stylus
      trackball
      rotaryencoder
[axis_value] represents an option specifying the value of a given axis \n\
      The syntax is as follows: --axis <axis_name>,<axis_value>
            where <axis_name> is the name of the axis as defined in \n\
            MotionEvent without the AXIS_ prefix (e.g. SCROLL, X)
      Sample [axis_values] entry: `--axis Y,3`, `--axis SCROLL,-2`

-d: specify the display ID.
      (Default: -1 for key event, 0 for motion event if not specified.)
The commands and default sources are:
      text <string> (Default: keyboard)
      keyevent [--longpress|--duration <duration to hold key down in ms>] [--doubletap] [--async] \
[--delay <duration between keycodes in ms>] <key code number or name> ... (Default: keyboard)
      tap <x> <y> (Default: touchscreen)
      swipe <x1> <y1> <x2> <y2> [duration(ms)] (Default: touchscreen)
      draganddrop <x1> <y1> <x2> <y2> [duration(ms)] (Default: touchscreen)
      press (Default: trackball)
      roll <dx> <dy> (Default: trackball)
      motionevent <DOWN|UP|MOVE|CANCEL> <x> <y> (Default: touchscreen)
      scroll (Default: rotaryencoder). Has the following syntax:
            scroll <x> <y> [axis_value] (for pointer-based sources)
            scroll [axis_value] (for non-pointer-based sources)
            Axis options: SCROLL, HSCROLL, VSCROLL
            None or one or multiple axis value options can be specified.
            To specify multiple axes, use one axis option for per axis.
            Example: `scroll --axis VSCROLL,2 --axis SCROLL,-2.4`
      keycombination [-t duration(ms)] <key code 1> <key code 2> ... (Default: keyboard, the key order \
is important here.)
"""
SOURCES = frozenset({"dpad", "keyboard", "mouse", "touchpad", "gamepad", "touchnavigation", "joystick",
                     "touchscreen", "stylus", "trackball", "rotaryencoder"})
NPE_TRACE = ("java.lang.NullPointerException: Attempt to get length of null array\n"
             "\tat com.android.server.input.InputShellCommand.sendText(InputShellCommand.java:424)")


def _exception(ctx: CommandContext, verb: str, java: str) -> int:
    ctx.err(f"Exception occurred while executing '{verb}':\n{java}\n")
    return 255


_JAVA_FLOAT = re.compile(r"^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?[fFdD]?$")


class JavaNumberError(ValueError):
    """A number the Java parser would refuse; the message is NumberFormatException's."""


def parse_float(text: str) -> float:
    """Float.parseFloat: `input tap 540.5 1200` is fine, '' and 'abc' are not (Java's messages)."""
    body = text.strip()
    if not body:
        raise JavaNumberError("empty String")
    if not _JAVA_FLOAT.match(body):
        raise JavaNumberError(f'For input string: "{text}"')
    return float(body.rstrip("fFdD"))


def parse_int(text: str) -> int:
    """Integer.parseInt (durations): digits with an optional sign, nothing else."""
    body = text[1:] if text[:1] in "+-" else text
    if not body.isdigit():
        raise JavaNumberError(f'For input string: "{text}"')
    return int(text)


def _coords(values: list[str]) -> list[int]:
    return [int(parse_float(v)) for v in values]


def _bad_args(ctx: CommandContext, verb: str) -> int:
    ctx.err(f"Error: Invalid arguments for command: {verb}\n{INPUT_USAGE}")
    return 1


def type_ascii(ctx: CommandContext, text: str) -> None:
    """Send text the way the virtual keyboard's key events would: newline and tab as keys."""
    chunk: list[str] = []
    for ch in text:
        if ch in "\n\t":
            if chunk:
                ctx.system.input_text("".join(chunk))
                chunk = []
            ctx.system.press_key(keycodes.ENTER if ch == "\n" else keycodes.TAB)
        else:
            chunk.append(ch)
    if chunk:
        ctx.system.input_text("".join(chunk))


def _text(args: list[str], ctx: CommandContext) -> int:
    if not args:
        return _bad_args(ctx, "text")
    text = args[0].replace("%s", " ")
    if any(not (32 <= ord(c) < 127 or c in "\n\t") for c in text):
        return _exception(ctx, "text", NPE_TRACE)
    type_ascii(ctx, text)
    return 0


def _keyevent(args: list[str], ctx: CommandContext) -> int:
    """runKeyEvent: each key's DOWN and UP; --longpress holds it the long-press time (then a repeat with
    FLAG_LONG_PRESS), --doubletap sends it again DOUBLE_TAP_MIN_TIME later, --delay waits between keys;
    --duration (Android 15's usage) holds each key that long. The call lasts as long as those pauses."""
    keys: list[int] = []
    longpress = doubletap = False
    delay_ms = hold_ms = 0
    i = 0
    while i < len(args):
        a = args[i]
        i += 1
        if a == "--longpress":
            longpress = True
        elif a == "--doubletap":
            doubletap = True
        elif a in ("--async",):
            continue
        elif a in ("--duration", "--delay"):
            if i >= len(args):
                return _bad_args(ctx, "keyevent")
            value = parse_int(args[i])  # Long.parseLong: a bad number is a NumberFormatException
            i += 1
            if a == "--delay":
                delay_ms = value
            else:
                hold_ms = value
        else:
            code = keycodes.keycode_from_string(a)
            if code is None:
                return _exception(ctx, "keyevent",
                                  f"java.lang.IllegalArgumentException: Unknown keycode: {a}")
            keys.append(code)
    if not keys:
        return _bad_args(ctx, "keyevent")
    held_ms = LONG_PRESS_TIMEOUT_MS if longpress else max(hold_ms, 0)
    for n, code in enumerate(keys):
        if n and delay_ms > 0:
            ctx.system.wait_ms(delay_ms)
        for again in range(2 if doubletap else 1):
            if again:
                ctx.system.wait_ms(DOUBLE_TAP_MIN_TIME_MS)
            if held_ms:
                ctx.system.wait_ms(held_ms)  # the key is down meanwhile
            char = keycodes.KEY_CHARS.get(code)
            if char is not None and not longpress:
                ctx.system.input_text(char)
            else:
                ctx.system.press_key(code)
    return 0


def _roll(delta: list[int], ctx: CommandContext) -> int:
    """A trackball roll: ViewRootImpl turns trackball motion into D-pad key events, one per unit."""
    dx, dy = delta
    for count, negative, positive in ((dx, "DPAD_LEFT", "DPAD_RIGHT"), (dy, "DPAD_UP", "DPAD_DOWN")):
        for _ in range(min(abs(count), 50)):
            ctx.system.press_key(keycodes.KEYCODES[negative if count < 0 else positive])
    return 0


SCROLL_NOTCH_DP = 64  # how far one unit of AXIS_VSCROLL/HSCROLL moves a list


def _scroll(args: list[str], ctx: CommandContext) -> int:
    """`scroll [<x> <y>] [--axis VSCROLL,N] [--axis HSCROLL,N]`: a mouse wheel at (x, y) (the screen's
    centre without them); positive VSCROLL scrolls towards the top, as MotionEvent's axis does."""
    axes: dict[str, float] = {}
    point: list[str] = []
    i = 0
    while i < len(args):
        if args[i] == "--axis" and i + 1 < len(args):
            name, _, value = args[i + 1].partition(",")
            if name.upper() not in ("SCROLL", "VSCROLL", "HSCROLL"):
                return _exception(ctx, "scroll", f"java.lang.IllegalArgumentException: Invalid axis: {name}")
            axes[name.upper()] = parse_float(value)
            i += 2
        else:
            point.append(args[i])
            i += 1
    if len(point) not in (0, 2):
        return _bad_args(ctx, "scroll")
    w, h = ctx.system.screen_size()
    x, y = _coords(point) if point else [w // 2, h // 2]
    notch = round(SCROLL_NOTCH_DP * ctx.system.config.density / 160)
    dy = round(axes.get("VSCROLL", axes.get("SCROLL", 0.0)) * notch)
    dx = round(-axes.get("HSCROLL", 0.0) * notch)
    if dx or dy:
        ctx.system.swipe(x, y, x + dx, y + dy, 200)
    return 0


MOTION_ACTIONS: dict[str, TouchAction] = {"DOWN": "down", "UP": "up", "MOVE": "move", "CANCEL": "cancel"}


def _motionevent(args: list[str], ctx: CommandContext) -> int:
    """One event per call, at the moment it runs: DOWN, MOVE... UP from separate shell calls make one touch
    (held long enough in place it is a long press). CANCEL's position is optional."""
    if not args:
        return _bad_args(ctx, "motionevent")
    action = MOTION_ACTIONS.get(args[0].upper())
    if action is None:  # InputShellCommand.getAction
        return _exception(ctx, "motionevent",
                          f"java.lang.IllegalArgumentException: Unknown action: {args[0]}")
    if len(args) not in ((1, 3) if action == "cancel" else (3,)):
        return _bad_args(ctx, "motionevent")
    x, y = _coords(args[1:]) if len(args) == 3 else [0, 0]
    ctx.system.touch(action, x, y)
    return 0


_MODIFIERS = {"SHIFT_LEFT", "SHIFT_RIGHT", "CTRL_LEFT", "CTRL_RIGHT", "ALT_LEFT", "ALT_RIGHT", "META_LEFT",
              "META_RIGHT"}


def _keycombination(args: list[str], ctx: CommandContext) -> int:
    """Keys pressed together: Shift+letter types the capital, Ctrl+V pastes, Ctrl+A/X/C are the
    editor's shortcuts; other keys are pressed as they come (the modifiers on their own do nothing)."""
    held_ms = 0
    if args[:1] == ["-t"]:
        if len(args) < 2:
            return _bad_args(ctx, "keycombination")
        held_ms = parse_int(args[1])  # sendKeyCombination sleeps this long between the DOWNs and UPs
        args = args[2:]
    codes: list[int] = []
    for a in args:
        code = keycodes.keycode_from_string(a)
        if code is None:
            return _exception(ctx, "keycombination",
                              f"java.lang.IllegalArgumentException: Unknown keycode: {a}")
        codes.append(code)
    if len(codes) < 2:
        return _bad_args(ctx, "keycombination")
    if held_ms > 0:
        ctx.system.wait_ms(held_ms)
    names = {keycodes.NAMES.get(c, "") for c in codes}
    shift = bool(names & {"SHIFT_LEFT", "SHIFT_RIGHT"})
    ctrl = bool(names & {"CTRL_LEFT", "CTRL_RIGHT", "META_LEFT", "META_RIGHT"})
    for code in codes:
        name = keycodes.NAMES.get(code, "")
        if name in _MODIFIERS:
            continue
        char = keycodes.KEY_CHARS.get(code)
        if ctrl and name == "V":
            paste = getattr(ctx.system, "paste_clipboard", None)
            if callable(paste):
                paste()
        elif ctrl:
            continue  # Ctrl+A/C/X need a text selection, which the phone's fields do not keep
        elif char is not None:
            ctx.system.input_text(char.upper() if shift else char)
        else:
            ctx.system.press_key(code)
    return 0


@command("input")
def input_(args: list[str], ctx: CommandContext) -> int:
    args = list(args)
    if args and args[0] in SOURCES:
        args.pop(0)
    while len(args) >= 2 and args[0] == "-d":
        args = args[2:]
    if args and args[0] in SOURCES:
        args.pop(0)
    if not args:
        ctx.err(INPUT_USAGE)
        return 1
    verb, rest = args[0], args[1:]
    try:
        if verb == "text":
            return _text(rest, ctx)
        if verb == "keyevent":
            return _keyevent(rest, ctx)
        if verb == "tap":
            if len(rest) != 2:
                return _bad_args(ctx, verb)
            x, y = _coords(rest)
            ctx.system.tap(x, y)
            return 0
        if verb in ("swipe", "draganddrop"):
            if len(rest) not in (4, 5):
                return _bad_args(ctx, verb)
            x1, y1, x2, y2 = (parse_float(v) for v in rest[:4])
            duration = parse_int(rest[4]) if len(rest) == 5 else DEFAULT_SWIPE_MS
            # sendSwipe: the call lasts the gesture (draganddrop first holds for the long-press time)
            hold = LONG_PRESS_TIMEOUT_MS if verb == "draganddrop" else 0
            ctx.system.perform_gesture(input_swipe(x1, y1, x2, y2, duration, hold_first_ms=hold))
            return 0
        if verb == "press":
            ctx.system.press_key(keycodes.KEYCODES["DPAD_CENTER"])
            return 0
        if verb == "roll":
            if len(rest) != 2:
                return _bad_args(ctx, verb)
            return _roll(_coords(rest), ctx)
        if verb == "motionevent":
            return _motionevent(rest, ctx)
        if verb == "keycombination":
            return _keycombination(rest, ctx)
        if verb == "scroll":
            return _scroll(rest, ctx)
    except JavaNumberError as exc:
        return _exception(ctx, verb, f"java.lang.NumberFormatException: {exc}")
    ctx.err(f"Error: Unknown command: {verb}\n{INPUT_USAGE}")
    return 1


# -- screencap ------------------------------------------------------------------------------------

RGBA_8888 = 1
DATASPACE_SRGB = 1


def raw_frame(ctx: CommandContext) -> bytes:
    """screencap's raw format: width, height, pixel format, dataspace as u32 LE, then RGBA pixels."""
    image = ctx.system.screenshot().convert("RGBA")
    w, h = image.size
    return struct.pack("<IIII", w, h, RGBA_8888, DATASPACE_SRGB) + image.tobytes()


@command("screencap")
def screencap(args: list[str], ctx: CommandContext) -> int:
    png = False
    target: str | None = None
    i = 0
    while i < len(args):
        a = args[i]
        i += 1
        if a == "-p":
            png = True
        elif a in ("-d", "-a"):
            i += 1
        elif a == "-h":
            ctx.err("usage: screencap [-hp] [-d display-id] [FILENAME]\n"
                    "   -h: this message\n   -p: save the file as a png.\n"
                    "   -d: specify the physical display ID to capture (default: 0)\n"
                    "If FILENAME ends with .png it will be saved as a png.\n"
                    "If FILENAME is not given, the results will be printed to stdout.\n")
            return 0
        elif a.startswith("-"):
            ctx.err(f"screencap: invalid option -- '{a.lstrip('-')[:1]}'\n")
            return 1
        else:
            target = a
    if target is not None and target.lower().endswith(".png"):
        png = True
    data = ctx.system.screenshot_png() if png else raw_frame(ctx)
    if target is None:
        ctx.out(data)
        return 0
    try:
        ctx.fs.write_bytes(target, data, ctx.cwd)
    except OSError:
        ctx.err(f"Error opening file: {target} (No such file or directory)\n")
        return 1
    return 0


# -- uiautomator ----------------------------------------------------------------------------------

UIAUTOMATOR_USAGE = """Usage: uiautomator <subcommand> [options]

Available subcommands:

help: displays help message

runtest: executes UI automation tests
    runtest <class spec> [options]

dump: creates an XML dump of current UI hierarchy
    dump [--verbose][file]
      [--compressed]: dumps compressed layout information.
      [--windows]: dumps all windows of all displays.
      [file]: the location where the dumped XML should be stored, default is
      /sdcard/window_dump.xml

events: prints out accessibility events until terminated
"""
DEFAULT_DUMP = "/sdcard/window_dump.xml"


@command("uiautomator")
def uiautomator(args: list[str], ctx: CommandContext) -> int:
    if not args or args[0] == "help":
        ctx.out(UIAUTOMATOR_USAGE)
        return 0
    if args[0] != "dump":
        ctx.err(f"Unknown subcommand: {args[0]}\n" if args[0] not in ("runtest", "events") else
                f"uiautomator {args[0]} is not supported on this virtual phone\n")
        return 1
    compressed = "--compressed" in args[1:]
    files = [a for a in args[1:] if not a.startswith("--")]
    target = files[0] if files else DEFAULT_DUMP
    # DumpCommand dumps the root of the active window only; --windows dumps every window
    mode: DumpMode = "windows" if "--windows" in args[1:] else "active"
    xml = ctx.system.dump_hierarchy(compressed=compressed, mode=mode)
    if target in ("/dev/tty", "/dev/stdout"):
        ctx.out(xml)
    else:
        try:
            ctx.fs.write_bytes(target, xml.encode("utf-8"), ctx.cwd)
        except OSError:
            ctx.err(f"java.io.FileNotFoundException: {target}: open failed: ENOENT (No such file or "
                    "directory)\n")
            return 1
    ctx.out(f"UI hierchary dumped to: {target}\n")
    return 0
