"""Every registered agent (built-ins, native GUI-model adapters, the LLM agents, the external program, the
probes) runs with a task view: what reaches its reset has no checks, golden script, near misses,
simulated user, parameters or setup. Reference agents (the oracle and the probes replaying its script)
get the full task only through reveal(), and their episode logs say `agent.reference`."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from typing import Any

import pytest
from pim_runs import on_shared_phones

from spa_bench.agent import AGENTS, Agent, ReferenceAgent, TaskContext, TaskView
from spa_bench.agent.external import EpisodeAgent
from spa_bench.runner.config import AgentConfig, RunConfig
from spa_bench.runner.run import run_benchmark
from spa_bench.tasks.repository import TaskFilter, TaskRepository, default_tasks_root
from spa_bench.testing.openai_server import ScriptedOpenAIServer, TextReply

pytestmark = pytest.mark.usefixtures("adb_env")

TASK = "settings_wifi_off_en"  # has checks and a golden script
HIDDEN = ("checks", "golden_script", "near_misses", "user", "parameters", "setup", "key_components",
          "subtasks", "interruptions")
VIEW_FIELDS = {"id", "instruction", "language", "apps", "category", "difficulty", "max_steps", "time_limit_s",
               "screen_width", "screen_height", "can_ask_user", "start_package"}
NATIVE = {"ui-tars", "autoglm", "qwen-vl", "gui-owl", "cogagent", "m3a", "t3a", "appagent", "os-atlas",
          "seeact-v"}
CHAT = {"mllm", "text", "reflection"}
REFERENCES = {"oracle", "probe-spam", "probe-recorder"}  # at least these replay the golden script
UNDER_TEST = {"noop", "random", "example", "external", "human"}
# what the external program writes: everything it was given (environment and arguments)
PROGRAM = """import json, os, sys
out = os.environ["SPA_BENCH_OUTPUT_DIR"]
with open(os.path.join(out, "given.json"), "w") as f:
    json.dump({"env": dict(os.environ), "argv": sys.argv}, f)
"""

seen: dict[str, tuple[TaskContext, Agent]] = {}


def spy(name: str) -> Any:
    """A factory making the registered agent `name` itself (its class unchanged: the runner's reference
    test must still see it), whose reset notes the context it was given."""

    def make(**args: Any) -> Agent:
        agent: Agent = AGENTS.get(name)(**args)
        reset = agent.reset

        def noted(context: TaskContext) -> None:
            seen[name] = (context, agent)
            reset(context)

        agent.reset = noted  # type: ignore[method-assign]
        return agent

    return make


def arguments(name: str, base_url: str, tmp: Path) -> dict[str, Any]:
    model = {"model": "m", "base_url": base_url, "api_key_env": "none"}
    if name == "seeact-v":  # a planner and a grounder model: both on the one server
        return {**model, "planner_model": "m", "planner_base_url": base_url, "grounder_base_url": base_url}
    if name in NATIVE or name in CHAT:
        return model
    if name == "external":
        program = tmp / "program.py"
        program.write_text(PROGRAM, encoding="utf-8")
        return {"cmd": f"{sys.executable} {program}", "pass_args": True}
    if name in ("probe-recorder", "probe-tamper"):
        return {"store": str(tmp / "store")}
    if name == "human":  # a person at the studio page: its desk, where this one has already said "done"
        from spa_bench.studio.play import DESKS, Desk

        desk = Desk()
        DESKS[desk.id] = desk
        desk.submit({"type": "finish"})
        return {"desk": desk.id}
    return {}


def shipped_agents() -> list[str]:
    """The agents spa-bench ships: not those that other tests of this process registered (a test's
    gated oracle that holds its second step for a page to look at would hold this run for minutes)."""
    return [name for name in AGENTS.names() if not name.startswith("view-spy-")
            and getattr(AGENTS.get(name), "__module__", "").startswith("spa_bench.")]


def test_every_agent_runs_with_the_view_and_only_references_get_the_task(tmp_path: Path) -> None:
    names = shipped_agents()
    assert set(names) >= UNDER_TEST | REFERENCES | NATIVE | CHAT
    task = TaskRepository(default_tasks_root()).get(TASK)
    assert task.checks and task.golden_script
    with ScriptedOpenAIServer(when_empty=TextReply("I am not sure what to do here.")) as server:
        agents = []
        for name in names:
            AGENTS.add(f"view-spy-{name}", spy(name))
            agents.append(AgentConfig(agent=f"view-spy-{name}", name=name,
                                      args=arguments(name, server.base_url, tmp_path)))
        result = run_benchmark(RunConfig(filter=TaskFilter(ids=[TASK]), **on_shared_phones(2),
                                         out=tmp_path / "results", max_steps=2, agents=agents))
    logs = {log.agent.name: log for log in result.logs}
    assert set(logs) == set(names) and set(seen) == set(names)
    for name in names:
        context, agent = seen[name]
        view = context.task
        assert isinstance(view, TaskView) and set(type(view).model_fields) == VIEW_FIELDS, name
        assert view.id == TASK and view.instruction == context.instruction and view.max_steps == 2
        assert view.packages == [a.package for a in task.apps] and view.apps[0].name == "Settings"
        for hidden in HIDDEN:
            with pytest.raises(AttributeError):
                getattr(view, hidden)
        assert context.seed != logs[name].instance.seed  # the parameters' seed would give the draws back
        log = logs[name]
        assert not [e for e in log.errors if e.kind == "agent"], (name, [e.message for e in log.errors])
        if isinstance(agent, EpisodeAgent):  # the external program ran once, with the view's values
            given = json.loads((result.run_dir / "episodes" / log.episode_id / "agent" / "given.json")
                               .read_text("utf-8"))
            assert given["env"]["SPA_BENCH_TASK_ID"] == TASK
            ours = {k: v for k, v in given["env"].items() if k.startswith("SPA_BENCH_")}
            assert not any(w in k.lower() for k in ours for w in ("golden", "check", "user", "param")), ours
        else:
            assert log.steps, name  # at least one step with the view
        assert log.agent.reference == isinstance(agent, ReferenceAgent), name
        if isinstance(agent, ReferenceAgent):  # the full task, through reveal: the privileged path
            assert agent.full_task.golden_script == task.golden_script and agent.full_task.checks
        else:
            assert not hasattr(agent, "full_task"), name
    references = {name for name, (_, agent) in seen.items() if isinstance(agent, ReferenceAgent)}
    assert references >= REFERENCES and not references & (UNDER_TEST | NATIVE | CHAT), references
    assert logs["oracle"].steps[0].action == task.golden_script[0]  # replayed from the revealed task


def test_a_reference_agent_refuses_to_start_without_its_task(tmp_path: Path) -> None:
    from spa_bench.agents.oracle import OracleAgent

    task = TaskRepository(default_tasks_root()).get(TASK)
    context = TaskContext.for_task(task, max_steps=5, instance_seed=1, serial="s", screen_width=1080,
                                   screen_height=2400, workdir=tmp_path)
    with pytest.raises(RuntimeError, match="reveal"):
        OracleAgent().reset(context)
    oracle = OracleAgent()
    oracle.reveal(task)
    oracle.reset(context)
    assert oracle.script == task.golden_script
    with pytest.raises(TypeError, match="TaskView"):
        TaskContext(task=task, instruction="x", language="en", max_steps=1, seed=0,  # type: ignore[arg-type]
                    serial="s", screen_width=1, screen_height=1, workdir=tmp_path)


def test_the_gymnasium_env_hands_out_the_view(adb_env: dict[str, str]) -> None:
    pytest.importorskip("gymnasium")
    from spa_bench.env import SpaBenchEnv

    env = SpaBenchEnv([TASK], size="540x1200")
    try:
        _, info = env.reset(options={"task": TASK})
        assert env.task_view is not None and info["task_view"] == env.task_view.model_dump(mode="json")
        assert set(info["task_view"]) == VIEW_FIELDS
        assert not hasattr(env, "task") and not hasattr(env, "device_task") and not hasattr(env, "instance")
        _, _, _, _, info = env.step({"type": "finish"})
        # which checks pass, not what they expect (their evidence would state it)
        marks = (r"[✓✗?] (?:check \d+/\d+|the apps' state is untouched"
                 r"|nothing changed the phone behind the GUI)")
        assert info["checks"] and all(re.fullmatch(marks, c) for c in info["checks"]), info
        assert any(c.startswith("✗") for c in info["checks"])
    finally:
        env.close()
