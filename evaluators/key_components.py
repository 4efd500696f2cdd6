"""Key-component matching, SPA-Bench's coarse first evaluation step, with RapidOCR.

A task's key components are strings that must be visible on screen when the task is done (a setting's
name, "07:30"). As SPA-Bench does: OCR the screenshots from the last one backwards (final.png, then the
last step's, ...); per screenshot, join the recognised text, remove all whitespace and case-fold; the
screenshot matches when every component, normalised the same way, is a substring. The first match ends
the search. No match fails the episode (SPA-Bench then skips the MLLM judge). A task without key
components has nothing to match: the check lets the episode through and the judge decides alone.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from spa_bench.errors import ResultsError
from spa_bench.evaluation.base import now
from spa_bench.evaluation.ocr import OcrEngine, default_engine, read_text
from spa_bench.evaluation.ocr_cache import OcrCache, default_cache_path
from spa_bench.results.layout import EPISODES
from spa_bench.results.schema import EpisodeLog, Evidence, Verdict

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
    if final is None and (episode_dir / "screenshots" / "final.png").is_file():
        final = "screenshots/final.png"  # written by a runner that crashed before updating the log
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
    """The evaluator `key_components:rapidocr`.

    `cache_path` None puts the OCR cache in the run folder (`<run>/.cache/ocr.sqlite`, found from the
    episode folder `<run>/episodes/<id>`); `use_cache=False` always runs OCR.
    """

    cache_path: Path | None = None
    use_cache: bool = True
    engine: OcrEngine = field(default_factory=default_engine)
    name: str = "key_components:rapidocr"
    _caches: dict[Path, OcrCache] = field(default_factory=dict, init=False, repr=False)

    def _cache_for(self, episode_dir: Path) -> OcrCache | None:
        if not self.use_cache:
            return None
        path = self.cache_path
        if path is None:
            root = episode_dir.parent.parent if episode_dir.parent.name == EPISODES else episode_dir
            path = default_cache_path(root)
        if path not in self._caches:
            self._caches[path] = OcrCache(path)
        return self._caches[path]

    def match(self, log: EpisodeLog, episode_dir: Path) -> KeyComponentMatch:
        if not log.task.components:
            return KeyComponentMatch("nothing_to_match")
        shots = screenshots_last_first(log, episode_dir)
        if not shots:
            raise ResultsError(f"episode {log.episode_id}: no screenshots to match key components on")
        cache = self._cache_for(episode_dir)
        return match_texts(log.task.components, _ocr_texts(shots, cache, self.engine))

    def evaluate(self, log: EpisodeLog, episode_dir: Path) -> Verdict:
        result = self.match(log, episode_dir)
        return Verdict(evaluator=self.name, success=result.passes, created_at=now(),
                       evidence=[evidence_of(result, log.task.components, self.engine.identity)])

    def close(self) -> None:
        for cache in self._caches.values():
            cache.close()
        self._caches.clear()


def _ocr_texts(shots: list[Screenshot], cache: OcrCache | None,
               engine: OcrEngine) -> Iterator[tuple[ScreenshotLabel, str]]:
    for shot in shots:
        yield shot.label, read_text(shot.path, cache=cache, engine=engine).text


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
