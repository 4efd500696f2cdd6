"""Runs a native adapter through the real pipeline (virtual phone, run machinery, local OpenAI-compatible
server) with the scripted native model playing golden scripts in the adapter's own syntax and frame.

    logs = run_native("ui-tars", results_dir)                  # the common task subset
    log = run_malformed("ui-tars", ["no action here", ...], results_dir)

Adapters other helpers add use the same two functions with their registered name (and `args`).
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import ExitStack
from pathlib import Path
from typing import Any

from pim_runs import on_shared_phones

from spa_bench.agent import AGENTS
from spa_bench.agent.native_agent import NativeAgent
from spa_bench.results.schema import EpisodeLog
from spa_bench.runner.config import AgentConfig, RunConfig
from spa_bench.runner.run import run_benchmark
from spa_bench.tasks.repository import TaskFilter, TaskRepository, default_tasks_root
from spa_bench.testing.native_model import NativeScriptedModel
from spa_bench.testing.openai_server import Responder, ScriptedOpenAIServer, ScriptItem

# Adapters with more than one kind of call (a summary call, a grounding model) answer each kind in its own
# format: `wrap` turns the scripted model into the responder of the adapter's endpoint, and `extra` gives
# responders for further endpoints by the agent argument naming their base URL (a server is started for
# each and the argument set to it).
Wrap = Callable[[NativeScriptedModel], Responder]
Extra = Callable[[NativeScriptedModel], dict[str, Responder]]

# Both languages; taps, a long press, typing Chinese, scrolls (swipes where the format only swipes),
# back, home, opening an app by name, and answers.
SUBSET = [
    "settings_model_name_en",  # scroll, tap, finish with an answer
    "settings_airplane_dark_en",  # taps and back
    "files_delete_invoice_en",  # long press
    "chat_reply_mom_zh",  # typing Chinese
    "cross_order_total_to_chat_zh",  # open an app by its Chinese name, read a total, type it
    "cross_wifi_to_chat_en",  # home, then the apps' icons on the home screen (HOME_LAUNCH)
]
HOME_LAUNCH = ["cross_wifi_to_chat_en"]


def mobile_use(arguments: str) -> str:
    """A Qwen/GUI-Owl reply: one mobile_use tool call with these JSON arguments."""
    return f'<tool_call>\n{{"name": "mobile_use", "arguments": {arguments}}}\n</tool_call>'


def make(name: str, **args: Any) -> NativeAgent:
    """The adapter `name`, open, against a server that is never called."""
    agent = AGENTS.get(name)(model="m", base_url="http://127.0.0.1:9/v1", api_key_env="none", **args)
    assert isinstance(agent, NativeAgent)
    return agent


def prototype(agent: str, args: dict[str, Any] | None = None) -> NativeAgent:
    """The adapter as configured (for its codec and frame); it makes no request."""
    made = AGENTS.get(agent)(model="scripted-native-model", base_url="http://127.0.0.1:9/v1",
                             api_key_env="none", **(args or {}))
    assert isinstance(made, NativeAgent), agent
    made.close()
    return made


def _run(agent: str, results_dir: Path, ids: list[str], args: dict[str, Any] | None,
         script: list[ScriptItem], phone_size: str = "1080x2400", max_steps: int | None = None,
         wrap: Wrap | None = None, extra: Extra | None = None,
         ) -> tuple[dict[str, EpisodeLog], NativeScriptedModel]:
    seed = 0  # the run's seed: the scripted model plays the instances the run draws (repeat 0)
    tasks = [t.instantiate(seed, 0)[0] for t in TaskRepository(default_tasks_root()).load() if t.id in ids]
    made = prototype(agent, args)
    model = NativeScriptedModel(made.codec, made.frame_spec, tasks, results_dir, launch_from_home=HOME_LAUNCH)
    with ExitStack() as stack:
        server = stack.enter_context(ScriptedOpenAIServer(script, when_empty=wrap(model) if wrap else model))
        endpoints = {name: stack.enter_context(ScriptedOpenAIServer(when_empty=responder)).base_url
                     for name, responder in (extra(model) if extra else {}).items()}
        config = RunConfig(
            filter=TaskFilter(ids=ids), **on_shared_phones(1, phone_size), out=results_dir, seed=seed,
            max_steps=max_steps,
            agents=[AgentConfig(agent=agent, args={"base_url": server.base_url, "api_key_env": "none",
                                                   "model": "scripted-native-model", **(args or {}),
                                                   **endpoints})])
        result = run_benchmark(config)
    assert result.summary.undone == [], result.summary.undone
    return {log.task.id: log for log in result.logs}, model


def state_success(log: EpisodeLog) -> bool | None:
    return next((v.success for v in log.verdicts if v.evaluator == "state"), None)


def run_native(agent: str, results_dir: Path, args: dict[str, Any] | None = None,
               ids: list[str] | None = None, phone_size: str = "1080x2400", wrap: Wrap | None = None,
               extra: Extra | None = None) -> dict[str, EpisodeLog]:
    """Every task of `ids` (default SUBSET) played natively; asserts each ends done with its state
    checks passing, every step valid and the model's script playable."""
    logs, model = _run(agent, results_dir, ids or SUBSET, args, [], phone_size, wrap=wrap, extra=extra)
    assert not model.errors, model.errors
    bad = []
    for task_id, log in logs.items():
        invalid = [(s.index, s.invalid_reason) for s in log.steps if not s.valid]
        if log.termination != "done" or state_success(log) is not True or invalid or log.errors:
            evidence = [e.summary for v in log.verdicts for e in v.evidence]
            bad.append(f"{task_id}: termination={log.termination} invalid={invalid} "
                       f"errors={[e.message for e in log.errors]} evidence={evidence}")
    assert not bad, "\n".join(bad)
    return logs


def run_malformed(agent: str, replies: list[str], results_dir: Path, args: dict[str, Any] | None = None,
                  task_id: str = "settings_airplane_dark_en", wrap: Wrap | None = None,
                  extra: Extra | None = None) -> EpisodeLog:
    """The first replies are `replies`, then the scripted model plays the task: each malformed reply must
    be a recorded invalid step (with its raw text and a reason), and the episode must still succeed."""
    logs, model = _run(agent, results_dir, [task_id], args, list(replies), max_steps=40, wrap=wrap,
                       extra=extra)
    assert not model.errors, model.errors
    log = logs[task_id]
    assert not log.errors, [e.message for e in log.errors]
    for step, reply in zip(log.steps, replies, strict=False):
        assert not step.valid, (step.index, reply, step.action)
        assert step.raw_action == reply and step.agent_output == reply
        assert step.invalid_reason and step.invalid_reason.startswith(prototype(agent, args).codec.name)
    assert all(s.valid for s in log.steps[len(replies):]), [(s.index, s.invalid_reason) for s in log.steps]
    assert log.termination == "done" and state_success(log) is True, log.verdicts
    return log
