"""What went wrong in an episode, by kind, for the terminal: the run prints the first error of each kind
as it happens and counts them by kind in its summary, so that a broken agent or harness is seen at once
and not only in episode.json.

Kinds: the error terminations (agent_error: the agent raised or could not start; harness_error: a
spa-bench bug or a task setup that fails on any device; device_error: the device failed, on every try)
and evaluator_error (an episode that ended normally but an evaluator raised, so it is undecided).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from spa_bench.results.schema import EpisodeLog, ErrorInfo

ERROR_TERMINATIONS = ("agent_error", "harness_error", "device_error")
ERROR_KINDS = (*ERROR_TERMINATIONS, "evaluator_error")
_INFO_KIND = {"agent_error": "agent", "harness_error": "harness", "device_error": "device"}


def error_kind(log: EpisodeLog) -> str | None:
    """The episode's error kind, None when it has none."""
    if log.termination in ERROR_TERMINATIONS:
        return log.termination
    if any(v.error is not None for v in log.verdicts):
        return "evaluator_error"
    return None


def _line(error: ErrorInfo) -> str:
    text = error.message.strip().splitlines()
    message = text[0] if text else ""
    at = f" (step {error.step})" if error.step is not None else ""
    return f"{error.type}: {message}{at}" if message else f"{error.type}{at}"


def error_message(log: EpisodeLog) -> str:
    """The cause of the episode's error in one line: the last recorded error of its kind."""
    kind = error_kind(log)
    if kind == "evaluator_error":
        for verdict in log.verdicts:
            if verdict.error is not None:
                return f"{verdict.evaluator}: {_line(verdict.error)}"
    wanted = _INFO_KIND.get(kind or "")
    matching = [e for e in log.errors if e.kind == wanted] or list(log.errors)
    return _line(matching[-1]) if matching else "(no error recorded)"


def count_errors(logs: Iterable[EpisodeLog]) -> dict[str, int]:
    """Episodes per error kind, in the order of ERROR_KINDS, kinds with none left out."""
    counts = Counter(kind for kind in (error_kind(log) for log in logs) if kind is not None)
    return {kind: counts[kind] for kind in ERROR_KINDS if counts[kind]}


def every_episode_errored(logs: list[EpisodeLog], failed: int = 0) -> bool:
    """Whether the run has episodes and each ended in an error termination (evaluator errors aside: the
    episode itself ran). `failed`: episodes given up on without a final log of their own."""
    total = len(logs) + failed
    return total > 0 and all(log.termination in ERROR_TERMINATIONS for log in logs)
