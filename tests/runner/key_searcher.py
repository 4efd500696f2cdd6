"""An agent that looks for the answer key in everything it can reach, as a plug-in (`SearchingAgent`) and
as an external program (run this file). It cannot know the key, so it gathers every text it can reach -
its workdir, the files of every folder from there up to /, its environment and arguments, its context
object, and its own episode's folder in the run folder ($SPA_TEST_RUN_DIR: a run folder it could not
find, given here to check what is on disk while it runs) - into corpus.txt in its workdir; the test then
greps that corpus for the key. Used by tests/runner/test_key_out_of_reach.py."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any

SKIP = ("/proc", "/sys", "/usr", "/dev")
MAX_BYTES = 2_000_000


def _text(path: Path) -> str | None:
    try:
        if path.is_symlink() or not path.is_file() or path.stat().st_size > MAX_BYTES:
            return None
        return path.read_bytes().decode("utf-8", errors="ignore")
    except OSError:
        return None


def gather(workdir: Path, task_id: str, agent: str, extra: dict[str, str]) -> dict[str, str]:
    """source -> text of everything reachable (see the module docstring)."""
    found: dict[str, str] = dict(extra)
    for folder, dirs, files in os.walk(workdir):
        dirs[:] = [d for d in dirs if not (Path(folder) / d).is_symlink()]
        for name in files:
            text = _text(Path(folder) / name)
            if text is not None and name != "corpus.txt":
                found[f"workdir:{Path(folder) / name}"] = text
    for parent in workdir.resolve().parents:  # each folder up to /: its own files
        if str(parent).startswith(SKIP) or "site-packages" in str(parent):
            continue
        try:
            entries = list(parent.iterdir())
        except OSError:
            continue
        for entry in entries:
            text = _text(entry)
            if text is not None:  # with its mtime: what was there before the run is not the harness's
                found[f"parent:{entry}@{entry.stat().st_mtime}"] = text
    run_dir = os.environ.get("SPA_TEST_RUN_DIR")
    if run_dir:
        episode = Path(run_dir) / "episodes" / f"{agent}__{task_id}__r0"
        for path in sorted(episode.rglob("*")) if episode.is_dir() else []:
            if path.suffix != ".png":
                text = _text(path)
                if text is not None:
                    found[f"run:{path}"] = text
    found["environment"] = json.dumps(dict(os.environ), ensure_ascii=False)
    found["argv"] = json.dumps(sys.argv, ensure_ascii=False)
    return found


def write(workdir: Path, found: dict[str, str]) -> None:
    (workdir / "corpus.txt").write_text(json.dumps({"workdir": str(workdir.resolve()), "texts": found},
                                                   ensure_ascii=False), encoding="utf-8")


try:  # the plug-in half: only when spa-bench is importable (it is, in the tests)
    from spa_bench.agent import BaseAgent, TaskContext

    class SearchingAgent(BaseAgent):
        def reset(self, context: TaskContext) -> None:
            task = context.task
            dump = task.model_dump_json() if hasattr(task, "model_dump_json") else repr(task)
            extra = {"context": repr(vars(context)) if hasattr(context, "__dict__") else repr(context),
                     "context.task": dump, "agent": repr(vars(self))}
            write(context.workdir, gather(context.workdir, task.id, "plug", extra))

        def step(self, observation: Any) -> Any:
            return {"type": "finish", "status": "done"}
except ImportError:  # pragma: no cover - the program half needs nothing of spa-bench
    pass


if __name__ == "__main__":
    out = Path(os.environ["SPA_BENCH_OUTPUT_DIR"])
    assert Path.cwd().resolve() == out.resolve(), (Path.cwd(), out)
    write(out, gather(out, os.environ["SPA_BENCH_TASK_ID"], "ext", {}))
