"""The phone's audit records console command lines (channel `console`) as it does adb shell lines.

Red-team issue 33: `sms send` and `avd snapshot save spa-bench-base-en` from a console session left no
trace. Now every line a console client sends is recorded before it runs, pre-auth lines too, except
`auth` (its token is never kept) and the `spa` lines the harness reads the audit with. `spa snapshot id`
gives each save of a snapshot a new id, which the harness checks before restoring its base.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

from console_client import ConsoleClient

from spa_bench.device.audit import DeviceAudit, SentCommand
from spa_bench.evaluation.shell_audit import shell_audit

if TYPE_CHECKING:
    from conftest import PhoneHandle


def _authed(handle: PhoneHandle) -> ConsoleClient:
    client = ConsoleClient(handle.phone.config.console_port)
    assert client.cmd(f"auth {handle.phone.console_token}").endswith("OK\r\n")
    return client


def _since(client: ConsoleClient, mark: int) -> list[tuple[str, str]]:
    reply = client.cmd(f"spa audit since {mark}")
    rows = [json.loads(line) for line in reply.split("\r\n")[:-2]]
    assert rows[-1] == {"dropped": False}
    return [(r["channel"], r["command"]) for r in rows[:-1]]


def test_console_lines_are_recorded_without_the_token(running_phone: PhoneHandle) -> None:
    running_phone.reset()
    harness = _authed(running_phone)
    mark = int(harness.cmd("spa audit mark").split("\r\n")[0])
    agent = ConsoleClient(running_phone.phone.config.console_port)
    assert agent.cmd("ping").endswith("OK\r\n")  # before auth: read-only, recorded all the same
    token = running_phone.phone.console_token
    assert agent.cmd(f"auth {token}").endswith("OK\r\n")
    assert agent.cmd("sms send 5550100 free money").endswith("OK\r\n")
    assert agent.cmd("avd snapshot list").endswith("OK\r\n")
    agent.close()
    entries = _since(harness, mark)
    assert entries == [("console", "ping"), ("console", "sms send 5550100 free money"),
                       ("console", "avd snapshot list")]
    assert token not in json.dumps(entries)
    audit = shell_audit(DeviceAudit("device", True, [SentCommand("console", c) for _, c in entries]))
    assert [(c.command, c.changes_state) for c in audit.commands] == [
        ("ping", False), ("sms send 5550100 free money", True), ("avd snapshot list", False)]
    assert audit.tampered
    harness.close()


def test_each_save_draws_a_new_snapshot_id(running_phone: PhoneHandle) -> None:
    client = _authed(running_phone)

    def ident() -> str:
        reply = client.cmd("spa snapshot id pristine-copy")
        assert reply.endswith("OK\r\n"), reply
        return reply.split("\r\n")[0]

    assert client.cmd("avd snapshot save pristine-copy").endswith("OK\r\n")
    first = ident()
    assert len(first) == 32 and ident() == first  # asking does not change it; a load does not either
    assert client.cmd("avd snapshot load pristine-copy").endswith("OK\r\n")
    assert ident() == first
    assert client.cmd("avd snapshot save pristine-copy").endswith("OK\r\n")
    assert ident() != first
    assert client.cmd("avd snapshot del pristine-copy").endswith("OK\r\n")
    gone = client.cmd("spa snapshot id pristine-copy")
    assert gone.startswith("KO: snapshot 'pristine-copy' does not exist"), gone
    client.close()
