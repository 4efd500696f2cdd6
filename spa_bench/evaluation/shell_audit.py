"""The episode's shell audit: the agent's own commands to the device, classified, secrets redacted.

The device part (spa_bench.device.audit) says what reached the device from outside the harness; the
classifier (spa_bench.evaluation.tamper) says which of those changed state behind the GUI. A push over adb
sync always writes a file; an adbd root switch changes nothing by itself. An emulator-console command is
read-only (help, ping, avd name/status/snapshot list, ...) or a change: everything else (sms, gsm, geo,
power, network, sensor, avd snapshot save/load/delete, kill, ...) acts on the phone behind its screen. The
result goes into the episode log, and a tampered episode is failed by the verdict policy
(spa_bench.evaluation.policy).
"""

from __future__ import annotations

import posixpath
from collections.abc import Mapping

from spa_bench.device.audit import DeviceAudit
from spa_bench.evaluation.tamper import TOOL_DIR, classify_commands
from spa_bench.results.schema import AuditedCommand, ShellAudit
from spa_bench.secrets import scrub_text


def shell_audit(audit: DeviceAudit, launchers: Mapping[str, str] | None = None) -> ShellAudit:
    """`launchers`: the device's launcher activity per package, when the caller knows them (the virtual
    phone's stock apps otherwise): `am start -n` of anything else is a change (intent_audit)."""
    lines = [e.command for e in audit.commands if e.channel in ("shell", "exec")]
    verdicts = iter(classify_commands(lines, launchers))
    commands: list[AuditedCommand] = []
    for entry in audit.commands:
        command = scrub_text(entry.command)
        if entry.channel in ("shell", "exec"):
            verdict = next(verdicts)
            commands.append(AuditedCommand(channel=entry.channel, command=command, kind=verdict.kind,
                                           changes_state=verdict.changes_state, reason=verdict.reason))
        elif entry.channel == "console":
            commands.append(_console(command))
        elif entry.channel == "push" and _tool_file(entry.command):
            commands.append(AuditedCommand(
                channel="push", command=command, kind="tooling", changes_state=False,
                reason=f"adb push: stages the agent's own tool in {TOOL_DIR} (uiautomator2's u2.jar)"))
        elif entry.channel == "push":
            commands.append(AuditedCommand(
                channel="push", command=command, kind="state_change", changes_state=True,
                reason="adb push: writes a file on the device"))
        else:
            commands.append(AuditedCommand(
                channel="service", command=command, kind="read", changes_state=False,
                reason="adbd switches user: changes nothing by itself"))
    if audit.source == "device" and not audit.complete:
        # the phone keeps a bounded record: an agent that floods it (20,000 `true` lines after a `settings
        # put`) pushes its change out of what is seen; what is not seen cannot be shown untouched
        commands.append(AuditedCommand(
            channel="service", command="(entries dropped from the phone's record)", kind="unknown",
            changes_state=True, reason="the phone's audit overflowed during the episode: some of what the "
                                       "agent sent is not seen, so the episode cannot be shown untampered"))
    return ShellAudit(source=audit.source, complete=audit.complete, commands=commands,
                      tampered=any(c.changes_state for c in commands))


# console commands (as word prefixes) that only print; `help`/`h`/`?` and a bare command group print help
_CONSOLE_READS = (("help",), ("h",), ("?",), ("help-verbose",), ("ping",), ("quit",), ("exit",), ("auth",),
                  ("avd", "name"), ("avd", "status"), ("avd", "snapshot", "list"), ("gsm", "list"),
                  ("redir", "list"), ("network", "status"), ("sensor", "status"), ("sensor", "get"),
                  ("event", "types"), ("event", "codes"), ("power", "display"))
_CONSOLE_GROUPS = frozenset({("avd",), ("avd", "snapshot"), ("gsm",), ("sms",), ("geo",), ("network",),
                             ("power",), ("event",), ("redir",), ("sensor",), ("finger",), ("cdma",)})


def _console(command: str) -> AuditedCommand:
    words = tuple(command.split())
    if not words or tuple(words) in _CONSOLE_GROUPS or any(words[:len(r)] == r for r in _CONSOLE_READS):
        return AuditedCommand(channel="console", command=command, kind="read", changes_state=False,
                              reason="emulator console: prints, changes nothing")
    return AuditedCommand(channel="console", command=command, kind="state_change", changes_state=True,
                          reason=f"emulator console: '{' '.join(words[:3])}' acts on the phone behind its "
                                 "screen (or is not a known read-only command)")


def _tool_file(path: str) -> bool:
    return posixpath.normpath(path).startswith(TOOL_DIR)
