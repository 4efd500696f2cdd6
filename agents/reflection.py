"""`reflection`: Mobile-Agent-v2-style action reflection - two model calls per step.

After an action has been carried out, the agent does not simply assume it worked. At the start of the
next step a *reflection* call gets the screenshot before the action, the action, and the screenshot
after it, and answers whether the action did what was intended:
  A - it worked (the screen changed as expected),
  B - it led to a wrong page (going back is probably needed),
  C - it had no effect.
The verdict is attached to that action in the agent's history, and the *action* call (the `mllm`
request: Set-of-Mark screenshot + element list, see agents/mllm.py) then chooses the next action with
that knowledge. A step's usage is the sum of both calls (calls=2 when a reflection ran), its model time
the sum of both; the step's output holds both replies. No reflection runs before the first action,
after an invalid answer, or after finish. An unreadable reflection is noted and the step goes on.

Arguments: as `mllm` (model, base_url, api_key_env, temperature, max_tokens, timeout_s, max_retries,
concurrency, max_side, detail, image_format, history, prompt_language, price_in, price_out,
save_marks), plus reflect_max_side (768): the longest side of the two screenshots of a reflection call.
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any

from spa_bench.agent import AgentStep, TaskContext
from spa_bench.agent.chat import MarkedScreenAgent, describe
from spa_bench.agent.parsing import AnswerParseError, parse_answer
from spa_bench.device.observation import Observation
from spa_bench.models.config import ImageSettings
from spa_bench.models.messages import system_message, user_message

REFLECT_SYSTEM = {
    "en": "You check whether a phone agent's last action worked. You get the task, the action, the "
          "screenshot BEFORE it and the screenshot AFTER it. Answer:\nReason: <one sentence>\n"
          "Outcome: A (it worked: the screen changed as intended), B (it led to a wrong page) or C (it had "
          "no effect)",
    "zh": "你负责检查手机智能体上一个动作是否成功。你会收到任务、动作、动作前的截图和动作后的截图。请回答：\n"
          "Reason: <一句话>\nOutcome: A（成功：屏幕按预期变化）、B（进入了错误的页面）或 C（没有任何效果）",
}
REFLECT_USER = {
    "en": "Task: {instruction}\nAction: {action}\nThe first image is before the action, the second after it.",
    "zh": "任务：{instruction}\n动作：{action}\n第一张图是动作前，第二张图是动作后。",
}
NOTES = {
    "en": {"A": "reflection: worked", "B": "reflection: wrong page - consider going back",
           "C": "reflection: no effect - try something else"},
    "zh": {"A": "反思：成功", "B": "反思：进入了错误页面，考虑返回", "C": "反思：没有效果，换一种方法"},
}
_OUTCOME = re.compile(r"outcome\s*[:：]?\s*\**\s*([ABC])\b", re.I)


def read_outcome(text: str) -> str | None:
    """A, B or C from a reflection reply ("Outcome: B", {"outcome": "B"}), or None."""
    match = _OUTCOME.search(text)
    if match:
        return match.group(1).upper()
    try:
        parsed = parse_answer(text.replace('"outcome"', '"type"'))
    except AnswerParseError:
        return None
    value = str(parsed.action.get("type", "")).strip().upper()
    return value if value in ("A", "B", "C") else None


class ReflectionAgent(MarkedScreenAgent):
    def __init__(self, reflect_max_side: int | None = 768, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.reflect_image = ImageSettings(max_side=reflect_max_side, detail=self.config.image.detail,
                                           format=self.config.image.format)

    def reset(self, context: TaskContext) -> None:
        super().reset(context)
        self.before: bytes | None = None  # screenshot before the last carried-out action
        self.last_action: str | None = None

    def step(self, observation: Observation) -> AgentStep:
        self.take_reply(observation)
        usage, model_s, prefix = None, 0.0, ""
        if self.before is not None and self.last_action is not None and self.history:
            reply = self.client.chat([
                system_message(REFLECT_SYSTEM[self.language]),
                user_message(REFLECT_USER[self.language].format(instruction=self.context.instruction,
                                                                action=self.last_action),
                             self.before, observation.screenshot_png, settings=self.reflect_image)])
            usage, model_s = reply.usage, reply.model_s
            outcome = read_outcome(reply.text)
            note = NOTES[self.language][outcome] if outcome else "reflection: unreadable"
            last = self.history[-1]
            self.history[-1] = replace(last, note=f"{last.note}; {note}" if last.note else note)
            prefix = f"[reflection] {reply.text}\n\n[action] "
        reply = self.client.chat(self.messages(observation))
        total = reply.usage if usage is None else usage + reply.usage
        result = self.interpret(reply, observation, usage=total, model_s=model_s + reply.model_s,
                                prefix=prefix)
        # a question to the user changes nothing on the screen: nothing to reflect on
        carried_out = (not isinstance(result.action, str)
                       and getattr(result.action, "type", "") not in ("finish", "ask_user"))
        self.before = observation.screenshot_png if carried_out else None
        self.last_action = describe(result.action) if carried_out and not isinstance(
            result.action, str | dict) and result.action is not None else None
        return result
