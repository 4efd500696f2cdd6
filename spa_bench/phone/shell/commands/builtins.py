"""Shell builtins and small POSIX utilities: cd, pwd, exit, export, sh, toybox, which, test, echo, printf.

Their behaviour follows mksh (Android's /system/bin/sh) where the shell implements them itself (echo
interprets backslash escapes by default) and toybox elsewhere.
"""

from __future__ import annotations

import re

from spa_bench.phone.shell.context import (
    NOT_FOUND,
    SHELL_NAME,
    CommandContext,
    CommandTable,
    ShellExit,
)
from spa_bench.phone.vfs import VfsError

TABLE = CommandTable()
command = TABLE.command

# Commands real toybox provides; `toybox` with no argument lists the ones we implement among them.
_APPLETS = ("base64 basename cat chmod chown cp date dirname echo env false find grep head id log ls md5sum "
            "mkdir mv printf ps pwd rm sleep stat tail test touch true uname wc which whoami pidof setprop "
            "getprop sort uniq cut sha1sum sha256sum")
TOYBOX_APPLETS = frozenset(_APPLETS.split())


@command("cd")
def cd(args: list[str], ctx: CommandContext) -> int:
    target = args[0] if args else ctx.state.variables.get("HOME", "/")
    if target == "-":
        target = ctx.state.variables.get("OLDPWD", ctx.cwd)
    path = ctx.path(target)
    if not ctx.fs.can_enter(path):
        ctx.err(f"{SHELL_NAME}: cd: {target}: Permission denied\n")
        return 2
    if not ctx.fs.exists(path):
        ctx.err(f"{SHELL_NAME}: cd: {target}: No such file or directory\n")
        return 2
    if not ctx.fs.is_dir(path):
        ctx.err(f"{SHELL_NAME}: cd: {target}: Not a directory\n")
        return 2
    ctx.state.variables["OLDPWD"] = ctx.cwd
    ctx.state.cwd = path
    ctx.state.variables["PWD"] = path
    return 0


@command("pwd")
def pwd(args: list[str], ctx: CommandContext) -> int:
    ctx.out(ctx.cwd + "\n")
    return 0


@command("exit")
def exit_(args: list[str], ctx: CommandContext) -> int:
    code = ctx.state.status
    if args:
        try:
            code = int(args[0]) & 0xFF
        except ValueError:
            ctx.err(f"{SHELL_NAME}: exit: {args[0]}: bad number\n")
            code = 1
    raise ShellExit(code)


@command("export")
def export(args: list[str], ctx: CommandContext) -> int:
    if not args:
        for name in sorted(ctx.state.exported):
            ctx.out(f"export {name}={_shell_quote(ctx.state.variables.get(name, ''))}\n")
        return 0
    for a in args:
        name, sep, value = a.partition("=")
        if sep:
            ctx.state.variables[name] = value
        ctx.state.exported.add(name)
    return 0


@command("unset")
def unset(args: list[str], ctx: CommandContext) -> int:
    for name in args:
        if name in ("-v", "-f"):
            continue
        ctx.state.variables.pop(name, None)
        ctx.state.exported.discard(name)
    return 0


@command("sh", "mksh", "bash")
def sh(args: list[str], ctx: CommandContext) -> int:
    """`sh -c 'cmd'` runs a child shell; `sh` alone reads its script from stdin."""
    if args and args[0] == "-c":
        if len(args) < 2:
            ctx.err(f"{SHELL_NAME}: -c: option requires an argument\n")
            return 1
        return ctx.shell.run_nested(args[1], ctx, args[3:], args[2] if len(args) > 2 else None)
    if args:
        try:
            source = ctx.fs.read_bytes(args[0], ctx.cwd).decode("utf-8", errors="replace")
        except VfsError:
            ctx.err(f"{SHELL_NAME}: {args[0]}: No such file or directory\n")
            return 127
        return ctx.shell.run_nested(source, ctx, args[1:], args[0])  # $0 the script, $1... its arguments
    stdin, ctx.stdin = ctx.stdin, b""
    return ctx.shell.run_nested(stdin.decode("utf-8", errors="replace"), ctx)


@command("toybox", "busybox")
def toybox(args: list[str], ctx: CommandContext) -> int:
    if not args:
        ctx.out(" ".join(sorted(a for a in TOYBOX_APPLETS if ctx.shell.has_command(a))) + "\n")
        return 0
    if args[0] not in TOYBOX_APPLETS or not ctx.shell.has_command(args[0]):
        ctx.err(f"{ctx.name}: Unknown command {args[0]}\n" if ctx.name == "toybox"
                else f"{ctx.name}: applet not found\n")
        return 1
    return ctx.shell.run_argv(args, ctx)


@command("which")
def which(args: list[str], ctx: CommandContext) -> int:
    code = 0
    for name in (a for a in args if not a.startswith("-")):
        if ctx.shell.has_command(name) and name not in ("cd", "exit", "export", "unset"):
            ctx.out(f"/system/bin/{name}\n")
        else:
            code = 1
    return code


@command("command", "type")
def command_v(args: list[str], ctx: CommandContext) -> int:
    """`command -v X` / `type X`: where a command would come from."""
    names = [a for a in args if not a.startswith("-")]
    if ctx.name == "command" and "-v" not in args:
        return ctx.shell.run_argv(names, ctx) if names else 0
    code = 0
    for name in names:
        if ctx.shell.has_command(name):
            ctx.out(f"/system/bin/{name}\n" if ctx.name == "command" else f"{name} is /system/bin/{name}\n")
        else:
            if ctx.name == "type":
                ctx.err(f"{name} {NOT_FOUND}\n")
            code = 1
    return code


@command("true", ":")
def true(args: list[str], ctx: CommandContext) -> int:
    return 0


@command("false")
def false(args: list[str], ctx: CommandContext) -> int:
    return 1


# -- test / [ -------------------------------------------------------------------------------------

class _TestError(Exception):
    pass


def _unary(op: str, arg: str, ctx: CommandContext) -> bool:
    if op == "-z":
        return arg == ""
    if op == "-n":
        return arg != ""
    fs = ctx.fs
    if op in ("-e", "-a"):
        return fs.exists(arg, ctx.cwd)
    if op == "-d":
        return fs.is_dir(arg, ctx.cwd)
    if op == "-f":
        return fs.exists(arg, ctx.cwd) and not fs.is_dir(arg, ctx.cwd)
    if op == "-s":
        try:
            return fs.stat(arg, ctx.cwd).size > 0
        except VfsError:
            return False
    if op in ("-r", "-w", "-x"):
        return fs.exists(arg, ctx.cwd)
    if op in ("-L", "-h", "-p", "-S", "-b", "-c", "-t"):
        return False
    raise _TestError(f"{op}: unknown operand")


_INT_OPS = {"-eq": int.__eq__, "-ne": int.__ne__, "-lt": int.__lt__, "-le": int.__le__,
            "-gt": int.__gt__, "-ge": int.__ge__}
_UNARY = ("-z", "-n", "-e", "-a", "-d", "-f", "-s", "-r", "-w", "-x", "-L", "-h", "-p", "-S", "-b",
          "-c", "-t")


def _evaluate(tokens: list[str], ctx: CommandContext) -> bool:
    for joiner in ("-o", "-a"):  # lowest precedence first
        for i in range(len(tokens) - 1, 0, -1):
            if tokens[i] == joiner and 0 < i < len(tokens) - 1:
                lhs, rhs = _evaluate(tokens[:i], ctx), _evaluate(tokens[i + 1:], ctx)
                return (lhs or rhs) if joiner == "-o" else (lhs and rhs)
    n = len(tokens)
    if n == 0:
        return False
    if tokens[0] == "!" and n > 1:
        return not _evaluate(tokens[1:], ctx)
    if tokens[0] == "(" and tokens[-1] == ")" and n > 2:
        return _evaluate(tokens[1:-1], ctx)
    if n == 1:
        return tokens[0] != ""
    if n == 2 and tokens[0] in _UNARY:
        return _unary(tokens[0], tokens[1], ctx)
    if n == 3:
        left, op, right = tokens
        if op in ("=", "=="):
            return left == right
        if op == "!=":
            return left != right
        if op in _INT_OPS:
            try:
                return bool(_INT_OPS[op](int(left), int(right)))
            except ValueError:
                bad = right if _is_int(left) else left
                raise _TestError(f"{bad}: bad number") from None
    raise _TestError(f"{tokens[0]}: unknown operand")


def _is_int(text: str) -> bool:
    return re.fullmatch(r"\s*-?\d+\s*", text) is not None


@command("test", "[")
def test(args: list[str], ctx: CommandContext) -> int:
    if ctx.name == "[":
        if not args or args[-1] != "]":
            ctx.err(f"{SHELL_NAME}: [: missing ]\n")
            return 2
        args = args[:-1]
    try:
        return 0 if _evaluate(args, ctx) else 1
    except _TestError as exc:
        ctx.err(f"{SHELL_NAME}: {ctx.name}: {exc}\n")
        return 2


# -- echo / printf --------------------------------------------------------------------------------

_ESCAPES = {"a": "\a", "b": "\b", "e": "\x1b", "f": "\f", "n": "\n", "r": "\r", "t": "\t",
            "v": "\v", "\\": "\\"}


def unescape(text: str) -> tuple[str, bool]:
    """Backslash escapes as mksh's echo/print handle them; returns (text, stop) where `\\c` stops."""
    out: list[str] = []
    i = 0
    while i < len(text):
        c = text[i]
        if c != "\\" or i + 1 >= len(text):
            out.append(c)
            i += 1
            continue
        nxt = text[i + 1]
        if nxt == "c":
            return "".join(out), True
        if nxt in _ESCAPES:
            out.append(_ESCAPES[nxt])
            i += 2
        elif nxt == "0" or nxt in "1234567":
            m = re.match(r"0?[0-7]{0,3}", text[i + 1:])
            digits = m.group(0) if m else ""
            out.append(_byte_char(int(digits.lstrip("0") or "0", 8) & 0xFF))
            i += 1 + max(len(digits), 1)
        elif nxt == "x":
            m = re.match(r"[0-9a-fA-F]{1,2}", text[i + 2:])
            if m:
                out.append(_byte_char(int(m.group(0), 16)))
                i += 2 + len(m.group(0))
            else:
                out.append("\\x")
                i += 2
        else:
            out.append("\\" + nxt)
            i += 2
    return "".join(out), False


@command("echo")
def echo(args: list[str], ctx: CommandContext) -> int:
    newline, escapes = True, True
    while args and re.fullmatch(r"-[neE]+", args[0]):
        for flag in args[0][1:]:
            if flag == "n":
                newline = False
            else:
                escapes = flag == "e"
        args = args[1:]
    text = " ".join(args)
    if escapes:
        text, stop = unescape(text)
        newline = newline and not stop
    ctx.out(_latin_bytes(text) + (b"\n" if newline else b""))
    return 0


def _byte_char(value: int) -> str:
    """A raw byte from an octal/hex escape: bytes >= 0x80 ride as surrogate escapes so that they are
    written as themselves, not UTF-8 encoded like ordinary text."""
    return chr(value) if value < 0x80 else chr(0xDC00 + value)


def _latin_bytes(text: str) -> bytes:
    """Encode text with ordinary characters as UTF-8 and escaped raw bytes as themselves."""
    return text.encode("utf-8", errors="surrogateescape")


_FORMAT_RE = re.compile(r"%([-+ #0]*)(\d+|\*)?(?:\.(\d+|\*))?([diouxXeEfgGcsb%])")


@command("printf")
def printf(args: list[str], ctx: CommandContext) -> int:
    if not args:
        return ctx.fail("Needs 1 argument")
    fmt = args[0]
    values = args[1:]
    code = 0
    consumed = 0

    def conv(m: re.Match[str]) -> str:
        nonlocal consumed, code
        flags, width, precision, kind = m.groups()
        if kind == "%":
            return "%"
        value = values[consumed] if consumed < len(values) else ""
        consumed += 1
        spec = "%" + flags + (width or "") + (f".{precision}" if precision else "")
        if kind in "diouxX":
            try:
                number = int(value, 0) if value else 0
            except ValueError:
                ctx.err(f"printf: invalid number '{value}'\n")
                number, code = 0, 1
            return (spec + ("d" if kind in "iu" else kind)) % number
        if kind in "eEfgG":
            try:
                return (spec + kind) % float(value or 0)
            except ValueError:
                ctx.err(f"printf: invalid number '{value}'\n")
                code = 1
                return (spec + kind) % 0.0
        if kind == "c":
            return (spec + "s") % value[:1]
        if kind == "b":
            return (spec + "s") % unescape(value)[0]
        return (spec + "s") % value

    while True:
        consumed = 0
        pieces: list[str] = []
        pos = 0
        for m in _FORMAT_RE.finditer(fmt):
            pieces.append(unescape(fmt[pos:m.start()])[0])
            pieces.append(conv(m))
            pos = m.end()
        pieces.append(unescape(fmt[pos:])[0])
        ctx.out(_latin_bytes("".join(pieces)))
        values = values[consumed:]
        if not values or consumed == 0:
            return code


def _shell_quote(value: str) -> str:
    return value if re.fullmatch(r"[A-Za-z0-9_./:=-]*", value) else "'" + value.replace("'", "'\\''") + "'"
