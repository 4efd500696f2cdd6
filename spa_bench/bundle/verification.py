"""One verification of a bundle, start to end, and the record it leaves for the report's badge.

`verify_bundle` unpacks the bundle, runs (a) and (b) of spa_bench.bundle.verify and, when asked, (c)
(spa_bench.bundle.replay), and returns a Verification whose `status` is what the report shows:
verified (replayed, every episode the same), re-scored (hashes and offline re-scoring agree, no replay)
or differs. `write_record` puts it into a run folder as `verification.json` (VerificationRecord), where
the report finds it.
"""

from __future__ import annotations

import shutil
import tempfile
import threading
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from spa_bench.bundle.archive import BundleIndex, open_bundle
from spa_bench.bundle.provenance import sha256_bytes
from spa_bench.bundle.replay import Replay, Replayed, replay_run
from spa_bench.bundle.verify import PartCheck, Rescoring, installed_parts, instance_check, rescore
from spa_bench.errors import ConfigError, ResultsError
from spa_bench.results.layout import RunLayout, read_model, write_json_atomic
from spa_bench.runner.events import Events
from spa_bench.tasks.params import secret_run_seed

VERIFICATION = "verification.json"
Status = Literal["verified", "re-scored", "differs"]
SeedState = Literal["public", "revealed", "secret"]


class VerificationRecord(BaseModel):
    """What the report reads of a verification (`<run>/verification.json`)."""

    model_config = ConfigDict(extra="forbid")

    schema_version: Literal[1] = 1
    status: Status
    line: str = Field(description="the one-line result, e.g. 'reproduced 126/126 episodes, verdicts "
                                  "identical'")
    checked_at: datetime
    bundle_sha256: str
    differing_parts: list[str] = Field(default_factory=list)
    differing_episodes: list[str] = Field(default_factory=list)


@dataclass
class Verification:
    index: BundleIndex
    bundle_sha256: str
    seed: SeedState
    parts: list[PartCheck]
    rescoring: Rescoring
    replay: Replay | None

    @property
    def differing_episodes(self) -> list[str]:
        found = {e.episode_id for e in self.rescoring.differ}
        if self.replay is not None:
            found |= {e.episode_id for e in self.replay.differ}
        return sorted(found)

    @property
    def differs(self) -> bool:
        return any(not p.same for p in self.parts) or bool(self.differing_episodes)

    @property
    def status(self) -> Status:
        if self.differs:
            return "differs"
        return "verified" if self.replay is not None else "re-scored"

    def line(self) -> str:
        verdicts = ("verdicts identical" if not self.rescoring.differ
                    else f"{len(self.rescoring.differ)} verdict(s) differ")
        if self.replay is not None:
            same = len(self.replay.episodes) - len(self.replay.differ)
            head = f"reproduced {same}/{len(self.replay.episodes)} episodes"
        else:
            head = (f"re-scored {len(self.rescoring.episodes)}/{self.index.episodes} episodes "
                    f"(not replayed)")
        parts = [p.part for p in self.parts if not p.same]
        return f"{head}, {verdicts}" + (f"; differs: {', '.join(parts)}" if parts else "")

    def record(self) -> VerificationRecord:
        return VerificationRecord(status=self.status, line=self.line(), checked_at=datetime.now(UTC),
                                  bundle_sha256=self.bundle_sha256,
                                  differing_parts=[p.part for p in self.parts if not p.same],
                                  differing_episodes=self.differing_episodes)


def verify_bundle(path: Path, tasks_root: Path, *, replay: bool = False, phones: int = 1,
                  instance_seed: str | None = None, stop: threading.Event | None = None,
                  replayed: Callable[[Replayed], None] | None = None, events: Events | None = None,
                  unpack_to: Path | None = None, where: dict[str, Any] | None = None,
                  adapter_dir: Path | None = None) -> Verification:
    """Verify the bundle at `path` against the installed harness and the tasks under `tasks_root`.
    `unpack_to`: leave the bundled run there as a run folder (`<unpack_to>/<run-id>/`, with the
    verification record), so that `spa-bench report` shows it with its badge. `where`: the devices to
    replay on (spa_bench.bundle.replay.replay_run); `events`: the replayed run's scheduler events (a
    progress display). `adapter_dir`: the folder of submitted adapter files
    (spa_bench.bundle.provenance.resolve_adapter)."""
    from spa_bench.runner.run import given_instance_seed

    bundle_sha = sha256_bytes(path.read_bytes()) if path.is_file() else ""
    if unpack_to is not None:
        unpack_to.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="spa-bench-verify-", dir=unpack_to) as tmp:
        opened = open_bundle(path, Path(tmp))
        target = unpack_to / opened.index.run_id if unpack_to is not None else None
        if target is not None and target.exists():
            raise ConfigError(f"--unpack {unpack_to}: {target} exists already")
        manifest = RunLayout(opened.run_dir).read_manifest()
        commitment = manifest.instance_seed_commitment
        secret = (given_instance_seed(commitment, instance_seed, "the bundled run")
                  if instance_seed is not None or commitment is None else None)
        if commitment is None:
            state: SeedState = "public"
            run_seed: int | None = manifest.seed
        elif secret is not None:
            state, run_seed = "revealed", secret_run_seed(secret.get_secret_value())
        else:
            state, run_seed = "secret", None
        if replay and state == "secret":
            raise ConfigError("--replay of a secret-seed run needs its seed, once published: "
                              "--instance-seed SECRET")
        logs = [log for log in RunLayout(opened.run_dir).episodes() if log.task is not None]
        if not logs:
            raise ResultsError(f"{path}: the bundle holds no finished episode")
        parts = [*installed_parts(opened, tasks_root, adapter_dir),
                 instance_check(logs, tasks_root, run_seed)]
        rescoring = rescore(opened.run_dir, cache_dir=opened.cache_dir,
                            screenshots=opened.index.screenshots == "full")
        done = None
        if replay:
            done = replay_run(opened.run_dir, tasks_root=tasks_root, cache_dir=opened.cache_dir,
                              phones=phones, instance_seed=secret.get_secret_value() if secret else None,
                              stop=stop, events=events, progress=replayed, where=where,
                              adapter_dir=adapter_dir)
        verification = Verification(opened.index, bundle_sha, state, parts, rescoring, done)
        if target is not None:
            shutil.move(opened.run_dir, target)
            write_record(target, verification)
        return verification


def write_record(run_dir: Path, verification: Verification) -> Path:
    path = run_dir / VERIFICATION
    write_json_atomic(path, verification.record().model_dump_json(indent=1))
    return path


def read_record(run_dir: Path) -> VerificationRecord | None:
    """The run's verification record, None when it has none (an unreadable one is an error)."""
    path = run_dir / VERIFICATION
    return read_model(path, VerificationRecord) if path.is_file() else None
