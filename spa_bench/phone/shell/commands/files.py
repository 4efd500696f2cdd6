"""File commands (toybox style) on the jailed VirtualFS: ls, cat, rm, mkdir, mv, cp, touch, stat, md5sum,
chmod, find, basename, dirname.

Error lines are `cmd: path: reason` like toybox; every path goes through VirtualFS, which refuses
anything that would leave the phone's data dir. The roots of the phone's layout (/, /data, /sdcard,
...) cannot be removed: on a real phone the shell user gets "Permission denied" there too.
"""

from __future__ import annotations

import hashlib
import os
import posixpath
import stat as stat_module
import time
from collections.abc import Callable

from spa_bench.phone.shell.context import CommandContext, CommandTable, parse_options
from spa_bench.phone.vfs import STANDARD_DIRS, VfsError, VStat

TABLE = CommandTable()
command = TABLE.command

PROTECTED = frozenset({"/", "/data", "/data/data", "/data/local", "/data/local/tmp", "/data/system",
                       "/data/user_de", "/data/user_de/0", "/system", "/system/bin", "/system/app",
                       "/system/priv-app", "/sdcard", "/storage", "/dev", "/proc"})


def is_protected(path: str) -> bool:
    """The phone's layout roots and the ancestors of its standard directories."""
    if path in PROTECTED:
        return True
    return any(d == path or d.startswith(path + "/") for d in STANDARD_DIRS if path.count("/") < 2)


def owner_of(path: str) -> tuple[str, str]:
    if path == "/sdcard" or path.startswith("/sdcard/"):
        return "root", "everybody"
    if path.startswith("/data/local/tmp"):
        return "shell", "shell"
    if path.startswith("/data"):
        return "system", "system"
    return "root", "root"


def _fmt_time(mtime: int, seconds: bool = False) -> str:
    return time.strftime("%Y-%m-%d %H:%M:%S" if seconds else "%Y-%m-%d %H:%M", time.localtime(mtime))


def _human(size: int) -> str:
    value = float(size)
    for unit in ("", "K", "M", "G", "T"):
        if value < 1024 or unit == "T":
            return f"{int(value)}{unit}" if unit == "" or value >= 10 else f"{value:.1f}{unit}"
        value /= 1024
    return str(size)


# -- ls -------------------------------------------------------------------------------------------

def _long_lines(entries: list[tuple[str, str, VStat]], human: bool) -> list[str]:
    rows = []
    for shown, path, st in entries:
        user, group = owner_of(path)
        size = _human(st.size) if human else str(st.size)
        rows.append((stat_module.filemode(st.mode), "2" if st.is_dir else "1", user, group, size,
                     _fmt_time(st.mtime), shown))
    widths = [max((len(r[i]) for r in rows), default=0) for i in range(5)]
    return [f"{r[0]} {r[1]:>{widths[1]}} {r[2]:<{widths[2]}} {r[3]:<{widths[3]}} {r[4]:>{widths[4]}} "
            f"{r[5]} {r[6]}" for r in rows]


@command("ls")
def ls(args: list[str], ctx: CommandContext) -> int:
    opts = parse_options(args, flags="laA1RdhtrSsFpnCx")
    fs = ctx.fs
    operands = opts.args or ["."]
    code = 0
    files: list[tuple[str, str, VStat]] = []
    dirs: list[tuple[str, str]] = []
    for name in operands:
        path = ctx.path(name)
        try:
            st = fs.stat(path)
        except VfsError:
            ctx.err(f"ls: {name}: No such file or directory\n")
            code = 1
            continue
        if st.is_dir and "d" not in opts:
            dirs.append((name, path))
        else:
            files.append((name, path, st))
    blocks: list[str] = []
    if files:
        blocks.append(_render(files, opts.flags))
    show_header = len(operands) > 1 or "R" in opts
    queue = list(dirs)
    while queue:
        shown, path = queue.pop(0)
        try:
            names = fs.listdir(path)
        except VfsError as exc:
            ctx.err(f"ls: {exc}\n")
            code = 1
            continue
        entries: list[tuple[str, str, VStat]] = []
        if "a" in opts:
            for dot in (".", ".."):
                entries.append((dot, path, fs.stat(posixpath.normpath(posixpath.join(path, dot)))))
        sub: list[tuple[str, str]] = []
        for n in names:
            if n.startswith(".") and not ({"a", "A"} & opts.flags):
                continue
            child = posixpath.join(path, n)
            try:
                st = fs.stat(child)
            except VfsError:
                continue
            entries.append((n, child, st))
            if st.is_dir and "R" in opts:
                sub.append((posixpath.join(shown, n) if shown != "/" else "/" + n, child))
        body = _render(entries, opts.flags, total="l" in opts or "s" in opts)
        header = f"{shown}:\n" if show_header else ""
        blocks.append(header + body)
        queue = sub + queue
    ctx.out("\n".join(b for b in blocks if b or show_header))
    return code


def _render(entries: list[tuple[str, str, VStat]], flags: frozenset[str], total: bool = False) -> str:
    if "t" in flags:
        entries = sorted(entries, key=lambda e: -e[2].mtime)
    elif "S" in flags:
        entries = sorted(entries, key=lambda e: -e[2].size)
    if "r" in flags:
        entries = list(reversed(entries))
    if "F" in flags or "p" in flags:
        entries = [(n + "/" if st.is_dir and n not in (".", "..") else n, p, st) for n, p, st in entries]
    if "l" in flags or "n" in flags:
        lines = _long_lines(entries, "h" in flags)
        if total:
            lines.insert(0, f"total {sum(-(-e[2].size // 4096) * 4 for e in entries)}")
    else:
        lines = [e[0] for e in entries]
    return "".join(line + "\n" for line in lines)


# -- reading --------------------------------------------------------------------------------------

def read_inputs(args: list[str], ctx: CommandContext) -> tuple[list[tuple[str, bytes]], int]:
    """The contents of each file argument (`-` or none = stdin), reporting unreadable ones."""
    results: list[tuple[str, bytes]] = []
    code = 0
    for name in args or ["-"]:
        if name == "-":
            results.append(("-", ctx.stdin))
            continue
        if ctx.path(name) == "/dev/null":
            results.append((name, b""))
            continue
        try:
            results.append((name, ctx.fs.read_bytes(name, ctx.cwd)))
        except VfsError as exc:
            ctx.err(f"{ctx.name}: {exc}\n")
            code = 1
    return results, code


@command("cat")
def cat(args: list[str], ctx: CommandContext) -> int:
    opts = parse_options(args, flags="uvtenAs")
    inputs, code = read_inputs(opts.args, ctx)
    for _, data in inputs:
        ctx.out(data)
    return code


def _digest(algorithm: Callable[[bytes], hashlib._Hash]) -> Callable[[list[str], CommandContext], int]:
    def run(args: list[str], ctx: CommandContext) -> int:
        opts = parse_options(args, flags="bs")
        inputs, code = read_inputs(opts.args, ctx)
        for name, data in inputs:
            digest = algorithm(data).hexdigest()
            ctx.out(digest + "\n" if "b" in opts else f"{digest}  {name}\n")
        return code

    return run


TABLE.commands["md5sum"] = _digest(hashlib.md5)
TABLE.commands["sha1sum"] = _digest(hashlib.sha1)
TABLE.commands["sha256sum"] = _digest(hashlib.sha256)


# -- changing -------------------------------------------------------------------------------------

@command("rm")
def rm(args: list[str], ctx: CommandContext) -> int:
    opts = parse_options(args, flags="frRivd")
    code = 0
    if not opts.args and "f" not in opts:
        return ctx.fail("Needs 1 argument")
    for name in opts.args:
        path = ctx.path(name)
        try:
            ctx.fs.host_path(path)
        except VfsError:
            protected = True
        else:
            protected = is_protected(path)
        if protected:
            ctx.err(f"rm: {name}: Permission denied\n")
            code = 1
            continue
        if not ctx.fs.exists(path):
            if "f" not in opts:
                ctx.err(f"rm: {name}: No such file or directory\n")
                code = 1
            continue
        try:
            ctx.fs.remove(path, recursive=bool({"r", "R"} & opts.flags) or
                          ("d" in opts and not ctx.fs.listdir(path)))
        except VfsError as exc:
            ctx.err(f"rm: {name}: {str(exc).rsplit(': ', 1)[-1]}\n")
            code = 1
    return code


@command("mkdir")
def mkdir(args: list[str], ctx: CommandContext) -> int:
    opts = parse_options(args, flags="pv", valued="mZ")
    if not opts.args:
        return ctx.fail("Needs 1 argument")
    code = 0
    for name in opts.args:
        try:
            ctx.fs.mkdir(name, ctx.cwd, parents="p" in opts)
        except VfsError as exc:
            ctx.err(f"mkdir: {exc}\n")
            code = 1
    return code


def _transfer(args: list[str], ctx: CommandContext, move: bool) -> int:
    opts = parse_options(args, flags="frRapdnivLPHTu" if not move else "fintvT")
    if len(opts.args) < 2:
        return ctx.fail("Needs 2 arguments")
    *sources, dest = opts.args
    if len(sources) > 1 and not ctx.fs.is_dir(dest, ctx.cwd):
        return ctx.fail(f"'{dest}' not directory")
    code = 0
    for src in sources:
        src_path = ctx.path(src)
        if move and is_protected(src_path):
            ctx.err(f"mv: {src}: Permission denied\n")
            code = 1
            continue
        try:
            if move:
                ctx.fs.move(src, dest, ctx.cwd)
            else:
                ctx.fs.copy(src, dest, ctx.cwd, recursive=bool({"r", "R", "a"} & opts.flags))
        except VfsError as exc:
            ctx.err(f"{ctx.name}: {exc}\n")
            code = 1
        except OSError as exc:
            ctx.err(f"{ctx.name}: {src}: {exc.strerror or exc}\n")
            code = 1
    return code


@command("mv")
def mv(args: list[str], ctx: CommandContext) -> int:
    return _transfer(args, ctx, move=True)


@command("cp")
def cp(args: list[str], ctx: CommandContext) -> int:
    return _transfer(args, ctx, move=False)


@command("touch")
def touch(args: list[str], ctx: CommandContext) -> int:
    opts = parse_options(args, flags="acmh", valued="dtr")
    when: float | None = None
    if "d" in opts:
        when = _touch_date(opts.values["d"])
        if when is None:
            ctx.err(f"touch: bad date '{opts.values['d']}'\n")
            return 1
    code = 0
    for name in opts.args:
        try:
            if ctx.fs.exists(name, ctx.cwd):
                host = ctx.fs.host_path(name, ctx.cwd)
                os.utime(host, None if when is None else (when, when))
            elif "c" not in opts:
                ctx.fs.write_bytes(name, b"", ctx.cwd, append=True)
        except VfsError as exc:
            ctx.err(f"touch: {exc}\n")
            code = 1
    return code


def _touch_date(text: str) -> float | None:
    """toybox's `touch -d` dates: `@SECONDS[.FRACTION]` or `YYYY-MM-DD[T ]hh:mm[:ss][Z]` (the phone's
    zone is UTC)."""
    from datetime import UTC, datetime

    if text.startswith("@"):
        try:
            return float(text[1:])
        except ValueError:
            return None
    try:
        return datetime.fromisoformat(text.removesuffix("Z")).replace(tzinfo=UTC).timestamp()
    except ValueError:
        return None


@command("chmod", "chown", "chgrp", "chcon", "restorecon")
def chmod(args: list[str], ctx: CommandContext) -> int:
    """Permissions are not modelled: succeed for existing files, like a root-ish shell would."""
    opts = parse_options(args, flags="RfhvLHP")
    names = opts.args[1:] if ctx.name != "restorecon" else opts.args
    code = 0
    for name in names:
        if not ctx.fs.exists(name, ctx.cwd):
            ctx.err(f"{ctx.name}: {name}: No such file or directory\n")
            code = 1
    return code


# -- stat / find / names --------------------------------------------------------------------------

def _file_type(st: VStat) -> str:
    if st.is_dir:
        return "directory"
    return "regular file" if st.size else "regular empty file"


@command("stat")
def stat_(args: list[str], ctx: CommandContext) -> int:
    opts = parse_options(args, flags="fLt", valued="c")
    code = 0
    for name in opts.args:
        path = ctx.path(name)
        try:
            st = ctx.fs.stat(path)
        except VfsError as exc:
            ctx.err(f"stat: {exc}\n")
            code = 1
            continue
        user, group = owner_of(path)
        fields = {"n": name, "N": f"'{name}'", "s": str(st.size), "Y": str(st.mtime), "X": str(st.mtime),
                  "Z": str(st.mtime), "y": _fmt_time(st.mtime, True) + ".000000000 +0000",
                  "a": f"{stat_module.S_IMODE(st.mode):o}", "A": stat_module.filemode(st.mode),
                  "F": _file_type(st), "U": user, "G": group, "u": "0", "g": "0", "i": "0",
                  "b": str(-(-st.size // 512)), "B": "512", "h": "2" if st.is_dir else "1", "%": "%"}
        if "c" in opts:
            fmt = opts.values["c"]
            out, i = [], 0
            while i < len(fmt):
                if fmt[i] == "%" and i + 1 < len(fmt):
                    out.append(fields.get(fmt[i + 1], "?"))
                    i += 2
                else:
                    out.append(fmt[i])
                    i += 1
            ctx.out("".join(out) + "\n")
            continue
        when = fields["y"]
        ctx.out(f"  File: {name}\n  Size: {st.size}\t Blocks: {fields['b']}\t IO Blocks: 4096\t"
                f"{fields['F']}\nDevice: fd00h/64768d\t Inode: 0\t Links: {fields['h']}\n"
                f"Access: (0{fields['a']}/{fields['A']})\tUid: (    0/{user:>8})\t"
                f"Gid: (    0/{group:>8})\nAccess: {when}\nModify: {when}\nChange: {when}\n")
    return code


@command("find")
def find(args: list[str], ctx: CommandContext) -> int:
    import fnmatch

    roots = []
    while args and not args[0].startswith("-") and args[0] not in ("!", "("):
        roots.append(args.pop(0))
    name_pat: tuple[str, bool] | None = None
    kind = None
    maxdepth, mindepth = 1 << 30, 0
    i = 0
    while i < len(args):
        a = args[i]
        val = args[i + 1] if i + 1 < len(args) else None
        if a in ("-name", "-iname", "-type", "-maxdepth", "-mindepth") and val is None:
            return ctx.fail(f"'{a}' needs 1 arg")
        if a in ("-name", "-iname") and val is not None:
            name_pat = (val, a == "-iname")
        elif a == "-type" and val is not None:
            kind = val
        elif a == "-maxdepth" and val is not None:
            maxdepth = int(val)
        elif a == "-mindepth" and val is not None:
            mindepth = int(val)
        elif a == "-print":
            i += 1
            continue
        else:
            return ctx.fail(f"bad arg '{a}'")
        i += 2
    code = 0

    def visit(shown: str, path: str, depth: int) -> None:
        nonlocal code
        try:
            st = ctx.fs.stat(path)
        except VfsError as exc:
            ctx.err(f"find: {exc}\n")
            code = 1
            return
        base = posixpath.basename(path) or "/"
        ok = depth >= mindepth
        if name_pat is not None:
            pat, fold = name_pat
            ok = ok and fnmatch.fnmatchcase(base.lower() if fold else base, pat.lower() if fold else pat)
        if kind is not None:
            ok = ok and (kind == "d") == st.is_dir and kind in ("d", "f")
        if ok:
            ctx.out(shown + "\n")
        if st.is_dir and depth < maxdepth:
            for n in ctx.fs.listdir(path):
                visit(posixpath.join(shown, n), posixpath.join(path, n), depth + 1)

    for root in roots or ["."]:
        visit(root, ctx.path(root), 0)
    return code


@command("basename")
def basename(args: list[str], ctx: CommandContext) -> int:
    if not args:
        return ctx.fail("Needs 1 argument")
    base = posixpath.basename(args[0].rstrip("/")) or "/"
    if len(args) > 1 and base.endswith(args[1]) and base != args[1]:
        base = base[: -len(args[1])]
    ctx.out(base + "\n")
    return 0


@command("dirname")
def dirname(args: list[str], ctx: CommandContext) -> int:
    if not args:
        return ctx.fail("Needs 1 argument")
    ctx.out((posixpath.dirname(args[0].rstrip("/")) or ".") + "\n")
    return 0
