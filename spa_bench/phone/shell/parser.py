"""Lexer and parser of the virtual phone's shell: the subset of mksh (/system/bin/sh) that ADB clients,
agents and checks send.

Grammar: lists of and-or chains (`;`, `&`, newline, `&&`, `||`) of pipelines (`|`, leading `!`) of
simple commands (assignments, words, redirections). Words keep their quoting as parts so that the
executor expands `$VAR` / `$(...)` and globs only where an unquoted shell would. Compound commands
(if/for/while/case, subshells, functions, here-documents) are not part of the subset; they are
refused with a syntax error rather than run wrongly.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

_NAME_RE = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_ASSIGN_RE = re.compile(r"([A-Za-z_][A-Za-z0-9_]*)=")
RESERVED = frozenset({"if", "then", "else", "elif", "fi", "for", "while", "until", "do", "done",
                      "case", "esac", "function", "select", "{", "}", "[[", "]]", "time"})


class ShellSyntaxError(Exception):
    """A line the shell cannot parse; `str()` is mksh's message after `/system/bin/sh: `."""


# -- words ----------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Lit:
    """Literal text; `quoted` text is never split or globbed."""

    text: str
    quoted: bool


@dataclass(frozen=True)
class Param:
    """`$NAME`, `${NAME}`, `$?`, `${NAME:-default}` (op ":-", "-", ":+", "+" or "")."""

    name: str
    quoted: bool
    op: str = ""
    arg: str = ""


@dataclass(frozen=True)
class CmdSub:
    """`$(...)` or a backquoted command whose output replaces it."""

    source: str
    quoted: bool


Part = Lit | Param | CmdSub
Word = tuple[Part, ...]


def word_text(word: Word) -> str:
    """The literal text of a word, for messages (expansions shown as written)."""
    out = []
    for p in word:
        if isinstance(p, Lit):
            out.append(p.text)
        elif isinstance(p, Param):
            out.append("${" + p.name + p.op + p.arg + "}")
        else:
            out.append("$(" + p.source + ")")
    return "".join(out)


# -- tokens ---------------------------------------------------------------------------------------

@dataclass(frozen=True)
class WordTok:
    parts: Word


@dataclass(frozen=True)
class OpTok:
    op: str  # ; & && || | ! ( ) newline "\n"


@dataclass(frozen=True)
class RedirTok:
    fd: int | None  # explicit IO number, None for the default of the operator
    op: str  # > >> < >& <& >| <> &>


Token = WordTok | OpTok | RedirTok

_OPERATORS = ("&&", "||", ";;", ">>", ">&", "<&", ">|", "<>", "&>", "<<", ";", "&", "|", "(", ")", "<", ">")


class _Lexer:
    def __init__(self, src: str) -> None:
        self.src = src
        self.i = 0
        self.tokens: list[Token] = []
        self.parts: list[Part] = []
        self.buf: list[str] = []  # pending unquoted literal characters
        self.in_word = False

    # word building
    def _flush_lit(self) -> None:
        if self.buf:
            self.parts.append(Lit("".join(self.buf), False))
            self.buf = []

    def _end_word(self) -> None:
        self._flush_lit()
        if self.in_word:
            self.tokens.append(WordTok(tuple(self.parts)))
        self.parts = []
        self.in_word = False

    def run(self) -> list[Token]:
        src = self.src
        while self.i < len(src):
            c = src[self.i]
            if c in " \t\r":
                self._end_word()
                self.i += 1
            elif c == "\n":
                self._end_word()
                self.tokens.append(OpTok("\n"))
                self.i += 1
            elif c == "#" and not self.in_word:
                while self.i < len(src) and src[self.i] != "\n":
                    self.i += 1
            elif c in ";&|()<>":
                self._operator()
            elif c == "'":
                end = src.find("'", self.i + 1)
                if end < 0:
                    raise ShellSyntaxError("no closing quote")
                self._flush_lit()
                self.parts.append(Lit(src[self.i + 1:end], True))
                self.in_word = True
                self.i = end + 1
            elif c == '"':
                self._flush_lit()
                self.in_word = True
                self._double_quoted()
            elif c == "\\":
                self.in_word = True
                if self.i + 1 >= len(src):
                    self.buf.append("\\")
                    self.i += 1
                elif src[self.i + 1] == "\n":
                    self.i += 2
                else:
                    self._flush_lit()
                    self.parts.append(Lit(src[self.i + 1], True))
                    self.i += 2
            elif c == "$" or c == "`":
                self.in_word = True
                self._dollar(quoted=False)
            else:
                self.in_word = True
                self.buf.append(c)
                self.i += 1
        self._end_word()
        return self.tokens

    def _operator(self) -> None:
        src = self.src
        op = next(o for o in _OPERATORS if src.startswith(o, self.i))
        fd: int | None = None
        if op[0] in "<>" and self.in_word and not self.parts and self.buf and "".join(self.buf).isdigit():
            fd = int("".join(self.buf))
            self.buf = []
            self.in_word = False
        self._end_word()
        self.i += len(op)
        if op in (";;", "<<"):
            raise ShellSyntaxError(f"'{op}' unexpected")
        if op[0] in "<>" or op == "&>":
            self.tokens.append(RedirTok(fd, op))
        else:
            self.tokens.append(OpTok(op))

    def _double_quoted(self) -> None:
        src = self.src
        self.i += 1
        chars: list[str] = []
        while True:
            if self.i >= len(src):
                raise ShellSyntaxError("no closing quote")
            c = src[self.i]
            if c == '"':
                self.i += 1
                break
            if c == "\\" and self.i + 1 < len(src) and src[self.i + 1] in '$`"\\\n':
                if src[self.i + 1] != "\n":
                    chars.append(src[self.i + 1])
                self.i += 2
            elif c in "$`":
                if chars:
                    self.parts.append(Lit("".join(chars), True))
                    chars = []
                self._dollar(quoted=True)
            else:
                chars.append(c)
                self.i += 1
        self.parts.append(Lit("".join(chars), True))

    def _dollar(self, quoted: bool) -> None:
        """Parse `$...` or a backquote at self.i, appending a part (or a literal `$`)."""
        src = self.src
        if src[self.i] == "`":
            end = src.find("`", self.i + 1)
            if end < 0:
                raise ShellSyntaxError("no closing quote")
            self._add(CmdSub(src[self.i + 1:end], quoted))
            self.i = end + 1
            return
        nxt = src[self.i + 1] if self.i + 1 < len(src) else ""
        if nxt == "(":
            end = _matching_paren(src, self.i + 2)
            self._add(CmdSub(src[self.i + 2:end], quoted))
            self.i = end + 1
        elif nxt == "{":
            end = src.find("}", self.i + 2)
            if end < 0:
                raise ShellSyntaxError("missing '}'")
            body = src[self.i + 2:end]
            m = re.fullmatch(r"([A-Za-z_][A-Za-z0-9_]*|[0-9?$#!@*-])(:?[-+=?])?(.*)", body, re.S)
            if not m or (m.group(3) and not m.group(2)):
                raise ShellSyntaxError(f"${{{body}}}: bad substitution")
            self._add(Param(m.group(1), quoted, m.group(2) or "", m.group(3)))
            self.i = end + 1
        elif nxt and nxt in "?$#!@*-0123456789":
            self._add(Param(nxt, quoted))
            self.i += 2
        elif (m := _NAME_RE.match(src, self.i + 1)) is not None:
            self._add(Param(m.group(0), quoted))
            self.i = m.end()
        else:
            if quoted:
                self.parts.append(Lit("$", True))
            else:
                self.buf.append("$")
            self.i += 1

    def _add(self, part: Part) -> None:
        self._flush_lit()
        self.parts.append(part)


def _matching_paren(src: str, start: int) -> int:
    """Index of the `)` closing a `$(` whose body starts at `start`, skipping quotes."""
    depth = 1
    i = start
    while i < len(src):
        c = src[i]
        if c == "\\":
            i += 2
            continue
        if c == "'":
            j = src.find("'", i + 1)
            if j < 0:
                raise ShellSyntaxError("no closing quote")
            i = j + 1
            continue
        if c == '"':
            j = i + 1
            while j < len(src) and src[j] != '"':
                j += 2 if src[j] == "\\" else 1
            if j >= len(src):
                raise ShellSyntaxError("no closing quote")
            i = j + 1
            continue
        if c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
            if depth == 0:
                return i
        i += 1
    raise ShellSyntaxError("unexpected EOF")


def tokenize(src: str) -> list[Token]:
    return _Lexer(src).run()


# -- syntax tree ----------------------------------------------------------------------------------

@dataclass(frozen=True)
class Redirect:
    fd: int
    op: str  # ">", ">>", "<", ">&", "<&", "&>"
    target: Word


@dataclass(frozen=True)
class SimpleCommand:
    assigns: tuple[tuple[str, Word], ...]
    words: tuple[Word, ...]
    redirects: tuple[Redirect, ...]


@dataclass(frozen=True)
class Pipeline:
    commands: tuple[SimpleCommand, ...]
    negate: bool = False


@dataclass(frozen=True)
class AndOr:
    first: Pipeline
    rest: tuple[tuple[str, Pipeline], ...] = ()
    background: bool = False  # ended by `&`: the shell runs it as a job and goes on


Script = tuple[AndOr, ...]


class _Parser:
    def __init__(self, tokens: list[Token]) -> None:
        self.toks = tokens
        self.i = 0

    def peek(self) -> Token | None:
        return self.toks[self.i] if self.i < len(self.toks) else None

    def _unexpected(self, tok: Token | None) -> ShellSyntaxError:
        if tok is None:
            return ShellSyntaxError("unexpected EOF")
        if isinstance(tok, OpTok):
            return ShellSyntaxError("'newline' unexpected" if tok.op == "\n" else f"'{tok.op}' unexpected")
        if isinstance(tok, RedirTok):
            return ShellSyntaxError(f"'{tok.op}' unexpected")
        return ShellSyntaxError(f"'{word_text(tok.parts)}' unexpected")

    def _skip_newlines(self) -> None:
        while isinstance(self.peek(), OpTok) and self.peek() == OpTok("\n"):
            self.i += 1

    def script(self) -> Script:
        items: list[AndOr] = []
        while True:
            while (tok := self.peek()) is not None and isinstance(tok, OpTok) and tok.op == "\n":
                self.i += 1
            if self.peek() is None:
                return tuple(items)
            items.append(self.and_or())
            tok = self.peek()
            if tok is None:
                return tuple(items)
            if isinstance(tok, OpTok) and tok.op in (";", "&", "\n"):
                if tok.op == "&":
                    items[-1] = replace(items[-1], background=True)
                self.i += 1
                continue
            raise self._unexpected(tok)

    def and_or(self) -> AndOr:
        first = self.pipeline()
        rest: list[tuple[str, Pipeline]] = []
        while (tok := self.peek()) is not None and isinstance(tok, OpTok) and tok.op in ("&&", "||"):
            self.i += 1
            self._skip_newlines()
            rest.append((tok.op, self.pipeline()))
        return AndOr(first, tuple(rest))

    def pipeline(self) -> Pipeline:
        negate = False
        tok = self.peek()
        if isinstance(tok, WordTok) and tok.parts == (Lit("!", False),):
            negate = True
            self.i += 1
        commands = [self.command()]
        while (tok := self.peek()) is not None and isinstance(tok, OpTok) and tok.op == "|":
            self.i += 1
            self._skip_newlines()
            commands.append(self.command())
        return Pipeline(tuple(commands), negate)

    def command(self) -> SimpleCommand:
        assigns: list[tuple[str, Word]] = []
        words: list[Word] = []
        redirects: list[Redirect] = []
        while (tok := self.peek()) is not None:
            if isinstance(tok, WordTok):
                self.i += 1
                parts = tok.parts
                first = parts[0] if parts else None
                if not words and isinstance(first, Lit) and not first.quoted:
                    m = _ASSIGN_RE.match(first.text)
                    if m:
                        rest = first.text[m.end():]
                        value: Word = ((Lit(rest, False),) if rest else ()) + parts[1:]
                        assigns.append((m.group(1), value))
                        continue
                    if first.text in RESERVED and len(parts) == 1:
                        raise ShellSyntaxError(f"'{first.text}' unexpected")
                words.append(parts)
            elif isinstance(tok, RedirTok):
                self.i += 1
                target = self.peek()
                if not isinstance(target, WordTok):
                    raise self._unexpected(target)
                self.i += 1
                default_fd = 0 if tok.op in ("<", "<&", "<>") else 1
                op = ">" if tok.op == ">|" else tok.op
                redirects.append(Redirect(tok.fd if tok.fd is not None else default_fd, op, target.parts))
            else:
                break
        if not assigns and not words and not redirects:
            raise self._unexpected(self.peek())
        return SimpleCommand(tuple(assigns), tuple(words), tuple(redirects))


def parse(src: str) -> Script:
    """Parse one command line (or several lines). Raises ShellSyntaxError."""
    return _Parser(tokenize(src)).script()
