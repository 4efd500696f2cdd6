"""Word expansion: parameters, command substitution, field splitting and globbing (on the VFS).

Follows POSIX order: expansions first, then unquoted results are split on whitespace, then fields with
unquoted `*`, `?` or `[` are matched against the virtual file system (a pattern that matches nothing
stays as written, as in mksh).
"""

from __future__ import annotations

import fnmatch
import posixpath
import re
from collections.abc import Callable
from dataclasses import dataclass, field

from spa_bench.phone.shell.context import ShellState
from spa_bench.phone.shell.parser import Lit, Param, Word
from spa_bench.phone.vfs import VfsError, VirtualFS

SHELL_PID = 4242  # `$$`: a fixed, plausible pid for the (virtual) shell process
_GLOB_CHARS = re.compile(r"[*?\[]")


class ExpansionError(Exception):
    """`${X?message}` on an unset variable and similar; the message follows the shell's name."""


def param_value(state: ShellState, name: str) -> str | None:
    if name == "?":
        return str(state.status)
    if name == "$":
        return str(SHELL_PID)
    if name == "#":
        return str(len(state.positional))
    if name == "0":
        return state.script_name
    if name.isdigit():
        n = int(name)
        return state.positional[n - 1] if n <= len(state.positional) else ""
    if name in ("@", "*"):
        return " ".join(state.positional)
    if name == "!":
        return "" if state.last_job is None else str(state.last_job)
    if name == "-":
        return ""
    return state.variables.get(name)


def _param(state: ShellState, p: Param) -> str:
    value = param_value(state, p.name)
    unset = value is None
    empty = unset or value == ""
    if p.op in (":-", "-") and (empty if p.op == ":-" else unset):
        return p.arg
    if p.op in (":=", "=") and (empty if p.op == ":=" else unset):
        state.variables[p.name] = p.arg
        return p.arg
    if p.op in (":+", "+"):
        return p.arg if not (empty if p.op == ":+" else unset) else ""
    if p.op in (":?", "?") and (empty if p.op == ":?" else unset):
        raise ExpansionError(f"{p.name}: {p.arg or 'parameter null or not set'}")
    return value or ""


@dataclass
class _Field:
    value: list[str] = field(default_factory=list)
    pattern: list[str] = field(default_factory=list)
    globbing: bool = False
    real: bool = False  # has quoted text or non-empty content, so it survives even when empty

    def add(self, text: str, quoted: bool) -> None:
        self.value.append(text)
        if quoted:
            self.pattern.append("".join(f"[{c}]" if c in "*?[]" else c for c in text))
            self.real = True
        else:
            self.pattern.append(text)
            if text:
                self.real = True
            if _GLOB_CHARS.search(text):
                self.globbing = True


def expand_word(word: Word, state: ShellState, substitute: Callable[[str], str],
                fs: VirtualFS | None, split: bool = True) -> list[str]:
    """Expand one word into fields. `substitute` runs a `$(...)` body and returns its output.
    With `split=False` (assignments, redirection targets) the result is one field, never globbed."""
    fields: list[_Field] = [_Field()]
    for part in word:
        if isinstance(part, Lit):
            fields[-1].add(part.text, part.quoted or not split)
            continue
        text = _param(state, part) if isinstance(part, Param) else substitute(part.source).rstrip("\n")
        if part.quoted or not split:
            fields[-1].add(text, True)
            continue
        pieces = text.split()
        if not pieces:
            continue
        if text[0].isspace() and fields[-1].real:
            fields.append(_Field())
        for n, piece in enumerate(pieces):
            if n:
                fields.append(_Field())
            fields[-1].add(piece, False)
        if text[-1].isspace():
            fields.append(_Field())
    out: list[str] = []
    for f in fields:
        if not f.real:
            continue
        value = "".join(f.value)
        if f.globbing and fs is not None:
            matches = glob_vfs(fs, "".join(f.pattern), state.cwd)
            if matches:
                out.extend(matches)
                continue
        out.append(value)
    return out


def glob_vfs(fs: VirtualFS, pattern: str, cwd: str) -> list[str]:
    """Paths in the VFS matching a shell pattern, in the pattern's own (relative or absolute) form."""
    absolute = pattern.startswith("/")
    components = [c for c in pattern.split("/") if c]
    results = ["/" if absolute else ""]
    for n, comp in enumerate(components):
        last = n == len(components) - 1
        nxt: list[str] = []
        for prefix in results:
            base = VirtualFS.normalize(prefix or ".", cwd)
            if not _GLOB_CHARS.search(comp):
                literal = re.sub(r"\[(.)\]", r"\1", comp)
                candidate = posixpath.join(prefix, literal) if prefix else literal
                if fs.exists(candidate, cwd):
                    nxt.append(candidate)
                continue
            try:
                names = fs.listdir(base)
            except VfsError:
                continue
            for name in names:
                if name.startswith(".") and not comp.startswith("."):
                    continue
                if fnmatch.fnmatchcase(name, comp):
                    candidate = posixpath.join(prefix, name) if prefix else name
                    if last or fs.is_dir(candidate, cwd):
                        nxt.append(candidate)
        results = nxt
        if not results:
            return []
    return sorted(results)
