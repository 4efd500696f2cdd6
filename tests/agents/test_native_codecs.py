"""Each native codec reads its authors' own examples, and each adapter builds its requests (prompt,
history, images) as its authors do. Examples are quoted from the sources named in each test."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from native_runs import make, mobile_use

from spa_bench.actions import AskUser, Finish, Key, LongPress, OpenApp, Swipe, Tap, TypeText, Wait
from spa_bench.agent import TaskContext
from spa_bench.agent.codec import ReplyError
from spa_bench.agent.frames import FrameSpec, SmartResize
from spa_bench.device.observation import Observation
from spa_bench.models import ModelReply
from spa_bench.results.schema import TokenUsage
from spa_bench.tasks.repository import TaskRepository, default_tasks_root
from spa_bench.testing.native_model import sample_observation


def test_ui_tars_reads_the_authors_parser_tests() -> None:
    """bytedance/UI-TARS codes/tests/action_parser_test.py: a 224x224 image, (112, 224) is (0.5, 1.0)."""
    codec = make("ui-tars").codec
    frame = FrameSpec.absolute(SmartResize(min_pixels=1)).bind(224, 224)
    boxed = codec.parse("Thought: test\nAction: click(start_box='<|box_start|>(112,224)<|box_end|>')", frame)
    assert boxed.action == Tap(x=112, y=223) and boxed.thought == "test"
    pointed = codec.parse("Thought: test\nAction: click(point='<point>200 300</point>')",
                          FrameSpec.absolute().bind(1000, 1000))
    assert pointed.action == Tap(x=200, y=300)


@pytest.mark.parametrize("form", [
    "click(point='<point>546 1204</point>')", "click(point='<point>546,1204</point>')",
    "click(start_box='<|box_start|>(546,1204)<|box_end|>')", "click(start_box='(546,1204)')",
    "click(start_box='(540,1200,552,1208)')", "click(start_box='[546, 1204]')",
    "click(start_box='<bbox>540 1200 552 1208</bbox>')",
])
def test_ui_tars_accepts_the_forms_vllm_produces(form: str) -> None:
    agent = make("ui-tars")
    frame = agent.frame_spec.bind(1080, 2400)  # 1092 x 2408
    assert agent.codec.parse(f"Thought: tap it\nAction: {form}", frame).action == Tap(x=540, y=1200)


def test_ui_tars_mobile_actions() -> None:
    codec = make("ui-tars").codec
    frame = FrameSpec.absolute(SmartResize()).bind(1080, 2400)

    def read(action: str) -> object:
        return codec.parse(f"Thought: x\nAction: {action}", frame).action

    assert read("long_press(point='<point>546 1204</point>')") == LongPress(x=540, y=1200)
    assert read("type(content='我想吃饭\\n')") == TypeText(text="我想吃饭", enter=True)
    assert read("open_app(app_name='设置')") == OpenApp(app="设置")
    assert read("press_home()") == Key(key="home") and read("press_back()") == Key(key="back")
    assert read("finished(content='It is 18:00.')") == Finish(answer="It is 18:00.")
    drag = read("drag(start_point='<point>546 1806</point>', end_point='<point>546 602</point>')")
    assert drag == Swipe(x1=540, y1=1800, x2=540, y2=600)


def test_autoglm_reads_the_examples_of_its_prompt() -> None:
    """zai-org/Open-AutoGLM phone_agent/config/prompts_en.py examples, with numbers for x and y."""
    agent = make("autoglm")
    frame = agent.frame_spec.bind(1080, 2400)

    def read(answer: str) -> object:
        reply = f"<think>\nThe next step.\n</think>\n<answer>\n{answer}\n</answer>"
        return agent.codec.parse(reply, frame).action

    assert read('do(action="Tap", element=[500,500])') == Tap(x=540, y=1200)
    assert read('do(action="Type", text="Hello World")') == TypeText(text="Hello World")
    swipe = Swipe(x1=540, y1=1800, x2=540, y2=600)
    assert read('do(action="Swipe", start=[500,750], end=[500,250])') == swipe
    assert read('do(action="Long Press", element=[500,500])') == LongPress(x=540, y=1200)
    assert read('do(action="Launch", app="Settings")') == OpenApp(app="Settings")
    assert read('do(action="Back")') == Key(key="back") and read('do(action="Home")') == Key(key="home")
    assert read('do(action="Wait", duration="2 seconds")') == Wait(seconds=2)
    assert read('finish(message="Task completed.")') == Finish(answer="Task completed.")
    assert read('do(action="Take_over", message="请登录")') == AskUser(question="请登录")
    # client.py rule 2: no tags at all, the action starts at do(action=
    untagged = agent.codec.parse('我先点击设置。do(action="Tap", element=[0,999])', frame)
    assert untagged.action == Tap(x=0, y=2397)


def test_qwen_vl_reads_its_cookbook() -> None:
    """QwenLM cookbooks/mobile_agent.ipynb: the history example of Qwen2.5-VL, the Qwen3-VL format."""
    qwen25 = make("qwen-vl")
    frame = qwen25.frame_spec.bind(1080, 2400)
    call = mobile_use('{"action": "open", "text": "File Manager"}')
    assert qwen25.codec.parse(call, frame).action == OpenApp(app="File Manager")
    click = mobile_use('{"action": "click", "coordinate": [546, 1204]}')
    assert qwen25.codec.parse(click, frame).action == Tap(x=540, y=1200)
    qwen3 = make("qwen-vl", version="3")
    reply = ("Thought: The search box is at the top.\nAction: Click the search box.\n"
             + mobile_use('{"action": "click", "coordinate": [499, 499]}'))
    parsed = qwen3.codec.parse(reply, qwen3.frame_spec.bind(1080, 2400))
    assert parsed.action == Tap(x=539, y=1198) and parsed.summary == "Click the search box."
    answer = mobile_use('{"action": "answer", "text": "42"}')
    assert qwen3.codec.parse(answer, qwen3.frame_spec.bind(1080, 2400)).action == Finish(answer="42")
    failure = '<tool_call>\n{"name": "mobile_use", "arguments": {"action": "terminate", "status": "failure"}}'
    assert qwen3.codec.parse(failure, qwen3.frame_spec.bind(1080, 2400)).action == Finish(status="infeasible")


def test_gui_owl_reads_thinking_call_and_conclusion() -> None:
    agent = make("gui-owl")
    reply = ("<thinking>\nI need the Wi-Fi switch.\n</thinking>\n"
             + mobile_use('{"action": "tap", "coordinate": [546, 1204]}')
             + "\n<conclusion>\nTapped the Wi-Fi switch.\n</conclusion>")
    parsed = agent.codec.parse(reply, agent.frame_spec.bind(1080, 2400))
    assert parsed.action == Tap(x=540, y=1200)
    assert parsed.thought == "I need the Wi-Fi switch." and parsed.summary == "Tapped the Wi-Fi switch."


def test_cogagent_reads_its_readme_and_action_space() -> None:
    """THUDM/CogAgent README.md (the Action-Operation-Sensitive example) and Action_space_en.md."""
    agent = make("cogagent")
    frame = agent.frame_spec.bind(1000, 1000)
    readme = ("Action: Click the 'Mark all as read' button in the top toolbar of the page to mark all "
              "emails as read.\nGrounded Operation: CLICK(box=[[219,186,311,207]], "
              "element_type='Clickable text', element_info='Mark all emails as read')\n<<一般操作>>")
    assert agent.codec.parse(readme, frame).action == Tap(x=265, y=196)

    def read(operation: str) -> object:
        return agent.codec.parse(f"Action: x\nGrounded Operation: {operation}\n<<一般操作>>", frame).action

    assert read("TYPE(box=[[387,249,727,317]], text='CogAgent', element_type='Text input box', "
                "element_info='CogAgent')") == TypeText(text="CogAgent")
    scroll = read("SCROLL_DOWN(box=[[000,086,999,932]], element_type='Scroll', element_info='Scroll', "
                  "step_count=5)")
    assert isinstance(scroll, Swipe) and scroll.y1 > scroll.y2  # the content moves up: the finger goes up
    assert read("LAUNCH(app='Settings', url='None')") == OpenApp(app="Settings")
    with pytest.raises(ReplyError, match="no phone equivalent"):
        read("KEY_PRESS(key='F11')")
    with pytest.raises(ReplyError, match="url"):
        read("LAUNCH(app='None', url='baidu.com')")


@pytest.fixture(scope="module")
def screen(tmp_path_factory: pytest.TempPathFactory) -> Observation:
    return sample_observation(tmp_path_factory.mktemp("phone"))


def played(name: str, screen: Observation, steps: int, **args: Any) -> Iterator[list[dict[str, Any]]]:
    """The requests of `steps` steps on the same screen, each answered with a tap in the adapter's syntax."""
    agent = make(name, **args)
    task = TaskRepository(default_tasks_root()).get("settings_wifi_off_en")
    context = TaskContext.for_task(task, max_steps=30, instance_seed=0, serial="s", screen_width=1080,
                                   screen_height=2400, workdir=Path("."))
    agent.reset(replace(context, instruction="Turn off Wi-Fi."))
    target = screen.elements[3].center
    for _ in range(steps):
        shown = agent.screen(screen)
        messages = agent.messages(screen, shown)
        yield messages
        text = agent.codec.render(Tap(x=target[0], y=target[1]), shown.frame, screen, "tap the entry")
        agent.interpret(ModelReply(text, TokenUsage(), 0.0, "m", "stop"), shown, screen)


def images(messages: list[dict[str, Any]]) -> int:
    return sum(1 for m in messages if isinstance(m["content"], list)
               for p in m["content"] if p.get("type") == "image_url")


def texts(messages: list[dict[str, Any]], role: str) -> list[str]:
    out = []
    for m in messages:
        if m["role"] == role:
            content = m["content"]
            out.append(content if isinstance(content, str)
                       else "".join(p.get("text", "") for p in content if p.get("type") == "text"))
    return out


def test_ui_tars_sends_every_reply_and_the_last_five_screenshots(screen: Observation) -> None:
    from ui_tars.prompt import MOBILE_USE_DOUBAO

    requests = list(played("ui-tars", screen, 8))
    first, last = requests[0], requests[-1]
    assert first[0] == {"role": "system", "content": "You are a helpful assistant."}
    prompt = MOBILE_USE_DOUBAO.format(language="English", instruction="Turn off Wi-Fi.")
    # the authors' prompt, with their call_user line after the finished line unless ask_user=false
    finished = prompt.index("\n", prompt.index("finished(content=")) + 1
    asking = (prompt[:finished] + "call_user() # Submit the task and call the user when the task is "
              "unsolvable, or when you need the user's help.\n" + prompt[finished:])
    assert texts(first, "user")[0] == asking
    assert texts(next(iter(played("ui-tars", screen, 1, ask_user="false"))), "user")[0] == prompt
    assert images(first) == 1 and images(last) == 5
    assert len(texts(last, "assistant")) == 7  # every earlier reply, as text
    assert last[-1]["role"] == "user" and images([last[-1]]) == 1  # the current screenshot comes last
    assert images(list(played("ui-tars", screen, 3, history=2))[-1]) == 2
    v1 = texts(next(iter(played("ui-tars", screen, 1, version="1.0"))), "user")[0]
    assert v1.startswith("You are a GUI agent.") and v1.endswith("## User Instruction\nTurn off Wi-Fi.")
    assert "click(start_box='<|box_start|>(x1,y1)<|box_end|>')" in v1 and "open_app" not in v1


def test_autoglm_keeps_the_text_of_every_step_and_only_the_current_screenshot(screen: Observation) -> None:
    last = list(played("autoglm", screen, 4, date="2025-12-01"))[-1]
    assert texts(last, "system")[0].startswith("The current date: 2025-12-01, Monday\n# Setup")
    users = texts(last, "user")
    assert users[0] == 'Turn off Wi-Fi.\n\n{"current_app": "Settings"}'
    assert users[1:] == ['** Screen Info **\n\n{"current_app": "Settings"}'] * 3
    assert images(last) == 1 and last[-1]["content"][0]["type"] == "image_url"  # image first, as theirs
    assert all(re.fullmatch(r"<think>.*</think><answer>do\(action=\"Tap\", element=\[\d+,\d+\]\)</answer>", a)
               for a in texts(last, "assistant"))


def test_qwen_vl_states_the_resolution_and_lists_the_steps(screen: Observation) -> None:
    last = list(played("qwen-vl", screen, 3))[-1]
    system, query = texts(last, "system")[0], texts(last, "user")[0]
    assert system.startswith("You are a helpful assistant.\n\n# Tools\n")
    assert "The screen's resolution is 1092x2408." in system and '"open"' in system
    assert query.startswith("The user query:  Turn off Wi-Fi.\nTask progress (You have done the following "
                            'operation on the current device): Step 1: {"name": "mobile_use"')
    assert "Step 2: " in query and images(last) == 1 and len(last) == 2
    from spa_bench.agents.mobile_use_prompts import QWEN3_SYSTEM_PROMPT

    last3 = list(played("qwen-vl", screen, 3, version="3", ask_user="false"))[-1]
    assert texts(last3, "system")[0] == QWEN3_SYSTEM_PROMPT and "999x999" in QWEN3_SYSTEM_PROMPT
    assert texts(last3, "user")[0].endswith("Step 1: tap (tap the entry); Step 2: tap (tap the entry); .\n")


def test_gui_owl_lists_the_conclusions(screen: Observation) -> None:
    last = list(played("gui-owl", screen, 3))[-1]
    system, query = texts(last, "system")[0], texts(last, "user")[0]
    assert "The screen's resolution is 1092x2408." in system and '"answer"' in system
    assert "Step 1: tap (tap the entry); Step 2: tap (tap the entry); .\n" in query
    assert query.endswith("summarize your action in <conclusion></conclusion> tags, and insert them after "
                          "the <tool_call></tool_call> XML tags.")


def test_cogagent_builds_the_readme_query(screen: Observation) -> None:
    last = list(played("cogagent", screen, 3))[-1]
    (query,) = texts(last, "user")
    assert re.fullmatch(r"Task: Turn off Wi-Fi\.\nHistory steps: "
                        r"\n0\. CLICK\(box=\[\[\d{3},\d{3},\d{3},\d{3}\]\].*?\)\ttap the entry"
                        r"\n1\. CLICK\(.*?\)\ttap the entry"
                        r"\n\(Platform: Mobile\)\n\(Answer in Action-Operation-Sensitive format\.\)\n", query)
    assert images(last) == 1
