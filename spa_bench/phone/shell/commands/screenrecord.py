"""`screenrecord`: records the phone's screen to a real H.264 MP4, as AOSP's frameworks/av
cmds/screenrecord/screenrecord.cpp (Android 14) does on a device: its options, messages and exit codes.

Encoding is PyAV's (FFmpeg's libx264, `av` on PyPI), never hand-written. Which frames and when: a device's
virtual display sends a frame each time the screen changes, stamped with the monotonic time. Here the
screen is looked at SAMPLE_HZ times a second of wall time (the phone's own clock may be frozen or virtual,
but a recording lasts as long as the client waits for it), and a frame is encoded, stamped with the time
since the start, only when the picture changed; at the end the last picture is stamped once more at the
stop time, so the video lasts as long as the recording did (variable frame rate, as on a device).

A recording stops at --time-limit (default 180 s; 0: none), when the adb client that runs it goes away
(a device's screenrecord gets SIGHUP then), or on SIGINT/SIGHUP from `kill` (it runs as a process in `ps`):
the file is then finished (moov written) and the media scanner is told, as AOSP does. SIGTERM and SIGKILL
are not caught by screenrecord: the file stays as far as it got, without its index.
"""

from __future__ import annotations

import io
import time
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING

from PIL import Image

from spa_bench.phone.shell.commands.processes import own_process, process_table
from spa_bench.phone.shell.commands.window import DISPLAY_UNIQUE_ID
from spa_bench.phone.shell.context import CommandContext, CommandTable, Output
from spa_bench.phone.system.processes import Process

if TYPE_CHECKING:
    from av.container import OutputContainer
    from av.video.stream import VideoStream

TABLE = CommandTable()
command = TABLE.command

VERSION = (1, 3)  # screenrecord.h kVersionMajor/kVersionMinor
MIN_BIT_RATE, MAX_BIT_RATE = 100_000, 200_000_000
DEFAULT_BIT_RATE = 20_000_000
DEFAULT_TIME_LIMIT_S = 180
UINT32_MAX = 2**32 - 1
DISPLAY_FPS = 60.0  # the refresh rate the virtual display reports
SAMPLE_HZ = 10
MIME_AVC = "video/avc"
UNKNOWN_ERROR = -2147483648  # utils/Errors.h
SIGHUP, SIGINT = 1, 2
PHYSICAL_DISPLAY_ID = DISPLAY_UNIQUE_ID.split(":")[1]  # what `dumpsys SurfaceFlinger --display-id` lists
FORMATS = {"mp4": "mp4", "3gpp": "3gp", "h264": "h264"}  # --output-format -> FFmpeg muxer
NOT_HERE = ("webm", "frames", "raw-frames")  # AOSP's other formats: refused by name here
# getopt_long's table: (name, takes an argument)
LONG_OPTIONS = {"help": False, "verbose": False, "size": True, "bit-rate": True, "time-limit": True,
                "bugreport": False, "show-device-info": False, "show-frame-time": False, "rotate": False,
                "output-format": True, "codec-name": True, "monotonic-time": False,
                "persistent-surface": False, "bframes": True, "display-id": True}

USAGE = (
    "Usage: screenrecord [options] <filename>\n"
    "\n"
    "Android screenrecord v{major}.{minor}.  Records the device's display to a .mp4 file.\n"
    "\n"
    "Options:\n"
    "--size WIDTHxHEIGHT\n"
    "    Set the video size, e.g. \"1280x720\".  Default is the device's main\n"
    "    display resolution (if supported), 1280x720 if not.  For best results,\n"
    "    use a size supported by the AVC encoder.\n"
    "--bit-rate RATE\n"
    "    Set the video bit rate, in bits per second.  Value may be specified as\n"
    "    bits or megabits, e.g. '4000000' is equivalent to '4M'.  Default {mbps}Mbps.\n"
    "--bugreport\n"
    "    Add additional information, such as a timestamp overlay, that is helpful\n"
    "    in videos captured to illustrate bugs.\n"
    "--time-limit TIME\n"
    "    Set the maximum recording time, in seconds.  Default is {limit}. Set to 0\n"
    "    to remove the time limit.\n"
    "--display-id ID\n"
    "    specify the physical display ID to record. Default is the primary display.\n"
    "    see \"dumpsys SurfaceFlinger --display-id\" for valid display IDs.\n"
    "--verbose\n"
    "    Display interesting information on stdout.\n"
    "--help\n"
    "    Show this message.\n"
    "\n"
    "Recording continues until Ctrl-C is hit or the time limit is reached.\n"
    "\n"
)


class OptionError(Exception):
    """A bad command line: the message is printed on stderr and screenrecord exits 2."""


@dataclass
class Options:
    verbose: bool = False
    size: tuple[int, int] | None = None
    bit_rate: int = DEFAULT_BIT_RATE
    time_limit_s: int = DEFAULT_TIME_LIMIT_S
    output_format: str = "mp4"
    rotate: bool = False
    help: bool = False
    filename: str = ""


def _long_option(arg: str) -> tuple[str, str | None]:
    """`--name[=value]` to (full option name, inline value); getopt_long accepts unique prefixes."""
    name, eq, value = arg[2:].partition("=")
    if name in LONG_OPTIONS:
        return name, value if eq else None
    matches = [opt for opt in LONG_OPTIONS if opt.startswith(name)] if name else []
    if len(matches) == 1:
        return matches[0], value if eq else None
    if len(matches) > 1:
        raise OptionError(f"screenrecord: option '{arg}' is ambiguous")
    raise OptionError(f"screenrecord: unrecognized option '{arg}'")


def parse_options(args: list[str], say: Callable[[str], None]) -> Options:
    """getopt_long(argc, argv, "", longOptions) with screenrecord's checks, in command-line order (so
    `--verbose --time-limit 5` prints "Time limit set to 5 seconds", as on a device)."""
    opts = Options()
    positional: list[str] = []
    i = 0
    while i < len(args):
        arg = args[i]
        i += 1
        if arg == "--":
            positional += args[i:]
            break
        if not arg.startswith("-") or arg == "-":
            positional.append(arg)  # GNU getopt permutes: operands may come before options
            continue
        if not arg.startswith("--"):
            raise OptionError(f"screenrecord: invalid option -- '{arg[1]}'")
        name, value = _long_option(arg)
        if LONG_OPTIONS[name] and value is None:
            if i >= len(args):
                raise OptionError(f"screenrecord: option '--{name}' requires an argument")
            value, i = args[i], i + 1
        elif not LONG_OPTIONS[name] and value is not None:
            raise OptionError(f"screenrecord: option '--{name}' doesn't allow an argument")
        _apply(opts, name, value or "", say)
        if opts.help:
            return opts
    if len(positional) != 1:
        raise OptionError("Must specify output file (see --help).")
    opts.filename = positional[0]
    return opts


def _apply(opts: Options, name: str, value: str, say: Callable[[str], None]) -> None:
    if name == "help":
        opts.help = True
    elif name == "verbose":
        opts.verbose = True
    elif name == "size":
        size = _width_height(value)
        if size is None:
            raise OptionError(f"Invalid size '{value}', must be width x height")
        if 0 in size:
            raise OptionError(f"Invalid size {size[0]}x{size[1]}, width and height may not be zero")
        opts.size = size
    elif name == "bit-rate":
        opts.bit_rate = _value_with_unit(value)
        if not MIN_BIT_RATE <= opts.bit_rate <= MAX_BIT_RATE:
            raise OptionError(f"Bit rate {opts.bit_rate}bps outside acceptable range "
                              f"[{MIN_BIT_RATE},{MAX_BIT_RATE}]")
    elif name == "time-limit":
        number = _leading_int(value)
        if number is None or value[len(number):][:1] not in ("", " "):
            raise OptionError("Error parsing time limit argument")
        seconds = int(number)
        if not 0 <= seconds <= UINT32_MAX:
            raise OptionError(f"Time limit {seconds}s outside acceptable range [0,{UINT32_MAX}] seconds")
        opts.time_limit_s = seconds or UINT32_MAX
        if opts.verbose:
            say(f"Time limit set to {opts.time_limit_s} seconds\n")
    elif name == "output-format":
        if value not in FORMATS and value not in NOT_HERE:
            raise OptionError(f"Unknown format '{value}'")
        if value in NOT_HERE:
            raise OptionError(f"ERROR: --output-format {value} is not supported on the virtual phone "
                              "(mp4, 3gpp and h264 are)")
        opts.output_format = value
    elif name == "rotate":
        opts.rotate = True
    elif name == "bframes":
        _value_with_unit(value)
    elif name == "display-id" and value.strip() not in ("0", PHYSICAL_DISPLAY_ID):
        raise OptionError("Invalid physical display ID")  # the phone has one physical display
    # --bugreport, --show-device-info, --show-frame-time, --codec-name, --monotonic-time and
    # --persistent-surface change what a device draws over or feeds the encoder; the video here is the
    # screen as it is


def _leading_int(text: str) -> str | None:
    """strtol's digits: optional spaces and sign, then at least one digit."""
    stripped = text.lstrip()
    body = stripped[1:] if stripped[:1] in "+-" else stripped
    digits = len(body) - len(body.lstrip("0123456789"))
    if digits == 0:
        return None
    return text[:len(text) - len(stripped)] + stripped[:len(stripped) - len(body) + digits]


def _width_height(text: str) -> tuple[int, int] | None:
    """parseWidthHeight: "1280x720", base 10, nothing after the height."""
    width_text = _leading_int(text)
    if width_text is None or text[len(width_text):len(width_text) + 1] != "x":
        return None
    rest = text[len(width_text) + 1:]
    height_text = _leading_int(rest)
    if not rest or height_text is None or rest[len(height_text):]:
        return None
    return int(width_text), int(height_text)


def _value_with_unit(text: str) -> int:
    """parseValueWithUnit: a bare number, or a number with a single M (megabits)."""
    number = _leading_int(text) or ""
    tail = text[len(number):]
    value = int(number) if number else 0
    if tail == "":
        return value
    if tail.upper() == "M":
        return value * 1_000_000
    raise OptionError(f"Unrecognized value: {text}")


def content_area(video: tuple[int, int], display: tuple[int, int], rotate: bool) -> tuple[int, int, int, int]:
    """setDisplayProjection: the display's aspect kept inside the video, centred: (w, h, x, y)."""
    video_w, video_h = (video[1], video[0]) if rotate else video
    aspect = display[1] / display[0]
    if video_h > int(video_w * aspect):
        out_w, out_h = video_w, int(video_w * aspect)
    else:
        out_w, out_h = int(video_h / aspect), video_h
    return out_w, out_h, (video_w - out_w) // 2, (video_h - out_h) // 2


class Recorder:
    """Frames in, an encoded file out: PyAV's libx264 into FFmpeg's mp4/3gp/h264 muxer, in memory."""

    def __init__(self, opts: Options, display: tuple[int, int]) -> None:
        import av

        self.size = opts.size or (display[0] & ~1, display[1] & ~1)
        self.area = content_area(self.size, display, opts.rotate)
        self.rotate = opts.rotate
        self.buffer = io.BytesIO()
        self.container: OutputContainer = av.open(self.buffer, mode="w", format=FORMATS[opts.output_format])
        stream: VideoStream = self.container.add_stream("libx264")
        stream.width, stream.height = self.size
        stream.pix_fmt = "yuv420p"
        stream.bit_rate = opts.bit_rate
        stream.codec_context.time_base = Fraction(1, 1000)
        stream.time_base = Fraction(1, 1000)
        stream.options = {"preset": "ultrafast"}  # a phone's hardware encoder is fast; keep the CPU free
        self.stream = stream
        self.frames = 0
        self._last: Image.Image | None = None
        self._taken = 0

    def add(self, screen: Image.Image, at_ms: int) -> None:
        import av

        w, h, x, y = self.area
        # --rotate lays the display out in the swapped video and turns the picture a quarter
        canvas = Image.new("RGBA", (self.size[1], self.size[0]) if self.rotate else self.size, (0, 0, 0, 255))
        canvas.paste(screen.convert("RGBA").resize((w, h)), (x, y))
        if self.rotate:
            canvas = canvas.transpose(Image.Transpose.ROTATE_270)
        frame = av.VideoFrame.from_bytes(canvas.tobytes(), canvas.width, canvas.height, format="rgba")
        frame.pts = at_ms
        frame.time_base = Fraction(1, 1000)
        for packet in self.stream.encode(frame):
            self.container.mux(packet)
        self.frames += 1
        self._last = screen

    def finish(self, at_ms: int) -> bytes:
        """The last picture once more at the stop time, then the encoder drained and the file closed."""
        if self._last is not None and at_ms > 0:
            self.add(self._last, at_ms)
            self.frames -= 1  # a repeat for the duration, not a new screen
        for packet in self.stream.encode(None):
            self.container.mux(packet)
        self.container.close()
        return self.buffer.getvalue()

    def take_new(self) -> bytes:
        """The bytes the muxer wrote since the last call (raw H.264 to stdout goes out as it is made)."""
        data = self.buffer.getvalue()[self._taken:]
        self._taken += len(data)
        return data

    def abandon(self) -> bytes:
        """What a killed screenrecord leaves: the bytes written so far, no index."""
        return self.buffer.getvalue()


def _mbps(bit_rate: int) -> str:
    return f"{bit_rate / 1_000_000:.2f}"


@command("screenrecord")
def screenrecord(args: list[str], ctx: CommandContext) -> int:
    try:
        opts = parse_options(args, ctx.out)
    except OptionError as exc:
        ctx.err(f"{exc}\n")
        return 2
    if opts.help:
        ctx.err(USAGE.format(major=VERSION[0], minor=VERSION[1], mbps=opts.bit_rate // 1_000_000,
                             limit=opts.time_limit_s))
        return 0
    if opts.output_format == "h264" and opts.filename == "-":
        if opts.verbose:
            ctx.err("ERROR: verbose output and '-' not compatible")
            return 255
    elif not _can_create(ctx, opts.filename):
        return 1
    return _record(ctx, opts, args)


def _can_create(ctx: CommandContext, path: str) -> bool:
    """screenrecord opens the file (O_CREAT) before recording, for a clear error."""
    if not path:
        ctx.err("Unable to open '': No such file or directory\n")
        return False
    if ctx.fs.is_dir(path, ctx.cwd):
        ctx.err(f"Unable to open '{path}': Is a directory\n")
        return False
    try:
        if not ctx.fs.exists(path, ctx.cwd):
            ctx.fs.write_bytes(path, b"", ctx.cwd)
    except OSError as exc:
        reason = exc.strerror or str(exc) or "No such file or directory"
        ctx.err(f"Unable to open '{path}': {reason}\n")
        return False
    return True


def _record(ctx: CommandContext, opts: Options, args: list[str]) -> int:
    display = ctx.system.screen_size()
    if opts.verbose:
        ctx.out(f"Display is {display[0]}x{display[1]} @{DISPLAY_FPS:.2f}fps (orientation=ROTATION_0), "
                "layerStack=0\n")
    recorder = Recorder(opts, display)
    if opts.verbose:
        w, h, x, y = recorder.area
        ctx.out(f"Configuring recorder for {recorder.size[0]}x{recorder.size[1]} {MIME_AVC} at "
                f"{_mbps(opts.bit_rate)}Mbps\n")
        ctx.out(f"Rotated content area is {h}x{w} at offset x={y} y={x}\n" if opts.rotate else
                f"Content area is {w}x{h} at offset x={x} y={y}\n")
    table = process_table(ctx)
    proc = own_process(ctx, table, ("screenrecord", *args)) if table is not None else None  # `&`: the job's
    try:
        return _run_recording(ctx, opts, recorder, proc)
    finally:
        if proc is not None and table is not None and proc.running:
            table.end(proc)  # the process lasts until its file is written, as on a device


def _run_recording(ctx: CommandContext, opts: Options, recorder: Recorder, proc: Process | None) -> int:
    client = ctx.go_live()
    # `--output-format h264 -`: the stream goes to stdout as it is encoded (a live view over exec-out)
    to_stdout = opts.output_format == "h264" and opts.filename == "-"
    start = time.monotonic()
    limit = start + opts.time_limit_s
    last_png: bytes | None = None
    stop_signal = 0
    client_gone = False
    while True:
        now = time.monotonic()
        if now > limit:
            if opts.verbose:
                ctx.out("Time limit reached\n")
            break
        png = ctx.system.screenshot_png()
        if png != last_png:  # a cached PNG is the same object while the screen stays as it was
            last_png = png
            with Image.open(io.BytesIO(png)) as screen:
                recorder.add(screen.convert("RGB"), int((now - start) * 1000))
            if to_stdout:
                ctx.out(recorder.take_new())
        if proc is not None and proc.ended.wait(1 / SAMPLE_HZ):
            stop_signal = proc.exit_signal
            break
        if client is not None and client.wait_gone(0 if proc is not None else 1 / SAMPLE_HZ):
            client_gone = True  # a device's screenrecord gets SIGHUP when its adb shell goes
            break
        if proc is None and client is None:
            time.sleep(1 / SAMPLE_HZ)
    elapsed = time.monotonic() - start
    if stop_signal and stop_signal not in (SIGINT, SIGHUP):
        _write(ctx, opts.filename, recorder.abandon())  # killed: no moov, no media scan
        return 128 + stop_signal
    verbose = opts.verbose and not client_gone  # nobody reads a hung-up terminal
    if verbose:
        ctx.out(f"Encoder stopping; recorded {recorder.frames} frames in {int(elapsed)} seconds\n")
        ctx.out("Stopping encoder and muxer\n")
    data = recorder.finish(int(elapsed * 1000))
    if to_stdout:
        if not client_gone:
            ctx.out(recorder.take_new())
        return 0
    _write(ctx, opts.filename, data)
    _notify_media_scanner(ctx, opts.filename, verbose)
    return 0


def _write(ctx: CommandContext, path: str, data: bytes) -> None:
    try:
        ctx.fs.write_bytes(path, data, ctx.cwd)
    except OSError:
        ctx.err("ERROR: couldn't open file\n")


def _notify_media_scanner(ctx: CommandContext, filename: str, verbose: bool) -> None:
    """`am broadcast -a android.intent.action.MEDIA_SCANNER_SCAN_FILE -d file://PATH`; its output shows
    only with --verbose (screenrecord sends the child's stdout and stderr to /dev/null otherwise)."""
    argv = ["am", "broadcast", "-a", "android.intent.action.MEDIA_SCANNER_SCAN_FILE", "-d",
            f"file://{filename}"]
    if verbose:
        ctx.out("Executing: /system/bin/" + " ".join(argv) + "\n")
        ctx.shell.run_argv(argv, ctx)
        return
    from dataclasses import replace

    quiet = replace(ctx, stdout=Output(discard=True), stderr=Output(discard=True))
    ctx.shell.run_argv(argv, quiet)
