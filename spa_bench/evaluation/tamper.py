"""Which adb shell command lines change device state behind the GUI.

An agent program that reaches the phone over ADB can write a setting, a row or a file directly and be
scored as if it had used the GUI; spa_bench.evaluation.shell_audit marks such an episode tampered. Every
simple command of a line is classified and the line takes the worst. A program not recognised counts as
a change, so that an unknown binary cannot hide one. Pure: no device, no I/O.
"""

from __future__ import annotations

import posixpath
import re
import shlex
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Literal

from spa_bench.evaluation.intent_audit import classify_am

__all__ = ["CommandKind", "CommandVerdict", "classify_command", "classify_commands"]

CommandKind = Literal["gui_input", "capture", "read", "tooling", "navigation", "state_change", "unknown"]
_Part = tuple[CommandKind, str]
_RANK = {"read": 0, "capture": 1, "tooling": 2, "gui_input": 3, "navigation": 4, "unknown": 5,
         "state_change": 6}
TOOL_DIR = "/data/local/tmp/"
"""Where agent programs stage their own tools (uiautomator2's u2.jar, minicap): files there are no app's
state, and uiautomator2's server started from there (app_process) is the agent's driver."""


@dataclass(frozen=True)
class CommandVerdict:
    """One line's verdict; `changes_state` is what marks an episode tampered (unknown programs count)."""

    command: str
    kind: CommandKind
    changes_state: bool
    reason: str


@dataclass
class _Context:
    """Files the sequence's own captures write: those seen so far, and all of them (from a first pass)."""

    earlier: set[str] = field(default_factory=set)
    anywhere: frozenset[str] = frozenset()
    launchers: Mapping[str, str] | None = None  # package -> launcher activity (intent_audit's default)
    depth: int = 0  # of sh -c, su, eval and $(...) being read


_Handler = Callable[[str, list[str], _Context], _Part]


def classify_commands(commands: Sequence[str],
                      launchers: Mapping[str, str] | None = None) -> list[CommandVerdict]:
    """One verdict per line. Two passes, so that `rm` of the sequence's own capture file is not a change
    whether it comes after the capture or before it (Mobile-Agent removes the last screenshot first).
    `launchers`: the device's launcher activity per package, for `am start -n` (see intent_audit)."""
    first = _Context(launchers=launchers)
    for command in commands:
        _line(command, first)
    ctx = _Context(anywhere=frozenset(first.earlier), launchers=launchers)
    verdicts = []
    for command in commands:
        # an empty command line opens an interactive shell: a device that records it so (and not each
        # line the session runs, as the virtual phone does) hides whatever was typed or piped into it
        kind, reason = (_worst(_line(command, ctx), "empty") if command.strip()
                        else ("state_change", "an interactive shell: its commands are not seen"))
        changes = kind in ("state_change", "unknown")
        verdicts.append(CommandVerdict(command, kind, changes, " ".join(reason.split())))
    return verdicts


def classify_command(command: str) -> CommandVerdict:
    """A line on its own: an `rm` of a capture is only exempt within classify_commands' sequence."""
    return classify_commands([command])[0]


def _worst(parts: Sequence[_Part], empty: str) -> _Part:
    return max(parts, key=lambda p: _RANK[p[0]]) if parts else ("read", empty)


# ---- shell syntax -------------------------------------------------------------------------------------
_OPS = ("&>>", "<<<", "&&", "||", ";;", ">>", "&>", ">&", "<&", ">|", "<<", "<>", ";", "&", "|", "(", ")",
        "<", ">")
_REDIRECTS = frozenset({"&>>", "<<<", ">>", "&>", ">&", "<&", ">|", "<<", "<>", "<", ">"})
_ADB = re.compile(r"(?:.*/)?adb(?:\.exe)?")


def _substitution(line: str, i: int) -> tuple[str, int]:
    """The text of the `$(...)` or backtick substitution opening at i, and the index where it closes."""
    if line[i] == "`":
        j = line.find("`", i + 1)
        j = len(line) if j < 0 else j
        return line[i + 1:j], j
    depth, j = 0, i + 1
    while j < len(line):
        depth += {"(": 1, ")": -1}.get(line[j], 0)
        if depth == 0:
            break
        j += 1
    return line[i + 2:j], j


def _scan(line: str) -> tuple[list[tuple[str, bool]], list[str]]:
    """Words and operators (text, is_operator) of a shell line, and its command substitutions.

    Written out, not shlex(punctuation_chars=True): shlex returns a quoted ";" exactly like the operator
    (Mobile-Agent types `am broadcast -a ADB_INPUT_TEXT --es msg "..."` with any text) and cuts `$(...)`
    apart. Never raises: an unterminated quote runs to the end, as a recorded line is whatever it is."""
    tokens: list[tuple[str, bool]] = []
    subs: list[str] = []
    word: list[str] = []
    in_word, quote, i, n = False, "", 0, len(line)
    while i < n:
        c = line[i]
        op = "" if quote else next((o for o in _OPS if line.startswith(o, i)), "")
        if not quote and (op or c in " \t\r\n"):
            if in_word and not (op[:1] in ("<", ">") and "".join(word).isdigit()):  # the 2 of 2>/dev/null
                tokens.append(("".join(word), False))
            word, in_word = [], False
            if op or c == "\n":
                tokens.append((op or ";", True))
            i += len(op) or 1
            continue
        if not quote and c == "#" and not in_word:
            j = line.find("\n", i)
            i = n if j < 0 else j
            continue
        in_word = True
        if c == quote or (not quote and c in "'\""):
            quote = "" if quote else c
        elif quote == "'" or (c == "\\" and quote and line[i + 1:i + 2] not in ('"', "\\", "$", "`")):
            word.append(c)
        elif c == "\\":
            word.append(line[i + 1:i + 2])
            i += 1
        elif line.startswith("$(", i) or c == "`":
            sub, j = _substitution(line, i)
            subs.append(sub)
            word.append(line[i:j + 1])
            i = j
        else:
            word.append(c)
        i += 1
    if in_word:
        tokens.append(("".join(word), False))
    return tokens, subs


def _simple_commands(tokens: list[tuple[str, bool]]) -> list[tuple[list[str], list[str]]]:
    """(argv, files written by redirection) of each simple command. /dev/null is not a file write."""
    commands: list[tuple[list[str], list[str]]] = [([], [])]
    i = 0
    while i < len(tokens):
        text, is_op = tokens[i]
        argv, writes = commands[-1]
        if not is_op:
            argv.append(text)
        elif text in _REDIRECTS:
            target = tokens[i + 1][0] if i + 1 < len(tokens) and not tokens[i + 1][1] else ""
            i += 1 if target else 0
            duplicate = text in (">&", "<&") and (target.isdigit() or target == "-")
            if not duplicate and text not in ("<", "<<", "<<<", "<&") and target != "/dev/null":
                writes.append(target or "a file")
        elif argv or writes:
            commands.append(([], []))
        i += 1
    return [c for c in commands if c[0] or c[1]]


def _line(line: str, ctx: _Context) -> list[_Part]:
    """The verdicts of a line's parts; nesting deeper than Python's stack allows counts as a change."""
    ctx.depth += 1
    too_deep: list[_Part] = [("unknown", "nested too deep, counted as a change")]
    parts = _parts(line, ctx) if ctx.depth < 60 else too_deep
    ctx.depth -= 1
    return parts


def _parts(line: str, ctx: _Context) -> list[_Part]:
    tokens, subs = _scan(line)
    if tokens and not tokens[0][1] and _ADB.fullmatch(tokens[0][0]):
        # A host line: its redirections write host files; what adb sends is parsed again on the device.
        return [p for argv, _ in _simple_commands(tokens) if argv and _ADB.fullmatch(argv[0])
                for p in _adb(argv[1:], ctx)]
    parts = [p for sub in subs for p in _line(sub, ctx)]
    for argv, writes in _simple_commands(tokens):
        if argv:
            parts.append(_program(argv, ctx))
        parts.extend(("state_change", f"redirection: writes {w}") for w in writes)
    return parts


def _adb(args: list[str], ctx: _Context) -> list[_Part]:
    i = 0
    while i < len(args) and args[i].startswith("-"):
        i += 2 if args[i] in ("-s", "-P", "-H", "-t", "-L") else 1
    sub, rest = (args[i], args[i + 1:]) if i < len(args) else ("", [])
    if sub in ("shell", "exec-out"):
        while rest and rest[0] in ("-e", "-n", "-T", "-t", "-tt", "-x"):
            rest = rest[2:] if rest[0] == "-e" else rest[1:]
        if not " ".join(rest).strip():  # `adb shell` alone reads its commands from the terminal or a pipe
            return [("state_change", f"adb {sub}: an interactive shell: its commands are not seen")]
        return _line(" ".join(rest), ctx)  # adb joins its arguments with spaces, as the device receives them
    if sub in ("pull", "devices", "get-state", "get-serialno", "version", "wait-for-device", "root"):
        return [("read", f"adb {sub}: changes nothing on the device by itself")]
    return [("state_change", f"adb {sub}: writes the device (push, install, emu) or is not a known read")]


# ---- programs -----------------------------------------------------------------------------------------
_ASSIGN = re.compile(r"[A-Za-z_]\w*=")
_SYNTAX = frozenset({"!", "{", "}", "if", "then", "else", "elif", "do", "while", "until", "fi", "done"})
_WRAPPERS = frozenset({"env", "nice", "timeout", "xargs", "busybox", "toybox", "nohup", "exec", "command",
                       "time", "setsid"})
_WRAPPER_VALUED = frozenset({"-u", "-n", "-s", "-k", "-I", "-d", "-P", "-L", "-E"})  # options taking a value
_SHELLS = frozenset({"sh", "bash", "mksh", "ash", "dash", "zsh"})
_READS = frozenset({
    "cat", "ls", "stat", "grep", "egrep", "fgrep", "head", "tail", "wc", "echo", "printf", "sleep", "true",
    "false", "test", "[", "[[", "getprop", "ps", "id", "whoami", "df", "du", "md5sum", "sha1sum", "sha256sum",
    "base64", "pwd", "uname", "uptime", "which", "readlink", "realpath", "dirname", "basename", "file", "cut",
    "sort", "uniq", "tr", "od", "xxd", "hexdump", "strings", "cmp", "diff", "printenv", "free", "pidof",
    "pgrep", "tee", "getenforce", "getevent", "top", "cd", "export", "unset", "set", "local", "shift",
    "return", "exit", "wait", ":", "read", "for", "case", "esac", "in"})
_CHANGES = {
    "cp": "copies files", "mv": "moves files", "mkdir": "creates a directory", "rmdir": "removes a directory",
    "touch": "creates a file", "chmod": "changes file modes", "chown": "changes file owners",
    "chcon": "changes a file's SELinux context", "restorecon": "resets SELinux contexts",
    "ln": "creates a link", "dd": "writes a file or device", "truncate": "truncates a file",
    "setprop": "sets a system property", "svc": "switches a system service (wifi, data, bluetooth, power)",
    "reboot": "reboots the device", "kill": "kills processes", "pkill": "kills processes",
    "killall": "kills processes", "stop": "stops system services", "start": "starts system services",
    "telecom": "changes telephony state", "locksettings": "changes the lock screen",
    "mount": "mounts a file system", "setenforce": "switches SELinux"}
# program or `cmd` service -> (sub-commands that only read, what the others do)
_SUBCOMMANDS: dict[str, tuple[frozenset[str], str]] = {
    "settings": (frozenset({"get", "list"}), "writes a setting"),
    "content": (frozenset({"query", "read", "gettype"}), "writes a content provider"),
    "pm": (frozenset({"path", "dump", "has-feature", "resolve-activity"}), "changes an app or its data"),
    "appops": (frozenset({"get", "query-op"}), "changes an app-op permission"),
    "device_config": (frozenset({"get"}), "changes a device flag"),
    "service": (frozenset({"check"}), "calls a system service method"),
    "ime": (frozenset(), "changes input methods"), "statusbar": (frozenset(), "changes system UI state"),
    "wm": (frozenset(), "changes the display")}
_TOOL_FILE_PROGRAMS = frozenset({"rm", "chmod", "mkdir", "touch"})
_SDCARD = re.compile(r"^/(?:storage/emulated/0|storage/self/primary|mnt/sdcard|mnt/user/0/primary)(?=/|$)")


def _program(argv: list[str], ctx: _Context) -> _Part:
    i = 0
    while i < len(argv) and (argv[i] in _SYNTAX or _ASSIGN.match(argv[i]) or argv[i] in _WRAPPERS):
        wrapper, i = argv[i], i + 1
        while wrapper in _WRAPPERS and i < len(argv) and (argv[i].startswith("-") or _ASSIGN.match(argv[i])):
            i += 2 if argv[i] in _WRAPPER_VALUED else 1
        i += 1 if wrapper == "timeout" else 0  # its duration
    if i >= len(argv):
        return ("read", "shell syntax or a variable assignment")
    name, args = posixpath.basename(argv[i]), argv[i + 1:]
    if name in ("app_process", "app_process32", "app_process64"):
        classpath = [a.partition("=")[2] for a in argv[:i] if a.startswith("CLASSPATH=")] + \
            [args[k + 1] for k, a in enumerate(args[:-1]) if a in ("-cp", "-classpath")]
        if classpath and all(_path(c).startswith(TOOL_DIR) for c in classpath):
            return ("tooling", f"{name}: starts the agent's own tool from {TOOL_DIR} (uiautomator2's server)")
        return ("unknown", f"{name}: runs Java code that is not the agent's staged tool; counted as a change")
    if name in _TOOL_FILE_PROGRAMS:
        targets = [_path(t) for t in _positional(args)[1 if name == "chmod" else 0:]]  # chmod MODE FILE...
        if targets and all(t.startswith(TOOL_DIR) and ".." not in t for t in targets):
            return ("tooling", f"{name}: the agent's own tool files in {TOOL_DIR}")
    if name in _SHELLS or name in ("su", "run-as", "eval"):
        inner = _inner_line(name, args)
        if inner is None:
            return ("unknown", f"{name}: an interactive shell or a script, not analysed; counted as a change")
        return _worst(_line(inner, ctx), f"{name}: empty")
    if name in _HANDLERS:
        return _HANDLERS[name](name, args, ctx)
    if name in _SUBCOMMANDS:
        return _subcommand(name, args, ctx)
    if name in _FLAGGED:
        flags, change = _FLAGGED[name]
        flag = next((a for a in args if a.startswith(flags)), "")
        return ("state_change", f"{name} {flag}: {change}") if flag else ("read", f"{name}: reads only")
    if name == "tee" and any(f != "/dev/null" for f in _positional(args)):
        return ("state_change", "tee: writes a file")
    if name in ("pkill", "killall") and _positional(args) == ["screenrecord"]:
        return ("capture", f"{name} screenrecord: stops its own screen recording")
    if name in _READS:
        return ("read", f"{name}: reads only")
    if name in _CHANGES:
        return ("state_change", f"{name}: {_CHANGES[name]}")
    return ("unknown", f"{name}: not a recognised program, counted as a change")


# reading programs that change state with one of these flags (prefixes: -exec covers -execdir)
_FLAGGED = {"sed": (("-i", "--in-place"), "edits a file in place"),
            "logcat": (("-c", "--clear", "-G", "-P"), "clears or resizes the log"),
            "find": (("-delete", "-exec", "-ok", "-fprint", "-fls"), "deletes files or runs a command")}


def _inner_line(name: str, args: list[str]) -> str | None:
    """The command line that sh -c, su, run-as or eval runs; None for an interactive shell or a script."""
    if name == "eval":
        return " ".join(args)
    if name == "run-as":  # run-as PACKAGE [--user N] [COMMAND [ARG...]]
        rest = args[3:] if args[1:2] == ["--user"] else args[1:]
        return shlex.join(rest) if rest else None
    # sh [OPTIONS] -c LINE; su [OPTIONS] -c LINE... (Magisk joins what follows); su [UID|root] [COMMAND...]
    k = next((i for i, a in enumerate(args) if not (a.startswith("-") or (
        name == "su" and (a.isdigit() or a in ("root", "shell", "system"))))), len(args))
    if "-c" in args[:k]:
        i = args.index("-c") + 1
        return (args[i] if name in _SHELLS else " ".join(args[i:])) if i < len(args) else None
    return shlex.join(args[k:]) if name == "su" and k < len(args) else None


def _positional(args: Sequence[str], valued: frozenset[str] = frozenset()) -> list[str]:
    out, skip = [], False
    for a in args:
        if not skip and not (a.startswith("-") and a != "-"):
            out.append(a)
        skip = not skip and a in valued
    return out


def _after(args: list[str], flag: str) -> str:
    return args[args.index(flag) + 1] if flag in args[:-1] else ""


def _path(path: str) -> str:
    return _SDCARD.sub("/sdcard", posixpath.normpath(path)) if path.startswith("/") else path


def _subcommand(name: str, args: list[str], ctx: _Context) -> _Part:
    """A program whose sub-command decides: a few read, set up typing or open the shade; the rest change."""
    pos = _positional(args, frozenset({"--user", "-d"}))
    sub = pos[0] if pos else ""
    if name == "ime" and sub in ("set", "enable", "disable", "reset"):
        return ("gui_input", f"ime {sub}: switches the keyboard the agent types with (ADBKeyboard setup)")
    if name.endswith("statusbar") and sub in ("expand-notifications", "expand-settings", "collapse"):
        return ("navigation", f"{name} {sub}: opens or closes the notification shade")
    reads, change = _SUBCOMMANDS[{"package": "pm"}.get(name.split()[-1], name.split()[-1])]
    no_value = name == "wm" and sub in ("size", "density") and len(pos) == 1
    if sub in reads or sub.startswith(("get", "list", "query-")) or no_value:
        return ("read", f"{name} {sub}: reads only")
    return ("state_change", f"{name} {sub}: {change}")


def _capture(name: str, args: list[str], ctx: _Context) -> _Part:
    files = _positional(args, frozenset({"-d", "--size", "--bit-rate", "--time-limit", "--display-id"}))
    if name == "uiautomator" and files[:1] != ["dump"]:
        return ("state_change", f"uiautomator {' '.join(files[:1])}: runs test code")
    if name == "uiautomator":
        files = files[1:] or ["/sdcard/window_dump.xml"]
    if files and not re.fullmatch(r"/sdcard/[^/]+|/data/local/tmp/.+", _path(files[-1])):
        # agent programs capture to /sdcard/NAME; in Download, DCIM or app data it overwrites user files
        return ("state_change", f"{name}: writes over {files[-1]}, not in /sdcard/ or /data/local/tmp/")
    if files:
        ctx.earlier.add(_path(files[-1]))
    return ("capture", f"{name}: captures the screen" + (f" to {files[-1]}" if files else ""))


def _rm(name: str, args: list[str], ctx: _Context) -> _Part:
    targets = [_path(t) for t in _positional(args)]
    if targets and all(t in ctx.earlier for t in targets):
        return ("capture", "rm: removes its own capture")
    if targets and all(t in ctx.anywhere for t in targets):
        return ("capture", "rm: clears the path of its own capture")
    return ("state_change", "rm: deletes files")


def _am(name: str, args: list[str], ctx: _Context) -> _Part:
    return classify_am(name, args, ctx.launchers)


def _cmd(name: str, args: list[str], ctx: _Context) -> _Part:
    service, rest = (args[0] if args else ""), args[1:]
    if service == "activity":
        return _am("cmd activity", rest, ctx)
    if service == "input":
        return _input("cmd input", rest, ctx)
    if service in ("package", "settings", "statusbar", "appops", "device_config"):
        return _subcommand(f"cmd {service}", rest, ctx)
    return ("state_change", f"cmd {service}: a service command, counted as a change")


def _input(name: str, args: list[str], ctx: _Context) -> _Part:
    sub = "" if name == "sendevent" else " ".join(_positional(args, frozenset({"-d"}))[:1])
    return ("gui_input", f"{name} {sub}: GUI input, as a user would")


def _monkey(name: str, args: list[str], ctx: _Context) -> _Part:
    if "-p" in args and args[-1:] == ["1"]:
        return ("navigation", f"monkey -p {_after(args, '-p')}: launches the app")
    return ("gui_input", "monkey: injects random GUI events")


def _dumpsys(name: str, args: list[str], ctx: _Context) -> _Part:
    service = next((a for a in args if not a.startswith("-")), "")
    rest = args[args.index(service) + 1:] if service else []
    if (service == "battery" and rest[:1] in (["set"], ["unplug"], ["reset"])) or (
            service == "deviceidle" and rest and rest[0] != "get" and rest != ["whitelist"]):
        return ("state_change", f"dumpsys {service} {rest[0]}: changes {service} state")
    return ("read", f"dumpsys {service}: reads service state")


def _date(name: str, args: list[str], ctx: _Context) -> _Part:
    for a in _positional(args, frozenset({"-d", "-D", "-r"})) + [a for a in args if a in ("-s", "--set")]:
        if not a.startswith("+"):
            return ("state_change", f"date {a}: sets the clock")
    return ("read", "date: prints the time")


def _sqlite3(name: str, args: list[str], ctx: _Context) -> _Part:
    """Reads pass (SELECT, PRAGMA without =, .tables/.schema/.dump); any writing statement or other
    dot-command is a change, and so is SQL that is not on the command line (it comes from stdin)."""
    positional = _positional(args, frozenset({"-cmd", "-separator", "-newline", "-init"}))
    sql = [_after(args, "-cmd"), *positional[1:]]
    if not any(sql):
        return ("unknown", "sqlite3: no SQL on the command line (reads stdin), counted as a change")
    text = re.sub(r"'(?:[^']|'')*'|\"(?:[^\"]|\"\")*\"", "''", "\n".join(sql))  # no keywords in literals
    for statement in (s.strip() for s in re.split(r"[;\n]", text)):
        if statement.startswith(".") and statement.split()[0].lower() not in _DOT_READS:
            return ("state_change", f"sqlite3 {statement.split()[0]}: a dot-command that writes or runs")
        words = [w.upper() for w, call in re.findall(r"([A-Za-z_]\w*)(\s*\()?", statement) if not call]
        bad = [w for w in words if w in _SQL_WRITES] or [w for w in words[:1] if w not in _SQL_READS]
        if not statement.startswith(".") and (bad or (words[:1] == ["PRAGMA"] and "=" in statement)):
            return ("state_change", f"sqlite3: {(bad or words)[0]} is not a read-only statement")
    return ("read", "sqlite3: only reads (SELECT, PRAGMA, .tables, .schema, .dump)")


_SQL_WRITES = frozenset({"INSERT", "UPDATE", "DELETE", "REPLACE", "CREATE", "DROP", "ALTER", "ATTACH",
                         "VACUUM", "REINDEX", "ANALYZE"})
_SQL_READS = frozenset({"SELECT", "WITH", "EXPLAIN", "VALUES", "PRAGMA", "BEGIN", "COMMIT", "END",
                        "ROLLBACK"})
_DOT_READS = frozenset({".tables", ".schema", ".dump", ".indexes", ".indices", ".headers", ".mode",
                        ".separator", ".help", ".databases", ".show", ".width", ".nullvalue", ".fullschema",
                        ".dbinfo", ".print", ".echo", ".quit", ".exit"})
_HANDLERS: dict[str, _Handler] = {
    "screencap": _capture, "screenrecord": _capture, "uiautomator": _capture, "rm": _rm, "am": _am,
    "cmd": _cmd, "input": _input, "sendevent": _input, "monkey": _monkey, "dumpsys": _dumpsys, "date": _date,
    "sqlite3": _sqlite3}
