"""The compose generator: N emulators, one per container, valid for a real Compose implementation
(`docker-compose config -q`, Debian's package: it validates without an engine), ports on 127.0.0.1
outside adb's 5554-5585 range. In CI (scripts/check installs docker-compose) a missing tool fails."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
import yaml
from cli_helpers import run_cli

from spa_bench.farm.compose import generate
from spa_bench.farm.model import load_farm


def compose_config(compose: dict[str, Any], folder: Path) -> subprocess.CompletedProcess[str]:
    """`docker-compose -f FILE config -q` on the document: exit 0 when Compose accepts it."""
    tool = shutil.which("docker-compose")
    if tool is None:
        if os.environ.get("CI") == "true":
            pytest.fail("docker-compose not found; scripts/check installs it in CI "
                        "(apt-get install docker-compose)")
        pytest.skip("docker-compose not found (apt-get install docker-compose): the compose file is not "
                    "validated")
    path = folder / "docker-compose.yml"
    path.write_text(yaml.safe_dump(compose), encoding="utf-8")
    return subprocess.run([tool, "-f", str(path), "config", "-q"], capture_output=True, text=True, timeout=60,
                          cwd=folder)


def validate(compose: dict[str, Any], folder: Path) -> None:
    done = compose_config(compose, folder)
    assert done.returncode == 0, done.stdout + done.stderr


def _host_ports(service: dict[str, object]) -> list[tuple[str, int, int]]:
    out = []
    for spec in service["ports"]:  # type: ignore[attr-defined]
        host, published, target = str(spec).split(":")
        out.append((host, int(published), int(target)))
    return out


def test_cli_writes_compose_for_4_that_validates_and_a_matching_farm_file(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "docker-compose.yml"
    result = run_cli(capsys, "farm", "compose", "4", "--out", str(out))
    assert result.code == 0, result.err
    compose = yaml.safe_load(out.read_text(encoding="utf-8"))
    validate(compose, tmp_path)
    services = compose["services"]
    assert len(services) == 4
    farm = load_farm(tmp_path / "farm.json")
    assert [e.name for e in farm.emulators] == list(services)
    seen: set[int] = set()
    for emulator, (name, service) in zip(farm.emulators, services.items(), strict=True):
        assert service["devices"] == ["/dev/kvm:/dev/kvm"] and service["init"] is True
        ports = _host_ports(service)
        assert {(h, p) for h, p, _t in ports} == {("127.0.0.1", emulator.console_port),
                                                   ("127.0.0.1", emulator.adb_port)}
        assert {t for _h, _p, t in ports} == {5554, 5555}
        for _h, published, _t in ports:
            assert not 5554 <= published <= 5585
            assert published not in seen
            seen.add(published)
        assert service["labels"]["io.spa-bench.serial"] == emulator.serial
        assert service["container_name"] == f"spa-bench-{name}"
    assert farm.emulators[0].serial == "127.0.0.1:15555"


def test_resources_and_image_are_passed_through(tmp_path: Path) -> None:
    files = generate(2, image="my/emulator:1", cpus=3, memory="6g")
    validate(files.compose, tmp_path)
    service = files.compose["services"]["emulator-1"]
    assert (service["image"], service["cpus"], service["mem_limit"]) == ("my/emulator:1", 3, "6g")


def test_the_check_rejects_what_the_generator_must_not_produce(tmp_path: Path) -> None:
    """The Compose check can fail: a service with an unknown key is refused."""
    files = generate(1)
    files.compose["services"]["emulator-0"]["no_such_key"] = 1
    done = compose_config(files.compose, tmp_path)
    assert done.returncode != 0 and "no_such_key" in done.stdout + done.stderr


@pytest.mark.parametrize(("args", "message"), [
    (["0"], "greater than or equal to 1"),
    (["2", "--base-port", "5554"], "port 5555 is in adb's emulator range 5554-5585"),
    (["2", "--base-port", "15555"], "must be even"),
])
def test_bad_arguments_are_clear_errors(tmp_path: Path, capsys: pytest.CaptureFixture[str], args: list[str],
                                        message: str) -> None:
    result = run_cli(capsys, "farm", "compose", *args, "--out", str(tmp_path / "c.yml"))
    assert result.code == 2
    assert message in result.err
    assert not (tmp_path / "c.yml").exists()
