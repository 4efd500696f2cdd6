"""Tasks: the model, the YAML files and their registry, parameters, and the SPA-Bench importer."""

from spa_bench.tasks.checks import Check
from spa_bench.tasks.model import (
    TASK_SCHEMA_VERSION,
    AppRef,
    Language,
    Subtask,
    Task,
    TaskSetup,
)

__all__ = ["TASK_SCHEMA_VERSION", "AppRef", "Check", "Language", "Subtask", "Task", "TaskSetup"]
