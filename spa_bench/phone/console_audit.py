"""The console's `spa audit` commands: what reached the phone over ADB during an episode.

Not an emulator command (an emulator records nothing of the kind); only clients that passed `auth` get
it, as every command that is not read-only. `spa audit mark` prints the number the next recorded command
will get; `spa audit since N` prints every command recorded from N on, one JSON object per line
(`{"seq": 7, "channel": "shell", "command": "settings put ..."}`), then `{"dropped": false}`, true when
older entries than N were already discarded and the list is incomplete.
"""

from __future__ import annotations

import json

from spa_bench.phone.adb.audit import CommandAudit
from spa_bench.phone.console import CommandDef, Handler, Session


def audit_commands(audit: CommandAudit) -> CommandDef:
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

    def sub(name: str, abstract: str, handler: Handler) -> CommandDef:
        return CommandDef(name, abstract, handler=handler)

    group = CommandDef("audit", "what reached the phone over adb",
                       "'spa audit mark' prints the next entry's number; 'spa audit since <N>' prints the "
                       "shell commands, execs and pushes recorded from N on\n",
                       subcommands=(sub("mark", "the number of the next recorded command", mark),
                                    sub("since", "the commands recorded from <N> on", since)))
    return CommandDef("spa", "spa-bench virtual phone commands",
                      "commands of the spa-bench virtual phone that an emulator does not have\n",
                      subcommands=(group,))
