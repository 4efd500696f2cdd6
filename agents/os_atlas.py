"""`os-atlas`: OS-Atlas-Pro (OS-Copilot/OS-Atlas-Pro-7B, -4B), run as its model card shows.

Format: the OS-Atlas-Pro-7B model card (huggingface.co/OS-Copilot/OS-Atlas-Pro-7B, README.md, "Example
Inference Code": `sys_prompt` with its basic and custom actions), and OS-Copilot/OS-Atlas eval/data
(the AndroidControl / GUI-Odyssey test prompts: `History:` as `Step N: ...` lines, replies
`thoughts:\\n...\\nactions:\\nCLICK <point>[[x,y]]</point>`). The prompt text below is the model card's,
quoted (Apache-2.0); the code is ours.

Request (one call per step): one user message - the system prompt as text, the screenshot (the phone's
PNG, resized by the model server's Qwen2-VL processor as in training), then `Task instruction: ...
History: ...` (`null` before the first step, else one `Step N: <thought>` line per earlier step, the
thought of that step's reply, or its action when it gave none). History: all earlier steps
(`history=N` keeps the last N). The prompt is English for both languages (the authors have no other);
Chinese instructions are passed as they are.

Coordinate frame: relative 0-1000 over the image (README: "normalized to relative coordinates within a
0-1000 range"), so x / 1000 of the screen width. Points may come as `<point>[[x,y]]</point>`,
`[[x,y]]`, `(x,y)` or a 4-number box (its centre).

Actions: CLICK / LONG_PRESS at a point; TYPE [text] into the focused field; SCROLL [UP|DOWN|LEFT|RIGHT]
over the screen (as AndroidControl's scroll: DOWN shows what is further down); PRESS_BACK, PRESS_HOME,
PRESS_RECENT (app switcher), ENTER; OPEN_APP [name]; WAIT (1 s). Finish: COMPLETE -> finish done. The
card's action list has no way to give up or to answer; OS-Atlas defines custom actions as the place
for such additions ("enabling the model to support new and unseen actions defined by users"), and
its own GUI-Odyssey test prompt has IMPOSSIBLE, so three custom actions are appended: IMPOSSIBLE ->
finish infeasible, ANSWER [text] -> finish done with that answer, ASK_USER [question] -> ask_user
(`extra_actions=false` sends the card's list alone, and then OS-Atlas cannot ask). The user's reply goes
into the history, on the line of the step that asked: `Step N: <thought> (the user replied: <reply>)`.
A reply with no recognisable action, an unknown verb, a missing or out-of-frame point, or a bad scroll
direction is an invalid step.

Arguments: model (e.g. OS-Copilot/OS-Atlas-Pro-7B), base_url, api_key_env, temperature (0.0),
max_tokens (128, as the card's max_new_tokens), history, extra_actions (true), image_format, and the
common ones of spa_bench.agent.native_agent.
"""

from __future__ import annotations

import re
from typing import Any, ClassVar

from spa_bench.agent.codec import DecodedReply, NativeCodec, ReplyError, point_of
from spa_bench.agent.frames import FrameSpec
from spa_bench.agent.native import NativeAction, NativeActionError, Verb
from spa_bench.agent.native_agent import AdapterInfo, NativeAgent, Screen, Turn, _flag
from spa_bench.device.observation import Observation
from spa_bench.models.messages import Message, text_part

# huggingface.co/OS-Copilot/OS-Atlas-Pro-7B README.md, `sys_prompt` (verbatim; long lines split)
SYS_PROMPT = (
    "\nYou are now operating in Executable Language Grounding mode. Your goal is to help users accomplish "
    "tasks by suggesting executable actions that best fit their needs. Your skill set includes both basic "
    "and custom actions:\n"
    "\n"
    "1. Basic Actions\n"
    "Basic actions are standardized and available across all platforms. They provide essential "
    "functionality and are defined with a specific format, ensuring consistency and reliability. \n"
    "Basic Action 1: CLICK \n"
    "    - purpose: Click at the specified position.\n"
    "    - format: CLICK <point>[[x-axis, y-axis]]</point>\n"
    "    - example usage: CLICK <point>[[101, 872]]</point>\n"
    "\n"
    "Basic Action 2: TYPE\n"
    "    - purpose: Enter specified text at the designated location.\n"
    "    - format: TYPE [input text]\n"
    "    - example usage: TYPE [Shanghai shopping mall]\n"
    "\n"
    "Basic Action 3: SCROLL\n"
    "    - purpose: SCROLL in the specified direction.\n"
    "    - format: SCROLL [direction (UP/DOWN/LEFT/RIGHT)]\n"
    "    - example usage: SCROLL [UP]\n"
    "\n"
    "2. Custom Actions\n"
    "Custom actions are unique to each user's platform and environment. They allow for flexibility and "
    "adaptability, enabling the model to support new and unseen actions defined by users. These actions "
    "extend the functionality of the basic set, making the model more versatile and capable of handling "
    "specific tasks.\n"
    "Custom Action 1: LONG_PRESS \n"
    "    - purpose: Long press at the specified position.\n"
    "    - format: LONG_PRESS <point>[[x-axis, y-axis]]</point>\n"
    "    - example usage: LONG_PRESS <point>[[101, 872]]</point>\n"
    "\n"
    "Custom Action 2: OPEN_APP\n"
    "    - purpose: Open the specified application.\n"
    "    - format: OPEN_APP [app_name]\n"
    "    - example usage: OPEN_APP [Google Chrome]\n"
    "\n"
    "Custom Action 3: PRESS_BACK\n"
    "    - purpose: Press a back button to navigate to the previous screen.\n"
    "    - format: PRESS_BACK\n"
    "    - example usage: PRESS_BACK\n"
    "\n"
    "Custom Action 4: PRESS_HOME\n"
    "    - purpose: Press a home button to navigate to the home page.\n"
    "    - format: PRESS_HOME\n"
    "    - example usage: PRESS_HOME\n"
    "\n"
    "Custom Action 5: PRESS_RECENT\n"
    "    - purpose: Press the recent button to view or switch between recently used applications.\n"
    "    - format: PRESS_RECENT\n"
    "    - example usage: PRESS_RECENT\n"
    "\n"
    "Custom Action 6: ENTER\n"
    "    - purpose: Press the enter button.\n"
    "    - format: ENTER\n"
    "    - example usage: ENTER\n"
    "\n"
    "Custom Action 7: WAIT\n"
    "    - purpose: Wait for the screen to load.\n"
    "    - format: WAIT\n"
    "    - example usage: WAIT\n"
    "\n"
    "Custom Action 8: COMPLETE\n"
    "    - purpose: Indicate the task is finished.\n"
    "    - format: COMPLETE\n"
    "    - example usage: COMPLETE\n"
    "{extra_actions}"
    "\n"
    "In most cases, task instructions are high-level and abstract. Carefully read the instruction and "
    "action history, then perform reasoning to determine the most appropriate next action. Ensure you "
    "strictly generate two sections: Thoughts and Actions.\n"
    "*Thoughts*: Clearly outline your reasoning process for current step.\n"
    "*Actions*: Specify the actual actions you will take based on your reasoning. You should follow "
    "action format above when generating. \n"
    "*Please output both actions and thoughts at the same time.*\n"
    "\n"
    "*ATTENTION!!* You must answer specific executable actions based on the current page screenshot. \n"
    "This means that you cannot do actions that cannot be completed, such as opening an app that does not "
    "exist on the current page.\n"
    "\n"
    "Your current task instruction, action history, and associated screenshot are as follows:\n"
    "Screenshot: \n"
)
# Custom actions appended in the card's own layout (see the module docstring for why).
EXTRA_ACTIONS = (
    "\n"
    "Custom Action 9: IMPOSSIBLE\n"
    "    - purpose: Indicate the task is impossible.\n"
    "    - format: IMPOSSIBLE\n"
    "    - example usage: IMPOSSIBLE\n"
    "\n"
    "Custom Action 10: ANSWER\n"
    "    - purpose: Answer the user's question and finish the task.\n"
    "    - format: ANSWER [answer text]\n"
    "    - example usage: ANSWER [The meeting is at 3 pm]\n"
    "\n"
    "Custom Action 11: ASK_USER\n"
    "    - purpose: Ask the user a question when the task lacks information only the user has.\n"
    "    - format: ASK_USER [question]\n"
    "    - example usage: ASK_USER [Which of the two addresses should I use?]\n"
)
REPLIED = " (the user replied: {reply})"

_ACTIONS_LABEL = re.compile(r"\**\s*actions?\s*\**\s*[:：]\s*\**", re.I)
_THOUGHTS_LABEL = re.compile(r"\**\s*thoughts?\s*\**\s*[:：]\s*\**", re.I)
_VERB = re.compile(r"^\s*([A-Za-z_]+)\s*(.*)$", re.S)
_KEYS = {"PRESS_BACK": "back", "PRESS_HOME": "home", "PRESS_RECENT": "app_switch", "ENTER": "enter"}
_DIRECTIONS = {"UP": "up", "DOWN": "down", "LEFT": "left", "RIGHT": "right"}
_SPECIAL_TOKENS = re.compile(r"<\|[a-z_]+\|>")


def _bracketed(rest: str, verb: str) -> str:
    """The text of `VERB [text]`: from the first `[` to the last `]` (the text may hold brackets)."""
    rest = rest.strip()
    if rest.startswith("[") and "]" in rest:
        return rest[1:rest.rindex("]")]
    if not rest:
        raise ReplyError(f"{verb} needs its argument in brackets, e.g. {verb} [...]")
    return rest  # the brackets left out: the rest of the line


class OSAtlasCodec(NativeCodec):
    name = "os-atlas"
    verbs: frozenset[Verb] = frozenset(("tap", "long_press", "type", "scroll", "key", "open_app",
                                                  "wait", "ask", "finish"))

    def decode(self, text: str) -> DecodedReply:
        text = _SPECIAL_TOKENS.sub("", text)
        found = list(_ACTIONS_LABEL.finditer(text))
        if not found:
            raise ReplyError("no 'actions:' section in the reply")
        label = found[-1]
        head, body = text[:label.start()], text[label.end():]
        thought_label = _THOUGHTS_LABEL.search(head)
        thought = (head[thought_label.end():] if thought_label else head).strip() or None
        line = next((ln.strip() for ln in body.strip().splitlines() if ln.strip()), "")
        if not line:
            raise ReplyError("the 'actions:' section is empty")
        return DecodedReply(self._action(line), thought)

    def _action(self, line: str) -> NativeAction:
        match = _VERB.match(line)
        if match is None:
            raise ReplyError(f"no action verb in {line[:80]!r}")
        verb, rest = match.group(1).upper(), match.group(2)
        if verb in ("CLICK", "LONG_PRESS", "LONG_CLICK"):
            point = point_of(rest, f"the point of {verb}")
            return NativeAction("tap" if verb == "CLICK" else "long_press", point=point)
        if verb == "TYPE":
            return NativeAction("type", text=_bracketed(rest, verb))
        if verb == "SCROLL":
            direction = _bracketed(rest, verb).strip().upper()
            if direction not in _DIRECTIONS:
                raise ReplyError(f"SCROLL direction must be UP, DOWN, LEFT or RIGHT, not {direction!r}")
            return NativeAction("scroll", direction=_DIRECTIONS[direction])  # type: ignore[arg-type]
        if verb in _KEYS:
            return NativeAction("key", key=_KEYS[verb])  # type: ignore[arg-type]
        if verb in ("OPEN_APP", "OPENAPP"):
            return NativeAction("open_app", text=_bracketed(rest, verb).strip())
        if verb == "WAIT":
            return NativeAction("wait", seconds=1.0)
        if verb == "COMPLETE":
            return NativeAction("finish")
        if verb == "IMPOSSIBLE":
            return NativeAction("finish", status="infeasible")
        if verb == "ANSWER":
            return NativeAction("finish", text=_bracketed(rest, verb).strip())
        if verb == "ASK_USER":
            return NativeAction("ask", text=_bracketed(rest, verb).strip())
        raise ReplyError(f"unknown OS-Atlas action {verb!r}")

    def encode(self, native: NativeAction, thought: str) -> str:
        return f"thoughts:\n{thought or 'Next step.'}\nactions:\n{self.action_text(native)}"

    def action_text(self, native: NativeAction) -> str:
        verb = native.verb
        if verb in ("tap", "long_press"):
            assert native.point is not None
            x, y = (round(v) for v in native.point)
            return f"{'CLICK' if verb == 'tap' else 'LONG_PRESS'} <point>[[{x},{y}]]</point>"
        if verb == "type":
            return f"TYPE [{native.text or ''}]"
        if verb == "scroll":
            return f"SCROLL [{(native.direction or 'down').upper()}]"
        if verb == "key":
            names = {v: k for k, v in _KEYS.items()}
            if native.key not in names:
                raise NativeActionError(f"OS-Atlas has no {native.key} key")
            return names[native.key]
        if verb == "open_app":
            return f"OPEN_APP [{native.text}]"
        if verb == "wait":
            return "WAIT"
        if verb == "ask":
            return f"ASK_USER [{native.text}]"
        if native.status == "infeasible":
            return "IMPOSSIBLE"
        return f"ANSWER [{native.text}]" if native.text else "COMPLETE"


class OSAtlasAgent(NativeAgent):
    info: ClassVar[AdapterInfo] = AdapterInfo(
        family="OS-Atlas-Pro", format_source="huggingface.co/OS-Copilot/OS-Atlas-Pro-7B (model card); "
        "OS-Copilot/OS-Atlas eval/data", calls_per_step=1,
        models=("OS-Copilot/OS-Atlas-Pro-7B", "OS-Copilot/OS-Atlas-Pro-4B"),
        asks="ASK_USER [question], a custom action added with extra_actions=true (the card's way to add "
             "actions); the reply on that step's history line")
    default_history: ClassVar[int] = 1000  # every earlier step, as in the training prompts
    default_max_tokens: ClassVar[int | None] = 128
    frame_spec = FrameSpec.relative(1000)
    codec: OSAtlasCodec

    def __init__(self, extra_actions: bool | str = True, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.codec = OSAtlasCodec()
        self.extra_actions = _flag(extra_actions, "extra_actions")

    def messages(self, observation: Observation, screen: Screen) -> list[Message]:
        system = SYS_PROMPT.replace("{extra_actions}", EXTRA_ACTIONS if self.extra_actions else "")
        lines = [f"Step {turn.step}: {self.remembered(turn.reply, turn.parsed)}{_replied(turn)}"
                 for turn in self.recent()]
        history = "\n" + "\n".join(lines) + "\n" if lines else "null"
        task = f"Task instruction: {self.context.instruction}\nHistory: {history}"
        image = {"type": "image_url", "image_url": {"url": screen.image_url}}
        return [{"role": "user", "content": [text_part(system), image, text_part(task)]}]

    def remembered(self, reply: str, parsed: Any) -> str:
        """A step in the history: its thought (the low-level step, as in training), else its action."""
        if parsed is not None and parsed.thought:
            return " ".join(str(parsed.thought).split())
        if parsed is not None:
            return self.codec.action_text(parsed.native)
        return " ".join(reply.split())[:200]

    def describe_arguments(self) -> dict[str, Any]:
        return super().describe_arguments() | {"extra_actions": self.extra_actions}


def _replied(turn: Turn) -> str:
    """The user's reply to the step that asked, on its history line ("" for other steps)."""
    return "" if turn.user_reply is None else REPLIED.format(reply=" ".join(turn.user_reply.split()))
