"""`spa-bench run --farm farm.json` on a virtual phone standing in for one farm emulator: it listens on
127.0.0.1:PORT (adb) and PORT-1 (console), as a farm container publishes them, so the run must take the
console port from farm.json to reset the task by snapshot."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cli_helpers import run_cli

from spa_bench.device.device import Device
from spa_bench.runner.pool import prepare_virtual_phone, start_adb_server

pytestmark = pytest.mark.usefixtures("adb_env")


def test_run_with_farm_file_uses_its_serials_and_console_ports(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from spa_bench.phone import start_phones

    with start_phones(1, data_root=tmp_path / "phones") as pool:
        phone = pool[0]
        host, port = phone.serial.split(":")
        start_adb_server()
        device = Device(phone.serial, console_port=int(port) - 1)
        device.connect()
        device.become_root()
        prepare_virtual_phone(device)  # the golden snapshots a farm's provisioning saves
        device.disconnect()
        farm = tmp_path / "farm.json"
        farm.write_text(json.dumps({"schema_version": 1, "image": "spa-bench-emulator:provisioned",
                                    "emulators": [{"name": "emulator-0", "host": host,
                                                   "adb_port": int(port), "console_port": int(port) - 1}]}),
                        encoding="utf-8")
        out = tmp_path / "results"
        result = run_cli(capsys, "run", "--farm", str(farm), "--agent", "oracle", "--task",
                         "settings_wifi_off_en", "--out", str(out))
        assert result.code == 0, result.err
        (run_dir,) = [p for p in out.iterdir() if (p / "manifest.json").is_file()]
        manifest = json.loads((run_dir / "manifest.json").read_text(encoding="utf-8"))
        assert [d["serial"] for d in manifest["devices"]] == [phone.serial]
        (episode,) = sorted((run_dir / "episodes").glob("*/episode.json"))
        log = json.loads(episode.read_text(encoding="utf-8"))
        assert log["termination"] not in ("harness_error", "device_error"), log.get("error")
        assert "1/1" in result.out


def test_run_with_a_bad_farm_file_names_file_and_field(tmp_path: Path, capsys: pytest.CaptureFixture[str]
                                                       ) -> None:
    farm = tmp_path / "farm.json"
    farm.write_text(json.dumps({"image": "x", "emulators": [{"name": "e", "adb_port": 15555}]}),
                    encoding="utf-8")
    result = run_cli(capsys, "run", "--farm", str(farm), "--agent", "noop", "--out", str(tmp_path / "r"))
    assert result.code == 2
    assert "farm.json: field emulators.0.console_port: Field required" in " ".join(result.err.split())
    assert not (tmp_path / "r").exists()
