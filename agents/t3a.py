"""`t3a`: AndroidWorld's T3A (Text-only Autonomous Agent for Android), as its authors built it.

Format: google-research/android_world, android_world/agents/t3a.py (prompts, quoted in agents/aw_prompts.py),
m3a_utils.py (reply parsing), env/json_action.py and env/actuation.py; our own code (agents/aw_elements.py,
aw_actions.py, aw_agent.py).

The same two calls per step as `m3a` (see agents/m3a.py), text only: the summary of the previous step
(T3A's summary prompt with the element lists before and after, the action and its reason), then the
action (T3A's prompt: goal, history `Step N: Action selected: {...}. <summary>`, and the element list
as AndroidWorld prints its UIElement objects: `UI element 3: UIElement(text='Wi-Fi', ...,
bbox_pixels=BoundingBox(x_min=..., ...), ...)`). No screenshot is sent. Coordinate frame: none -
elements by index (a click's `x`/`y` are screen pixels). History: every step's summary. The actions,
finish, answer and infeasible map exactly as for `m3a`.

The prompts are English for both languages (AndroidWorld's are English only); Chinese instructions
are passed as they are.

Arguments: as `m3a` (model, base_url, api_key_env, temperature, max_tokens (1000), timeout_s,
max_retries, concurrency, price_in / price_out).
"""

from __future__ import annotations

from typing import ClassVar

from spa_bench.agent.native_agent import AdapterInfo

from .aw_agent import AndroidWorldAgent, AWCodec
from .aw_prompts import T3A_ACTION_TEMPLATE, T3A_SUMMARY_TEMPLATE


class T3ACodec(AWCodec):
    name = "t3a"


class T3AAgent(AndroidWorldAgent):
    info: ClassVar[AdapterInfo] = AdapterInfo(
        family="AndroidWorld T3A",
        format_source="google-research/android_world android_world/agents/t3a.py, m3a_utils.py",
        calls_per_step=2, models=("gpt-4o", "gpt-4-turbo", "any chat model"))
    style: ClassVar[str] = "t3a"
    action_template: ClassVar[str] = T3A_ACTION_TEMPLATE
    summary_template: ClassVar[str] = T3A_SUMMARY_TEMPLATE
    history_separator: ClassVar[str] = ":"
    codec_class: ClassVar[type[AWCodec]] = T3ACodec
