"""A real run for the report tests: the pipeline on virtual phones with oracle, noop and an agent whose
outputs carry HTML and scripts, over settings tasks plus tasks of our own whose instruction carries an
injected <script>. Built once per session; the report of it is written beside it."""

from __future__ import annotations

import shutil
import textwrap
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import yaml
from pim_runs import on_shared_phones

INJECTED_TITLE = "pwned"
SCRIPT = f'<script>window.__pwned = 1; document.title = "{INJECTED_TITLE}";</script>'
IMG = '<img src="x" onerror="window.__pwned = 2; document.title = \'pwned\'">'
CLOSER = "</script><script>window.__pwned = 3;</script><!--"


def _task(task_id: str, language: str, difficulty: int, instruction: str, setting: str, on: str,
          first: str, check: str) -> dict[str, Any]:
    return {
        "id": task_id,
        "apps": [{"package": "com.android.settings", "name": {"en": "Settings", "zh": "设置"}}],
        "language": language, "difficulty": difficulty, "category": "single_app", "instruction": instruction,
        "golden_steps": 3, "key_components": ["Wi-Fi" if language == "en" else "蓝牙"],
        "setup": {"shell": [f"settings put global {setting} {1 - int(on)}"]},
        "checks": [{"type": "shell", "description": check, "command": f"settings get global {setting}",
                    "expect": on}],
        "golden_script": [{"type": "tap", "selector": {"text": first}},
                          {"type": "tap", "selector": {"resource_id": "switch_widget", "nth": 0}},
                          {"type": "finish"}]}


TASKS = [
    _task("evil_wifi_off_en", "en", 1, f"Turn off Wi-Fi. {SCRIPT} {IMG}", "wifi_on", "0",
          "Network & internet", f"Wi-Fi is off {IMG}"),
    _task("evil_bluetooth_on_zh", "zh", 2, f"打开蓝牙。{CLOSER}", "bluetooth_on", "1", "已连接的设备",
          "蓝牙已开启"),
]

EVIL_AGENT = textwrap.dedent(f'''
    from spa_bench.agent import AgentStep, BaseAgent
    from spa_bench.results.schema import TokenUsage

    class Evil(BaseAgent):
        """Acts by coordinates and by element, types and swipes, and puts HTML in everything it says."""
        def reset(self, context):
            super().reset(context)
            self.n = 0
        def step(self, observation):
            self.n += 1
            usage = TokenUsage(prompt_tokens=1000, completion_tokens=50, calls=1, cost_usd=0.01)
            plan = [
                {{"type": "tap", "x": 540, "y": 700}},
                {{"type": "swipe", "x1": 540, "y1": 1800, "x2": 540, "y2": 600}},
                {{"type": "type", "text": {CLOSER!r}}},
                "<b>not an action</b>",
                {{"type": "finish", "status": "done", "answer": {IMG!r}}},
            ]
            return AgentStep(plan[self.n - 1], output={SCRIPT + IMG!r} + " thinking", usage=usage)
''')


@dataclass(frozen=True)
class RealRun:
    run_dir: Path
    tasks_dir: Path


@pytest.fixture(scope="session")
def real_run(adb_env: dict[str, str], tmp_path_factory: pytest.TempPathFactory) -> RealRun:
    from spa_bench.runner.config import AgentConfig, RunConfig
    from spa_bench.runner.run import run_benchmark
    from spa_bench.tasks.repository import TaskFilter, default_tasks_root

    root = tmp_path_factory.mktemp("report-run")
    tasks = root / "tasks"
    shutil.copytree(default_tasks_root() / "settings", tasks / "settings")
    (tasks / "evil").mkdir(parents=True)
    (tasks / "evil" / "tasks.yaml").write_text(yaml.safe_dump(TASKS, allow_unicode=True), encoding="utf-8")
    agent_file = root / "evil_agent.py"
    agent_file.write_text(EVIL_AGENT, encoding="utf-8")
    ids = ["settings_wifi_off_en", "settings_bluetooth_on_zh", "settings_language_to_zh_en",
           "evil_wifi_off_en", "evil_bluetooth_on_zh"]
    config = RunConfig(tasks_dir=tasks, filter=TaskFilter(ids=ids), **on_shared_phones(2),
                       out=root / "results", seed=3,
                       agents=[AgentConfig(agent="oracle"), AgentConfig(agent="noop"),
                               AgentConfig(agent=f"{agent_file}:Evil", name="evil <b>agent</b>")])
    result = run_benchmark(config)
    assert result.summary.finished == 15, result.summary
    return RealRun(run_dir=result.run_dir, tasks_dir=tasks)
