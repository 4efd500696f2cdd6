"""The cross-app tasks of Email, Gallery and Camera (tasks/cross_app/mail_gallery_*.yaml): what the
files hold. (Their oracle and noop run is tests/tasks/test_every_task.py's cross_app suite.)"""

from __future__ import annotations

from pathlib import Path

from spa_bench.tasks.repository import TaskRepository

TASKS = Path(__file__).resolve().parents[2] / "tasks"


def test_seven_or_more_cross_app_tasks_per_language_all_parameterised_but_one() -> None:
    records = [r for r in TaskRepository(TASKS).index() if r.file.name.startswith("mail_gallery_")]
    for lang in ("en", "zh"):
        mine = [r for r in records if r.language == lang]
        assert len(mine) >= 7 and all(r.category == "cross_app" and len(r.packages) >= 2 for r in mine)
        assert [r.id for r in mine if not r.parameterised] == [f"cross_camera_favourite_{lang}"]
        assert all(r.near_misses for r in mine if r.difficulty == 3)
