"""`spa-bench run --executor ray` on a real Ray cluster on loopback: a head and worker hosts joined with
`spa-bench worker --phones 2`, each a process group of its own (spa_bench.testing.ray_cluster).

Worker hosts are killed with SIGKILL on their whole process group mid-run (a host losing power), and the
driver is killed the same way; every planned episode must still be recorded exactly once, with the
oracle at 100%, and a host that joins again must get work. One cluster serves the module (a head starts
in a few seconds); the tests run in order on it.
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from datetime import datetime
from pathlib import Path

import pytest

from spa_bench.errors import ResultsError
from spa_bench.evaluation.policy import decide_success
from spa_bench.results.layout import RunLayout
from spa_bench.results.schema import EpisodeLog
from spa_bench.tasks.repository import TaskFilter, TaskRepository, default_tasks_root
from spa_bench.testing.ray_cluster import LoopbackCluster

pytestmark = [pytest.mark.ray, pytest.mark.slow, pytest.mark.xdist_group("ray-cluster"),
              pytest.mark.timeout(600)]
SAMPLE = Path(__file__).resolve().parents[1] / "data" / "spa_bench_sample"  # SPA-Bench's own CSV format
SUITE, LANG = "starter", "en"  # 21 tasks: one per app and a cross-app task, enough to kill hosts under
HANG_GUARD_S = 300.0  # not a speed limit: only how long a broken run may hang before the test says so


@pytest.fixture(scope="module")
def cluster(adb_env: dict[str, str]) -> Iterator[LoopbackCluster]:
    pytest.importorskip("ray", reason="the [ray] extra is not installed")
    farm = LoopbackCluster.start(env=adb_env)
    try:
        farm.add_worker("a", "127.0.0.3", phones=2)
        farm.add_worker("b", "127.0.0.4", phones=2)
        yield farm
    finally:
        farm.close()


def planned_ids() -> set[str]:
    records = TaskRepository(default_tasks_root()).select(TaskFilter(suites=[SUITE], languages=[LANG]))
    return {f"oracle__{r.id}__r0" for r in records}


def driver(cluster: LoopbackCluster, out: Path, *args: str) -> subprocess.Popen[str]:
    """`spa-bench run` as a process group of its own, so that it can be killed like a crashed host."""
    command = [sys.executable, "-m", "spa_bench", "run", *args, "--out", str(out)]
    log_path = out.parent / f"driver-{len(list(out.parent.glob('driver-*')))}.log"
    with open(log_path, "w") as log:
        process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT, text=True, env=cluster.env,
                                   start_new_session=True)
    process.log_path = log_path  # type: ignore[attr-defined]
    return process


def recorded(run_dir: Path) -> list[EpisodeLog]:
    layout = RunLayout(run_dir)
    logs = []
    for episode in layout.episode_ids():
        try:
            logs.append(layout.read_episode(episode))
        except ResultsError:  # not there yet (logs are renamed into place whole)
            continue
    return logs


def wait_until(what: str, condition: object, process: subprocess.Popen[str] | None = None) -> None:
    deadline = time.monotonic() + HANG_GUARD_S
    while not condition():  # type: ignore[operator]
        if process is not None and process.poll() is not None:
            output = process.log_path.read_text(errors="replace")[-3000:]  # type: ignore[attr-defined]
            raise AssertionError(f"the driver ended (exit {process.returncode}) before {what}: {output}")
        if time.monotonic() > deadline:
            raise AssertionError(f"{what}: not after {HANG_GUARD_S:.0f} s")
        time.sleep(0.2)


def finished_ids(out: Path) -> set[str]:
    """Episodes recorded so far in the one run folder under `out`."""
    runs = [p for p in out.glob("*") if (p / "manifest.json").is_file()] if out.is_dir() else []
    assert len(runs) <= 1
    return {log.episode_id for log in recorded(runs[0]) if log.status == "finished"} if runs else set()


def run_folder(out: Path) -> Path:
    (run_dir,) = [p for p in out.glob("*") if (p / "manifest.json").is_file()]
    return run_dir


def assert_recorded_exactly_once_and_oracle_100(run_dir: Path) -> list[EpisodeLog]:
    planned = planned_ids()
    logs = recorded(run_dir)
    folders = sorted(p.name for p in (run_dir / "episodes").iterdir())
    assert folders == sorted(planned)  # one folder per planned episode, none twice, nothing else
    assert sorted(log.episode_id for log in logs) == sorted(planned)
    assert all(log.status == "finished" and log.termination == "done" for log in logs), \
        [(log.episode_id, log.termination, log.errors[-1:]) for log in logs if log.termination != "done"]
    assert [log.episode_id for log in logs if decide_success(log).success is not True] == []
    summary = RunLayout(run_dir).read_summary()
    assert (summary.planned, summary.finished, summary.undone, summary.failed) == (len(planned),
                                                                                   len(planned), [], {})
    # the manifest names every device that ran an episode (the driver adds them as they join)
    devices = {(d.host, d.serial) for d in RunLayout(run_dir).read_manifest().devices}
    assert {(log.device.host, log.device.serial) for log in logs} <= devices
    for log in logs:  # every screenshot the log names was shipped back and written by the driver
        folder = run_dir / "episodes" / log.episode_id
        assert log.final_observation is not None and log.final_observation.screenshot is not None
        names = [s.observation.screenshot for s in log.steps] + [log.final_observation.screenshot]
        assert all(name is not None and (folder / name).stat().st_size > 0 for name in names)
    return logs


def test_a_host_killed_mid_run_loses_nothing_and_a_host_that_joins_gets_work(
        cluster: LoopbackCluster, tmp_path: Path) -> None:
    out = tmp_path / "results"
    process = driver(cluster, out, "--executor", "ray", "--ray-address", cluster.address, "--suite", SUITE,
                     "--lang", LANG,
                     "--agent", "oracle", "--max-retries", "3")
    try:
        wait_until("3 episodes recorded", lambda: len(finished_ids(out)) >= 3, process)
        cluster.kill("a")  # mid-run: its two phones are busy with episodes
        killed_a = len(finished_ids(out))
        wait_until("3 more episodes recorded on the other host",
                   lambda: len(finished_ids(out)) >= killed_a + 3, process)
        cluster.kill("b")  # no device left: the rest must wait for, and run on, the host that rejoins
        left = planned_ids() - finished_ids(out)
        assert left, "the run ended before the second host was killed; nothing left for the rejoin"
        rejoined_at = datetime.now().astimezone()
        cluster.add_worker("a", "127.0.0.3", phones=2)  # host a comes back (a new Ray node)
        cluster.add_worker("b", "127.0.0.4", phones=2)  # for the next test
        assert process.wait(timeout=HANG_GUARD_S) == 0
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
    run_dir = run_folder(out)
    logs = assert_recorded_exactly_once_and_oracle_100(run_dir)
    retried = [log for log in logs if log.attempt > 1]
    assert retried, "no episode was re-queued, though hosts died under running episodes"
    assert all(any(e.kind == "device" for e in log.errors) for log in retried)
    assert {log.device.host for log in logs} >= {"127.0.0.3", "127.0.0.4"}
    assert [log for log in logs if log.started_at > rejoined_at], "the rejoined hosts got no work"
    summary = RunLayout(run_dir).read_summary()
    removed = set(summary.removed_devices)
    assert {"127.0.0.3/phone-0", "127.0.0.3/phone-1", "127.0.0.4/phone-0", "127.0.0.4/phone-1"} & removed
    driver_log = next(iter(sorted(out.parent.glob("driver-*.log")))).read_text()
    assert "joined" in driver_log and "taken out" in driver_log


def test_resume_after_the_driver_is_killed_with_a_shared_artifact_dir(cluster: LoopbackCluster,
                                                                     tmp_path: Path) -> None:
    out, shared = tmp_path / "results", tmp_path / "shared"  # shared: as a file system all hosts mount
    args = ["--executor", "ray", "--ray-address", cluster.address, "--suite", SUITE, "--lang", LANG,
            "--agent", "oracle",
            "--artifact-dir", str(shared), "--phones-per-node", "1"]
    process = driver(cluster, out, *args)
    try:
        wait_until("4 episodes recorded", lambda: len(finished_ids(out)) >= 4, process)
    finally:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait(timeout=30)
    run_dir = run_folder(out)
    before = {log.episode_id: log for log in recorded(run_dir)}
    # the driver records an episode only when it has come back whole: nothing half-written is left
    assert all(log.status == "finished" for log in before.values())
    assert len(before) < len(planned_ids())
    # A driver killed after recording an episode and before removing its copy in the shared folder
    # leaves the copy (the test kills it right after an episode is recorded, so that happens under load);
    # the resumed run does not run that episode again, yet must remove it. Made sure of here:
    recorded_first = sorted(before)[0]
    copy_left = shared / run_dir.name / f"{recorded_first}.attempt1" / "episodes" / recorded_first
    (copy_left / "screenshots").mkdir(parents=True, exist_ok=True)
    (copy_left / "screenshots" / "final.png").write_bytes(b"left by the killed driver")
    resumed = driver(cluster, out, "--resume", str(run_dir))
    assert resumed.wait(timeout=HANG_GUARD_S) == 0
    logs = assert_recorded_exactly_once_and_oracle_100(run_dir)
    # --phones-per-node 1, kept by the resumed run (from the manifest): one phone of the two each host offers
    resumed_output = resumed.log_path.read_text()  # type: ignore[attr-defined]
    assert "127.0.0.3/phone-0 joined" in resumed_output and "127.0.0.4/phone-0 joined" in resumed_output
    assert "phone-1" not in resumed_output
    again = [log for log in logs if log.episode_id not in before]
    assert len({(log.device.host, log.device.serial) for log in again}) == 2
    # the actors left each episode's files in the shared folder; the driver copied them in and removed them
    assert [p.name for p in (shared / run_dir.name).iterdir()] == []
    for log in logs:  # what the killed driver recorded is kept as it was
        if log.episode_id in before:
            assert log.started_at == before[log.episode_id].started_at
            assert log.finished_at == before[log.episode_id].finished_at


def test_tasks_whose_apps_the_phones_lack_are_refused_then_skipped(cluster: LoopbackCluster,
                                                                  tmp_path: Path) -> None:
    """As a local run: the devices of the hosts in the cluster say what they have installed before any
    episode starts. SPA-Bench's sample weather and notes apps are not on the virtual phones, Settings is."""
    tasks_dir, out = tmp_path / "tasks", tmp_path / "results"
    imported = subprocess.run([sys.executable, "-m", "spa_bench", "tasks", "import-spa-bench",
                               *map(str, [*sorted(SAMPLE.glob("*.csv")), SAMPLE / "cross-app-split"]),
                               "--out", str(tasks_dir / "spa")], capture_output=True, text=True,
                              env=cluster.env, timeout=120)
    assert imported.returncode == 0, imported.stderr
    args = ["--executor", "ray", "--ray-address", cluster.address, "-t", str(tasks_dir), "--agent", "noop",
            "--max-steps", "1", "--phones-per-node", "1"]
    refused = driver(cluster, out, *args)
    assert refused.wait(timeout=HANG_GUARD_S) == 2
    message = " ".join(refused.log_path.read_text().split())  # type: ignore[attr-defined]
    # The check runs once the first device is up (a slow host does not hold the run back), so it names
    # the hosts' phones that had joined by then: one of them or both.
    named = re.search(r"need apps not installed on device\(s\) ([^:]+):", message)
    assert named is not None, message
    devices = named.group(1).split(", ")
    assert devices and set(devices) <= {"127.0.0.3/phone-0", "127.0.0.4/phone-0"}, message
    assert "weather_0 (com.example.weather)" in message and "--skip-missing-apps" in message
    assert "settings_0_ENG" not in message
    assert not list(out.glob("*")), "nothing may be written for a refused run"
    ran = driver(cluster, out, *args, "--skip-missing-apps")
    assert ran.wait(timeout=HANG_GUARD_S) == 0, ran.log_path.read_text()[-3000:]  # type: ignore[attr-defined]
    run_dir = run_folder(out)
    manifest = json.loads((run_dir / "manifest.json").read_text(encoding="utf-8"))
    assert sorted(manifest["task_ids"]) == ["settings_0_CHN", "settings_0_ENG"]
    assert sorted((d["host"], d["kind"]) for d in manifest["devices"]) == [("127.0.0.3", "virtual"),
                                                                          ("127.0.0.4", "virtual")]
    assert sorted(log.episode_id for log in recorded(run_dir)) == ["noop__settings_0_CHN__r0",
                                                                   "noop__settings_0_ENG__r0"]


THINKER = """
import time
from pathlib import Path
from spa_bench.agent import AgentStep, BaseAgent

class Thinker(BaseAgent):
    def reset(self, context):
        super().reset(context)
        self.steps = 0

    def step(self, observation):
        self.steps += 1
        if self.steps == 2:  # mid-episode: say which phone is busy, then hold until the test has killed one
            port = self.context.serial.rpartition(":")[2]
            (Path(BUSY_DIR) / f"busy-{port}").touch()
            deadline = time.monotonic() + 300
            while not (Path(BUSY_DIR) / "go").exists() and time.monotonic() < deadline:
                time.sleep(0.05)
        return AgentStep({"type": "scroll", "direction": "down"}, output="held until the test said go")
"""


def _parent(pid: int) -> int:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return 0
    return int(stat.rpartition(")")[2].split()[1])  # the field after the state


def phones_of(node_pid: int) -> dict[int, int]:
    """The virtual phones the device actors of one worker host started, by adb port: phone processes (new
    interpreters `spa_bench phone start`, or forks of the zygote `spa_bench.phone.zygote`) that descend
    from that host's `spa-bench worker` process and have reported the port they bound in the ready file
    of their data dir, which is their working directory. Never anyone else's."""
    from spa_bench.phone.process import READY_FILE, read_ready_file

    out = subprocess.run(["ps", "-eo", "pid=,args="], capture_output=True, text=True, check=True)
    phones = {}
    for line in out.stdout.splitlines():
        pid_text, _, args = line.strip().partition(" ")
        if "spa_bench phone start" not in args and "spa_bench.phone.zygote" not in args:
            continue
        ancestor = int(pid_text)
        while ancestor > 1 and ancestor != node_pid:
            ancestor = _parent(ancestor)
        if ancestor == node_pid:
            try:
                port = read_ready_file(Path(os.readlink(f"/proc/{pid_text}/cwd")) / READY_FILE)
            except OSError:  # gone, or the zygote itself (no ready file where it runs)
                continue
            if port is not None:
                phones[port] = int(pid_text)
    return phones


def busy_port(busy_dir: Path) -> int | None:
    """The adb port of a phone an episode is using now (its agent left a marker mid-episode and holds)."""
    markers = sorted(busy_dir.glob("busy-*"))
    return int(markers[0].name.removeprefix("busy-")) if markers else None


def test_a_phone_that_dies_mid_episode_is_retried_on_another_device(cluster: LoopbackCluster,
                                                                    tmp_path: Path) -> None:
    """Not the host: one phone crashes under a running episode. Its actor reports a device error and a
    failed health check; the driver keeps that attempt's log (not final), takes the phone out, and the
    episode runs again elsewhere with attempt 2. The agent holds its episodes mid-way until the phone is
    killed, so that the kill lands under a running episode however busy the machine is."""
    agent = tmp_path / "thinker.py"
    agent.write_text(THINKER.replace("BUSY_DIR", repr(str(tmp_path))))
    out = tmp_path / "results"
    process = driver(cluster, out, "--executor", "ray", "--ray-address", cluster.address, "--suite", "smoke",
                     "--agent", f"{agent}:Thinker", "--repeats", "2", "--max-steps", "4")
    try:
        wait_until("an episode running on a phone", lambda: busy_port(tmp_path) is not None, process)
        port = busy_port(tmp_path)
        hosts = {name: phones_of(cluster.nodes[name].process.pid) for name in ("a", "b")}
        (host, victim), = [(name, phones[port]) for name, phones in hosts.items() if port in phones]
        os.kill(victim, signal.SIGKILL)
        (tmp_path / "go").touch()
        assert process.wait(timeout=HANG_GUARD_S) == 0
    finally:
        (tmp_path / "go").touch()
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
    run_dir = run_folder(out)
    logs = recorded(run_dir)
    smoke = TaskRepository(default_tasks_root()).select(TaskFilter(suites=["smoke"]))
    assert sorted(log.episode_id for log in logs) == sorted(
        f"Thinker__{r.id}__r{repeat}" for r in smoke for repeat in (0, 1))
    assert all(log.status == "finished" and log.termination == "max_steps" for log in logs)
    retried = [log for log in logs if log.attempt > 1]
    assert len(retried) == 1 and retried[0].attempt == 2
    assert [e.kind for e in retried[0].errors] == ["device"]
    summary = RunLayout(run_dir).read_summary()
    (removed,) = summary.removed_devices
    assert removed.startswith({"a": "127.0.0.3", "b": "127.0.0.4"}[host] + "/phone-")
    assert (summary.finished, summary.failed, summary.undone) == (8, {}, [])


def test_a_device_listed_by_a_worker_host(cluster: LoopbackCluster, tmp_path: Path) -> None:
    """`spa-bench worker --device SERIAL`: a device of the host (here a virtual phone started and
    prepared outside Ray, as an emulator would be) gets its own resource and actor. The hosts with
    phones leave first, so every episode must run on that device."""
    from spa_bench.runner.pool import start_virtual_pool

    cluster.kill("a")
    cluster.kill("b")
    pool = start_virtual_pool(1)
    serial, console = pool.devices[0].serial, pool.devices[0].console_port
    out = tmp_path / "results"
    try:
        cluster.add_worker("c", "127.0.0.6", phones=0, devices=(f"{serial}={console}",))
        process = driver(cluster, out, "--executor", "ray", "--ray-address", cluster.address, "--suite",
                         "smoke", "--agent", "oracle")
        try:
            code = process.wait(timeout=HANG_GUARD_S)
            assert code == 0, process.log_path.read_text()[-3000:]  # type: ignore[attr-defined]
        finally:
            if process.poll() is None:
                os.killpg(process.pid, signal.SIGKILL)
    finally:
        pool.close()
    logs = recorded(run_folder(out))
    assert len(logs) == 4
    assert [log.episode_id for log in logs if not decide_success(log).success] == [], \
        [(log.termination, [e.message[:300] for e in log.errors]) for log in logs]
    assert {(log.device.host, log.device.serial, log.device.kind) for log in logs} == {
        ("127.0.0.6", serial, "virtual")}
