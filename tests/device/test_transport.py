"""The transport seam: the scripted transport, AdbTransport against a real adb server and a virtual phone,
and what the device package may import."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from spa_bench.device.device import Device
from spa_bench.device.transport import AdbTransport, Request, Response, ScriptedTransport
from spa_bench.errors import DeviceOffline


class CountingTransport(AdbTransport):
    """AdbTransport that counts its connections to the adb server."""

    def __init__(self) -> None:
        super().__init__()
        self.connections = 0

    def _connect(self, timeout: float) -> Any:
        self.connections += 1
        return super()._connect(timeout)


class WithoutShellV2(CountingTransport):
    def features(self, serial: str) -> frozenset[str]:
        return frozenset()


@pytest.fixture(scope="module")
def phone_serial(tmp_path_factory: pytest.TempPathFactory, adb_env: dict[str, str]) -> Iterator[str]:
    from spa_bench.phone.api import PhoneConfig
    from spa_bench.phone.server import AUTO_PORT, VirtualPhone

    config = replace(PhoneConfig(), port=AUTO_PORT, data_dir=tmp_path_factory.mktemp("phone"))
    phone = VirtualPhone(config, token_path=Path(adb_env["HOME"]) / ".emulator_console_auth_token")
    phone.start()
    try:
        Device(phone.serial).connect()
        yield phone.serial
    finally:
        Device(phone.serial).disconnect()
        phone.stop()


def test_scripted_transport_answers_and_keeps_the_requests() -> None:
    transport = ScriptedTransport(lambda r: "text" if r.command == "a" else b"\x89PNG" if r.command == "b"
                                  else Response(stderr=b"no", exit_code=2))
    assert transport.handle(Request("shell", "a")) == Response(stdout=b"text")
    assert transport.handle(Request("shell", "b")).stdout == b"\x89PNG"
    assert transport.handle(Request("host", "c")).text() == "no"
    assert transport.commands() == ["a", "b"] and transport.commands("host") == ["c"]


def test_shell_v2_keeps_exit_code_and_stderr(phone_serial: str) -> None:
    transport = CountingTransport()
    answer = transport.handle(Request("shell", "echo out; echo err >&2; false", phone_serial))
    assert (answer.stdout, answer.stderr, answer.exit_code) == (b"out\n", b"err\n", 1)


def test_version_and_features_are_asked_once(phone_serial: str) -> None:
    transport = CountingTransport()
    device = Device(phone_serial, transport=transport)
    device.shell("true")
    first = transport.connections  # the server's version, the device's features, the command
    for _ in range(5):
        device.shell("true")
    assert first == 3 and transport.connections == first + 5


def test_devices_without_shell_v2_get_the_exit_code_from_a_marker(phone_serial: str) -> None:
    answer = WithoutShellV2().handle(Request("shell", "echo hi; false", phone_serial))
    assert (answer.stdout, answer.exit_code) == (b"hi\n", 1)


def test_an_unknown_serial_is_offline(phone_serial: str) -> None:
    with pytest.raises(DeviceOffline, match="not found"):
        AdbTransport().handle(Request("shell", "true", "127.0.0.1:1"))


def test_observe_through_the_adb_server(phone_serial: str) -> None:
    obs = Device(phone_serial).observe()
    assert obs.screenshot_png.startswith(b"\x89PNG") and obs.hierarchy_xml.endswith("</hierarchy>")
    assert obs.package is not None and obs.width == 1080 and len(obs.elements) > 3
    obs.screenshot().load()  # a whole, decodable PNG


class StallingTransport(AdbTransport):
    """Stalls between the server's OKAY and reading, as a thread on a loaded host may, for longer than
    adb 36 waits (1 s) before it closes a finished stream's socket."""

    def _open(self, serial: str, service: str, timeout: float) -> Any:
        conn = super()._open(serial, service, timeout)
        time.sleep(1.5)
        return conn


def test_a_stalled_reader_still_gets_the_whole_observation(phone_serial: str) -> None:
    """Anything the harness sends after the OKAY (a close-stdin frame did) reaches a socket the server no
    longer reads; the kernel then resets the connection and the output still in flight is lost
    (DeviceOffline "Connection reset by peer", seen once under CPU load)."""
    obs = Device(phone_serial, transport=StallingTransport()).observe()
    assert obs.screenshot_png.startswith(b"\x89PNG") and obs.hierarchy_xml.endswith("</hierarchy>")
    obs.screenshot().load()


def test_device_package_imports_neither_the_results_schema_nor_the_task_model() -> None:
    code = ("import sys, pkgutil, importlib, spa_bench.device as d\n"
            "for m in pkgutil.iter_modules(d.__path__):\n"
            "    importlib.import_module('spa_bench.device.' + m.name)\n"
            "print(' '.join(sorted(n for n in sys.modules if n.startswith('spa_bench.'))))")
    loaded = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                            env=dict(os.environ)).stdout.split()
    assert "spa_bench.device.transport" in loaded
    assert not [m for m in loaded if m.startswith(("spa_bench.results", "spa_bench.tasks"))], loaded
