"""Key-component matching, SPA-Bench's coarse first evaluation step, with RapidOCR.

A task's key components are strings that must be visible on screen when the task is done (a setting's
name, "07:30"). As SPA-Bench does: OCR the screenshots from the last one backwards (final.png, then the
last step's, ...); per screenshot, join the recognised text, remove all whitespace and case-fold; the
screenshot matches when every component, normalised the same way, is a substring. The first match ends
the search. No match fails the episode (SPA-Bench then skips the MLLM judge). A task without key
components has nothing to match: the check lets the episode through and the judge decides alone.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from spa_bench.errors import ResultsError
from spa_bench.evaluation.base import RunContext, now
from spa_bench.evaluation.completion import add_first_complete
from spa_bench.evaluation.ocr import OcrEngine, default_engine, read_text
from spa_bench.evaluation.ocr_cache import OcrCache, default_cache_path
from spa_bench.results.layout import EPISODES, RunLayout
from spa_bench.results.schema import EpisodeLog, Evidence, Role, Verdict

MatchStatus = Literal["matched", "not_matched", "nothing_to_match"]
ScreenshotLabel = int | Literal["final"]
"""A step index (the screenshot seen before that step) or "final" (after the last step)."""


def normalise(text: str) -> str:
    """SPA-Bench's normalisation: drop every whitespace character (Unicode too, e.g. U+3000), case-fold."""
    return "".join(text.split()).casefold()


@dataclass(frozen=True)
class KeyComponentMatch:
    """The outcome of matching. `screenshot` and `ocr_text` name the matching screenshot, or, when
    nothing matched, the first one searched (the final screen), whose `missing` components are listed."""

    status: MatchStatus
    screenshot: ScreenshotLabel | None = None
    ocr_text: str | None = None
    missing: tuple[str, ...] = ()
    checked: int = 0

    @property
    def matched(self) -> bool:
        return self.status == "matched"

    @property
    def passes(self) -> bool:
        """True unless some component is absent: the episode goes on to the judge."""
        return self.status != "not_matched"


def match_texts(components: Iterable[str] | None,
                texts: Iterable[tuple[ScreenshotLabel, str]]) -> KeyComponentMatch:
    """Match components against OCR texts given last screenshot first; consumes `texts` lazily, so OCR
    stops at the first matching screenshot."""
    wanted = [(c, normalise(c)) for c in components or []]
    if not wanted:
        return KeyComponentMatch("nothing_to_match")
    first: tuple[ScreenshotLabel, str, tuple[str, ...]] | None = None
    checked = 0
    for label, text in texts:
        checked += 1
        flat = normalise(text)
        missing = tuple(raw for raw, norm in wanted if norm not in flat)
        if not missing:
            return KeyComponentMatch("matched", label, text, (), checked)
        if first is None:
            first = (label, text, missing)
    if first is None:
        return KeyComponentMatch("not_matched", None, None, tuple(raw for raw, _ in wanted), 0)
    return KeyComponentMatch("not_matched", first[0], first[1], first[2], checked)


@dataclass(frozen=True)
class Screenshot:
    label: ScreenshotLabel
    relative: str
    path: Path


def screenshots_last_first(log: EpisodeLog, episode_dir: Path) -> list[Screenshot]:
    """The episode's screenshots in search order: final, then the steps from the last to the first.
    A file the log names but the folder lacks is a broken results folder (ResultsError)."""
    found: list[Screenshot] = []
    final = log.final_observation.screenshot if log.final_observation else None
    if final is None and (episode_dir / RunLayout.screenshot_file("final")).is_file():
        final = RunLayout.screenshot_file("final")  # written by a runner that crashed before the log
    if final is not None:
        found.append(Screenshot("final", final, episode_dir / final))
    for step in reversed(log.steps):
        if step.observation.screenshot is not None:
            found.append(Screenshot(step.index, step.observation.screenshot,
                                    episode_dir / step.observation.screenshot))
    for shot in found:
        if not shot.path.is_file():
            raise ResultsError(f"{shot.path}: screenshot named by episode {log.episode_id} is missing")
    return found


@dataclass
class KeyComponentsEvaluator:
    """The evaluator `key_components:rapidocr`, a gate: an episode whose key components are not visible
    fails without a judge call.

    `cache_path` None puts the OCR cache in the run folder it is opened on (`<run>/.cache/ocr.sqlite`;
    without `open`, the run folder is found from the episode folder `<run>/episodes/<id>`);
    `use_cache=False` always runs OCR.
    """

    cache_path: Path | None = None
    use_cache: bool = True
    engine: OcrEngine = field(default_factory=default_engine)
    name: str = "key_components:rapidocr"
    role: Role = "gate"
    _cache: OcrCache | None = field(default=None, init=False, repr=False)
    _cache_at: Path | None = field(default=None, init=False, repr=False)
    _lock: threading.Lock = field(default_factory=threading.Lock, init=False, repr=False)

    def applies(self, log: EpisodeLog) -> bool:
        return True  # a task without components passes the gate ("nothing to match")

    def open(self, context: RunContext) -> None:
        """Open the run's OCR cache once, before the episode threads share it."""
        self._cache_in(context.run_dir)

    def _cache_in(self, run_dir: Path) -> OcrCache | None:
        if not self.use_cache:
            return None
        path = self.cache_path or default_cache_path(run_dir)
        with self._lock:
            if self._cache_at != path:
                if self._cache is not None:
                    self._cache.close()
                self._cache, self._cache_at = OcrCache(path), path
            return self._cache

    def _cache_of(self, episode_dir: Path) -> OcrCache | None:
        if self._cache is not None and self.cache_path is None:
            return self._cache
        root = episode_dir.parent.parent if episode_dir.parent.name == EPISODES else episode_dir
        return self._cache_in(root)

    def text_of(self, screenshot: Path, episode_dir: Path) -> str:
        """The OCR text of one screenshot of an episode (through the run's cache)."""
        return read_text(screenshot, cache=self._cache_of(episode_dir), engine=self.engine).text

    def match(self, log: EpisodeLog, episode_dir: Path) -> KeyComponentMatch:
        if not log.full_task.components:
            return KeyComponentMatch("nothing_to_match")
        shots = screenshots_last_first(log, episode_dir)
        if not shots:
            raise ResultsError(f"episode {log.episode_id}: no screenshots to match key components on")
        return match_texts(log.full_task.components,
                           ((shot.label, self.text_of(shot.path, episode_dir)) for shot in shots))

    def evaluate(self, log: EpisodeLog, episode_dir: Path) -> Verdict:
        result = self.match(log, episode_dir)
        verdict = Verdict(evaluator=self.name, role=self.role, success=result.passes, created_at=now(),
                          evidence=[evidence_of(result, log.full_task.components, self.engine.identity)])
        if verdict.success and not log.full_task.checks:  # the evidence of overdue termination
            try:
                add_first_complete(verdict, log, episode_dir, lambda path: self.text_of(path, episode_dir))
            except (OSError, ResultsError):  # the verdict stands; overdue falls back to the step rule
                pass
        return verdict

    def close(self) -> None:
        with self._lock:
            if self._cache is not None:
                self._cache.close()
            self._cache, self._cache_at = None, None


def _where(label: ScreenshotLabel | None) -> str:
    return "the final screenshot" if label == "final" else f"the screenshot before step {label}"


def evidence_of(result: KeyComponentMatch, components: list[str], engine: str) -> Evidence:
    """Evidence for a verdict: the status, the screenshot and its OCR text."""
    details: dict[str, object] = {"status": result.status, "components": components, "ocr_engine": engine}
    if result.status == "nothing_to_match":
        return Evidence(summary="no key components: nothing to match, the judge decides alone",
                        details=details)
    details.update(screenshot=result.screenshot, ocr_text=result.ocr_text,
                   screenshots_checked=result.checked)
    index = result.screenshot if isinstance(result.screenshot, int) else None
    if result.matched:
        summary = f"all {len(components)} key components visible in {_where(result.screenshot)}"
        return Evidence(summary=summary, screenshot_index=index, details=details)
    details["missing"] = list(result.missing)
    summary = (f"no screenshot of {result.checked} shows every key component; "
               f"missing from {_where(result.screenshot)}: {', '.join(result.missing)}")
    return Evidence(summary=summary, screenshot_index=index, details=details)
