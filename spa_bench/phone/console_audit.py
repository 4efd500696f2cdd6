"""The console's `spa` commands: what reached the phone during an episode, and which base it restores.

Not emulator commands (an emulator records nothing of the kind); only clients that passed `auth` get
them, as every command that is not read-only. `spa audit mark` prints the number the next recorded command
will get; `spa audit since N` prints every command recorded from N on, one JSON object per line
(`{"seq": 7, "channel": "shell", "command": "settings put ..."}`), then `{"dropped": false}`, true when
older entries than N were already discarded and the list is incomplete. `spa snapshot id NAME` prints the
id the last save of NAME drew, so that the harness can tell the base snapshot it saved from one saved over
it by someone else (spa_bench.device.device checks it before every restore).

`console_recorder` records each console command line in the same audit (channel `console`), except the
`spa` lines (the harness reading the audit) and `auth` (a login, not a command: its token is never kept).
"""

from __future__ import annotations

import json
from collections.abc import Callable

from spa_bench.phone.adb.audit import CommandAudit
from spa_bench.phone.console import CommandDef, Handler, Session
from spa_bench.phone.snapshot import SnapshotError, SnapshotStore


def console_recorder(audit: CommandAudit) -> Callable[[str], None]:
    def record(line: str) -> None:
        words = line.split()
        if words and words[0] not in ("spa", "auth"):
            audit.record("console", line)
    return record


def audit_commands(audit: CommandAudit, snapshots: SnapshotStore | None = None) -> CommandDef:
    def mark(session: Session, _args: str | None) -> bool:
        session.write(f"{audit.mark()}\n")
        return True

    def since(session: Session, args: str | None) -> bool:
        if args is None or not args.strip().isdigit():
            session.write("KO: usage: spa audit since <N> (a number from 'spa audit mark')\n")
            return False
        entries, dropped = audit.since(int(args))
        for entry in entries:
            session.write(json.dumps({"seq": entry.seq, "channel": entry.channel, "command": entry.command},
                                     ensure_ascii=False) + "\n")
        session.write(json.dumps({"dropped": dropped}) + "\n")
        return True

    def snapshot_id(session: Session, args: str | None) -> bool:
        if args is None or snapshots is None:
            session.write("KO: Argument missing, try 'spa snapshot id <name>'\n")
            return False
        try:
            session.write(f"{snapshots.ident(args.strip())}\n")
        except SnapshotError as exc:
            session.write(f"KO: {exc}\n")
            return False
        return True

    def sub(name: str, abstract: str, handler: Handler) -> CommandDef:
        return CommandDef(name, abstract, handler=handler)

    group = CommandDef("audit", "what reached the phone over adb and the console",
                       "'spa audit mark' prints the next entry's number; 'spa audit since <N>' prints the "
                       "shell commands, execs, pushes and console commands recorded from N on\n",
                       subcommands=(sub("mark", "the number of the next recorded command", mark),
                                    sub("since", "the commands recorded from <N> on", since)))
    snapshot = CommandDef("snapshot", "which save a snapshot is",
                          "'spa snapshot id <name>' prints the id the last save of <name> drew\n",
                          subcommands=(sub("id", "the id of the last save of <name>", snapshot_id),))
    return CommandDef("spa", "spa-bench virtual phone commands",
                      "commands of the spa-bench virtual phone that an emulator does not have\n",
                      subcommands=(group, snapshot))
