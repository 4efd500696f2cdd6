"""Adapters that can ask the user read their model's own ask action as AskUser and show the user's reply
the way their format gives a person's words back; the others cannot ask, and say so.

Replies are in each model's real format: UI-TARS's call_user() (bytedance/UI-TARS README_v1.md), the
mobile_use ask_user of Tongyi-MAI/MobileWorld (agents/utils/prompts.py), AutoGLM's Interact and Take_over
(zai-org/Open-AutoGLM phone_agent/config/prompts_zh.py), OS-Atlas's custom ASK_USER, our JSON format.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from native_runs import make, mobile_use

from spa_bench.actions import AskUser, Tap, parse_action
from spa_bench.agent import AGENTS, TaskContext
from spa_bench.agent.chat import ChatAgent
from spa_bench.agent.codec import ReplyError
from spa_bench.agent.native import NativeActionError
from spa_bench.agent.native_agent import NativeAgent
from spa_bench.agent.parsing import parse_answer
from spa_bench.device.observation import Observation
from spa_bench.models import ModelReply
from spa_bench.models.messages import Message
from spa_bench.results.schema import TokenUsage
from spa_bench.tasks.model import Task
from spa_bench.tasks.repository import default_tasks_root, read_task_file, validate_raw_task
from spa_bench.testing.native_model import sample_observation

REPLY = "The blue one, size M."
QUESTION = "Which of the two jackets do you want, and in which size?"


def one_task(task_id: str = "settings_wifi_off_en") -> Task:
    """One task read from its own file (the rest of the task tree may be mid-edit)."""
    path = default_tasks_root() / "settings" / "en.yaml"
    raws = read_task_file(path)
    position = next(i for i, raw in enumerate(raws) if raw.get("id") == task_id)
    task, problems = validate_raw_task(path, position, raws[position])
    assert task is not None and not problems, problems
    return task


def context(language: str = "en") -> TaskContext:
    made = TaskContext.for_task(one_task(), max_steps=30, instance_seed=0, serial="s", screen_width=1080,
                                screen_height=2400, workdir=Path("."))
    return replace(made, instruction="Buy the jacket.", language=language)  # type: ignore[arg-type]


@pytest.fixture(scope="module")
def screen(tmp_path_factory: pytest.TempPathFactory) -> Observation:
    return sample_observation(tmp_path_factory.mktemp("phone"))


# -- each model's own ask action -> AskUser ---------------------------------------------------------------
@pytest.mark.parametrize(("agent", "args", "reply", "question"), [
    ("ui-tars", {}, f"Thought: {QUESTION}\nAction: call_user()", QUESTION),
    ("ui-tars", {"version": "1.0"}, f"Thought: {QUESTION}\nAction: call_user()", QUESTION),
    ("qwen-vl", {"version": "3"}, "Thought: Two jackets match.\nAction: Ask the user which one.\n"
     + mobile_use(f'{{"action": "ask_user", "text": "{QUESTION}"}}'), QUESTION),
    ("gui-owl", {}, "<thinking>\nTwo match.\n</thinking>\n"
     + mobile_use(f'{{"action": "interact", "text": "{QUESTION}"}}')
     + "\n<conclusion>\nAsked.\n</conclusion>", QUESTION),
    ("autoglm", {}, "<think>有两件夹克都符合条件，需要询问用户选哪一件。</think>"
     '<answer>do(action="Interact")</answer>', "有两件夹克都符合条件，需要询问用户选哪一件。"),
    ("autoglm", {}, "<think>需要登录。</think>"
     '<answer>do(action="Take_over", message="请帮我登录账号")</answer>', "请帮我登录账号"),
    ("os-atlas", {}, f"thoughts:\nTwo jackets match.\nactions:\nASK_USER [{QUESTION}]", QUESTION),
])
def test_the_models_ask_action_is_ask_user(agent: str, args: dict[str, Any], reply: str,
                                           question: str) -> None:
    adapter = make(agent, **args)
    parsed = adapter.codec.parse(reply, adapter.frame_spec.bind(1080, 2400))
    assert parsed.action == AskUser(question=question)


@pytest.mark.parametrize(("agent", "args", "reply", "reason"), [
    ("ui-tars", {}, "Action: call_user()", "no question"),
    ("qwen-vl", {"version": "3"}, mobile_use('{"action": "ask_user"}'), "needs text"),
    ("qwen-vl", {"version": "3"}, mobile_use('{"action": "ask_user", "text": "  "}'), "needs text"),
    ("autoglm", {}, '<answer>do(action="Interact")</answer>', "no question"),
    ("os-atlas", {}, "actions:\nASK_USER", "needs its argument"),
])
def test_an_ask_without_a_question_is_invalid(agent: str, args: dict[str, Any], reply: str,
                                              reason: str) -> None:
    adapter = make(agent, **args)
    with pytest.raises(ReplyError, match=reason):
        adapter.codec.parse(reply, adapter.frame_spec.bind(1080, 2400))


ASKING = [("ui-tars", {}), ("ui-tars", {"version": "1.0"}), ("qwen-vl", {"version": "3"}), ("autoglm", {}),
          ("os-atlas", {})]
CANNOT = [("qwen-vl", {}), ("qwen-vl", {"version": "3", "ask_user": "false"}), ("gui-owl", {}),
          ("cogagent", {}), ("os-atlas", {"extra_actions": "false"})]


@pytest.mark.parametrize(("agent", "args"), ASKING)
def test_the_scripted_model_asks_in_the_adapters_syntax(agent: str, args: dict[str, Any]) -> None:
    adapter = make(agent, **args)
    frame = adapter.frame_spec.bind(1080, 2400)
    written = adapter.codec.render(AskUser(question=QUESTION), frame, thought="I need to know.")
    assert adapter.codec.parse(written, frame).action == AskUser(question=QUESTION)


@pytest.mark.parametrize(("agent", "args"), [a for a in CANNOT if a[0] != "os-atlas"])
def test_adapters_that_cannot_ask_have_no_ask_to_write(agent: str, args: dict[str, Any]) -> None:
    adapter = make(agent, **args)
    with pytest.raises(NativeActionError, match="has no ask"):
        adapter.codec.render(AskUser(question=QUESTION), adapter.frame_spec.bind(1080, 2400))
    assert adapter.info.asks.startswith(("cannot ask", "Qwen3-VL"))


def test_every_native_adapter_says_how_it_asks_or_that_it_cannot() -> None:
    asks = {name: make(name).info.asks for name in ("ui-tars", "autoglm", "qwen-vl", "gui-owl", "cogagent",
                                                     "m3a", "t3a", "appagent", "os-atlas", "seeact-v")}
    cannot = {name for name, text in asks.items() if text.startswith("cannot ask")}
    assert cannot == {"gui-owl", "cogagent", "m3a", "t3a", "appagent", "seeact-v"}
    assert "call_user()" in asks["ui-tars"] and "Interact" in asks["autoglm"]
    assert "ask_user" in asks["qwen-vl"] and "ASK_USER" in asks["os-atlas"]


# -- the prompt offers the ask, and the reply comes back in the format's own place ---------------------------
def ask_then_reply(agent: NativeAgent, screen: Observation) -> list[Message]:
    """Step 1 asks (the adapter's own syntax); step 2's request, built on an observation with the reply."""
    agent.reset(context())
    shown = agent.screen(screen)
    agent.messages(screen, shown)
    text = agent.codec.render(AskUser(question=QUESTION), shown.frame, screen, "I need to know.")
    step = agent.interpret(ModelReply(text, TokenUsage(), 0.0, "m", "stop"), shown, screen)
    assert step.action == AskUser(question=QUESTION)
    answered = replace(screen, user_reply=REPLY)
    agent.take_reply(answered)
    return agent.messages(answered, agent.screen(answered))


def text_of(message: Message) -> str:
    content = message["content"]
    if isinstance(content, str):
        return content
    return "".join(str(p.get("text", "")) for p in content if p.get("type") == "text")


def test_ui_tars_gets_the_reply_as_a_user_message_after_its_call(screen: Observation) -> None:
    messages = ask_then_reply(make("ui-tars"), screen)
    assert "call_user() # Submit the task and call the user" in text_of(messages[1])
    roles = [m["role"] for m in messages]
    # system, prompt, screenshot, call_user(), the reply, the current screenshot
    assert roles == ["system", "user", "user", "assistant", "user", "user"]
    assert text_of(messages[3]).endswith("Action: call_user()")
    assert text_of(messages[4]) == REPLY
    assert "image_url" not in str(messages[4]) and "image_url" in str(messages[5])


def test_qwen3_gets_mobileworlds_prompt_and_the_reply_in_the_task_progress(screen: Observation) -> None:
    from spa_bench.agents.mobile_use_prompts import MOBILEWORLD_QWEN3_ASK_USER_PROMPT

    messages = ask_then_reply(make("qwen-vl", version="3"), screen)
    assert text_of(messages[0]) == MOBILEWORLD_QWEN3_ASK_USER_PROMPT
    assert "* `ask_user`: Ask user for clarification." in MOBILEWORLD_QWEN3_ASK_USER_PROMPT
    progress = text_of(messages[1])
    assert f"Step 1: ask (I need to know.); Ask user response: {REPLY}; " in progress
    plain = make("qwen-vl", version="3", ask_user="false")
    plain.reset(context())
    assert "ask_user" not in text_of(plain.messages(screen, plain.screen(screen))[0])


def test_autoglm_gets_the_reply_at_the_head_of_the_next_user_turn(screen: Observation) -> None:
    messages = ask_then_reply(make("autoglm"), screen)
    assert [m["role"] for m in messages] == ["system", "user", "assistant", "user"]
    assert text_of(messages[1]).startswith("Buy the jacket.\n\n{")
    # Interact takes no argument: the question is in the thinking, which is the history's copy of the reply
    assert text_of(messages[2]) == f'<think>{QUESTION}</think><answer>do(action="Interact")</answer>'
    assert text_of(messages[3]).startswith(f"{REPLY}\n\n** Screen Info **\n\n{{")


def test_os_atlas_offers_ask_user_and_notes_the_reply_in_the_history(screen: Observation) -> None:
    messages = ask_then_reply(make("os-atlas"), screen)
    text = text_of(messages[0])
    assert "Custom Action 11: ASK_USER" in text
    assert f"History: \nStep 1: I need to know. (the user replied: {REPLY})\n" in text


def test_a_reply_with_no_question_before_it_is_not_shown(screen: Observation) -> None:
    """Only the turn that asked carries a reply (a runner that sent one after a tap would be wrong)."""
    agent = make("ui-tars")
    agent.reset(context())
    shown = agent.screen(screen)
    text = agent.codec.render(Tap(x=10, y=10), shown.frame, screen, "tap")
    agent.interpret(ModelReply(text, TokenUsage(), 0.0, "m", "stop"), shown, screen)
    answered = replace(screen, user_reply=REPLY)
    agent.take_reply(answered)
    assert all(REPLY not in str(m) for m in agent.messages(answered, agent.screen(answered)))


# -- our JSON format (mllm, text, reflection) ---------------------------------------------------------------
@pytest.mark.parametrize("answer", [
    f'Reason: two jackets match.\nAction: {{"type": "ask_user", "question": "{QUESTION}"}}',
    f'{{"action_type": "ask_user", "text": "{QUESTION}"}}',  # MobileWorld's planner-executor JSON
    f'Action: {{"action": "ask", "question": "{QUESTION}"}}',
])
def test_the_json_format_reads_ask_user(answer: str) -> None:
    assert parse_action(parse_answer(answer).action) == AskUser(question=QUESTION)


@pytest.mark.parametrize("language", ["en", "zh"])
def test_chat_agents_are_told_they_can_ask_and_see_the_reply(screen: Observation, language: str) -> None:
    agent = AGENTS.get("text")(model="m", base_url="http://127.0.0.1:9/v1", api_key_env="none")
    assert isinstance(agent, ChatAgent)
    agent.reset(context(language))
    first = agent.messages(screen)
    assert '{"type": "ask_user", "question": "..."}' in text_of(first[0])
    answer = f'Reason: two match.\nAction: {{"type": "ask_user", "question": "{QUESTION}"}}'
    assert agent.interpret(ModelReply(answer, TokenUsage(), 0.0, "m", "stop"), screen).action == AskUser(
        question=QUESTION)
    answered = replace(screen, user_reply=REPLY)
    agent.take_reply(answered)
    prompt = text_of(agent.messages(answered)[1])
    said = "The user's reply to your question: " if language == "en" else "用户对你的问题的回答："
    noted = "the user replied: " if language == "en" else "用户回答："
    assert said + REPLY in prompt and f"-> {noted}{REPLY}" in prompt
    # later steps keep the reply in the history only
    agent.interpret(ModelReply('Action: {"type": "wait"}', TokenUsage(), 0.0, "m", "stop"), answered)
    agent.take_reply(screen)
    later = text_of(agent.messages(screen)[1])
    assert said not in later and f"-> {noted}{REPLY}" in later
