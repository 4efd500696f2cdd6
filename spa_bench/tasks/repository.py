"""Task files on disk: find them, index them fast, filter, load and validate with precise errors.

Layout: a tasks root holds one folder per suite (`<root>/<suite>/**/*.yaml`); a file holds one task
(a mapping) or several (a list of mappings). `<root>/suites.yaml` may define named suites as filters.
The index reads YAML only (no pydantic), so listing hundreds of tasks is quick; `load` builds Task
objects and `validate` reports every problem as "file: task 'id': field 'a.b': message".
"""

from __future__ import annotations

import copy
import fnmatch
import os
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import cached_property, lru_cache
from importlib.resources import files
from pathlib import Path
from typing import Any

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from spa_bench.errors import ConfigError, TaskValidationError
from spa_bench.tasks.model import Category, Language, Task
from spa_bench.tasks.validators import VALIDATORS

SUITES_FILE = "suites.yaml"
# discriminator values of the unions inside a task (checks, golden_script, parameters)
_UNION_TAGS = frozenset({"shell", "sqlite", "content_query", "answer", "validator", "tap", "long_press",
                         "swipe", "scroll", "type", "key", "open_app", "wait", "finish", "choice", "int",
                         "time"})
TASK_FILE_SUFFIXES = (".yaml", ".yml")


def default_tasks_root() -> Path:
    """The tasks shipped with spa-bench (installed as `spa_bench.suites`); $SPA_BENCH_TASKS overrides."""
    env = os.environ.get("SPA_BENCH_TASKS")
    if env:
        return Path(env)
    return Path(str(files("spa_bench.suites")))


@dataclass(frozen=True)
class TaskRecord:
    """One index entry: enough to list and filter without building the Task."""

    id: str
    suite: str
    file: Path
    position: int  # index of the task inside its file
    language: str
    category: str
    difficulty: int
    packages: tuple[str, ...]
    app_names: tuple[str, ...]
    instruction: str
    tags: tuple[str, ...] = ()
    parameterised: bool = False
    retrieval: bool = False  # an answer check
    infeasible: bool = False  # a finish check with status infeasible
    near_misses: int = 0

    def matches_app(self, app: str) -> bool:
        wanted = app.casefold()
        return any(wanted == p.casefold() for p in self.packages) or any(
            wanted == n.casefold() for n in self.app_names)


class TaskFilter(BaseModel):
    """Which tasks to take. Every given criterion must hold; list criteria accept any of their values."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    suites: list[str] = Field(default_factory=list)
    languages: list[Language] = Field(default_factory=list)
    apps: list[str] = Field(default_factory=list, description="package or display name, any language")
    difficulties: list[int] = Field(default_factory=list)
    categories: list[Category] = Field(default_factory=list)
    ids: list[str] = Field(default_factory=list, description="task ids or glob patterns")
    tags: list[str] = Field(default_factory=list, description="tasks carrying any of these tags")


class NamedSuite(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    description: str = ""
    filter: TaskFilter


_PATTERN_HINTS = {
    "id": "must be a task id safe as a file name: letters, digits, '_', '.', '-', starting with a "
          "letter or digit, at most 128 characters",
    "package": "must be an Android package name such as com.android.settings",
    "db": "must be an absolute device path such as /data/data/PKG/databases/NAME.db",
    "uri": "must be a content:// URI",
}


def _location(loc: Sequence[int | str]) -> str:
    """Dotted field path; discriminator tags after a list index ('checks.0.sqlite.db') are dropped."""
    parts: list[str] = []
    previous: int | str | None = None
    for item in loc:
        if isinstance(item, str) and ((isinstance(previous, int) and re.fullmatch(r"[a-z_]+", item)
                                      and item in _UNION_TAGS) or item.startswith("function-")):
            previous = item
            continue
        parts.append(str(item))
        previous = item
    return ".".join(parts) if parts else "(task)"


def describe_validation_error(exc: ValidationError) -> list[str]:
    """pydantic errors as "field 'a.b': message" strings, unknown fields named as such."""
    out = []
    for err in exc.errors():
        where = _location(err["loc"])
        if err["type"] == "extra_forbidden":
            out.append(f"unknown field '{where}'")
        elif err["type"] == "missing":
            out.append(f"field '{where}': missing")
        elif err["type"] in ("union_tag_not_found", "union_tag_invalid") and _tag_choices(err["loc"]):
            out.append(_tag_problem(where, err))
        else:
            msg = err["msg"].removeprefix("Value error, ")
            last = err["loc"][-1] if err["loc"] else ""
            if err["type"] == "string_pattern_mismatch" and last in _PATTERN_HINTS:
                msg = _PATTERN_HINTS[str(last)]
            value = err.get("input")
            shown = repr(value) if isinstance(value, str | int | float | bool) or value is None else ""
            out.append(f"field '{where}': {msg}" + (f" (got {shown})" if shown else ""))
    return out


# the lists and mappings of a task whose items are told apart by a tag field, and what an item is called
_TAGGED = {"checks": "check", "golden_script": "action", "script": "action", "parameters": "parameter",
           "interruptions": "interruption"}


def _tag_choices(loc: Sequence[int | str]) -> tuple[str, str, list[str]] | None:
    """(item noun, tag field, allowed tags) of the tagged item at `loc`, e.g. ("check", "type",
    ["shell", "sqlite", ...]) for 'checks.0'; None elsewhere."""
    from typing import get_args

    from spa_bench.actions import Action
    from spa_bench.tasks.checks import Check
    from spa_bench.tasks.interruptions import Interruption
    from spa_bench.tasks.params import ParamSpec

    unions: dict[str, object] = {"check": Check, "action": Action, "parameter": ParamSpec,
                                 "interruption": Interruption}
    field = next((item for item in reversed(loc) if isinstance(item, str) and item in _TAGGED), None)
    if field is None:
        return None
    noun = _TAGGED[field]
    union, info = get_args(unions[noun])
    tag = str(info.discriminator)
    return noun, tag, [str(get_args(member.model_fields[tag].annotation)[0]) for member in get_args(union)]


def _tag_problem(where: str, err: Any) -> str:
    """A tagged item without its tag, or with an unknown one: what is allowed, with "did you mean"."""
    import difflib

    noun, tag, allowed = _tag_choices(err["loc"]) or ("item", "type", [])
    given = err.get("input")
    fields = [str(k) for k in given] if isinstance(given, dict) else []
    choices = ", ".join(allowed)
    if err["type"] == "union_tag_not_found":
        near = difflib.get_close_matches(tag, fields, n=1, cutoff=0.6)
        hint = f"; did you mean '{tag}' for '{near[0]}'?" if near else ""
        return f"field '{where}': a {noun} needs '{tag}', one of: {choices}{hint}"
    value = str(err.get("ctx", {}).get("tag", given.get(tag) if isinstance(given, dict) else ""))
    near = difflib.get_close_matches(value, allowed, n=1, cutoff=0.6)
    hint = f"; did you mean '{near[0]}'?" if near else ""
    return f"field '{where}': unknown {noun} {tag} '{value}'{hint} (one of: {choices})"


class _Loader(yaml.SafeLoader if not hasattr(yaml, "CSafeLoader") else yaml.CSafeLoader):  # type: ignore[misc]
    """Plain YAML, no custom tags; the C loader when available."""


def read_task_file(path: Path) -> list[dict[str, Any]]:
    """The raw task mappings of one file (the caller's own copy). Raises TaskValidationError on bad YAML
    or shape."""
    return copy.deepcopy(_parsed_task_file(path))


def _parsed_task_file(path: Path) -> list[dict[str, Any]]:
    """The raw task mappings of one file, shared: parsed once per content of the file, since a run
    selects from the index several times and parsing 480 tasks costs about half a second each time
    (reading the bytes, the cache key with the path, costs almost nothing). Callers must not change
    what they get; read_task_file gives a copy."""
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise TaskValidationError([f"{path}: cannot read: {exc}"]) from None
    return _parse_task_file(path, data)


@lru_cache(maxsize=1024)
def _parse_task_file(path: Path, data: bytes) -> list[dict[str, Any]]:
    try:
        parsed = yaml.load(data.decode("utf-8-sig"), Loader=_Loader)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark
        where = f":{mark.line + 1}:{mark.column + 1}" if mark is not None else ""
        raise TaskValidationError([f"{path}{where}: invalid YAML: {exc.problem}"]) from None
    except yaml.YAMLError as exc:
        raise TaskValidationError([f"{path}: invalid YAML: {exc}"]) from None
    except UnicodeDecodeError as exc:
        raise TaskValidationError([f"{path}: cannot read: {exc}"]) from None
    if parsed is None:
        raise TaskValidationError([f"{path}: empty file (expected a task mapping or a list of tasks)"])
    items = parsed if isinstance(parsed, list) else [parsed]
    for i, item in enumerate(items):
        if not isinstance(item, dict):
            raise TaskValidationError(
                [f"{path}: item {i} is a {type(item).__name__}, expected a mapping of task fields"])
    return items


def _label(raw: dict[str, Any], position: int) -> str:
    task_id = raw.get("id")
    return f"task {task_id!r}" if isinstance(task_id, str) and task_id else f"task #{position} (no id)"


@dataclass
class TaskRepository:
    """The task tree under `root`."""

    root: Path = field(default_factory=default_tasks_root)

    def __post_init__(self) -> None:
        self.root = Path(self.root)
        if not self.root.is_dir():
            raise ConfigError(f"tasks folder {self.root} does not exist")

    # -- discovery ------------------------------------------------------------------------------------
    def task_files(self) -> list[Path]:
        found = [p for p in self.root.rglob("*") if p.suffix in TASK_FILE_SUFFIXES and p.is_file()
                 and p.name != SUITES_FILE
                 and not any(part.startswith(".") for part in p.relative_to(self.root).parts)]
        return sorted(found)

    def suite_of(self, path: Path) -> str:
        rel = path.relative_to(self.root)
        return rel.parts[0] if len(rel.parts) > 1 else "default"

    @cached_property
    def named_suites(self) -> dict[str, NamedSuite]:
        path = self.root / SUITES_FILE
        if not path.is_file():
            return {}
        raw = yaml.load(path.read_text(encoding="utf-8"), Loader=_Loader) or {}
        if not isinstance(raw, dict):
            raise TaskValidationError([f"{path}: expected a mapping of suite names to filters"])
        suites = {}
        for name, body in raw.items():
            try:
                suites[str(name)] = NamedSuite.model_validate(body)
            except ValidationError as exc:
                raise TaskValidationError(
                    [f"{path}: suite {name!r}: {p}" for p in describe_validation_error(exc)]) from None
        return suites

    # -- the fast index -------------------------------------------------------------------------------
    def index(self) -> list[TaskRecord]:
        """All tasks as light records. Malformed files raise; use validate() to see every problem."""
        records: list[TaskRecord] = []
        for path in self.task_files():
            for pos, raw in enumerate(_parsed_task_file(path)):
                records.append(self._record(path, pos, raw))
        return records

    def _record(self, path: Path, pos: int, raw: dict[str, Any]) -> TaskRecord:
        raw_apps = raw.get("apps")
        apps: list[Any] = raw_apps if isinstance(raw_apps, list) else []
        packages = tuple(str(a.get("package", "")) for a in apps if isinstance(a, dict))
        names = tuple(str(n) for a in apps if isinstance(a, dict) and isinstance(a.get("name"), dict)
                      for n in a["name"].values())
        difficulty = raw.get("difficulty")
        checks = [c for c in raw.get("checks") or [] if isinstance(c, dict)]
        tags, near_misses = raw.get("tags"), raw.get("near_misses")
        return TaskRecord(
            id=str(raw.get("id", "")), suite=self.suite_of(path), file=path, position=pos,
            language=str(raw.get("language", "")), category=str(raw.get("category", "")),
            difficulty=difficulty if isinstance(difficulty, int) else 0,
            packages=packages, app_names=names, instruction=str(raw.get("instruction", "")),
            tags=tuple(str(t) for t in tags) if isinstance(tags, list) else (),
            parameterised=bool(raw.get("parameters")),
            retrieval=any(c.get("type") == "answer" for c in checks),
            infeasible=any(c.get("type") == "finish" and c.get("status") == "infeasible" for c in checks),
            near_misses=len(near_misses) if isinstance(near_misses, list) else 0)

    def select(self, flt: TaskFilter | None = None) -> list[TaskRecord]:
        """Index entries matching the filter, in file order. ConfigError for a suite nobody has."""
        records = self.index()
        if not flt:
            return records
        self._check_suites(flt)
        return [r for r in records if self._matches(r, flt)]

    def _check_suites(self, flt: TaskFilter) -> None:
        """Every suite the filter names is a folder of the tree or a named suite (once per selection:
        listing the folders walks the tree)."""
        folders: list[str] | None = None
        for suite in flt.suites:
            named = self.named_suites.get(suite)
            if named is not None:
                self._check_suites(named.filter)
                continue
            folders = self.suite_names() if folders is None else folders
            if suite not in folders:
                import difflib

                names = sorted(set(folders) | set(self.named_suites))
                near = difflib.get_close_matches(suite, names, n=1)
                hint = f"; did you mean {near[0]!r}?" if near else ""
                raise ConfigError(f"unknown suite {suite!r}{hint} (known: {', '.join(names)})")

    def _matches(self, r: TaskRecord, flt: TaskFilter) -> bool:
        if flt.suites and not any(self._in_suite(r, suite) for suite in flt.suites):
            return False
        return (
            (not flt.languages or r.language in flt.languages)
            and (not flt.categories or r.category in flt.categories)
            and (not flt.difficulties or r.difficulty in flt.difficulties)
            and (not flt.apps or any(r.matches_app(a) for a in flt.apps))
            and (not flt.ids or any(fnmatch.fnmatchcase(r.id, pattern) for pattern in flt.ids))
            and (not flt.tags or any(t in r.tags for t in flt.tags))
        )

    def _in_suite(self, r: TaskRecord, suite: str) -> bool:
        """A named suite (suites.yaml) selects by its filter, even where a folder has its name."""
        named = self.named_suites.get(suite)
        return self._matches(r, named.filter) if named is not None else r.suite == suite

    def suite_names(self) -> list[str]:
        return sorted({self.suite_of(p) for p in self.task_files()})

    # -- full loading ---------------------------------------------------------------------------------
    def load(self, records: Iterable[TaskRecord] | None = None) -> list[Task]:
        """Build and validate Task objects; raises TaskValidationError listing every problem."""
        wanted = list(records) if records is not None else self.index()
        by_file: dict[Path, list[TaskRecord]] = {}
        for rec in wanted:
            by_file.setdefault(rec.file, []).append(rec)
        tasks: list[Task] = []
        problems: list[str] = []
        for path, recs in by_file.items():
            raws = _parsed_task_file(path)
            for rec in recs:  # a copy of each: a Task may keep nested values of what it was made from
                task, errs = validate_raw_task(path, rec.position, copy.deepcopy(raws[rec.position]))
                problems.extend(errs)
                if task is not None:
                    tasks.append(task)
        if problems:
            raise TaskValidationError(problems)
        return tasks

    def get(self, task_id: str) -> Task:
        for rec in self.index():
            if rec.id == task_id:
                return self.load([rec])[0]
        import difflib

        near = difflib.get_close_matches(task_id, [rec.id for rec in self.index()], n=1)
        hint = f"; did you mean {near[0]!r}?" if near else " (`spa-bench tasks list` lists them)"
        raise ConfigError(f"no task with id {task_id!r} under {self.root}{hint}")

    def validate(self) -> tuple[int, list[str]]:
        """Check every file: (number of valid tasks, problems). Never raises for task problems."""
        problems: list[str] = []
        seen: dict[str, Path] = {}
        valid = 0
        try:
            _ = self.named_suites
        except TaskValidationError as exc:
            problems.extend(exc.problems)
        for path in self.task_files():
            try:
                raws = read_task_file(path)
            except TaskValidationError as exc:
                problems.extend(exc.problems)
                continue
            for pos, raw in enumerate(raws):
                task, errs = validate_raw_task(path, pos, raw)
                problems.extend(errs)
                task_id = raw.get("id")
                if isinstance(task_id, str):
                    if task_id in seen:
                        problems.append(f"{path}: {_label(raw, pos)}: field 'id': duplicate id "
                                        f"(first defined in {seen[task_id]})")
                        continue
                    seen[task_id] = path
                if task is not None and not errs:
                    valid += 1
        for name, suite in (self.named_suites if not problems else {}).items():
            for task_id in suite.filter.ids:
                if not any(ch in task_id for ch in "*?[") and task_id not in seen:
                    problems.append(f"{self.root / SUITES_FILE}: suite {name!r}: field 'filter.ids': "
                                    f"unknown task id {task_id!r}")
        return valid, problems


def validate_raw_task(path: Path, position: int, raw: dict[str, Any]) -> tuple[Task | None, list[str]]:
    """Validate one raw task mapping; problems name the file, the task and the field."""
    prefix = f"{path}: {_label(raw, position)}"
    try:
        task = Task.model_validate(raw)
    except ValidationError as exc:
        return None, [f"{prefix}: {p}" for p in describe_validation_error(exc)]
    problems = []
    for i, check in enumerate(task.checks):
        if check.type == "validator" and check.name not in VALIDATORS:
            known = ", ".join(VALIDATORS.names())
            problems.append(f"{prefix}: field 'checks.{i}.name': unknown validator {check.name!r} "
                            f"(known: {known})")
    return task, problems
