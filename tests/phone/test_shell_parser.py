"""The shell language: quoting, expansion, operators, redirections, pipes and mksh-style errors."""

from __future__ import annotations

from pathlib import Path

import pytest

from spa_bench.phone.shell import Shell, ShellResult
from spa_bench.phone.shell.parser import Lit, Param, RedirTok, ShellSyntaxError, WordTok, parse, tokenize
from spa_bench.phone.shell.testing import FakePhone


@pytest.fixture
def phone(tmp_path: Path) -> FakePhone:
    return FakePhone(tmp_path / "fs")


@pytest.fixture
def sh(phone: FakePhone) -> Shell:
    return Shell(phone)


def out(sh: Shell, line: str) -> str:
    return sh.run(line).stdout.decode()


def test_result_is_frozen_dataclass(sh: Shell) -> None:
    r = sh.run("echo hi")
    assert r == ShellResult(b"hi\n", b"", 0, b"hi\n")
    with pytest.raises(AttributeError):
        r.exit_code = 3  # type: ignore[misc]


@pytest.mark.parametrize(("line", "expected"), [
    ("echo a b   c", "a b c\n"),
    ("echo 'a   b' \"c  d\"", "a   b c  d\n"),
    ("echo a\\ b", "a b\n"),
    ("echo 'it'\\''s'", "it's\n"),
    ("echo \"a \\\"q\\\" \\$x \\\\\"", "a \"q\" $x \\\n"),
    ("echo '$HOME' \"$HOME\"", "$HOME /\n"),
    ("X=1; echo $X${X}\"$X\"", "111\n"),
    ("echo ${UNSET:-dflt} ${HOME:+set}", "dflt set\n"),
    ("echo a#b # comment", "a#b\n"),
    ("echo $", "$\n"),
    ("echo ''", "\n"),
    ("echo $(echo inner) `echo back`", "inner back\n"),
    ("echo \"$(echo 'a  b')\"", "a  b\n"),
    ("V='x  y'; echo $V; echo \"$V\"", "x y\nx  y\n"),
    ("echo $EMPTY_VAR end", "end\n"),
    ("echo -n no; echo", "no\n"),
    ("echo -e 'a\\tb'", "a\tb\n"),
    ("echo 'a\\nb'", "a\nb\n"),  # mksh's echo interprets escapes by default
    ("echo -E 'a\\nb'", "a\\nb\n"),
    ("echo café 你好", "café 你好\n"),
])
def test_quoting_and_expansion(sh: Shell, line: str, expected: str) -> None:
    assert out(sh, line) == expected


def test_escaped_bytes_are_raw(sh: Shell) -> None:
    assert sh.run("echo -n '\\0351\\x41'").stdout == b"\xe9A"
    assert sh.run("printf '\\xff'").stdout == b"\xff"


def test_and_or_and_status(sh: Shell) -> None:
    assert out(sh, "true && echo yes || echo no") == "yes\n"
    assert out(sh, "false && echo yes || echo no") == "no\n"
    assert out(sh, "false; echo $?") == "1\n"
    assert out(sh, "nosuch 2>/dev/null; echo $?") == "127\n"
    assert out(sh, "! false && echo negated") == "negated\n"
    assert sh.run("true; false").exit_code == 1
    assert sh.run("false; true").exit_code == 0
    assert out(sh, "echo a &\necho b") == "a\nb\n"


def test_exit_stops_the_line(sh: Shell) -> None:
    r = sh.run("echo before; exit 3; echo after")
    assert (r.stdout, r.exit_code) == (b"before\n", 3)
    assert sh.run("false; exit").exit_code == 1


def test_env_prefix_only_for_that_command(sh: Shell) -> None:
    assert out(sh, "FOO=bar env | grep ^FOO=") == "FOO=bar\n"
    assert out(sh, "FOO=bar true; echo [$FOO]") == "[]\n"
    assert out(sh, "export FOO=baz; env | grep FOO") == "FOO=baz\n"


def test_redirections(sh: Shell, phone: FakePhone) -> None:
    assert sh.run("echo one > /sdcard/f.txt; echo two >> /sdcard/f.txt").stdout == b""
    assert phone.fs.read_bytes("/sdcard/f.txt") == b"one\ntwo\n"
    assert out(sh, "cat < /sdcard/f.txt") == "one\ntwo\n"
    r = sh.run("cat /nope 2>/dev/null")
    assert (r.stdout, r.stderr, r.exit_code) == (b"", b"", 1)
    r = sh.run("cat /nope 2>&1")
    assert r.stdout == b"cat: /nope: No such file or directory\n" and r.stderr == b""
    r = sh.run("cat /nope > /sdcard/o.txt 2>&1")
    assert phone.fs.read_bytes("/sdcard/o.txt") == b"cat: /nope: No such file or directory\n"
    r = sh.run("cat /nope 2>&1 > /sdcard/o2.txt")  # order matters: stderr went to the old stdout
    assert r.stdout == b"cat: /nope: No such file or directory\n"
    assert phone.fs.read_bytes("/sdcard/o2.txt") == b""
    assert out(sh, "echo x >/dev/null; echo y 1>&2 2>/dev/null") == ""
    r = sh.run("echo x > /no/such/dir/f")
    assert r.exit_code == 1
    assert r.stderr == b"/system/bin/sh: can't create /no/such/dir/f: No such file or directory\n"
    r = sh.run("cat < /missing")
    assert r.stderr == b"/system/bin/sh: can't open /missing: No such file or directory\n"


def test_truncation_happens_before_the_command(sh: Shell, phone: FakePhone) -> None:
    phone.fs.write_bytes("/sdcard/t", b"data\n")
    sh.run("cat /sdcard/t > /sdcard/t")
    assert phone.fs.read_bytes("/sdcard/t") == b""


def test_pipes(sh: Shell) -> None:
    assert out(sh, "printf 'a\\nb\\nab\\n' | grep a | wc -l") == "2\n"
    assert out(sh, "echo aGVsbG8= | base64 -d") == "hello"
    assert out(sh, "echo hello | base64") == "aGVsbG8K\n"
    assert sh.run("false | true").exit_code == 0
    assert sh.run("true | false").exit_code == 1


def test_output_interleaves_stdout_and_stderr_in_order(sh: Shell) -> None:
    r = sh.run("echo 1; ls /nope; echo 2 >&2; echo 3 | cat; cat /nope 2>&1")
    assert r.stdout == b"1\n3\ncat: /nope: No such file or directory\n"
    assert r.stderr == b"ls: /nope: No such file or directory\n2\n"
    assert r.output == (b"1\nls: /nope: No such file or directory\n2\n3\n"
                        b"cat: /nope: No such file or directory\n")
    assert sh.run("echo x > /sdcard/f; echo y 2>/dev/null").output == b"y\n"


def test_stdin_feeds_the_first_command(sh: Shell) -> None:
    assert sh.run("cat", stdin=b"payload").stdout == b"payload"
    assert sh.run("cat; cat", stdin=b"once").stdout == b"once"


def test_stdin_from_the_host_is_collected_only_by_a_command_that_reads_it(sh: Shell) -> None:
    """The adb services hand the shell a function: `content query`, `cat FILE` or `sqlite3 DB SQL` must not
    wait for input the harness never sends, and `cat` or `sqlite3 DB` alone must get what was sent."""
    asked: list[str] = []

    def source() -> bytes:
        asked.append("stdin")
        return b"select 1;"

    sh.run("echo x > /sdcard/f", stdin=source)
    assert sh.run("cat /sdcard/f; echo y | cat; sh -c 'echo z'", stdin=source).stdout == b"x\ny\nz\n"
    assert asked == []
    assert sh.run("true | cat", stdin=source).stdout == b"" and asked == []  # a pipe's later stages
    assert sh.run("cat -", stdin=source).stdout == b"select 1;" and asked == ["stdin"]
    assert sh.run("sh -c cat", stdin=source).stdout == b"select 1;" and asked == ["stdin"] * 2


def test_cd_keeps_cwd_for_the_line_only(sh: Shell, phone: FakePhone) -> None:
    phone.fs.write_bytes("/sdcard/Download/x.txt", b"x")
    assert out(sh, "cd /sdcard/Download && pwd && ls && cat x.txt") == "/sdcard/Download\nx.txt\nx"
    assert out(sh, "pwd") == "/\n"
    assert out(sh, "cd /sdcard; cd Download; pwd; cd ..; pwd") == "/sdcard/Download\n/sdcard\n"
    r = sh.run("cd /nope")
    assert r.exit_code == 2 and b"cd: /nope: No such file or directory" in r.stderr


def test_glob_on_vfs(sh: Shell, phone: FakePhone) -> None:
    for name in ("a.png", "b.png", "c.txt"):
        phone.fs.write_bytes(f"/sdcard/Pictures/{name}", b"")
    assert out(sh, "echo /sdcard/Pictures/*.png") == "/sdcard/Pictures/a.png /sdcard/Pictures/b.png\n"
    assert out(sh, "cd /sdcard/Pictures; echo *.txt ?.png") == "c.txt a.png b.png\n"
    assert out(sh, "echo '/sdcard/Pictures/*.png'") == "/sdcard/Pictures/*.png\n"
    assert out(sh, "echo /sdcard/nothing*") == "/sdcard/nothing*\n"
    sh.run("rm /sdcard/Pictures/*.png")
    assert phone.fs.listdir("/sdcard/Pictures") == ["c.txt"]


def test_unknown_command(sh: Shell) -> None:
    r = sh.run("frobnicate --now")
    err = b"/system/bin/sh: frobnicate: not found\n"
    assert r == ShellResult(b"", err, 127, err)
    r = sh.run("/system/bin/ls /sdcard/Music")
    assert r.exit_code == 0
    r = sh.run("/data/local/tmp/nothing")
    assert r.exit_code == 127


def test_files_are_never_executed(sh: Shell, phone: FakePhone) -> None:
    phone.fs.write_bytes("/data/local/tmp/script.sh", b"echo owned\n")
    r = sh.run("/data/local/tmp/script.sh")
    assert r.exit_code == 126 and b"Permission denied" in r.stderr
    assert out(sh, "sh /data/local/tmp/script.sh") == "owned\n"  # interpreted by the virtual shell


@pytest.mark.parametrize(("line", "message"), [
    ("echo 'open", "/system/bin/sh: no closing quote\n"),
    ("echo \"open", "/system/bin/sh: no closing quote\n"),
    ("echo a &&", "/system/bin/sh: syntax error: unexpected EOF\n"),
    ("echo a |", "/system/bin/sh: syntax error: unexpected EOF\n"),
    ("; echo a", "/system/bin/sh: syntax error: ';' unexpected\n"),
    ("echo a && || echo b", "/system/bin/sh: syntax error: '||' unexpected\n"),
    ("echo (", "/system/bin/sh: syntax error: '(' unexpected\n"),
    ("echo >", "/system/bin/sh: syntax error: unexpected EOF\n"),
    ("echo > ;", "/system/bin/sh: syntax error: ';' unexpected\n"),
    ("case x in esac", "/system/bin/sh: syntax error: 'case' unexpected\n"),
    ("echo a ;; echo b", "/system/bin/sh: syntax error: ';;' unexpected\n"),
])
def test_syntax_errors(sh: Shell, line: str, message: str) -> None:
    r = sh.run(line)
    assert (r.stdout, r.stderr.decode(), r.exit_code) == (b"", message, 1)


def test_nothing_runs_when_the_line_does_not_parse(sh: Shell, phone: FakePhone) -> None:
    sh.run("echo x > /sdcard/side_effect; echo 'broken")
    assert not phone.fs.exists("/sdcard/side_effect")


def test_empty_line(sh: Shell) -> None:
    assert sh.run("") == ShellResult(b"", b"", 0)
    assert sh.run("   \n  # only a comment") == ShellResult(b"", b"", 0)


def test_tokens_keep_quoting() -> None:
    toks = tokenize("a'b'\"$C\" 2>&1")
    assert toks == [
        WordTok((Lit("a", False), Lit("b", True), Param("C", True), Lit("", True))),
        RedirTok(2, ">&"),
        WordTok((Lit("1", False),)),
    ]


def test_parse_tree_shape() -> None:
    script = parse("A=1 cmd x > f | other && last; second")
    assert len(script) == 2
    first = script[0]
    assert len(first.first.commands) == 2 and first.rest[0][0] == "&&"
    cmd = first.first.commands[0]
    assert cmd.assigns[0][0] == "A" and len(cmd.words) == 2 and cmd.redirects[0].op == ">"
    with pytest.raises(ShellSyntaxError):
        parse("a |")


def test_adbutils_shell2_suffix(sh: Shell) -> None:
    """adbutils' shell2 appends `; echo X4EXIT:$?` and parses the code back."""
    r = sh.run("ls /nope; echo X4EXIT:$?")
    assert r.stdout.endswith(b"X4EXIT:1\n")
    r = sh.run("echo ok; echo X4EXIT:$?")
    assert r.stdout == b"ok\nX4EXIT:0\n"


def test_nested_shell_and_depth_limit(sh: Shell) -> None:
    assert out(sh, "sh -c 'echo nested; cd /sdcard; pwd'; pwd") == "nested\n/sdcard\n/\n"
    assert sh.run("sh -c 'exit 7'").exit_code == 7
    deep = "echo bottom"
    for _ in range(12):
        deep = f"sh -c {_quote(deep)}"
    r = sh.run(deep)
    assert r.exit_code != 0 and b"too many nested shells" in r.stderr


def _quote(s: str) -> str:
    return "'" + s.replace("'", "'\\''") + "'"


def test_exec_service_style_quoting(sh: Shell) -> None:
    """`adb exec-out screencap -p` arrives as `screencap '-p'`: quotes are shell syntax, not data."""
    r = sh.run("echo '-n' 'x'")
    assert r.stdout == b"x"
