"""The log: `log` (toybox) writes to logd's main buffer, `logcat` reads, follows and clears it.

`log [-p PRI] [-t TAG] [MESSAGE...]` logs one message (or each line of stdin) at INFO unless told, with
tag "log" unless told, and its messages as toybox words them (`bad -p 'x'`, `log cut at 1024 bytes`).
`logcat` follows system/logging/logcat/logcat.cpp: options -b -c -d -D -e -f -g -G -m -s -t -T -v --pid,
FILTERSPECs `TAG[:PRIO]` (`*` alone means `*:D`, a tag alone `TAG:V`, `-s` is `*:S`), the buffers
main,system,crash,kernel without -b (`-b default` is main,system,crash), the `--------- beginning of
main` divider before a buffer's first line, errors as `logcat: MESSAGE` with exit 1. Lines are formatted
as liblog's logprint.cpp does (brief, tag, process, thread, raw, time, threadtime (the default), long;
modifiers year, usec, nsec, epoch, monotonic, zone, UTC, uid, printable, color). Without -d/-t a logcat
keeps running and prints new entries as they come until its client hangs up (or it is killed): it is
then a process `ps` sees. Where its output has no client of its own (a pipe, a file, a line typed in an
interactive session) it prints what the log holds and returns. The phone runs on UTC, so local time is
UTC. Not modelled: the binary buffers' contents (events, stats, security stay empty), -L (pstore),
-S/-p/-P (statistics and prune lists); they answer as unknown options.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import UTC, datetime

from spa_bench.phone.shell.commands.logprint import (
    FORMATS,
    MODIFIERS,
    Filter,
    Formatter,
    LogcatError,
    binary_record,
)
from spa_bench.phone.shell.commands.processes import own_process, process_table, run_while_connected
from spa_bench.phone.shell.context import CommandContext, CommandTable
from spa_bench.phone.shell.expand import SHELL_PID
from spa_bench.phone.system.logd import (
    BUFFERS,
    DEBUG,
    ERROR,
    FATAL,
    INFO,
    LOGGER_ENTRY_MAX_LEN,
    LOGGER_ENTRY_MAX_PAYLOAD,
    SILENT,
    VERBOSE,
    WARN,
    LogBuffer,
    LogEntry,
)

TABLE = CommandTable()
command = TABLE.command

LOG_MAX_BYTES = 1024  # toybox log: the message is cut at 1024 bytes
DEFAULT_BUFFERS = ("main", "system", "crash")  # `-b default`
# Without -b, Android 14's logcat.cpp also reads the kernel log (which logd fills on a debuggable build)
UNSELECTED_BUFFERS = (*DEFAULT_BUFFERS, "kernel")
_LOG_PRIORITIES = {"d": DEBUG, "e": ERROR, "f": FATAL, "i": INFO, "s": SILENT, "v": VERBOSE, "w": WARN}
LOGCAT_USAGE = """
  Usage: logcat [OPTION]... [FILTERSPEC]...

  -b BUFFER   main system radio events crash default all (comma separated)
  -c          Clear the log and exit      -d  Dump the log and exit (don't block)
  -D          Dividers between buffers    -B  Binary output
  -e EXPR     Only lines matching EXPR    -m N  Exit after N lines
  -f FILE     Log to FILE                 -g  Ring buffer sizes   -G SIZE  Set them
  -s          Default filter silent       -t N|TIME  Recent lines (implies -d)   -T N|TIME  (no -d)
  -v FORMAT   brief long process raw tag thread threadtime time; adverbs color epoch monotonic
              printable uid usec UTC year zone
  --pid=PID   Only that pid's lines

  FILTERSPEC: <tag>[:priority] with priority V D I W E F S; '*' alone is '*:D', a tag alone '<tag>:V'.
"""


def log_buffer(ctx: CommandContext) -> LogBuffer | None:
    logd = getattr(ctx.system, "logd", None)
    return logd if isinstance(logd, LogBuffer) else None


def _new_pid(ctx: CommandContext) -> int:
    table = process_table(ctx)
    return table.new_pid() if table is not None else SHELL_PID + 1


# -- log --------------------------------------------------------------------------------------------
@command("log")
def log(args: list[str], ctx: CommandContext) -> int:
    tag, priority, words = "log", INFO, []
    i = 0
    while i < len(args):
        a = args[i]
        if a in ("-p", "-t") or (a.startswith(("-p", "-t")) and len(a) > 2):
            value = a[2:] if len(a) > 2 else (args[i + 1] if i + 1 < len(args) else None)
            if value is None:
                return ctx.fail(f"Needs 1 argument (see \"-{a[1]}\")")
            i += 1 if len(a) > 2 else 2
            if a[1] == "t":
                tag = value
            else:
                chosen = _LOG_PRIORITIES.get(value.lower()) if len(value) == 1 else None
                if chosen is None:
                    return ctx.fail(f"bad -p '{value}'")
                priority = chosen
            continue
        if a == "--":
            words.extend(args[i + 1:])
            break
        words.append(a)
        i += 1
    logd = log_buffer(ctx)
    uid, pid = (0 if ctx.root else 2000), _new_pid(ctx)
    status = 0
    if words:
        data = " ".join(words).encode()
        if len(data) >= LOG_MAX_BYTES:
            data = data[:LOG_MAX_BYTES]
            status = ctx.fail("log cut at 1024 bytes")
        messages = [data.decode("utf-8", errors="ignore")]
    else:
        messages = ctx.stdin.decode("utf-8", errors="replace").splitlines()
    if logd is not None and priority != SILENT:  # liblog never logs SILENT
        for message in messages:
            logd.write(priority, tag, message, pid=pid, uid=uid)
    return status


# -- logcat: options --------------------------------------------------------------------------------
@dataclass
class LogcatOptions:
    buffers: list[str] = field(default_factory=list)
    clear: bool = False
    dump: bool = False
    dividers: bool = False
    size: bool = False
    set_size: int = 0
    tail_lines: int = 0
    tail_time: datetime | None = None
    follow_after_tail: bool = False
    regex: re.Pattern[str] | None = None
    max_count: int = 0
    file: str | None = None
    binary: bool = False
    pid: int = 0
    formats: list[str] = field(default_factory=list)
    filters: list[str] = field(default_factory=list)
    silent_default: bool = False


_VALUED = {"-t": "t", "-T": "T", "-G": "G", "-f": "f", "-r": "r", "-n": "n", "-v": "v", "-b": "b", "-m": "m",
           "-e": "e", "--buffer": "b", "--format": "v", "--file": "f", "--regex": "e", "--grep": "e",
           "--max-count": "m", "--head": "m", "--tail": "t", "--rotate-kbytes": "r", "--rotate-count": "n",
           "--pid": "pid", "--buffer-size": "G"}
_FLAGS = {"-c": "c", "--clear": "c", "-d": "d", "-D": "D", "--dividers": "D", "-g": "g", "-s": "s",
          "-B": "B", "--binary": "B", "-h": "h", "--help": "h"}


def _parse_time(text: str) -> datetime | None:
    for fmt in ("%m-%d %H:%M:%S.%f", "%Y-%m-%d %H:%M:%S.%f"):
        try:
            moment = datetime.strptime(text, fmt)
        except ValueError:
            continue
        return moment.replace(year=datetime.now().year) if fmt.startswith("%m") else moment
    if re.fullmatch(r"\d+\.\d+", text):
        return datetime.fromtimestamp(float(text), UTC).replace(tzinfo=None)
    return None


def _byte_count(text: str) -> int:
    m = re.fullmatch(r"(\d+)([KkMmGg]?)", text)
    if not m or int(m.group(1)) < 1:
        raise LogcatError("-G must be specified as <num><multiplier>.")
    return int(m.group(1)) * {"": 1, "k": 1024, "m": 1024 ** 2, "g": 1024 ** 3}[m.group(2).lower()]


def parse_logcat(args: list[str]) -> LogcatOptions:
    opts = LogcatOptions()
    i = 0
    while i < len(args):
        a = args[i]
        i += 1
        if not a.startswith("-") or a == "-":
            opts.filters.append(a)
            continue
        name, eq, inline = a.partition("=") if a.startswith("--") else (a[:2], "", a[2:])
        if name in _FLAGS and not inline and not eq:
            key, value = _FLAGS[name], ""
        elif name in _VALUED:
            key = _VALUED[name]
            if inline or eq:
                value = inline
            elif i < len(args):
                value, i = args[i], i + 1
            else:
                raise LogcatError(f"Option '{a}' needs an argument.")
        elif a[:2] in _FLAGS and not a.startswith("--"):  # bundled flags: -dv is not valid, -cd is
            for ch in a[1:]:
                if f"-{ch}" not in _FLAGS:
                    raise LogcatError(f"Unknown option '{a}'.")
                _apply(opts, _FLAGS[f"-{ch}"], "")
            continue
        else:
            raise LogcatError(f"Unknown option '{a}'.")
        _apply(opts, key, value)
    return opts


def _apply(opts: LogcatOptions, key: str, value: str) -> None:
    if key == "c":
        opts.clear = True
    elif key == "d":
        opts.dump = True
    elif key == "D":
        opts.dividers = True
    elif key == "g":
        opts.size = True
    elif key == "G":
        opts.set_size = _byte_count(value)
    elif key == "s":
        opts.silent_default = True
    elif key == "B":
        opts.binary = True
    elif key == "h":
        raise LogcatError("help")
    elif key in ("t", "T"):
        opts.dump = opts.dump or key == "t"
        opts.follow_after_tail = key == "T"
        if value.isdigit():
            opts.tail_lines = max(1, int(value))
        else:
            when = _parse_time(value)
            if when is None:
                raise LogcatError(f"-{key} '{value}' not in time format.")
            opts.tail_time = when
    elif key == "e":
        try:
            opts.regex = re.compile(value)
        except re.error as exc:
            raise LogcatError(f"Invalid regex '{value}': {exc}") from None
    elif key == "m":
        if not value.isdigit() or int(value) < 1:
            raise LogcatError(f"-m '{value}' isn't an integer greater than zero.")
        opts.max_count = int(value)
    elif key == "f":
        opts.file = value
    elif key == "pid":
        if not value.isdigit() or int(value) < 1:
            raise LogcatError(f"pid '{value}' out of range.")
        opts.pid = int(value)
    elif key == "v":
        for item in (s for s in re.split(r"[,:; \t]+", value) if s):
            if item not in FORMATS and item not in MODIFIERS:
                raise LogcatError(f"Invalid -v '{item}'.")
            opts.formats.append(item)
    elif key == "b":
        for item in (s for s in re.split(r"[,:; \t]+", value) if s):
            if item == "default":
                opts.buffers += [b for b in DEFAULT_BUFFERS if b not in opts.buffers]
            elif item == "all":
                opts.buffers += [b for b in BUFFERS if b not in opts.buffers]
            elif item in BUFFERS:
                if item not in opts.buffers:
                    opts.buffers.append(item)
            else:
                raise LogcatError(f"Unknown -b buffer '{item}'.")
    # -r / -n (log rotation) only matter with -f; a single file is kept here


# -- logcat ------------------------------------------------------------------------------------------
@command("logcat")
def logcat(args: list[str], ctx: CommandContext) -> int:
    try:
        opts = parse_logcat(args)
    except LogcatError as exc:
        if str(exc) == "help":
            ctx.out(LOGCAT_USAGE)
            return 0
        return ctx.fail(str(exc))
    logd = log_buffer(ctx)
    buffers = opts.buffers or list(UNSELECTED_BUFFERS)
    if logd is None:
        return ctx.fail(f"Unable to open log devices '{','.join(buffers)}'.")
    if opts.clear and opts.file is None:
        logd.clear(buffers)
    if opts.set_size:
        logd.ring_bytes = max(64 * 1024, opts.set_size)
    if opts.size:
        for name in buffers:
            ctx.out(_size_line(logd, name))
    if opts.clear or opts.size or opts.set_size:
        if opts.clear and opts.file is not None:
            ctx.fs.write_bytes(opts.file, b"", cwd=ctx.cwd)
        return 0
    try:
        env_tags = ctx.env.get("ANDROID_LOG_TAGS")
        flt = Filter(opts.filters or ([env_tags] if env_tags else []), opts.silent_default)
    except LogcatError as exc:
        return ctx.fail(str(exc))
    env_format = [f for f in re.split(r"[,:; \t]+", ctx.env.get("ANDROID_PRINTF_LOG", "")) if f in FORMATS]
    printer = _Printer(ctx, opts, flt, Formatter(opts.formats or env_format, _boot(ctx)))
    entries = logd.entries(buffers)
    if opts.pid:
        entries = [e for e in entries if e.pid == opts.pid]
    if opts.tail_time is not None:
        entries = [e for e in entries if e.when >= opts.tail_time]
    if opts.tail_lines:
        entries = entries[-opts.tail_lines:]
    last = logd.last_seq()
    if not printer.emit(entries):
        return printer.finish()
    table = process_table(ctx)
    if opts.dump or table is None or ctx.client is None:
        return printer.finish()

    def step() -> bool:
        nonlocal last
        new = [e for e in logd.entries(buffers, after=last) if not opts.pid or e.pid == opts.pid]
        if new:
            last = new[-1].seq
        return printer.emit(new) and (logd.wait_newer(last, 0.2) or True)

    proc = own_process(ctx, table, ("logcat", *args))
    return run_while_connected(ctx, proc, table, step=step)


def _boot(ctx: CommandContext) -> datetime:
    """When the phone started (`-v monotonic` counts from there): the log daemon's start."""
    logd = log_buffer(ctx)
    return logd.started if logd is not None else datetime(1970, 1, 1)


def _size_line(logd: LogBuffer, name: str) -> str:
    size, consumed = logd.usage(name)

    def human(value: int) -> str:
        units = ["", "Ki", "Mi", "Gi"]
        n = 0
        while n < len(units) - 1 and value >= 1024:
            value //= 1024
            n += 1
        return f"{value} {units[n]}B"

    return (f"{name}: ring buffer is {human(size)} ({human(consumed)} consumed, {human(consumed)} readable),"
            f" max entry is {LOGGER_ENTRY_MAX_LEN} B, max payload is {LOGGER_ENTRY_MAX_PAYLOAD} B\n")


class _Printer:
    """Writes entries as logcat does: dividers, the filter, -e, -m, to stdout or the -f file."""

    def __init__(self, ctx: CommandContext, opts: LogcatOptions, flt: Filter, fmt: Formatter) -> None:
        self.ctx, self.opts, self.filter, self.fmt = ctx, opts, flt, fmt
        self.printed_start: set[str] = set()
        self.last_buffer: str | None = None
        self.count = 0
        self.file_data = bytearray()

    def _write(self, data: bytes) -> None:
        if self.opts.file is not None:
            self.file_data += data
        else:
            self.ctx.out(data)

    def emit(self, entries: list[LogEntry]) -> bool:
        """Print what passes; False once -m's count is reached (logcat exits)."""
        for entry in entries:
            if not self.filter.allows(entry):
                continue
            match = self.opts.regex is None or self.opts.regex.search(entry.message) is not None
            if not match:
                continue
            if self.opts.binary:
                self._write(binary_record(entry))
            else:
                self._divider(entry.buffer)
                self._write(self.fmt.line(entry).encode())
            self.count += 1
            if self.opts.max_count and self.count >= self.opts.max_count:
                return False
        if self.opts.file is not None and self.file_data:
            self.ctx.fs.write_bytes(self.opts.file, bytes(self.file_data), cwd=self.ctx.cwd, append=True)
            self.file_data.clear()
        return True

    def _divider(self, buffer: str) -> None:
        if buffer == self.last_buffer:
            return
        if buffer not in self.printed_start or self.opts.dividers:
            word = "switch to" if buffer in self.printed_start else "beginning of"
            self._write(f"--------- {word} {buffer}\n".encode())
        self.last_buffer = buffer
        self.printed_start.add(buffer)

    def finish(self) -> int:
        if self.opts.file is not None and self.file_data:
            self.ctx.fs.write_bytes(self.opts.file, bytes(self.file_data), cwd=self.ctx.cwd, append=True)
        return 0

