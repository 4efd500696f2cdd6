"""How far can the screen-based evaluators be trusted? Their verdicts against state-check ground truth.

On tasks with success checks the device state decides (policy); the same episodes may also carry key-
component and judge verdicts (the pipeline runs every requested evaluator there). Each such episode is
one labelled example: truth = the latest "state" verdict, prediction = the evaluator's latest verdict.
Per evaluator identity (and for the coarse-to-fine pipeline, key components gating the judge, as the
policy combines them on tasks without checks) we report the confusion counts, accuracy, precision,
recall, F1 (success is the positive class, as in SPA-Bench's F1 against human labels) and Cohen's kappa,
overall and per language. Undecided predictions (evaluator errors) are counted apart and left out of
the confusion counts; `coverage` is the share that was decided.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import asdict, dataclass
from typing import TYPE_CHECKING, Any

from spa_bench.evaluation.base import role_of
from spa_bench.evaluation.pipeline import evaluable
from spa_bench.evaluation.policy import current_verdicts, decide_from_screen, decide_success
from spa_bench.results.schema import EpisodeLog

if TYPE_CHECKING:
    import pandas as pd

PIPELINE = "key_components+judge"
NAN = float("nan")


@dataclass(frozen=True)
class Pair:
    """One labelled example: the ground truth and one evaluator's prediction (None = undecided)."""

    episode_id: str
    language: str
    truth: bool
    predicted: bool | None


@dataclass(frozen=True)
class Agreement:
    evaluator: str
    language: str
    episodes: int
    undecided: int
    tp: int
    fp: int
    tn: int
    fn: int

    @property
    def decided(self) -> int:
        return self.tp + self.fp + self.tn + self.fn

    @property
    def coverage(self) -> float:
        return self.decided / self.episodes if self.episodes else NAN

    @property
    def accuracy(self) -> float:
        return (self.tp + self.tn) / self.decided if self.decided else NAN

    @property
    def precision(self) -> float:
        return self.tp / (self.tp + self.fp) if self.tp + self.fp else NAN

    @property
    def recall(self) -> float:
        return self.tp / (self.tp + self.fn) if self.tp + self.fn else NAN

    @property
    def f1(self) -> float:
        denominator = 2 * self.tp + self.fp + self.fn
        return 2 * self.tp / denominator if denominator else NAN

    @property
    def kappa(self) -> float:
        """Cohen's kappa: agreement beyond chance. NaN when chance agreement is total (one class only
        on both sides), where kappa is undefined."""
        n = self.decided
        if not n:
            return NAN
        observed = (self.tp + self.tn) / n
        said_yes, truly_yes = self.tp + self.fp, self.tp + self.fn
        expected = (said_yes * truly_yes + (n - said_yes) * (n - truly_yes)) / n**2
        return (observed - expected) / (1 - expected) if not math.isclose(expected, 1.0) else NAN

    def row(self) -> dict[str, Any]:
        data = asdict(self)
        data.update(decided=self.decided, coverage=self.coverage, accuracy=self.accuracy,
                    precision=self.precision, recall=self.recall, f1=self.f1, kappa=self.kappa)
        return data


def agreement(evaluator: str, language: str, pairs: Iterable[Pair]) -> Agreement:
    counts = {"tp": 0, "fp": 0, "tn": 0, "fn": 0, "undecided": 0}
    episodes = 0
    for pair in pairs:
        episodes += 1
        if pair.predicted is None:
            counts["undecided"] += 1
        else:
            key = ("t" if pair.predicted == pair.truth else "f") + ("p" if pair.predicted else "n")
            counts[key] += 1
    return Agreement(evaluator, language, episodes, **counts)


def calibration_pairs(logs: Iterable[EpisodeLog]) -> dict[str, list[Pair]]:
    """Labelled examples per evaluator identity, from episodes whose ground truth decided: truth is
    the policy's decision, predictions are the latest verdict of every other evaluator, and the
    gates-then-judges combination as the policy reads it without ground truth (where a judge spoke)."""
    pairs: dict[str, list[Pair]] = {}
    for log in logs:
        if not log.full_task.checks or not evaluable(log):
            continue
        truth = decide_success(log).success
        if truth is None:
            continue
        latest_by_identity = {v.evaluator: v for v in log.verdicts if role_of(v) != "ground_truth"}
        for identity, verdict in latest_by_identity.items():
            pairs.setdefault(identity, []).append(
                Pair(log.episode_id, log.full_task.language, truth, verdict.success))
        if current_verdicts(log, "judge") and (current_verdicts(log, "gate") or not log.full_task.components):
            screen = decide_from_screen(log)
            pairs.setdefault(PIPELINE, []).append(Pair(log.episode_id, log.full_task.language, truth,
                                                       screen.success))
    return pairs


def calibrate(logs: Iterable[EpisodeLog]) -> list[Agreement]:
    """Agreement per evaluator, overall ("all") and per language, evaluators in name order."""
    out = []
    for identity, pairs in sorted(calibration_pairs(logs).items()):
        out.append(agreement(identity, "all", pairs))
        for language in sorted({p.language for p in pairs}):
            out.append(agreement(identity, language, [p for p in pairs if p.language == language]))
    return out


def calibration_table(logs: Iterable[EpisodeLog]) -> pd.DataFrame:
    import pandas as pd

    rows = [a.row() for a in calibrate(logs)]
    columns = ["evaluator", "language", "episodes", "decided", "undecided", "coverage", "tp", "fp", "tn",
               "fn", "accuracy", "precision", "recall", "f1", "kappa"]
    return pd.DataFrame(rows, columns=columns)
