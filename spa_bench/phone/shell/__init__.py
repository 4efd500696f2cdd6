"""The virtual phone's shell: a small POSIX-ish shell (mksh subset) with toybox/Android commands.

`Shell(system).run("cmd", stdin=b"") -> ShellResult(stdout, stderr, exit_code)` is what the ADB
`shell:`, `shell,v2` and `exec:` services call (they pass stdin as a function, called only if a command
reads it). Modules: `parser` (lexer and syntax tree), `expand`
(variables, command substitution, globbing on the VFS), `executor` (pipes, redirections, dispatch),
`context` (what a command sees) and `commands/` (one module per domain). No command ever runs a host
program; every path goes through the jailed VirtualFS.
"""

from __future__ import annotations

from spa_bench.phone.shell.executor import Shell, ShellResult
from spa_bench.phone.shell.parser import ShellSyntaxError

__all__ = ["Shell", "ShellResult", "ShellSyntaxError"]
