"""Each native adapter completes the common task subset with its own syntax and frame, and survives
malformed replies (recorded invalid steps, never a crash)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from native_runs import SUBSET, prototype, run_malformed, run_native
from pim_runs import on_shared_phones, on_shared_phones_args

pytestmark = [pytest.mark.usefixtures("adb_env"), pytest.mark.slow]

def tool_call(arguments: str) -> str:
    return f'<tool_call>\n{{"name": "mobile_use", "arguments": {arguments}}}\n</tool_call>'


# At least five kinds per adapter: no action, unknown action, a point outside the frame, truncated
# syntax, wrong argument types (and more where the format has its own ways to go wrong).
MALFORMED: dict[str, list[str]] = {
    "ui-tars": [
        "Thought: I should look at the screen first.",
        "Thought: fly there\nAction: teleport(point='<point>10 10</point>')",
        "Thought: tap\nAction: click(point='<point>5000 90</point>')",
        "Thought: tap\nAction: click(point='<point>100 2",
        "Thought: tap\nAction: click(point=100)",
        "Thought: scroll\nAction: scroll(point='<point>500 500</point>', direction='sideways')",
        "",
    ],
    "autoglm": [
        "<think>The settings page is open.</think>",
        '<think>x</think><answer>do(action="Teleport", element=[10,10])</answer>',
        '<think>x</think><answer>do(action="Tap", element=[1200,40])</answer>',
        '<think>x</think><answer>do(action="Tap", element=[500,',
        '<think>x</think><answer>do(action="Tap", element="middle")</answer>',
        '<think>x</think><answer>do(action="Swipe", start=[500,500])</answer>',
        '<think>x</think><answer>do(action="Type", text=42)</answer>',
    ],
    "qwen-vl": [
        "I will tap the Network item.",
        tool_call('{"action": "teleport", "coordinate": [1, 2]}'),
        tool_call('{"action": "click", "coordinate": [5000, 20]}'),
        '<tool_call>\n{"name": "mobile_use", "arguments": {"action": "click", "coordinate": [50',
        tool_call('{"action": "click", "coordinate": "here"}'),
        '<tool_call>\n{"name": "web_search", "arguments": {"action": "click"}}\n</tool_call>',
        tool_call('{"action": "wait", "time": "soon"}'),
    ],
    "gui-owl": [
        "<thinking>\nThe Settings app is open.\n</thinking>",
        '<thinking>\nx\n</thinking>\n' + tool_call('{"action": "fly"}'),
        tool_call('{"action": "click", "coordinate": [540, 9000]}'),
        '<tool_call>\n{"name": "mobile_use", "arguments": {"action": "long_press", "coordinate": [5',
        tool_call('{"action": "type", "text": ["a"]}'),
        tool_call('{"action": "terminate", "status": "maybe"}'),
    ],
    "cogagent": [
        "Action: Tap the network entry.",
        "Action: x\nGrounded Operation: TELEPORT(box=[[100,100,200,200]])\n<<一般操作>>",
        "Action: x\nGrounded Operation: CLICK(box=[[100,100,1200,200]], element_info='x')\n<<一般操作>>",
        "Action: x\nGrounded Operation: CLICK(box=[[100,100,",
        "Action: x\nGrounded Operation: CLICK(box='the button')\n<<一般操作>>",
        "Action: x\nGrounded Operation: HOVER(box=[[100,100,200,200]])\n<<一般操作>>",
        "Action: x\nGrounded Operation: LAUNCH(app='None', url='baidu.com')\n<<一般操作>>",
    ],
}

# An adapter's other version, run on the whole subset when its default cannot (Qwen2.5-VL's tool has no
# answer action: its default run leaves out the answer task, and Qwen3-VL plays all of it).
VARIANTS: list[tuple[str, dict[str, str]]] = [("qwen-vl", {"version": "3"})]


DEFAULT_SUBSET = {"qwen-vl": [t for t in SUBSET if t != "settings_model_name_en"]}  # no answer action


@pytest.mark.parametrize("agent", sorted(MALFORMED))
def test_adapter_plays_the_subset_natively(agent: str, results_dir: Path) -> None:
    args: dict[str, str] = {}
    if agent in DEFAULT_SUBSET:
        run_native(agent, results_dir, ids=DEFAULT_SUBSET[agent])
        agent, args = next((a, v) for a, v in VARIANTS if a == agent)
        logs = run_native(agent, results_dir / "variant", args=args)
    else:
        logs = run_native(agent, results_dir)
    assert sorted(logs) == sorted(SUBSET)
    assert {log.task.language for log in logs.values()} == {"en", "zh"}
    answer = logs["settings_model_name_en"].answer
    assert answer == "SPA Virtual Phone"
    kinds = {s.action.type for log in logs.values() for s in log.steps if s.action is not None}
    assert {"tap", "long_press", "type", "key", "finish"} <= kinds
    # apps open by name where the format can say so, else from the home screen's icon
    assert ("open_app" in kinds) == ("open_app" in prototype(agent, args).codec.verbs)
    assert kinds & {"scroll", "swipe"}
    for log in logs.values():  # the shared model client counted every call, its tokens and time
        assert log.usage.calls == len(log.steps) and log.usage.prompt_tokens == 1000 * len(log.steps)
        assert all(s.timings.model_s is not None and s.timings.model_s > 0 for s in log.steps)
    keys = {s.action.key for log in logs.values() for s in log.steps if s.action and s.action.type == "key"}
    assert {"back", "home"} <= keys
    typed = [s.action.text for s in logs["chat_reply_mom_zh"].steps if s.action and s.action.type == "type"]
    assert typed and all(any("\u4e00" <= c <= "\u9fff" for c in t) for t in typed)


@pytest.mark.parametrize("agent", sorted(MALFORMED))
def test_malformed_replies_are_invalid_steps(agent: str, results_dir: Path) -> None:
    replies = MALFORMED[agent]
    assert len(replies) >= 5
    log = run_malformed(agent, replies, results_dir)
    reasons = [s.invalid_reason or "" for s in log.steps[:len(replies)]]
    assert any("outside the model's frame" in r for r in reasons), reasons


@pytest.mark.parametrize("agent", ["ui-tars", "qwen-vl", "gui-owl"])
def test_absolute_frames_at_720x1280(agent: str, results_dir: Path) -> None:
    """Smart-resize rounding end to end on a small screen: the model answers on 728x1288."""
    run_native(agent, results_dir, ids=["chat_reply_mom_zh"], phone_size="720x1280")
    frame = prototype(agent).frame_spec.bind(720, 1280)
    assert (frame.extent_x, frame.extent_y) == (728, 1288)


def test_ui_tars_version_1_answers_on_0_to_1000(results_dir: Path) -> None:
    run_native("ui-tars", results_dir, args={"version": "1.0"}, ids=["chat_reply_mom_zh"])
    assert prototype("ui-tars", {"version": "1.0"}).frame_spec.describe() == "relative 0-1000"


@pytest.mark.parametrize("agent", ["ui-tars", "autoglm", "qwen-vl", "gui-owl", "cogagent"])
def test_the_command_of_the_issue_is_all_it_takes(agent: str, results_dir: Path,
                                                   capsys: pytest.CaptureFixture[str],
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """`spa-bench run --agent ui-tars --agent-arg base_url=... --agent-arg model=...` against a local
    OpenAI-compatible server, nothing else (no key: the environment has none)."""
    from cli_helpers import run_cli

    from spa_bench.tasks.repository import TaskRepository, default_tasks_root
    from spa_bench.testing.native_model import NativeScriptedModel
    from spa_bench.testing.openai_server import ScriptedOpenAIServer

    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    made = prototype(agent)
    task = TaskRepository(default_tasks_root()).get("settings_wifi_off_en")
    model = NativeScriptedModel(made.codec, made.frame_spec, [task], results_dir)
    with ScriptedOpenAIServer(when_empty=model) as server:
        result = run_cli(capsys, "run", "--task", task.id, *on_shared_phones_args(1),
                         "--out", str(results_dir),
                         "--agent", agent, "--agent-arg", f"base_url={server.base_url}",
                         "--agent-arg", f"model={made.info.models[0]}")
        served = {r.body["model"] for r in server.chat_requests()}
    assert result.code == 0, result.err
    assert not model.errors and served == {made.info.models[0]}
    (run_dir,) = [p for p in results_dir.iterdir() if p.is_dir()]
    episode = json.loads(next(run_dir.glob("episodes/*/episode.json")).read_text(encoding="utf-8"))
    assert episode["termination"] == "done"
    assert [v["success"] for v in episode["verdicts"] if v["evaluator"] == "state"] == [True]


@pytest.mark.parametrize(("agent", "args"), [
    ("ui-tars", {}), ("autoglm", {"date": "2026-01-15"}), ("qwen-vl", {"version": "3"}), ("gui-owl", {}),
    ("cogagent", {})])
def test_native_requests_replay_from_the_model_cache(agent: str, args: dict[str, str], results_dir: Path,
                                                     tmp_path: Path) -> None:
    """An adapter's requests are the same on a rerun (frozen phone clock; AutoGLM's date given), so a
    replay-only rerun with --model-cache needs no server and repeats every action."""
    from spa_bench.runner.config import AgentConfig, RunConfig
    from spa_bench.runner.run import run_benchmark
    from spa_bench.tasks.repository import TaskFilter, TaskRepository, default_tasks_root
    from spa_bench.testing.native_model import NativeScriptedModel
    from spa_bench.testing.openai_server import ScriptedOpenAIServer

    made = prototype(agent, args)
    task = TaskRepository(default_tasks_root()).get("settings_wifi_off_en")
    model = NativeScriptedModel(made.codec, made.frame_spec, [task], results_dir)
    with ScriptedOpenAIServer(when_empty=model) as server:
        config = RunConfig(filter=TaskFilter(ids=[task.id]), **on_shared_phones(1), out=results_dir,
                           phone_clock="2026-01-15T09:30:00", model_cache=tmp_path / "cache",
                           agents=[AgentConfig(agent=agent, args={
                               "base_url": server.base_url, "model": "m", "api_key_env": "none", **args})])
        (first,) = run_benchmark(config).logs
        sent = len(server.chat_requests())
    (offline,) = run_benchmark(config.model_copy(update={"model_cache_replay": True})).logs
    assert first.termination == offline.termination == "done" and sent == len(first.steps)
    assert [s.action for s in offline.steps] == [s.action for s in first.steps]
