"""Text filters (toybox style): grep, head, tail, wc, base64, sort, uniq, cut.

They read files through the VFS or stdin (the previous command of a pipe), so `cat f | grep x` and
`echo x | base64 -d` work as on a phone.
"""

from __future__ import annotations

import base64 as b64
import binascii
import re

from spa_bench.phone.shell.commands.files import read_inputs
from spa_bench.phone.shell.context import CommandContext, CommandTable, UsageError, parse_options

TABLE = CommandTable()
command = TABLE.command


def _lines(data: bytes) -> list[bytes]:
    """Lines without their newline; a missing final newline still ends a line."""
    parts = data.split(b"\n")
    if parts and parts[-1] == b"":
        parts.pop()
    return parts


def bre_to_python(pattern: str) -> str:
    """POSIX basic regex -> Python: `\\(`, `\\)`, `\\{`, `\\}`, `\\|`, `\\+`, `\\?` are the operators and
    the bare characters are literals."""
    out: list[str] = []
    i = 0
    while i < len(pattern):
        c = pattern[i]
        if c == "\\" and i + 1 < len(pattern):
            nxt = pattern[i + 1]
            out.append(nxt if nxt in "(){}|+?" else "\\" + nxt)
            i += 2
            continue
        out.append("\\" + c if c in "(){}|+?" else c)
        i += 1
    return "".join(out)


@command("grep", "egrep", "fgrep")
def grep(args: list[str], ctx: CommandContext) -> int:
    opts = parse_options(args, flags="EFivcnloqswxhHrR", valued="em")
    patterns: list[str] = []
    rest = list(opts.args)
    if "e" in opts:
        # parse_options keeps only the last -e; collect every one by hand
        patterns = [args[i + 1] for i, a in enumerate(args[:-1]) if a == "-e"]
        patterns += [a[2:] for a in args if a.startswith("-e") and len(a) > 2]
    elif rest:
        patterns = [rest.pop(0)]
    else:
        ctx.err("grep: Needs 1 argument\n")
        return 2
    mode = "F" if "F" in opts or ctx.name == "fgrep" else "E" if "E" in opts or ctx.name == "egrep" else "G"
    flags = re.IGNORECASE if "i" in opts else 0
    compiled = []
    for p in patterns:
        source = re.escape(p) if mode == "F" else p if mode == "E" else bre_to_python(p)
        if "w" in opts:
            source = rf"(?<!\w)(?:{source})(?!\w)"
        if "x" in opts:
            source = rf"^(?:{source})$"
        try:
            compiled.append(re.compile(source.encode("utf-8"), flags))
        except re.error as exc:
            ctx.err(f"grep: bad regex '{p}': {exc}\n")
            return 2
    inputs, code = read_inputs(rest, ctx)
    many = (len(inputs) > 1 and "h" not in opts) or "H" in opts
    limit = int(opts.values["m"]) if "m" in opts else -1
    matched_any = False
    for name, data in inputs:
        count = 0
        for n, line in enumerate(_lines(data), 1):
            hits = [m for rx in compiled for m in rx.finditer(line)]
            if bool(hits) == ("v" in opts):
                continue
            matched_any = True
            count += 1
            if "q" in opts:
                return 0
            if "c" not in opts and "l" not in opts:
                prefix = (name.encode() + b":" if many else b"") + (f"{n}:".encode() if "n" in opts else b"")
                if "o" in opts and "v" not in opts:
                    for m in hits:
                        ctx.out(prefix + m.group(0) + b"\n")
                else:
                    ctx.out(prefix + line + b"\n")
            if count == limit:
                break
        if "c" in opts:
            ctx.out((f"{name}:" if many else "") + f"{count}\n")
        elif "l" in opts and count:
            ctx.out(f"{name}\n")
    if code and "s" not in opts:
        return 2
    return 0 if matched_any else 1


def _count_option(args: list[str], default: int = 10) -> tuple[list[str], str, int]:
    """head/tail accept `-n N`, `-nN`, `-N`, `-c N` and `-n +N` (tail: from line N)."""
    fixed: list[str] = []
    for a in args:
        fixed.append(f"-n{a[1:]}" if re.fullmatch(r"-\d+", a) else a)
    opts = parse_options(fixed, flags="qvF", valued="nc")
    unit = "c" if "c" in opts else "n"
    raw = opts.values.get(unit, str(default))
    try:
        count = int(raw)
    except ValueError:
        raise UsageError(f"Invalid argument '{raw}'") from None
    return opts.args, ("+" if raw.startswith("+") else "") + unit, count


@command("head")
def head(args: list[str], ctx: CommandContext) -> int:
    files, unit, count = _count_option(args)
    inputs, code = read_inputs(files, ctx)
    for n, (name, data) in enumerate(inputs):
        if len(inputs) > 1:
            ctx.out(("\n" if n else "") + f"==> {name} <==\n")
        if unit.endswith("c"):
            ctx.out(data[:count])
        else:
            lines = data.split(b"\n")
            keep = lines[:count]
            text = b"\n".join(keep)
            ctx.out(text + (b"\n" if len(keep) < len(lines) else b""))
    return code


@command("tail")
def tail(args: list[str], ctx: CommandContext) -> int:
    files, unit, count = _count_option(args)
    inputs, code = read_inputs(files, ctx)
    for n, (name, data) in enumerate(inputs):
        if len(inputs) > 1:
            ctx.out(("\n" if n else "") + f"==> {name} <==\n")
        if unit.endswith("c"):
            ctx.out(data[count - 1:] if unit.startswith("+") else data[-abs(count):] if count else b"")
            continue
        lines = _lines(data)
        keep = lines[count - 1:] if unit.startswith("+") else lines[-abs(count):] if count else []
        ctx.out(b"".join(line + b"\n" for line in keep))
    return code


@command("wc")
def wc(args: list[str], ctx: CommandContext) -> int:
    opts = parse_options(args, flags="lwcm")
    chosen = [f for f in "lwc" if f in opts] or ["l", "w", "c"]
    if "m" in opts and "c" not in chosen:
        chosen.append("m")
    inputs, code = read_inputs(opts.args, ctx)
    totals = dict.fromkeys(chosen, 0)
    for name, data in inputs:
        counts = {"l": data.count(b"\n"), "w": len(data.split()), "c": len(data),
                  "m": len(data.decode("utf-8", errors="replace"))}
        fields = [str(counts[f]) for f in chosen]
        for f in chosen:
            totals[f] += counts[f]
        width = 0 if len(chosen) == 1 else 7
        line = " ".join(v.rjust(width) for v in fields)
        ctx.out(line + (f" {name}" if name != "-" else "") + "\n")
    if len(inputs) > 1:
        ctx.out(" ".join(str(totals[f]).rjust(0 if len(chosen) == 1 else 7) for f in chosen) + " total\n")
    return code


@command("base64")
def base64(args: list[str], ctx: CommandContext) -> int:
    opts = parse_options(args, flags="di", valued="w")
    inputs, code = read_inputs(opts.args[:1], ctx)
    if code:
        return code
    data = inputs[0][1]
    if "d" in opts:
        cleaned = re.sub(rb"\s+", b"", data)
        try:
            ctx.out(b64.b64decode(cleaned + b"=" * (-len(cleaned) % 4), validate=True))
        except (binascii.Error, ValueError):
            return ctx.fail("bad input")
        return 0
    width = int(opts.values.get("w", "76"))
    encoded = b64.b64encode(data)
    if width > 0:
        encoded = b"\n".join(encoded[i:i + width] for i in range(0, len(encoded), width))
    ctx.out(encoded + b"\n" if encoded else b"")
    return 0


@command("sort")
def sort(args: list[str], ctx: CommandContext) -> int:
    opts = parse_options(args, flags="rnuf")
    inputs, code = read_inputs(opts.args, ctx)
    lines = [line for _, data in inputs for line in _lines(data)]

    def key(line: bytes) -> tuple[float, bytes]:
        m = re.match(rb"\s*(-?\d+(?:\.\d+)?)", line)
        number = float(m.group(1)) if m and "n" in opts else 0.0
        return number, line.lower() if "f" in opts else line

    lines.sort(key=key, reverse="r" in opts)
    if "u" in opts:
        lines = [line for i, line in enumerate(lines) if i == 0 or line != lines[i - 1]]
    ctx.out(b"".join(line + b"\n" for line in lines))
    return code


@command("uniq")
def uniq(args: list[str], ctx: CommandContext) -> int:
    opts = parse_options(args, flags="cdu")
    inputs, code = read_inputs(opts.args[:1], ctx)
    groups: list[list[bytes]] = []
    for _, data in inputs:
        for line in _lines(data):
            if groups and groups[-1][0] == line:
                groups[-1].append(line)
            else:
                groups.append([line])
    for g in groups:
        if ("d" in opts and len(g) < 2) or ("u" in opts and len(g) > 1):
            continue
        ctx.out((f"{len(g):7d} ".encode() if "c" in opts else b"") + g[0] + b"\n")
    return code


@command("cut")
def cut(args: list[str], ctx: CommandContext) -> int:
    opts = parse_options(args, flags="s", valued="dfc")
    spec = opts.values.get("f") or opts.values.get("c")
    if spec is None:
        return ctx.fail("Needs -f or -c")
    wanted: set[int] = set()
    for item in spec.split(","):
        lo, dash, hi = item.partition("-")
        start = int(lo) if lo else 1
        end = int(hi) if hi else (10_000 if dash else start)
        wanted.update(range(start, end + 1))
    delim = opts.values.get("d", "\t").encode()
    inputs, code = read_inputs(opts.args, ctx)
    for _, data in inputs:
        for line in _lines(data):
            if "c" in opts.values:
                text = line.decode("utf-8", errors="replace")
                ctx.out("".join(ch for i, ch in enumerate(text, 1) if i in wanted) + "\n")
                continue
            if delim not in line:
                if "s" not in opts:
                    ctx.out(line + b"\n")
                continue
            parts = line.split(delim)
            ctx.out(delim.join(p for i, p in enumerate(parts, 1) if i in wanted) + b"\n")
    return code
