"""AndroidWorld's JSON actions as M3A / T3A / SeeAct-V read them, checked against what AndroidWorld's own
code does with them (env/json_action.py, env/actuation.py, m3a_utils.py; see agents/aw_actions.py), and
AndroidWorld's element list (representation_utils.forest_to_ui_elements: leaves, content descriptions,
scrollables) read from a real screen of the virtual phone."""

from __future__ import annotations

from pathlib import Path

import pytest
from spa_bench.agents.aw_actions import AWReplyError, read_reply, to_native, to_our_action
from spa_bench.agents.aw_agent import screen_frame
from spa_bench.agents.aw_elements import AWElement, aw_elements, describe, is_shown

from spa_bench.actions import Finish, Key, OpenApp, Swipe, Tap, TypeText, Wait
from spa_bench.device.observation import Observation
from spa_bench.testing.native_model import sample_observation


@pytest.fixture(scope="module")
def screen(tmp_path_factory: pytest.TempPathFactory) -> Observation:
    return sample_observation(tmp_path_factory.mktemp("phone"))


def act(text: str, observation: Observation) -> object:
    elements = aw_elements(observation.all_elements)
    reply = read_reply(text)
    native, element = to_native(reply.fields, elements, observation.width, observation.height)
    return to_our_action(native, element, screen_frame(observation))


def test_the_element_list_is_androidworlds(screen: Observation) -> None:
    elements = aw_elements(screen.all_elements)
    nodes = screen.all_elements
    for element in elements:
        i = nodes.index(element.node)
        leaf = i + 1 == len(nodes) or nodes[i + 1].depth <= element.node.depth
        assert leaf or element.node.content_desc or element.node.scrollable
    assert [e.index for e in elements] == list(range(len(elements)))
    text = describe(elements, screen.width, screen.height, "m3a")
    shown = [e for e in elements if is_shown(e, screen.width, screen.height)]
    assert text.count("\n") == len(shown) and text.startswith(f'UI element {shown[0].index}: {{"index": ')
    network = next(e for e in elements if e.node.text == "Network & internet")
    assert f'UI element {network.index}: {{"index": {network.index}, "text": "Network & internet", ' in text


def test_actions_do_what_actuation_does(screen: Observation) -> None:
    elements = aw_elements(screen.all_elements)
    network: AWElement = next(e for e in elements if e.node.text == "Network & internet")
    left, top, right, bottom = network.node.bounds
    tap = act(f'Reason: r\nAction: {{"action_type": "click", "index": {network.index}}}', screen)
    assert tap == Tap(x=int((left + right) / 2), y=int((top + bottom) / 2))
    assert act('Reason: r\nAction: {"action_type": "click", "x": 10, "y": 20}', screen) == Tap(x=10, y=20)
    # scroll: from the middle of the screen to its edge (down: the finger moves up to y=0)
    down = act('Reason: r\nAction: {"action_type": "scroll", "direction": "down"}', screen)
    assert down == Swipe(x1=540, y1=1200, x2=540, y2=0, duration_ms=300)
    swipe = act('Reason: r\nAction: {"action_type": "swipe", "direction": "up"}', screen)
    assert swipe == Swipe(x1=540, y1=2399, x2=540, y2=0, duration_ms=500)
    typed = act("Reason: r\nAction: {'action_type': 'input_text', 'text': '你好'}", screen)
    assert typed == TypeText(text="你好", enter=True)  # AndroidWorld always presses enter after typing
    assert act('Reason: r\nAction: {"action_type": "navigate_home"}', screen) == Key(key="home")
    assert act('Reason: r\nAction: {"action_type": "keyboard_enter"}', screen) == Key(key="enter")
    opened = act('Reason: r\nAction: {"action_type": "open_app", "app_name": "Clock"}', screen)
    assert opened == OpenApp(app="Clock")
    assert act('Reason: r\nAction: {"action_type": "wait"}', screen) == Wait(seconds=1.0)
    assert act('Reason: r\nAction: {"action_type": "answer", "text": "42"}', screen) == Finish(answer="42")
    done = act('Reason: r\nAction: {"action_type": "status", "goal_status": "complete"}', screen)
    assert done == Finish(status="done")
    infeasible = act('Reason: r\nAction: {"action_type": "status", "goal_status": "infeasible"}', screen)
    assert infeasible == Finish(status="infeasible")


@pytest.mark.parametrize(("reply", "reason"), [
    ('Action: {"action_type": "wait"}', "no 'Reason:' part"),
    ("Reason: r\nAction: none", "no {...} after 'Action:'"),
    ('Reason: r\nAction: {"action_type": "click", "index": "first"}', "is not a number"),
    ('Reason: r\nAction: {"action_type": "click", "index": 1, "x": 3, "y": 4}', "either an index or x, y"),
    ('Reason: r\nAction: {"action_type": "open_app"}', "open_app needs an app_name"),
    ('Reason: r\nAction: {"action_type": "unknown"}', "unknown action type"),
])
def test_replies_androidworld_would_not_carry_out(reply: str, reason: str, screen: Observation) -> None:
    with pytest.raises(AWReplyError, match=reason.replace("{", r"\{").replace("(", r"\(")):
        act(reply, screen)


def test_answer_text_is_not_lost_across_both_quote_styles(tmp_path: Path, screen: Observation) -> None:
    double = act('Reason: r\nAction: {"action_type": "answer", "text": "It\'s 7:30"}', screen)
    single = act("Reason: r\nAction: {'action_type': 'answer', 'text': \"It's 7:30\"}", screen)
    assert double == single == Finish(answer="It's 7:30")
