"""The harness restores only the base snapshots it saved (or first restored): one saved over since, by an
agent holding the console token (red-team issue 33), is refused, so later episodes never start from it.

The console is scripted here with the virtual phone's answers (`spa snapshot id` prints the id each save
draws; an emulator answers it as an unknown command); tests/agents/test_console_tamper_pipeline.py plays
the attack through a real run.
"""

from __future__ import annotations

import itertools

import pytest

from spa_bench.device.device import Device
from spa_bench.device.transport import Request, Response, ScriptedTransport
from spa_bench.errors import DeviceCommandFailed, DeviceError


class Snapshots:
    """A console with snapshots: each save draws a new id, as the virtual phone's SnapshotStore does."""

    def __init__(self, spa_commands: bool = True) -> None:
        self.ids: dict[str, str] = {}
        self.spa_commands = spa_commands
        self._draw = (f"id{n}" for n in itertools.count())

    def save_behind_the_harness(self, name: str) -> None:
        self.ids[name] = next(self._draw)

    def __call__(self, request: Request) -> Response | str:
        assert request.service == "console", request
        words = request.command.split()
        if words[:3] == ["avd", "snapshot", "save"]:
            self.save_behind_the_harness(words[3])
            return ""
        if words[:3] == ["avd", "snapshot", "load"]:
            if words[3] not in self.ids:
                raise DeviceCommandFailed(f"console 5554: KO: snapshot {words[3]!r} does not exist")
            return ""
        if words[:3] == ["spa", "snapshot", "id"]:
            if not self.spa_commands:
                raise DeviceCommandFailed("console 5554: KO: unknown command, try 'help'")
            if words[3] not in self.ids:
                raise DeviceCommandFailed(f"console 5554: KO: snapshot {words[3]!r} does not exist")
            return self.ids[words[3]] + "\n"
        raise AssertionError(request.command)


def _device(console: Snapshots) -> tuple[Device, ScriptedTransport]:
    transport = ScriptedTransport(console)
    return Device("emulator-5554", transport=transport), transport


def test_a_base_saved_over_by_someone_else_is_not_restored() -> None:
    console = Snapshots()
    device, transport = _device(console)
    device.save_snapshot("spa-bench-base-en")
    device.load_snapshot("spa-bench-base-en")  # the harness's own save: restored
    console.save_behind_the_harness("spa-bench-base-en")  # `avd snapshot save` from the agent's session
    transport.requests.clear()
    with pytest.raises(DeviceError, match="'spa-bench-base-en' was saved over since the harness took it"):
        device.load_snapshot("spa-bench-base-en")
    assert not any(r.command.startswith("avd snapshot load") for r in transport.requests)


def test_the_harness_saving_again_takes_the_new_save() -> None:
    console = Snapshots()
    device, _ = _device(console)
    device.save_snapshot("spa-bench-base-en")
    device.save_snapshot("spa-bench-base-en")  # prepare_virtual_phone run twice on one phone
    device.load_snapshot("spa-bench-base-en")


def test_a_base_found_on_the_phone_is_taken_at_its_first_restore() -> None:
    console = Snapshots()
    console.save_behind_the_harness("spa-bench-base-zh")  # prepared by an earlier run (`spa-bench phone`)
    device, _ = _device(console)
    device.load_snapshot("spa-bench-base-zh")
    device.load_snapshot("spa-bench-base-zh")
    console.save_behind_the_harness("spa-bench-base-zh")
    with pytest.raises(DeviceError, match="saved over"):
        device.load_snapshot("spa-bench-base-zh")


def test_a_deleted_base_is_reported_as_gone() -> None:
    console = Snapshots()
    device, _ = _device(console)
    device.save_snapshot("spa-bench-base-en")
    del console.ids["spa-bench-base-en"]  # `avd snapshot del` from the agent's session
    with pytest.raises(DeviceError, match="restores from is gone"):
        device.load_snapshot("spa-bench-base-en")


def test_an_emulator_without_snapshot_ids_is_asked_once_and_restored() -> None:
    console = Snapshots(spa_commands=False)
    device, transport = _device(console)
    device.save_snapshot("spa-bench-base-en")
    device.load_snapshot("spa-bench-base-en")
    device.load_snapshot("spa-bench-base-en")
    assert [r.command for r in transport.requests] == [
        "avd snapshot save spa-bench-base-en", "spa snapshot id spa-bench-base-en",
        "avd snapshot load spa-bench-base-en", "avd snapshot load spa-bench-base-en"]
