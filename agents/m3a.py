"""`m3a`: AndroidWorld's M3A (Multimodal Autonomous Agent for Android), as its authors built it.

Format: google-research/android_world, android_world/agents/m3a.py (prompts, quoted in agents/aw_prompts.py),
m3a_utils.py (element marks, reply parsing), env/json_action.py and env/actuation.py (what each action
does); our own code (agents/aw_elements.py, aw_actions.py, aw_agent.py).

Each step is two calls to the same model:
1. summary of the previous step (not on the first step, nor after an unusable reply): M3A's summary
   prompt with both element lists, the action and its reason, and two JPEGs - the marked screenshot the
   action was chosen on and the new marked screenshot labelled "after";
2. action: M3A's action-selection prompt (goal, the history of step summaries `Step N- Action selected:
   {...}. <summary>`, the element list `UI element 3: {"index": 3, "text": ..., "is_clickable": True, ...}`)
   with two images, the raw screenshot (the phone's PNG; AndroidWorld sends a JPEG of it - lossless here
   and cheaper than re-encoding) and the same with AndroidWorld's Set-of-Mark boxes as JPEG (green box,
   white tag with the index at the top left). The reply is `Reason: ... Action: {"action_type": ...}`.
Elements are AndroidWorld's (leaves, nodes with a content description, scrollable nodes), not the
`mllm` agent's list. Coordinate frame: none - elements by index; a click's `x`/`y`, which AndroidWorld
also accepts, are screen pixels. History: every step's summary (AndroidWorld keeps them all).

Actions: click / long_press / double_tap (a tap) by index -> the centre of that element; input_text ->
tap the field (our TypeText names it), type, press enter (AndroidWorld always submits); scroll
(direction, optional index) -> AndroidWorld's swipe from the middle of the element or screen to its edge;
swipe -> its edge-to-edge swipe; keyboard_enter, navigate_home, navigate_back -> keys; open_app ->
open_app by name; wait -> wait 1 s. Finish: `{"action_type": "status", "goal_status": "complete"}` ->
finish done, `"infeasible"` -> finish infeasible. Answer: `{"action_type": "answer", "text": ...}` ->
finish done with that answer at once (AndroidWorld shows the answer and waits for `status complete`,
one step later; here the answer ends the episode). Replies it would not carry out (no Reason/Action
part, unreadable JSON, unknown action or field, an index beyond the list) are invalid steps.

The prompts are English for both languages (AndroidWorld's are English only); Chinese instructions
are passed as they are.

Arguments: model, base_url, api_key_env, temperature (0.0), max_tokens (1000, as infer.py),
timeout_s, max_retries, concurrency, price_in / price_out; image_format (jpeg, as AndroidWorld: the
drawn screenshots).
"""

from __future__ import annotations

from typing import ClassVar

from spa_bench.agent.native_agent import AdapterInfo

from .aw_agent import AndroidWorldAgent, AWCodec
from .aw_prompts import M3A_ACTION_TEMPLATE, M3A_SUMMARY_TEMPLATE


class M3ACodec(AWCodec):
    name = "m3a"


class M3AAgent(AndroidWorldAgent):
    info: ClassVar[AdapterInfo] = AdapterInfo(
        family="AndroidWorld M3A",
        format_source="google-research/android_world android_world/agents/m3a.py, m3a_utils.py",
        calls_per_step=2, models=("gpt-4o", "any multimodal chat model"))
    style: ClassVar[str] = "m3a"
    action_template: ClassVar[str] = M3A_ACTION_TEMPLATE
    summary_template: ClassVar[str] = M3A_SUMMARY_TEMPLATE
    history_separator: ClassVar[str] = "-"
    codec_class: ClassVar[type[AWCodec]] = M3ACodec
