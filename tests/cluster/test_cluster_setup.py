"""The Ray executor's setup, without a cluster: worker resources and the slots the driver reads back,
the `ray start` command of `spa-bench worker`, clear errors (no Ray, an address nobody answers, bad
options), and that a local run never imports Ray."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from cli_helpers import free_port, run_cli

from spa_bench.cluster.resources import (
    CONSOLE_PREFIX,
    DEVICE_PREFIX,
    DEVICES,
    PHONE,
    Slot,
    node_slots,
    worker_resources,
)
from spa_bench.cluster.worker import WorkerConfig, ray_start_command
from spa_bench.errors import ConfigError


def test_worker_resources_one_per_device_and_a_phone_count() -> None:
    resources = worker_resources(["emulator-5554", "192.168.1.20:5555"], phones=3)
    assert resources == {DEVICE_PREFIX + "emulator-5554": 1.0, DEVICE_PREFIX + "192.168.1.20:5555": 1.0,
                         PHONE: 3.0, DEVICES: 5.0}


def test_a_console_port_travels_as_a_resource_amount() -> None:
    resources = worker_resources(["127.0.0.1:15555=15554"], phones=0)
    assert resources == {DEVICE_PREFIX + "127.0.0.1:15555": 1.0, CONSOLE_PREFIX + "127.0.0.1:15555": 15554.0,
                         DEVICES: 1.0}
    (slot,) = node_slots(_node(**resources), None)
    assert (slot.serial, slot.console_port) == ("127.0.0.1:15555", 15554)
    assert slot.label == "10.0.0.7/127.0.0.1:15555"
    with pytest.raises(ConfigError, match="must be a port number"):
        worker_resources(["127.0.0.1:15555=console"], phones=0)


@pytest.mark.parametrize(("devices", "phones", "message"), [
    ([], 0, "a worker needs devices"),
    (["a b"], 0, "not an adb serial"),
    (["emulator-5554", "emulator-5554"], 0, "given twice"),
    ([], -1, "--phones -1"),
])
def test_worker_resources_refuse_bad_options(devices: list[str], phones: int, message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        worker_resources(devices, phones)


def _node(alive: bool = True, **resources: float) -> dict[str, object]:
    """An entry of `ray.nodes()` as Ray 2.x returns it (the keys the driver reads)."""
    return {"NodeID": "n1", "Alive": alive, "NodeManagerAddress": "10.0.0.7",
            "Resources": {"CPU": 4.0, "node:10.0.0.7": 1.0, **resources}}


def test_node_slots_devices_then_phones_capped_by_phones_per_node() -> None:
    node = _node(**{DEVICE_PREFIX + "emulator-5556": 1.0, PHONE: 3.0, DEVICES: 4.0})
    slots = node_slots(node, phones_per_node=2)
    assert slots == [Slot("n1", "10.0.0.7", serial="emulator-5556"), Slot("n1", "10.0.0.7", index=0),
                     Slot("n1", "10.0.0.7", index=1)]
    assert [s.label for s in slots] == ["10.0.0.7/emulator-5556", "10.0.0.7/phone-0", "10.0.0.7/phone-1"]
    assert [s.resource for s in slots] == [DEVICE_PREFIX + "emulator-5556", PHONE, PHONE]
    assert len(node_slots(node, phones_per_node=None)) == 4


def test_dead_nodes_and_the_head_have_no_slots() -> None:
    assert node_slots(_node(alive=False, **{PHONE: 2.0}), None) == []
    assert node_slots(_node(), None) == []


def test_ray_start_command_of_the_worker() -> None:
    config = WorkerConfig(address="10.0.0.5:6379", devices=["emulator-5554"], phones=2,
                          node_ip_address="10.0.0.7", num_cpus=4, temp_dir=Path("/tmp/r1"),
                          ray_args=["--min-worker-port=20000"])
    command = ray_start_command(config)
    assert command[:5] == [sys.executable, "-m", "ray.scripts.scripts", "start", "--address"]
    assert command[5] == "10.0.0.5:6379"
    resources = json.loads(command[command.index("--resources") + 1])
    assert resources == worker_resources(["emulator-5554"], 2)
    assert "--block" in command
    assert command[command.index("--node-ip-address") + 1] == "10.0.0.7"
    assert command[-1] == "--min-worker-port=20000"


def test_unreachable_address_is_named_before_anything_is_written(capsys: pytest.CaptureFixture[str],
                                                                  tmp_path: Path) -> None:
    address = f"127.0.0.1:{free_port()}"
    result = run_cli(capsys, "run", "--executor", "ray", "--ray-address", address, "--suite", "smoke",
                     "--agent", "oracle", "--out", str(tmp_path / "results"))
    assert result.code == 2
    assert f"Ray address {address}: cannot reach the cluster's head" in result.err
    assert not (tmp_path / "results").exists()


@pytest.mark.parametrize(("args", "message"), [
    (["--executor", "ray"], "needs the cluster's address (--ray-address HOST:PORT)"),
    (["--ray-address", "127.0.0.1:6379"], "need --executor ray"),
    (["--executor", "ray", "--ray-address", "nohost"], "expected HOST:PORT"),
    (["--executor", "ray", "--ray-address", "127.0.0.1:6379", "--device", "emulator-5554"],
     "spa-bench worker --device SERIAL"),
    (["--executor", "thread"], "executor"),
])
def test_bad_ray_options_are_named(capsys: pytest.CaptureFixture[str], tmp_path: Path, args: list[str],
                                   message: str) -> None:
    result = run_cli(capsys, "run", *args, "--suite", "smoke", "--agent", "oracle",
                     "--out", str(tmp_path / "results"))
    assert result.code == 2, result.err
    assert message in result.err
    assert not (tmp_path / "results").exists()


def test_without_ray_installed_the_extra_is_named(tmp_path: Path) -> None:
    """Ray made unimportable (as when the extra is not installed): run and worker name the extra."""
    code = ("import sys; sys.modules['ray'] = None; from spa_bench.cli import main; sys.argv = sys.argv[1:]; "
            "main()")
    for args in (["spa-bench", "run", "--executor", "ray", "--ray-address", "127.0.0.1:6379", "--suite",
                  "smoke", "--agent", "oracle", "--out", str(tmp_path / "r")],
                 ["spa-bench", "worker", "--address", "127.0.0.1:6379", "--phones", "1"]):
        out = subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, timeout=120)
        assert out.returncode == 2, out.stderr
        assert "pip install 'spa-bench[ray]'" in out.stderr
    assert not (tmp_path / "r").exists()


def test_a_local_run_does_not_import_ray(adb_env: dict[str, str], tmp_path: Path) -> None:
    code = ("import sys\n"
            "from spa_bench.runner.config import AgentConfig, RunConfig\n"
            "from spa_bench.runner.run import run_benchmark\n"
            "from spa_bench.tasks.repository import TaskFilter\n"
            "result = run_benchmark(RunConfig(filter=TaskFilter(ids=['settings_wifi_off_en']), phones=1, "
            "phone_size='540x1200', out=sys.argv[1], agents=[AgentConfig(agent='oracle')]))\n"
            "assert result.summary.finished == 1, result.summary\n"
            "print(sorted(m for m in sys.modules if m == 'ray' or m.startswith('ray.')))\n")
    out = subprocess.run([sys.executable, "-c", code, str(tmp_path / "r")], capture_output=True, text=True,
                         env=adb_env, timeout=240)
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.strip().splitlines()[-1] == "[]"
