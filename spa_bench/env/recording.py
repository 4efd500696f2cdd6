"""Episodes run through the env, written in the normal results format (spa_bench.results), so that
`spa-bench evaluate` and `spa-bench report` read them like any run.

`record_dir` is the run folder itself (it gets manifest.json and episodes/). Several envs may record
into one folder (the vector env does) as long as their agent names differ: each writes only its own
episodes, and the manifest is written once, by whichever env comes first.
"""

from __future__ import annotations

import platform
import sys
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path

from spa_bench import __version__
from spa_bench.device.device import Device
from spa_bench.device.observation import Observation
from spa_bench.device.packages import PackageMap
from spa_bench.errors import ResultsError
from spa_bench.results.layout import RunLayout, episode_id
from spa_bench.results.recorder import EpisodeRecorder
from spa_bench.results.schema import (
    AgentSpec,
    CheckCapture,
    EpisodeLog,
    InstanceInfo,
    RunManifest,
    StepRecord,
    Termination,
)
from spa_bench.tasks.dialogue import UserExchange
from spa_bench.tasks.model import Task


class EnvRecording:
    """The run folder of one env: a manifest, then one episode folder per reset."""

    def __init__(self, root: Path, agent_name: str, tasks_root: Path, run_seed: int, device: Device,
                 task_ids: list[str]) -> None:
        self.layout = RunLayout(Path(root))
        self.agent = AgentSpec(name=agent_name, agent="gymnasium-env")
        self.device = device
        if self.layout.manifest_path.exists():
            manifest = self.layout.read_manifest()  # a broken manifest is an error, not overwritten
            if manifest.seed != run_seed:
                raise ResultsError(f"{self.layout.manifest_path}: recorded with run seed {manifest.seed}, "
                                   f"this env uses {run_seed}: record into another folder")
            self.run_id = manifest.run_id
        else:
            self.run_id = self.layout.root.name
            self.layout.write_manifest(RunManifest(
                run_id=self.run_id, created_at=datetime.now(UTC), spa_bench_version=__version__,
                python=sys.version.split()[0], platform=platform.platform(), command=list(sys.argv),
                tasks_root=str(tasks_root), task_ids=task_ids, agents=[self.agent], seed=run_seed,
                devices=[device.info()], settings={"source": "spa_bench.env"}))
        self.log: EpisodeLog | None = None
        self.recorder: EpisodeRecorder | None = None

    def _free_id(self, task_id: str) -> str:
        taken = set(self.layout.episode_ids())
        repeat = 0
        while episode_id(self.agent.name, task_id, repeat) in taken:
            repeat += 1
        return episode_id(self.agent.name, task_id, repeat)

    def start(self, task: Task, instance: InstanceInfo, packages: PackageMap | None = None) -> str:
        """A new episode folder (never one that holds an earlier episode). `packages`: the task's packages
        the device has under other names (spa_bench.runner.packages)."""
        episode = self._free_id(task.id)
        self.recorder = EpisodeRecorder(self.layout, episode)
        self.log = EpisodeLog(episode_id=episode, run_id=self.run_id, task=task, instance=instance,
                              agent=self.agent, device=self.device.info(), started_at=datetime.now(UTC),
                              package_map=dict(packages.substitutions) if packages else {})
        self.recorder.start(self.log)
        return episode

    def step(self, step: StepRecord, obs: Observation, said: UserExchange | None = None,
             fired: Sequence[int] = ()) -> None:
        """A step with the observation it acted on (recorded as NNN.png / NNN.xml), the question it asked
        the user and the interruptions that fired after it."""
        assert self.log is not None and self.recorder is not None
        step.observation = self.recorder.observation(obs, f"{step.index:03d}")
        self.log.steps.append(step)
        if said is not None:
            self.log.dialogue.append(said)
        self.log.interruptions_fired.extend(fired)
        self.log.timings.agent_s += step.timings.agent_s
        self.log.timings.device_s += step.timings.observe_s + step.timings.execute_s
        self.recorder.save(self.log)

    def finish(self, termination: Termination, final: Observation | None, answer: str | None,
               captured: list[CheckCapture] | None) -> None:
        if self.log is None or self.recorder is None:
            return
        log = self.log
        if final is not None:
            log.final_observation = self.recorder.observation(final, "final")
        log.answer = answer
        log.captured_state = list(captured or [])
        log.termination = termination
        log.finished_at = datetime.now(UTC)
        log.status = "finished"
        log.timings.total_s = (log.finished_at - log.started_at).total_seconds()
        self.recorder.finish(log)  # the full task joins the log now (spa_bench.results.recorder)
        self.recorder.keep_agent_files()
        self.log = self.recorder = None

    @property
    def active(self) -> bool:
        return self.log is not None
