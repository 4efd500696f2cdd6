"""`gui-owl`: GUI-Owl as the Mobile-Agent-v3 authors run it on AndroidWorld (its executor format).

Format: X-PLUG/MobileAgent `Mobile-Agent-v3/android_world_v3/android_world/agents/gui_owl.py` with
`mobile_agent_utils_new.py` (build_system_messages, generate_user_prompt_single_image) and the tool of
`function_call_mobile_answer.py` (AndroidWorldMobileUse), quoted in agents/mobile_use_prompts.py. The
system prompt is "You are a helpful assistant." plus qwen-agent's tool block for mobile_use; the user
message is the query, the task progress and the instructions to think in <thinking></thinking> before
the <tool_call></tool_call> and to summarise the action in <conclusion></conclusion> after it, then
the screenshot. A reply: `<thinking>...</thinking>` (or `...</think>`), the mobile_use tool call, and
`<conclusion>...</conclusion>`; "tap" is read as "click", as the authors' reader does. Actions: click,
long_press, swipe, type, answer, system_button (Back, Home, Menu, Enter), wait, terminate; `open`
(launch an app by name), which their converter handles although the tool's enum does not list it, is
accepted and used by the scripted model.

Frame: absolute pixels of the screenshot after smart_resize with GUI-Owl's bounds (factor 28,
1*28*28 to 12800*28*28 pixels: coordinate_resize.update_image_size_). The authors resize the image
themselves; here the PNG goes unchanged and the model server's processor does the same resize unless
the screen exceeds its max_pixels (`resize_image=true` resizes here, exactly as theirs).

History: one screenshot per request; the task progress lists the earlier steps' conclusions
("Step 1: ...; Step 2: ...; ", newlines and double quotes removed as theirs); `history` bounds how many
(default all, 100).

Finish: answer(text) -> finish done with that answer (the authors then force terminate(success) and
report the answer: the same outcome in one step); terminate(success) -> finish done;
terminate(failure) -> finish infeasible.

Asking the user: cannot. GUI-Owl's Mobile-Agent-v3 tool has no such action (GUI-Owl-1.5's `interact`,
Mobile-Agent-v3.5, asks a person to clear a blocking window, not a question; not offered here), so tasks
that need the user's answer fail for it. A reply that asks anyway (mobile_use ask_user, interact or
call_user with a text) is read as a question, and the reply is noted after that step's conclusion as
MobileWorld does ("; Ask user response: ..."). Serve mPLUG/GUI-Owl-7B or mPLUG/GUI-Owl-32B with vLLM.
"""

from __future__ import annotations

from typing import Any

from spa_bench.agent.frames import FrameSpec, SmartResize
from spa_bench.agent.native_agent import AdapterInfo, NativeAgent, Screen
from spa_bench.device.observation import Observation
from spa_bench.models.messages import Message

from .mobile_use_prompts import GUI_OWL_MOBILE_USE, GUI_OWL_USER_PROMPT
from .qwen_vl import MobileUseCodec, answered, tool_block

# coordinate_resize.update_image_size_: min_tokens=1, max_tokens=12800, tokens of 28 x 28 pixels
GUI_OWL_RESIZE = SmartResize(factor=28, min_pixels=1 * 28 * 28, max_pixels=12800 * 28 * 28)


class GUIOwlAgent(NativeAgent):
    """GUI-Owl / Mobile-Agent-v3 executor (see the module docstring)."""

    info = AdapterInfo(
        family="GUI-Owl (Mobile-Agent-v3)",
        format_source="X-PLUG/MobileAgent Mobile-Agent-v3/android_world_v3/android_world/agents/gui_owl.py",
        models=("mPLUG/GUI-Owl-7B", "mPLUG/GUI-Owl-32B"))
    default_history = 100
    default_max_tokens = 2048

    def __init__(self, **kwargs: Any) -> None:
        self.codec = MobileUseCodec("gui-owl", answers=True, opens=True, layout="thinking_conclusion")
        self.frame_spec = FrameSpec.absolute(GUI_OWL_RESIZE)
        super().__init__(**kwargs)

    def messages(self, observation: Observation, screen: Screen) -> list[Message]:
        width, height = int(screen.frame.extent_x), int(screen.frame.extent_y)
        system = "You are a helpful assistant." + tool_block(GUI_OWL_MOBILE_USE, width, height)
        # the authors keep a step only when its reply was usable, and number the kept ones
        summaries = [t.parsed.summary + answered(t) if t.parsed.summary is not None else None
                     for t in self.turns if t.parsed is not None]
        kept = summaries[-self.history_length:] if self.history_length else []
        first = len(summaries) - len(kept) + 1
        history = "".join(f"Step {i}: {s.replace(chr(10), '').replace(chr(34), '')}; "
                          for i, s in enumerate(kept, start=first) if s is not None)
        query = GUI_OWL_USER_PROMPT.format(instruction=self.context.instruction, history=history)
        return [{"role": "system", "content": system},
                {"role": "user", "content": [{"type": "text", "text": query},
                                             {"type": "image_url", "image_url": {"url": screen.image_url}}]}]
