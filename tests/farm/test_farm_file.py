"""farm.json parsing: a bad file is a ConfigError naming the file and the field."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from spa_bench.errors import ConfigError
from spa_bench.farm.model import load_farm


def _farm(**changes: Any) -> dict[str, Any]:
    data: dict[str, Any] = {"schema_version": 1, "image": "spa-bench-emulator:provisioned", "emulators": [
        {"name": "emulator-0", "host": "127.0.0.1", "adb_port": 15555, "console_port": 15554},
        {"name": "emulator-1", "host": "127.0.0.1", "adb_port": 15557, "console_port": 15556}]}
    data.update(changes)
    return data


def _write(tmp_path: Path, data: object) -> Path:
    path = tmp_path / "farm.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def test_good_file_gives_serials_and_console_ports(tmp_path: Path) -> None:
    farm = load_farm(_write(tmp_path, _farm()))
    assert [e.serial for e in farm.emulators] == ["127.0.0.1:15555", "127.0.0.1:15557"]
    assert farm.console_ports() == {"127.0.0.1:15555": 15554, "127.0.0.1:15557": 15556}


@pytest.mark.parametrize(("data", "field", "message"), [
    (_farm(emulators=[{"name": "e", "adb_port": "x", "console_port": 15554}]), "emulators.0.adb_port",
     "integer"),
    (_farm(emulators=[{"name": "e", "console_port": 15554}]), "emulators.0.adb_port", "Field required"),
    (_farm(emulators=[{"name": "e", "adb_port": 5555, "console_port": 15554}]), "emulators.0",
     "port 5555 is in adb's emulator range"),
    (_farm(emulators=[]), "emulators", "at least 1"),
    (_farm(extra=1), "extra", "Extra inputs are not permitted"),
    (_farm(schema_version=2), "(top level)", "schema_version 2 is not supported"),
    (_farm(emulators=[{"name": "a", "adb_port": 15555, "console_port": 15554},
                      {"name": "b", "adb_port": 15555, "console_port": 15556}]), "(top level)",
     "ports used twice: 15555"),
])
def test_bad_file_names_file_and_field(tmp_path: Path, data: object, field: str, message: str) -> None:
    path = _write(tmp_path, data)
    with pytest.raises(ConfigError) as caught:
        load_farm(path)
    text = str(caught.value)
    assert text.startswith(f"{path}: field {field}: "), text
    assert message in text


def test_not_json_and_missing_file(tmp_path: Path) -> None:
    path = tmp_path / "farm.json"
    path.write_text("{nope", encoding="utf-8")
    with pytest.raises(ConfigError, match=r"farm.json: not JSON: .* line 1 column 2"):
        load_farm(path)
    with pytest.raises(ConfigError, match=r"absent.json: cannot read farm file"):
        load_farm(tmp_path / "absent.json")
