"""Import of SPA-Bench's task files: our own small samples in its format, and the real files when
they are present beside the project (../shared/reference/spa-bench)."""

from __future__ import annotations

import json
import shutil
from collections import Counter
from pathlib import Path

import pytest
from cli_helpers import run_cli
from pim_runs import on_shared_phones_args

from spa_bench.errors import ImportFormatError
from spa_bench.tasks.repository import TaskFilter, TaskRepository
from spa_bench.tasks.spa_import import convert

SAMPLE = Path(__file__).parent / "data" / "spa_bench_sample"
REFERENCE = Path(__file__).resolve().parents[2] / "shared" / "reference" / "spa-bench"


def sample_files() -> list[Path]:
    return [*sorted(SAMPLE.glob("*.csv")), SAMPLE / "cross-app-split"]


def test_sample_converts_with_bom_literals_and_splits() -> None:
    tasks = {t.id: t for t in convert(sample_files())}
    # settings_0 exists in both languages: both get SPA-Bench's language suffix, source keeps the id
    assert {"settings_0_ENG", "settings_0_CHN"} <= set(tasks)
    assert tasks["settings_0_CHN"].source == "spa-bench:settings_0"
    assert tasks["settings_0_CHN"].apps[0].activity == "com.android.settings.MainSettings"
    notes = tasks["notes_1"]
    assert notes.language == "zh" and notes.difficulty == 2 and notes.golden_steps == 6
    assert notes.key_components == ["周报", "置顶"]
    assert notes.apps[0].name["zh"] == "便签"
    assert notes.step_limit == 13
    assert tasks["weather_0"].instruction == "Show the forecast for 'Paris, France'."
    assert tasks["weather_1"].key_components == []  # judge alone, as SPA-Bench's wechat_0
    cross = tasks["Multi_Apps_0_ENG"]
    assert cross.category == "cross_app"
    # "weather" is learned from the single-app rows, "Setting" is an alias of Settings
    assert cross.packages == ["com.example.weather", "com.android.settings"]
    assert [s.app for s in cross.subtasks] == ["weather", "Settings"]
    assert cross.subtasks[0].memory == "the weather in Paris" and not cross.subtasks[0].uses_history
    assert cross.subtasks[1].memory is None and cross.subtasks[1].uses_history
    assert "Multi_Apps" in cross.tags


def test_cli_import_writes_valid_tree(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "tasks" / "spa-sample"
    result = run_cli(capsys, "tasks", "import-spa-bench", *map(str, sample_files()), "--out", str(out))
    assert result.code == 0, result.err
    assert "imported 7 tasks" in result.out
    assert (out / "single_app" / "zh" / "notes_0.yaml").is_file()
    result = run_cli(capsys, "tasks", "validate", str(tmp_path / "tasks"))
    assert result.code == 0, result.err
    result = run_cli(capsys, "tasks", "list", "-t", str(tmp_path / "tasks"), "--lang", "zh", "--json")
    assert result.out.count("\n") == 3
    # re-importing replaces the same files and still validates (no duplicates)
    run_cli(capsys, "tasks", "import-spa-bench", *map(str, sample_files()), "--out", str(out))
    assert run_cli(capsys, "tasks", "validate", str(tmp_path / "tasks")).code == 0


def test_unknown_cross_app_app_is_a_clear_error(tmp_path: Path) -> None:
    bad = tmp_path / "cross-app-ENG.csv"
    bad.write_text((SAMPLE / "cross-app-ENG.csv").read_text(encoding="utf-8-sig").replace(
        "'weather'", "'Mystery App'"), encoding="utf-8")
    with pytest.raises(ImportFormatError, match=r"cross-app-ENG.csv:2 \(Multi_Apps_0_ENG\).*Mystery App"):
        convert([bad, SAMPLE / "cross-app-split"])


def test_cross_app_without_split_file_is_a_clear_error() -> None:
    with pytest.raises(ImportFormatError, match=r"no split file Multi_Apps_0_ENG.json"):
        convert([SAMPLE / "cross-app-ENG.csv", SAMPLE / "single-app-ENG.csv"])


def test_app_map_resolves_unknown_apps(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "cross-app-ENG.csv"
    bad.write_text((SAMPLE / "cross-app-ENG.csv").read_text(encoding="utf-8-sig").replace(
        "'weather'", "'Mystery App'"), encoding="utf-8")
    app_map = tmp_path / "apps.yaml"
    app_map.write_text("Mystery App: {package: org.mystery.app, zh: 神秘}\n", encoding="utf-8")
    result = run_cli(capsys, "tasks", "import-spa-bench", str(bad), str(SAMPLE / "cross-app-split"),
                     "--out", str(tmp_path / "o"), "--app-map", str(app_map))
    assert result.code == 0, result.err
    assert "org.mystery.app" in (tmp_path / "o" / "cross_app" / "en" / "Multi_Apps_0_ENG.yaml").read_text()


@pytest.mark.parametrize(("cell", "message"), [
    ("['unclosed'", "key_component_final: not a Python-literal list"),
    ("{'a': 1}", "key_component_final: expected a list of strings"),
])
def test_bad_cells_name_file_row_and_column(tmp_path: Path, cell: str, message: str) -> None:
    text = (SAMPLE / "single-app-ENG.csv").read_text(encoding="utf-8")
    bad = tmp_path / "single-app-ENG.csv"
    bad.write_text(text.replace("['bluetooth']", f'"{cell}"'), encoding="utf-8")
    with pytest.raises(ImportFormatError, match=r"single-app-ENG.csv:2 \(settings_0\)"):
        convert([bad])
    with pytest.raises(ImportFormatError, match=message):
        convert([bad])


def test_not_a_spa_bench_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    other = tmp_path / "other.csv"
    other.write_text("a,b\n1,2\n", encoding="utf-8")
    result = run_cli(capsys, "tasks", "import-spa-bench", str(other), "--out", str(tmp_path / "o"))
    assert result.code == 1
    assert "other.csv: not a SPA-Bench task file" in result.err


@pytest.mark.skipif(not REFERENCE.is_dir(), reason="SPA-Bench reference files not present")
def test_reference_files_import_to_340_valid_tasks(tmp_path: Path,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    files = [*sorted(REFERENCE.glob("*.csv")), REFERENCE / "cross-app-split"]
    out = tmp_path / "tasks" / "spa-bench"
    result = run_cli(capsys, "tasks", "import-spa-bench", *map(str, files), "--out", str(out))
    assert result.code == 0, result.err
    repo = TaskRepository(tmp_path / "tasks")
    valid, problems = repo.validate()
    assert problems == [] and valid == 340
    records = repo.select()
    by = Counter((r.language, r.category) for r in records)
    assert by == {("en", "single_app"): 150, ("zh", "single_app"): 150,
                  ("en", "cross_app"): 20, ("zh", "cross_app"): 20}
    for lang in ("en", "zh"):
        per_difficulty = Counter(r.difficulty for r in records
                                 if r.language == lang and r.category == "single_app")
        assert per_difficulty == {1: 50, 2: 50, 3: 50}
    cross = repo.load(repo.select(TaskFilter(categories=["cross_app"])))
    assert all(len(t.subtasks) >= 2 for t in cross)
    assert len(repo.select(TaskFilter(apps=["微信"], difficulties=[3]))) >= 1
    assert len(repo.select(TaskFilter(ids=["airbnb_*"], languages=["en"]))) == 3
    shutil.rmtree(tmp_path / "tasks")


def test_imported_tasks_reset_by_language_snapshot_and_list_their_packages() -> None:
    tasks = {t.id: t for t in convert(sample_files())}
    for task in tasks.values():
        assert task.setup.reset == "snapshot", task.id
        assert task.snapshot_name == f"spa-bench-base-{task.language}"
        assert "needs-real-apps" in task.tags
    assert tasks["weather_0"].packages == ["com.example.weather"]  # SPA-Bench's adb_app column


@pytest.mark.usefixtures("adb_env")
def test_run_on_virtual_phone_refuses_missing_apps_then_skips_them(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The sample's weather and notes apps are not on the virtual phone; its Settings app is."""
    tasks_dir = tmp_path / "tasks"
    assert run_cli(capsys, "tasks", "import-spa-bench", *map(str, sample_files()),
                   "--out", str(tasks_dir / "spa")).code == 0
    out = tmp_path / "results"
    refused = run_cli(capsys, "run", "-t", str(tasks_dir), "--agent", "noop", *on_shared_phones_args(1),
                      "--max-steps", "1", "--out", str(out))
    assert refused.code == 2, refused.err
    message = " ".join(refused.err.split())
    assert "need apps not installed on device(s)" in message
    assert "com.example.weather" in message and "--skip-missing-apps" in message
    assert "weather_0 (com.example.weather)" in message and "Multi_Apps_0_ENG" in message
    assert "settings_0_ENG" not in message
    assert not list(out.glob("*/episodes/*")), "no episode may start"
    ran = run_cli(capsys, "run", "-t", str(tasks_dir), "--agent", "noop", *on_shared_phones_args(1),
                  "--max-steps", "1", "--out", str(out), "--skip-missing-apps")
    assert ran.code == 0, ran.err
    (run_dir,) = [p for p in out.iterdir() if (p / "manifest.json").is_file()]
    manifest = json.loads((run_dir / "manifest.json").read_text(encoding="utf-8"))
    assert sorted(manifest["task_ids"]) == ["settings_0_CHN", "settings_0_ENG"]
