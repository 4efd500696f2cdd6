"""Convert SPA-Bench's task files (CSV + cross-app split JSON) into spa-bench YAML task files.

Input quirks handled: UTF-8 BOM, Python-literal lists in cells (`"['1','guest']"`), ENG/CHN language
codes, app names spelled differently between files ("Setting"/"Settings"). SPA-Bench reuses some
single-app ids across languages (settings_0 exists in English and Chinese); such ids get SPA-Bench's
own language suffix (`settings_0_ENG`, `settings_0_CHN`) and `source` keeps the original id.

Faithful to how SPA-Bench runs them: every task resets by loading the emulator snapshot of its language
(`spa-bench-base-en` / `spa-bench-base-zh`; SPA-Bench reloads its snapshot before each task), and lists
the packages the device must have. Where the packages come from: single-app rows carry SPA-Bench's own
`adb_app` (package) and `adb_home_page` (activity) columns; cross-app rows name apps only by display name,
resolved through the user's --app-map, then KNOWN_APPS (spa_bench/tasks/known_apps.py, public package ids),
then the single-app rows of the same import. `spa-bench run` refuses such tasks before any episode when a
device lacks their packages (spa_bench/runner/preflight.py): they need the real apps, logged in.
"""

from __future__ import annotations

import ast
import csv
import json
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml
from pydantic import ValidationError

from spa_bench.errors import ImportFormatError
from spa_bench.tasks.known_apps import KnownApp, lookup
from spa_bench.tasks.model import Language, Task
from spa_bench.tasks.repository import describe_validation_error

LANGUAGES: dict[str, Language] = {"ENG": "en", "CHN": "zh"}
# Tagged on every imported task: runnable only on a device with the real apps installed and logged in.
NEEDS_REAL_APPS_TAG = "needs-real-apps"


def _snapshot_setup(language: Language) -> dict[str, str]:
    """SPA-Bench's reset: reload the golden snapshot of the task's language before each task."""
    return {"reset": "snapshot", "snapshot": f"spa-bench-base-{language}"}
SINGLE_APP_COLUMNS = {"task_identifier", "task_app", "task_language", "task_description",
                      "task_difficulty", "golden_steps", "key_component_final", "adb_app", "adb_home_page"}
CROSS_APP_COLUMNS = {"task_identifier", "category", "task_language", "task_app", "task_description",
                     "task_difficulty", "golden_steps"}


@dataclass(frozen=True)
class ImportResult:
    tasks: list[Task]
    written: list[Path]


def _literal_list(cell: str, where: str) -> list[str]:
    try:
        value = ast.literal_eval(cell.strip()) if cell.strip() else []
    except (ValueError, SyntaxError):
        raise ImportFormatError(f"{where}: not a Python-literal list: {cell!r}") from None
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list | tuple) or not all(isinstance(v, str | int | float) for v in value):
        raise ImportFormatError(f"{where}: expected a list of strings, got {cell!r}")
    return [str(v) for v in value]


def _int(cell: str, where: str) -> int:
    try:
        return int(cell.strip())
    except ValueError:
        raise ImportFormatError(f"{where}: expected an integer, got {cell!r}") from None


def _language(cell: str, where: str) -> Language:
    code = cell.strip().upper()
    if code not in LANGUAGES:
        raise ImportFormatError(f"{where}: unknown language {cell!r} (expected ENG or CHN)")
    return LANGUAGES[code]


def read_csv(path: Path) -> list[dict[str, str]]:
    try:
        with path.open(encoding="utf-8-sig", newline="") as f:
            rows = list(csv.DictReader(f))
    except (OSError, UnicodeDecodeError, csv.Error) as exc:
        raise ImportFormatError(f"{path}: cannot read CSV: {exc}") from None
    if not rows:
        raise ImportFormatError(f"{path}: no rows")
    return rows


def _single_app_task(row: dict[str, str], where: str, user_map: dict[str, KnownApp]) -> dict[str, Any]:
    language = _language(row["task_language"], f"{where}: column task_language")
    key = row["task_app"].strip()
    known = lookup(key, user_map)
    zh_name = (row.get("task_app_CHN") or "").strip() or (known.zh if known else key)
    en_name = known.en if known else key
    return {
        "id": row["task_identifier"].strip(),
        "apps": [{"package": row["adb_app"].strip(), "activity": row["adb_home_page"].strip() or None,
                  "name": {"en": en_name, "zh": zh_name}}],
        "language": language,
        "difficulty": _int(row["task_difficulty"], f"{where}: column task_difficulty"),
        "category": "single_app",
        "instruction": row["task_description"].strip(),
        "golden_steps": _int(row["golden_steps"], f"{where}: column golden_steps"),
        "key_components": _literal_list(row["key_component_final"], f"{where}: column key_component_final"),
        "setup": _snapshot_setup(language),
        "tags": ["spa-bench", NEEDS_REAL_APPS_TAG, key],
        "source": f"spa-bench:{row['task_identifier'].strip()}",
    }


def _subtasks(split_file: Path) -> list[dict[str, Any]]:
    try:
        data = json.loads(split_file.read_text(encoding="utf-8-sig"))
    except (OSError, ValueError) as exc:
        raise ImportFormatError(f"{split_file}: cannot read JSON: {exc}") from None
    keys = sorted((k for k in data if k.startswith("subtask_")), key=lambda k: int(k.split("_")[1]))
    if not keys:
        raise ImportFormatError(f"{split_file}: no subtask_N entries")
    out = []
    for k in keys:
        sub = data[k]
        missing = {"app", "task"} - set(sub)
        if missing:
            raise ImportFormatError(f"{split_file}: {k}: missing {', '.join(sorted(missing))}")
        memory = sub.get("memory")
        out.append({"app": str(sub["app"]), "instruction": str(sub["task"]),
                    "uses_history": bool(sub.get("history", False)),
                    "memory": None if memory in (None, "", "None") else str(memory)})
    return out


def _cross_app_task(row: dict[str, str], where: str, split_dirs: list[Path],
                    user_map: dict[str, KnownApp], learned: dict[str, KnownApp]) -> dict[str, Any]:
    task_id = row["task_identifier"].strip()
    language = _language(row["task_language"], f"{where}: column task_language")
    apps = []
    for name in _literal_list(row["task_app"], f"{where}: column task_app"):
        known = lookup(name, user_map) or lookup(name, learned)
        if known is None:
            raise ImportFormatError(f"{where}: column task_app: unknown app {name!r}; give its package "
                                    f"with --app-map FILE (YAML: {{'{name}': {{package: ...}}}})")
        apps.append({"package": known.package, "activity": known.activity,
                     "name": {"en": known.en, "zh": known.zh}})
    split = next((d / f"{task_id}.json" for d in split_dirs if (d / f"{task_id}.json").is_file()), None)
    if split is None:
        searched = ", ".join(str(d) for d in split_dirs) or "no folder given"
        raise ImportFormatError(f"{where}: no split file {task_id}.json (searched: {searched}); give "
                                f"SPA-Bench's cross-app-split folder too")
    return {
        "id": task_id,
        "apps": apps,
        "language": language,
        "difficulty": _int(row["task_difficulty"], f"{where}: column task_difficulty"),
        "category": "cross_app",
        "instruction": row["task_description"].strip(),
        "golden_steps": _int(row["golden_steps"], f"{where}: column golden_steps"),
        "subtasks": _subtasks(split),
        "setup": _snapshot_setup(language),
        "tags": ["spa-bench", NEEDS_REAL_APPS_TAG,
                 *([row["category"].strip()] if row.get("category", "").strip() else [])],
        "source": f"spa-bench:{task_id}",
    }


def load_app_map(path: Path) -> dict[str, KnownApp]:
    """A user's YAML map `{display name: {package, activity?, en?, zh?}}`."""
    try:
        raw = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
    except (OSError, yaml.YAMLError) as exc:
        raise ImportFormatError(f"{path}: cannot read app map: {exc}") from None
    if not isinstance(raw, dict):
        raise ImportFormatError(f"{path}: expected a mapping of app names")
    out = {}
    for name, body in raw.items():
        if not isinstance(body, dict) or not isinstance(body.get("package"), str):
            raise ImportFormatError(f"{path}: app {name!r}: needs a 'package' string")
        out[str(name)] = KnownApp(body["package"], body.get("activity"), str(body.get("en", name)),
                                  str(body.get("zh", name)))
    return out


def convert(files: Iterable[Path], app_map: dict[str, KnownApp] | None = None) -> list[Task]:
    """Read SPA-Bench files (CSV; folders or JSON files with cross-app splits) into validated Tasks."""
    paths = [Path(f) for f in files]
    split_dirs = sorted({p if p.is_dir() else p.parent for p in paths if p.is_dir() or p.suffix == ".json"})
    csv_files = [p for p in paths if p.suffix.lower() == ".csv"]
    missing = [p for p in paths if not p.exists()]
    if missing:
        raise ImportFormatError(f"{missing[0]}: no such file or folder")
    if not csv_files:
        raise ImportFormatError("no CSV file given (SPA-Bench's single-app-*.csv or cross-app-*.csv)")
    user_map = dict(app_map or {})
    tables = [(p, read_csv(p)) for p in csv_files]
    # Single-app rows teach us packages of apps that cross-app rows name by display name, for apps
    # that neither the user's map nor KNOWN_APPS has.
    learned: dict[str, KnownApp] = {}
    for _path, rows in tables:
        for row in rows:
            if "adb_app" in row and row.get("task_app"):
                learned.setdefault(row["task_app"].strip(), KnownApp(
                    row["adb_app"].strip(), None, row["task_app"].strip(),
                    (row.get("task_app_CHN") or row["task_app"]).strip()))
    raws: list[tuple[str, dict[str, Any]]] = []
    for path, rows in tables:
        columns = set(rows[0])
        cross = columns >= CROSS_APP_COLUMNS and "adb_app" not in columns
        if not cross and not columns >= SINGLE_APP_COLUMNS:
            need = sorted(SINGLE_APP_COLUMNS - columns)
            raise ImportFormatError(f"{path}: not a SPA-Bench task file; missing columns {', '.join(need)}")
        for n, row in enumerate(rows, start=2):  # line 1 is the header
            where = f"{path}:{n} ({row.get('task_identifier', '?')})"
            raw = (_cross_app_task(row, where, split_dirs, user_map, learned) if cross
                   else _single_app_task(row, where, user_map))
            raws.append((where, raw))
    counts = Counter(raw["id"] for _w, raw in raws)
    tasks = []
    problems = []
    for where, raw in raws:
        if counts[raw["id"]] > 1:
            suffix = "ENG" if raw["language"] == "en" else "CHN"
            if not raw["id"].endswith(f"_{suffix}"):
                raw["id"] = f"{raw['id']}_{suffix}"
        try:
            tasks.append(Task.model_validate(raw))
        except ValidationError as exc:
            problems += [f"{where}: {p}" for p in describe_validation_error(exc)]
    if problems:
        raise ImportFormatError("; ".join(problems[:5]) + (f" (+{len(problems) - 5} more)"
                                                           if len(problems) > 5 else ""))
    again = Counter(t.id for t in tasks)
    dupes = sorted(i for i, c in again.items() if c > 1)
    if dupes:
        raise ImportFormatError(f"duplicate task ids after conversion: {', '.join(dupes)}")
    return tasks


def task_to_yaml(task: Task, complete: bool = False) -> str:
    """YAML of a task, fields in model order, readable Unicode: only the fields that were set (as a
    file would say them), or with `complete` every field that has a value (defaults filled in)."""
    data = task.model_dump(mode="json", exclude_none=True) if complete else task.model_dump(
        mode="json", exclude_unset=True)
    data = {"schema_version": task.schema_version, **data}
    return yaml.safe_dump(data, allow_unicode=True, sort_keys=False, width=100)


def write_tasks(tasks: list[Task], out: Path) -> list[Path]:
    """One file per task: OUT/<category>/<language>/<id>.yaml. Refuses to overwrite different ids' files
    silently: existing files of the same ids are replaced (re-import), others left alone."""
    written = []
    for task in tasks:
        path = out / task.category / task.language / f"{task.id}.yaml"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(task_to_yaml(task), encoding="utf-8")
        written.append(path)
    return written


def import_spa_bench(files: Iterable[Path], out: Path, app_map: dict[str, KnownApp] | None = None
                     ) -> ImportResult:
    tasks = convert(files, app_map)
    return ImportResult(tasks=tasks, written=write_tasks(tasks, out))
