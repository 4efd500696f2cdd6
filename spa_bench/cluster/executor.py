"""`spa-bench run --executor ray`: the driver's loop over device actors on a Ray cluster.

One long-lived actor per device slot (spa_bench.cluster.resources: a real device listed by a worker
host, or a virtual phone an actor starts there), pinned to its node and holding the device's resource.
The loop hands one attempt at a time to each idle actor and waits on the results with `ray.wait`; it
alone records them (`EpisodeWork.adopt`), once per episode. Ray's own retries are off
(`max_restarts=0`, `max_task_retries=0`): whether to run an episode again is decided here, as the local
executor decides it:

    what came back                                       what happens
    a finished log                                       recorded (and scored) by the driver
    the episode raised a device error on its host        its log is kept (not final), the device is
                                                         checked there, taken out if it fails the check,
                                                         and the episode re-queued with attempt + 1
    the actor, its node or the result was lost           the same, and the device is taken out; the other
    (RayActorError, ActorUnavailableError, ...)          actors of that node are probed before new work
    attempts beyond --max-retries                        given up (the summary's `failed`)

Before the first episode, the devices whose hosts are in the cluster are started and asked what they
have installed (`present_devices`: the run refuses, or with --skip-missing-apps leaves out, tasks whose
apps they lack, as a local run does); a device that joins later gets only the episodes whose apps it has,
and the driver adds it to the manifest's devices.

Each run of the driver is a session with an id of its own. Its actors are named after the run and
the session, and leave episodes in the shared --artifact-dir under `<run-id>/<session>/` only. A
resumed driver (the run folder's lock says no other driver runs it) first kills the actors that earlier
sessions of the run may still have (Ray ends a dead driver's actors itself, but not at once: under load
one may still be writing an episode), then removes what those sessions left in the shared folder: it
was never recorded, or was recorded and its copy not yet removed when the driver died.

Every few seconds the loop reads `ray.nodes()` and starts actors for slots it has not seen: a host that
joins (or rejoins: it comes back as a new node) gets work. A slot whose device was taken out is not
used again on that node. The loop ends when every attempt is done, when the run is stopped (running
episodes end as `interrupted` when the user stopped it), or when no device has been available for
`wait_for_devices_s`; what is left is returned as undone, and `--resume` runs it later.
"""

from __future__ import annotations

import contextlib
import logging
import shutil
import threading
import time
import uuid
from collections import deque
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any

from spa_bench.cluster.actor import (
    DeviceHost,
    DeviceSpec,
    EpisodeOutcome,
    EpisodeRequest,
    portable_job,
    session_dir,
)
from spa_bench.cluster.connect import import_ray
from spa_bench.cluster.resources import Slot, node_slots
from spa_bench.device.device import Device
from spa_bench.errors import ConfigError, RemoteEpisodeError
from spa_bench.runner.episode import error_info
from spa_bench.runner.events import Events
from spa_bench.runner.pool import DevicePool
from spa_bench.runner.preflight import can_run
from spa_bench.runner.scheduler import Attempt, DeviceReport, EpisodeWork

log = logging.getLogger("spa_bench.cluster")
NAMESPACE = "spa-bench"
STALE_ACTORS_GONE_S = 60.0  # how long a resumed driver waits for the killed actors of earlier sessions


@dataclass
class _Actor:
    slot: Slot
    handle: Any  # a Ray actor handle of DeviceHost
    device: Device  # names the device in events (never used for I/O here)
    ready: bool = False
    busy: Attempt | None = None
    report: DeviceReport | None = None  # what its first probe said
    probed_once: bool = False
    probe_started: float = field(default_factory=time.monotonic)


class RayExecutor:
    """The Executor of `spa-bench run --executor ray --ray-address HOST:PORT`."""

    def __init__(self, address: str, phones_per_node: int | None = None, artifact_dir: Path | None = None,
                 phone_size: str = "1080x2400", phone_clock: str | None = None,
                 discover_every_s: float = 2.0, wait_for_devices_s: float = 120.0,
                 probe_timeout_s: float = 300.0) -> None:
        self.address = address
        self.phones_per_node = phones_per_node
        self.artifact_dir = artifact_dir.resolve() if artifact_dir is not None else None
        self.phone_size, self.phone_clock = phone_size, phone_clock
        self.discover_every_s = discover_every_s
        self.wait_for_devices_s = wait_for_devices_s
        self.probe_timeout_s = probe_timeout_s

        self.session = uuid.uuid4().hex[:12]
        self._loop: _DriverLoop | None = None
        self._ray: ModuleType | None = None

    def _open(self, pool: DevicePool, events: Events, stop: threading.Event) -> _DriverLoop:
        if self._loop is not None:
            return self._loop
        ray = import_ray()
        if not ray.is_initialized():
            try:
                ray.init(address=self.address, namespace=NAMESPACE, log_to_driver=False,
                         logging_level=logging.WARNING)
            except Exception as exc:  # ConnectionError, version mismatches, ...
                raise ConfigError(f"Ray address {self.address}: cannot join the cluster: "
                                  f"{str(exc).splitlines()[0] if str(exc) else type(exc).__name__}") from None
            self._ray = ray  # connected here: disconnected in close()
        self._loop = _DriverLoop(ray, self, pool, events, stop)
        return self._loop

    def present_devices(self, pool: DevicePool, events: Events, stop: threading.Event,
                        run_id: str) -> list[DeviceReport]:
        return self._open(pool, events, stop).start(run_id)

    def run(self, attempts: list[Attempt], pool: DevicePool, work: EpisodeWork, events: Events,
            stop: threading.Event, max_retries: int) -> list[Attempt]:
        loop = self._open(pool, events, stop)
        if not loop.started:
            loop.start(work.run_id)
        loop.events, loop.stop = events, stop
        return loop.run(attempts, work, max_retries)

    def close(self) -> None:
        if self._loop is not None:
            self._loop.close()
            self._loop = None
        if self._ray is not None:
            self._ray.shutdown()
            self._ray = None


class _DriverLoop:
    def __init__(self, ray: ModuleType, executor: RayExecutor, pool: DevicePool, events: Events,
                 stop: threading.Event) -> None:
        from ray.util.scheduling_strategies import NodeAffinitySchedulingStrategy

        self.ray, self.ex, self.pool, self.events, self.stop = ray, executor, pool, events, stop
        self.work: EpisodeWork | None = None  # set by run(): until then devices start, nothing runs
        self.max_retries = 0
        self.run_id = ""
        self.started = False
        self.affinity = NodeAffinitySchedulingStrategy
        self.actor_class = ray.remote(DeviceHost)
        self.pending: deque[Attempt] = deque()
        self.actors: dict[Slot, _Actor] = {}
        self.retired: set[Slot] = set()
        self.probes: dict[Any, Slot] = {}  # object ref -> slot
        self.running: dict[Any, Slot] = {}
        self.recorded: set[str] = set()

    # -- the loop -------------------------------------------------------------------------------------
    def start(self, run_id: str) -> list[DeviceReport]:
        """Clear what earlier sessions of the run left, start an actor for every device of the hosts in
        the cluster now, and wait until each has answered (or been taken out): the devices present at
        the start of the run."""
        self.run_id, self.started = run_id, True
        self._end_earlier_sessions()
        # a cluster with no device yet (workers still joining, or rejoining after a host died) is waited
        # for as the run waits for devices, so that the app check sees the devices it will use
        joined_by = time.monotonic() + self.ex.wait_for_devices_s
        while True:
            self._discover()
            deadline = time.monotonic() + self.ex.probe_timeout_s + 1.0
            while self.probes and not self.stop.is_set() and time.monotonic() < deadline:
                self._wait()
            ready = [a.report for a in sorted(self.actors.values(), key=lambda a: a.slot.label)
                     if a.ready and a.report is not None]
            if ready or self.stop.is_set() or time.monotonic() >= joined_by:
                return ready
            self.stop.wait(self.ex.discover_every_s)

    def run(self, attempts: list[Attempt], work: EpisodeWork, max_retries: int) -> list[Attempt]:
        self.work, self.max_retries = work, max_retries
        self.pending.extend(attempts)
        last_discovery = float("-inf")
        idle_since: float | None = None
        interrupted = False
        while True:
            if self.recording.stop.is_set() and not interrupted:  # the user's stop: end running episodes
                interrupted = True
                for actor in self.actors.values():
                    if actor.busy is not None:
                        actor.handle.interrupt.remote()
            if not self.stop.is_set():
                if time.monotonic() - last_discovery >= self.ex.discover_every_s:
                    self._discover()
                    last_discovery = time.monotonic()
                self._assign()
            if not self.running and (self.stop.is_set() or not self.pending):
                break
            if not self.running and not self.probes and not self._runnable():
                idle_since = idle_since if idle_since is not None else time.monotonic()
                if time.monotonic() - idle_since > self.ex.wait_for_devices_s:
                    log.warning("no device on the cluster for %.0f s; %d episode(s) left undone",
                                self.ex.wait_for_devices_s, len(self.pending))
                    break
            else:
                idle_since = None
            self._wait()
        return list(self.pending)

    @property
    def recording(self) -> EpisodeWork:
        assert self.work is not None, "run() sets it before any episode"
        return self.work

    def _runnable(self) -> bool:
        """Some ready device has the apps of some waiting episode."""
        return any(self._fits(actor, attempt) for actor in self.actors.values() if actor.ready
                   for attempt in self.pending)

    @staticmethod
    def _fits(actor: _Actor, attempt: Attempt) -> bool:
        return actor.report is not None and can_run(attempt.job.task, actor.report.packages)

    def _wait(self) -> None:
        refs = [*self.running, *self.probes]
        if not refs:
            time.sleep(0.2)
            return
        ready, _ = self.ray.wait(refs, num_returns=1, timeout=0.5)
        if ready:
            more, _ = self.ray.wait(refs, num_returns=len(refs), timeout=0)
            ready = list(dict.fromkeys([*ready, *more]))
        for ref in ready:
            if ref in self.probes:
                self._probed(ref, self.probes.pop(ref))
            elif ref in self.running:
                self._returned(ref, self.running.pop(ref))
        now = time.monotonic()
        for ref, slot in list(self.probes.items()):
            if now - self.actors[slot].probe_started > self.ex.probe_timeout_s:
                del self.probes[ref]
                self._retire(slot, f"did not start within {self.ex.probe_timeout_s:.0f} s")

    # -- devices --------------------------------------------------------------------------------------
    def _end_earlier_sessions(self) -> None:
        """Kill the actors earlier sessions of this run still have on the cluster, wait until they are
        gone, then remove what those sessions left in the shared folder (see the module's docstring)."""
        ours = f"{self.run_id}/{self.ex.session}/"
        stale = [name for name in self._named_actors() if name.startswith(f"{self.run_id}/")
                 and not name.startswith(ours)]
        for name in stale:
            with contextlib.suppress(Exception):  # already gone
                self.ray.kill(self.ray.get_actor(name, namespace=NAMESPACE), no_restart=True)
        left = self._wait_gone(stale)
        if left:
            log.warning("%d device actor(s) of an earlier session of the run are still on the cluster "
                        "after %.0f s: %s", len(left), STALE_ACTORS_GONE_S, ", ".join(left))
        self._remove_sessions(keep_ours=True)

    def _wait_gone(self, names: list[str]) -> list[str]:
        """Wait (a while) until no actor of these names is alive; those still there."""
        deadline = time.monotonic() + STALE_ACTORS_GONE_S
        while names:
            names = [name for name in names if name in set(self._named_actors())]
            if not names or time.monotonic() > deadline:
                break
            time.sleep(0.2)
        return names

    def _named_actors(self) -> list[str]:
        return [str(entry["name"]) for entry in self.ray.util.list_named_actors(all_namespaces=True)
                if entry["namespace"] == NAMESPACE]

    def _remove_sessions(self, keep_ours: bool) -> None:
        """What the run's sessions left in the shared folder (with keep_ours, all but this session's)."""
        if self.ex.artifact_dir is None:
            return
        mine = session_dir(self.ex.artifact_dir, self.run_id, self.ex.session)
        root = mine.parent
        if not root.is_dir():
            return
        for child in root.iterdir():
            if not (keep_ours and child == mine):
                _remove_tree(child)

    def _discover(self) -> None:
        alive: set[str] = set()
        for node in self.ray.nodes():
            if node.get("Alive"):
                alive.add(str(node["NodeID"]))
            for slot in node_slots(node, self.ex.phones_per_node):
                if slot not in self.actors and slot not in self.retired:
                    self._create(slot)
        for slot, actor in list(self.actors.items()):
            if slot.node_id not in alive and actor.busy is None:
                self._retire(slot, "its host left the cluster")

    def _create(self, slot: Slot) -> None:
        spec = DeviceSpec(serial=slot.serial, host=slot.node_ip, console_port=slot.console_port,
                          phone_size=self.ex.phone_size,
                          phone_clock=self.ex.phone_clock)
        handle = self.actor_class.options(
            name=f"{self.run_id}/{self.ex.session}/{slot.node_id}/{slot.label}", namespace=NAMESPACE,
            num_cpus=0, max_restarts=0, max_task_retries=0, max_concurrency=2,
            resources={slot.resource: 1}, scheduling_strategy=self.affinity(slot.node_id, soft=False),
        ).remote(spec)
        actor = _Actor(slot, handle, Device(slot.label))
        self.actors[slot] = actor
        self.probes[handle.probe.remote(slot.label)] = slot
        log.info("device actor for %s started", slot.label)

    def _probe_again(self, actor: _Actor) -> None:
        actor.ready = False
        actor.probe_started = time.monotonic()
        self.probes[actor.handle.probe.remote(actor.slot.label)] = actor.slot

    def _probed(self, ref: Any, slot: Slot) -> None:
        actor = self.actors.get(slot)
        if actor is None:
            return
        try:
            report: DeviceReport = self.ray.get(ref)
        except self.ray.exceptions.RayError as exc:
            self._retire(slot, _first_line(exc))
            return
        actor.report = report
        if not actor.ready and not actor.probed_once:
            actor.probed_once = True
            self.events.device_added(actor.device)
            if self.work is not None:  # joined during the run (those of the start: run.py records them)
                self.work.record_device(report.info)
        actor.ready = True

    def _retire(self, slot: Slot, reason: str) -> None:
        """Take the device out: no more work for it, and its resource freed for nobody else's use."""
        actor = self.actors.pop(slot, None)
        self.retired.add(slot)
        for ref, other in list(self.probes.items()):
            if other == slot:
                del self.probes[ref]
        if actor is None:
            return
        with contextlib.suppress(Exception):
            self.ray.kill(actor.handle, no_restart=True)
        self.pool.take_out(actor.device, reason)
        self.events.device_removed(actor.device, reason)

    def _suspect_node(self, node_id: str) -> None:
        """An actor of this node was lost: probe its other idle actors before they get work."""
        for actor in self.actors.values():
            if actor.slot.node_id == node_id and actor.ready and actor.busy is None:
                self._probe_again(actor)

    # -- episodes -------------------------------------------------------------------------------------
    def _assign(self) -> None:
        for slot in sorted(self.actors, key=lambda s: s.label):
            actor = self.actors[slot]
            if not self.pending:
                return
            if not actor.ready or actor.busy is not None:
                continue
            attempt = next((a for a in self.pending if self._fits(actor, a)), None)
            if attempt is None:  # a device that joined late without some task's apps
                continue
            self.pending.remove(attempt)
            actor.busy = attempt
            self.running[actor.handle.run_episode.remote(self._request(attempt))] = slot
            self.events.started(attempt, actor.device)

    def _request(self, attempt: Attempt) -> EpisodeRequest:
        cache = self.recording.model_cache
        return EpisodeRequest(
            job=portable_job(attempt.job), attempt=attempt.number, earlier_errors=list(attempt.errors),
            limits=self.recording.limits, run_id=self.run_id, session=self.ex.session,
            artifact_dir=self.ex.artifact_dir,
            model_cache=cache.root.resolve() if cache is not None else None,
            model_cache_replay=cache.replay_only if cache is not None else False,
            secrets=self.recording.secrets)

    def _returned(self, ref: Any, slot: Slot) -> None:
        actor = self.actors.get(slot)
        attempt = actor.busy if actor is not None else None
        if actor is None or attempt is None:
            return
        actor.busy = None
        try:
            outcome: EpisodeOutcome = self.ray.get(ref)
        except self.ray.exceptions.RayTaskError as exc:  # the actor's code raised: a harness bug
            attempt.errors.append(error_info("harness", exc))
            self.events.gave_up(attempt, exc)
            return
        except self.ray.exceptions.RayError as exc:  # the actor, its node or the result is gone
            attempt.errors.append(error_info("device", exc))
            self._retire(slot, f"lost during {attempt.job.episode_id}: {_first_line(exc)}")
            self._suspect_node(slot.node_id)
            self._again(attempt, actor.device, exc)
            return
        files = outcome.folder if outcome.folder is not None else outcome.files
        failure = outcome.failure
        if not self.stop.is_set() and (failure is None or failure.device_healthy):
            self._assign()  # the device's next episode first: recording and scoring here take a while
        if failure is None:
            if attempt.job.episode_id in self.recorded:  # cannot happen with Ray's retries off; never twice
                log.error("%s came back twice; the second result is dropped", attempt.job.episode_id)
                return
            self.recorded.add(attempt.job.episode_id)
            self.events.finished(self.recording.adopt(outcome.log, files))
        else:
            attempt.errors.append(failure.error)
            self.recording.adopt(outcome.log, files, final=False)  # kept, as a local run keeps it
            error = RemoteEpisodeError(f"{failure.error.type}: {failure.error.message}")
            if not failure.infrastructure:
                self.events.gave_up(attempt, error)
            else:
                if not failure.device_healthy:
                    self._retire(slot, failure.error.message)
                self._again(attempt, actor.device, error)
        if outcome.folder is not None:  # copied into the run folder: the shared scratch goes
            _remove_tree(outcome.folder.parent.parent)

    def _again(self, attempt: Attempt, device: Device, error: BaseException) -> None:
        if attempt.number <= self.max_retries:
            self.events.retrying(attempt, device, error)
            self.pending.append(Attempt(attempt.job, attempt.number + 1, attempt.errors))
        else:
            self.events.gave_up(attempt, error)

    def close(self) -> None:
        """Stop every device actor: its device is closed (a virtual phone stops), then the actor."""
        actors = list(self.actors.values())
        closing = [a.handle.close.remote() for a in actors]
        if closing:
            with contextlib.suppress(Exception):
                self.ray.wait(closing, num_returns=len(closing), timeout=15)
        for actor in actors:
            with contextlib.suppress(Exception):
                self.ray.kill(actor.handle, no_restart=True)
        self.actors.clear()
        if self.started and self.ex.artifact_dir is not None:
            # what is left in the shared folder was recorded (and its copy not yet removed) or never
            # will be (an episode lost with its actor): once this session's actors are gone, it goes
            with contextlib.suppress(Exception):
                self._wait_gone([n for n in self._named_actors()
                                 if n.startswith(f"{self.run_id}/{self.ex.session}/")])
            self._remove_sessions(keep_ours=False)


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip()
    return f"{type(exc).__name__}: {text.splitlines()[0][:300] if text else ''}".rstrip(": ")


def _remove_tree(path: Path) -> None:
    shutil.rmtree(path, ignore_errors=True)
