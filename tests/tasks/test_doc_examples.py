"""Every full task example in the docs (a YAML block that starts with `- id:`) is a working task: it
validates, the oracle passes it and the agent that does nothing fails it, on the shared virtual phones.
A new author copies these first; an example that fails its own oracle teaches the wrong thing."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml
from pim_runs import failures, run_suite

from spa_bench.tasks.repository import TaskRepository

pytestmark = pytest.mark.usefixtures("adb_env")
ROOT = Path(__file__).resolve().parents[2]
DOCS = [ROOT / "README.md", ROOT / "tasks" / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
_BLOCK = re.compile(r"^```ya?ml\n(- id: .*?)^```", re.MULTILINE | re.DOTALL)


def doc_examples() -> list[tuple[str, dict[str, object]]]:
    """(doc file name, task) for every full task example in the docs, in order."""
    found = []
    for doc in DOCS:
        for block in _BLOCK.findall(doc.read_text("utf-8")):
            for task in yaml.safe_load(block):
                found.append((doc.relative_to(ROOT).as_posix(), task))
    return found


def test_the_docs_hold_full_examples() -> None:
    """The examples this test runs exist (a change of the block syntax would otherwise skip them all)."""
    examples = doc_examples()
    assert {doc for doc, _ in examples} >= {"tasks/README.md"}
    assert {task["language"] for _, task in examples} == {"en", "zh"}
    assert all(task.get("golden_script") and task.get("checks") for _, task in examples), \
        "a full example needs a golden script and checks, or the oracle cannot show it works"


@pytest.mark.slow
def test_doc_examples_pass_the_oracle_and_fail_noop(tmp_path: Path) -> None:
    tree = tmp_path / "tasks"
    for doc, task in doc_examples():
        suite = tree / re.sub(r"\W", "_", Path(doc).stem.lower() + "_" + str(task["id"]))
        suite.mkdir(parents=True)
        (suite / f"{task['language']}.yaml").write_text(yaml.safe_dump([task], allow_unicode=True), "utf-8")
    ids = [str(task["id"]) for _, task in doc_examples()]
    assert sorted(t.id for t in TaskRepository(tree).load()) == sorted(ids)  # each validates
    logs = run_suite([], tmp_path / "results", ["oracle", "noop"], phones=1, tasks_dir=tree, ids=ids)
    assert len(logs) == 2 * len(ids)
    assert not failures(logs, "oracle", True), failures(logs, "oracle", True)
    assert not failures(logs, "noop", False), failures(logs, "noop", False)
