"""Key-component matching as SPA-Bench does it: normalisation and search order (pure), then the
evaluator on episodes written in the real results layout with rendered screenshots (en and zh), and on
the virtual phone's own screenshots."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from eval_builders import (
    CountingEngine,
    alarm_en,
    alarm_zh,
    episode,
    settings_en,
    settings_zh,
    task,
    write_episode,
)
from PIL import Image
from spa_bench.evaluators.key_components import (
    KeyComponentsEvaluator,
    ScreenshotLabel,
    match_texts,
    normalise,
)

from spa_bench.errors import ResultsError
from spa_bench.evaluation import EVALUATORS
from spa_bench.evaluation.ocr import OcrEngine, OcrResult
from spa_bench.results.layout import RunLayout

# -- pure matching ------------------------------------------------------------------------------------


def test_normalise_drops_all_whitespace_and_casefolds() -> None:
    assert normalise(" Wi-Fi\n Calling\t") == "wi-ficalling"
    assert normalise("闹钟\u3000 07:30") == "闹钟07:30"  # ideographic space too
    assert normalise("STRASSE") == normalise("straße")  # case-folding, not just lower()


def test_match_texts_order_and_first_match() -> None:
    shots: list[tuple[ScreenshotLabel, str]] = [("final", "Alarm\n08:15"), (2, "Alarm\n07:30"), (1, "07:30")]
    got = match_texts(["alarm", "07 : 30".replace(" ", "")], shots)
    assert got.status == "matched" and got.matched and got.passes
    assert got.screenshot == 2 and got.ocr_text == "Alarm\n07:30" and got.checked == 2


def test_match_spans_lines_like_spa_bench() -> None:
    # SPA-Bench joins the lines before matching, so a component may run across two OCR lines
    assert match_texts(["Wi-Fi calling"], [("final", "Wi-Fi\ncalling")]).matched


def test_no_match_reports_the_final_screen() -> None:
    got = match_texts(["Alarm", "07:31"], [("final", "Alarm 07:30"), (0, "Home")])
    assert got.status == "not_matched" and not got.passes and not got.matched
    assert got.screenshot == "final" and got.missing == ("07:31",) and got.checked == 2


def test_search_stops_at_the_first_match() -> None:
    seen: list[ScreenshotLabel] = []

    def texts() -> Iterator[tuple[ScreenshotLabel, str]]:
        for label, text in [("final", "蓝牙 深色模式"), (0, "never read")]:
            seen.append(label)
            yield label, text

    assert match_texts(["深色模式"], texts()).screenshot == "final"
    assert seen == ["final"]


@pytest.mark.parametrize("components", [None, []])
def test_nothing_to_match(components: list[str] | None) -> None:
    got = match_texts(components, [("final", "anything")])
    assert got.status == "nothing_to_match" and got.passes and not got.matched


def test_no_screenshots_at_all_does_not_match() -> None:
    got = match_texts(["x"], [])
    assert got.status == "not_matched" and got.missing == ("x",) and got.checked == 0


# -- the evaluator on real rendered screenshots -------------------------------------------------------


@pytest.fixture
def evaluator(engine: CountingEngine, shared_cache_path: Path) -> Iterator[KeyComponentsEvaluator]:
    ev = KeyComponentsEvaluator(cache_path=shared_cache_path, engine=engine)
    yield ev
    ev.close()


def clock_episode(run: Path, components: list[str] | None, language: str = "en") -> Path:
    """Three screens: settings (step 0), settings (step 1), then the alarm list as the final screen."""
    zh = language == "zh"
    the_task = task(f"clock_{language}", language="zh" if zh else "en", key_components=components)
    log = episode(the_task, steps=2)
    settings = settings_zh() if zh else settings_en()
    final = alarm_zh() if zh else alarm_en()
    return write_episode(run, log, [settings, settings], final)


CASES = [
    # (language, components, success, matched screenshot, screenshot_index)
    ("en", ["Alarm", "07:30"], True, "final", None),
    ("en", ["alarm07:30"], True, "final", None),  # the title and the time are separate lines
    ("en", ["07:31"], False, "final", None),  # near miss: the screen says 07:30
    ("en", ["Wi-Fi", "Dark mode"], True, 1, 1),  # not on the final screen: the last settings screen
    ("en", ["Airplane mode"], False, "final", None),  # absent everywhere
    ("en", ["Alarm", "Bluetooth"], False, "final", None),  # each is somewhere, never on one screen
    ("zh", ["闹钟", "07:30"], True, "final", None),
    ("zh", ["闹钟 07:31"], False, "final", None),
    ("zh", ["蓝牙", "深色模式"], True, 1, 1),
    ("zh", ["飞行模式"], False, "final", None),
]


@pytest.mark.slow
@pytest.mark.parametrize(("language", "components", "success", "where", "index"), CASES)
def test_evaluator_on_rendered_episodes(tmp_path: Path, evaluator: KeyComponentsEvaluator, language: str,
                                        components: list[str], success: bool, where: object,
                                        index: int | None) -> None:
    folder = clock_episode(tmp_path / "run", components, language)
    stored = RunLayout(tmp_path / "run").read_episode(folder.name)
    verdict = evaluator.evaluate(stored, folder)
    assert verdict.evaluator == "key_components:rapidocr"
    assert verdict.success is success and verdict.error is None
    evidence, *first_complete = verdict.evidence  # a passing verdict also says when the task was first done
    assert len(first_complete) == (1 if success else 0)
    assert evidence.details["status"] == ("matched" if success else "not_matched")
    assert evidence.details["screenshot"] == where and evidence.screenshot_index == index
    ocr_text = evidence.details["ocr_text"]
    assert isinstance(ocr_text, str)
    if success:
        assert all(normalise(c) in normalise(ocr_text) for c in components)
    else:
        assert evidence.details["missing"] and evidence.details["screenshots_checked"] == 3
        assert "missing from the final screenshot" in evidence.summary
    verdict.model_dump_json()  # evidence is serialisable into the episode log


def test_reevaluation_costs_no_ocr(tmp_path: Path, engine: CountingEngine, shared_cache_path: Path) -> None:
    folder = clock_episode(tmp_path / "run", ["Airplane mode"])
    first = KeyComponentsEvaluator(cache_path=shared_cache_path, engine=engine)
    first.evaluate(RunLayout(tmp_path / "run").read_episode(folder.name), folder)
    first.close()
    before = engine.calls
    again = KeyComponentsEvaluator(cache_path=shared_cache_path, engine=engine)
    verdict = again.evaluate(RunLayout(tmp_path / "run").read_episode(folder.name), folder)
    again.close()
    assert verdict.success is False and engine.calls == before


class ExplodingEngine(OcrEngine):
    def recognise(self, image: Image.Image) -> OcrResult:
        raise AssertionError("OCR must not run")


def test_nothing_to_match_runs_no_ocr(tmp_path: Path) -> None:
    folder = clock_episode(tmp_path / "run", [])
    verdict = KeyComponentsEvaluator(engine=ExplodingEngine()).evaluate(
        RunLayout(tmp_path / "run").read_episode(folder.name), folder)
    assert verdict.success is True
    assert verdict.evidence[0].details["status"] == "nothing_to_match"
    assert "nothing to match" in verdict.evidence[0].summary
    assert not (tmp_path / "run" / ".cache").exists()


def test_default_cache_lives_in_the_run_folder(tmp_path: Path, engine: CountingEngine) -> None:
    run = tmp_path / "run"
    folder = clock_episode(run, ["Alarm"])
    ev = KeyComponentsEvaluator(engine=engine)
    assert ev.evaluate(RunLayout(run).read_episode(folder.name), folder).success is True
    ev.close()
    assert (run / ".cache" / "ocr.sqlite").is_file()


def test_missing_screenshot_file_is_a_results_error(tmp_path: Path,
                                                    evaluator: KeyComponentsEvaluator) -> None:
    folder = clock_episode(tmp_path / "run", ["Alarm"])
    (folder / "screenshots" / "000.png").unlink()
    with pytest.raises(ResultsError, match=r"000\.png"):
        evaluator.evaluate(RunLayout(tmp_path / "run").read_episode(folder.name), folder)


def test_registered_as_an_evaluator() -> None:
    assert "key_components" in EVALUATORS
    assert EVALUATORS.get("key_components") is KeyComponentsEvaluator


# -- the virtual phone's own screenshots --------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize(("locale", "components", "absent"), [
    ("en", ["Display", "Dark theme", "Screen timeout"], "Dark mode 07:30"),
    ("zh", ["显示", "深色主题"], "飞行模式"),
])
def test_on_virtual_phone_screenshots(tmp_path: Path, evaluator: KeyComponentsEvaluator, locale: str,
                                      components: list[str], absent: str) -> None:
    system = pytest.importorskip("spa_bench.phone.system")
    from spa_bench.phone.api import PhoneConfig
    from spa_bench.phone.vfs import VirtualFS

    phone = system.PhoneOS(PhoneConfig(locale=locale, data_dir=tmp_path / "data"),  # type: ignore[arg-type]
                           VirtualFS(tmp_path / "fs"))
    home = phone.screenshot()
    phone.start_activity("com.android.settings",
                         "com.android.settings.Settings$DisplaySettingsActivity")
    display = phone.screenshot()
    phone.close()
    assert display.size == (1080, 2400)
    for comps, expected in ((components, True), ([absent], False)):
        the_task = task(f"display_{locale}_{expected}", language="zh" if locale == "zh" else "en",
                        key_components=comps)
        log = episode(the_task, steps=1)
        folder = write_episode(tmp_path / "run", log, [home], display)
        verdict = evaluator.evaluate(RunLayout(tmp_path / "run").read_episode(folder.name), folder)
        assert verdict.success is expected, verdict.evidence[0].summary
