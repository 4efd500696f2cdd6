"""Adapters ask through the real pipeline: virtual phone, run machinery, a local OpenAI-compatible server per
adapter. The scripted model asks in the adapter's own syntax, the task's simulated user answers, and the
model's next request carries the answer where the adapter's format puts a person's words."""

from __future__ import annotations

from collections.abc import Callable
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest
from pim_runs import on_shared_phones, state_success

from spa_bench.actions import AskUser
from spa_bench.runner.config import AgentConfig, RunConfig
from spa_bench.runner.run import run_benchmark
from spa_bench.tasks.repository import TaskFilter
from spa_bench.testing.openai_server import RecordedRequest, ScriptedOpenAIServer

pytestmark = pytest.mark.usefixtures("adb_env")

REPLY = "The Wi-Fi one, please."
TASKS = f"""\
- id: ask_which_radio_en
  instruction: One of my phone's connections must stay on. Tell me when you know which.
  apps: [{{package: com.android.settings, name: {{en: Settings, zh: 设置}}}}]
  language: en
  difficulty: 2
  category: single_app
  golden_steps: 2
  setup: {{shell: [settings put global wifi_on 1]}}
  user:
    replies:
      - {{when: [which, connection, 哪], reply: "{REPLY}"}}
  checks:
    - {{type: ask_user, reply: 0}}
    - {{type: shell, command: settings get global wifi_on, expect: "1"}}
  golden_script:
    - {{type: ask_user, question: Which connection do you mean?}}
    - {{type: finish}}
"""
QUESTION = "Which connection do you mean?"


def mobile_use(arguments: str) -> str:
    call = f'{{"name": "mobile_use", "arguments": {arguments}}}'
    return f"Thought: I must ask.\nAction: Ask.\n<tool_call>\n{call}\n</tool_call>"


def text(message: dict[str, Any]) -> str:
    content = message["content"]
    if isinstance(content, str):
        return content
    return "".join(str(p.get("text", "")) for p in content if p.get("type") == "text")


def ui_tars_hears(request: RecordedRequest) -> bool:
    *_, call, reply, image = request.messages  # the call, the user's reply, then the new screenshot
    return (call["role"] == "assistant" and text(call).endswith("call_user()") and reply["role"] == "user"
            and text(reply) == REPLY and image["content"][0]["type"] == "image_url")


# adapter name, its arguments, the scripted replies (ask, then finish), how its second request shows the reply
CASES: list[tuple[str, dict[str, Any], list[str], Callable[[RecordedRequest], bool]]] = [
    ("ui-tars", {}, [f"Thought: {QUESTION}\nAction: call_user()",
                     "Thought: Done.\nAction: finished(content='')"], ui_tars_hears),
    ("qwen-vl", {"version": "3"},
     [mobile_use(f'{{"action": "ask_user", "text": "{QUESTION}"}}'),
      mobile_use('{"action": "terminate", "status": "success"}')],
     lambda r: f"Step 1: Ask.; Ask user response: {REPLY}; " in text(r.messages[-1])),
    ("autoglm", {}, [f'<think>{QUESTION}</think><answer>do(action="Interact")</answer>',
                     '<think>Done.</think><answer>finish(message="Wi-Fi")</answer>'],
     lambda r: text(r.messages[-1]).startswith(f"{REPLY}\n\n** Screen Info **")),
    ("os-atlas", {}, [f"thoughts:\nI must ask.\nactions:\nASK_USER [{QUESTION}]",
                      "thoughts:\nDone.\nactions:\nCOMPLETE"],
     lambda r: f"Step 1: I must ask. (the user replied: {REPLY})" in "".join(r.texts())),
    ("mllm", {}, [f'Reason: I must ask.\nAction: {{"type": "ask_user", "question": "{QUESTION}"}}',
                  'Reason: Done.\nAction: {"type": "finish"}'],
     lambda r: f"The user's reply to your question: {REPLY}" in "".join(r.texts())),
]


def test_each_adapter_asks_and_its_model_hears_the_reply(tmp_path: Path, results_dir: Path) -> None:
    tasks = tmp_path / "tasks" / "asking"
    tasks.mkdir(parents=True)
    (tasks / "en.yaml").write_text(TASKS)
    with ExitStack() as stack:
        servers = {name: stack.enter_context(ScriptedOpenAIServer(script)) for name, _, script, _ in CASES}
        agents = [AgentConfig(agent=name, args={"base_url": servers[name].base_url, "api_key_env": "none",
                                                "model": "scripted", **args}) for name, args, _, _ in CASES]
        result = run_benchmark(RunConfig(filter=TaskFilter(ids=["ask_which_radio_en"]), agents=agents,
                                         tasks_dir=tmp_path / "tasks", **on_shared_phones(1), out=results_dir,
                                         seed=0))
    logs = {log.agent.name: log for log in result.logs}
    assert sorted(logs) == sorted(name for name, *_ in CASES)
    for name, _, _, hears in CASES:
        log = logs[name]
        assert [s.valid for s in log.steps] == [True, True], (name, [s.invalid_reason for s in log.steps])
        assert isinstance(log.steps[0].action, AskUser), name
        (said,) = log.dialogue
        assert (said.step, said.rule, said.reply) == (0, 0, REPLY), name
        first, second = servers[name].chat_requests()
        assert REPLY not in str(first.messages), name
        assert hears(second), (name, second.messages[-2:])
        assert state_success(log), (name, [e.summary for v in log.verdicts for e in v.evidence])
