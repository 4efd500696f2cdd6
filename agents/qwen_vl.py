"""`qwen-vl`: Qwen2.5-VL (default) and Qwen3-VL (`version=3`) with the `mobile_use` function call.

Format: QwenLM's cookbook `cookbooks/mobile_agent.ipynb` (QwenLM/Qwen3-VL, formerly Qwen2.5-VL) and its
tool `cookbooks/utils/agent_function_call.py` (MobileUse), quoted in agents/mobile_use_prompts.py. A
reply holds `<tool_call>\\n{"name": "mobile_use", "arguments": {"action": "click", "coordinate": [x, y]}}
\\n</tool_call>` (Qwen3-VL: after "Thought: ..." and "Action: ..." lines). Actions: click, long_press
(time in s), swipe (coordinate -> coordinate2), type, key (adb keyevent names: enter, back, home, del),
system_button (Back, Home, Menu = recent apps, Enter), open (Qwen2.5-VL, by app name), wait (time),
terminate (status success | failure), answer (Qwen3-VL, text).

Frame: Qwen2.5-VL answers in absolute pixels of the image after smart_resize (factor 28, min_pixels /
max_pixels, default the processor's 4*28*28 and 16384*28*28); the tool description states that
resolution, as the cookbook does. Qwen3-VL answers on a 0-999 grid ("The screen's resolution is 999x999")
that the cookbook maps back with x / 999 * width.

History: one request per step, no earlier screenshots. The user message is "The user query: ..." and
"Task progress (You have done the following operation on the current device): Step 1: ...; " with the
earlier steps: Qwen2.5-VL the tool calls made (the cookbook's example), Qwen3-VL the "Action:" lines;
`history` bounds how many (default all, 100).

Finish: terminate(success) -> finish done; terminate(failure) -> finish infeasible; answer(text) ->
finish done with that answer (Qwen3-VL; Qwen2.5-VL's tool has no answer action, so its answer tasks
cannot be answered: a reply with `answer` is still accepted).

Asking the user: the cookbooks' mobile_use has no such action. Tongyi-MAI/MobileWorld runs Qwen3-VL with
the same tool plus `ask_user` (text: the question) and gives the reply back in the task progress, appended
to that step's line as "; Ask user response: <reply>" (its agents/implementations/qwen3vl.py). With
`version=3` and `ask_user=true` (the default) the system prompt is MobileWorld's
MOBILE_QWEN3VL_PROMPT_WITH_ASK_USER (agents/mobile_use_prompts.py; it also differs from the cookbook's in
two phrases), the user message stays the cookbook's; `ask_user=false` sends the cookbook's prompt.
Qwen2.5-VL's tool has no way to ask and none is added: it cannot ask, and tasks that need the user's
answer fail for it. Any mobile_use reply with ask_user (or GUI-Owl-1.5's interact / call_user with a
text) is read as a question, and its reply shown as MobileWorld does. Serve Qwen/Qwen2.5-VL-7B-Instruct
(or 72B) or Qwen/Qwen3-VL-8B-Instruct (or larger) with vLLM. Extra arguments: version (2.5 | 3),
min_pixels, max_pixels, ask_user (true; Qwen3-VL only).
"""

from __future__ import annotations

import json
import re
from typing import Any, Literal

from spa_bench.agent.codec import DecodedReply, NativeCodec, ReplyError, point_of
from spa_bench.agent.frames import QWEN_MAX_PIXELS, QWEN_MIN_PIXELS, FrameSpec, SmartResize
from spa_bench.agent.native import NativeAction, NativeActionError, Verb
from spa_bench.agent.native_agent import AdapterInfo, NativeAgent, Screen, Turn, _flag
from spa_bench.device.observation import Observation
from spa_bench.errors import ConfigError
from spa_bench.models.messages import Message

from .mobile_use_prompts import (
    MOBILEWORLD_QWEN3_ASK_USER_PROMPT,
    NOUS_TOOLS_PREFIX,
    NOUS_TOOLS_SUFFIX,
    QWEN3_SYSTEM_PROMPT,
    QWEN25_MOBILE_USE,
)

_TOOL_CALL = re.compile(r"<tool_call>\s*(.*?)\s*(?:</tool_call>|$)", re.S)
_KEYS = {"enter": "enter", "keycode_enter": "enter", "66": "enter", "back": "back", "keycode_back": "back",
         "4": "back", "home": "home", "keycode_home": "home", "3": "home", "del": "delete",
         "delete": "delete", "keycode_del": "delete", "67": "delete", "app_switch": "app_switch",
         "keycode_app_switch": "app_switch", "menu": "app_switch"}
_BUTTONS = {"back": "back", "home": "home", "menu": "app_switch", "enter": "enter"}
# MobileWorld's ask_user; GUI-Owl-1.5's interact / call_user (Mobile-Agent-v3.5 run_gui_owl_1_5_for_mobile.py)
_ASKS = ("ask_user", "interact", "call_user", "calluser")
ASK_USER_RESPONSE = "; Ask user response: {reply}"  # MobileWorld's qwen3vl.py, after the step's conclusion


def tool_block(tool: dict[str, Any], width: int | None = None, height: int | None = None) -> str:
    """qwen-agent's NousFnCallPrompt block for one tool, the resolution filled in."""
    function = dict(tool)
    if width is not None and height is not None:
        function["description"] = str(tool["description"]).replace("{width}", str(width)).replace(
            "{height}", str(height))
    return (NOUS_TOOLS_PREFIX + json.dumps({"type": "function", "function": function}, ensure_ascii=False)
            + NOUS_TOOLS_SUFFIX)


class MobileUseCodec(NativeCodec):
    """The mobile_use tool call (Qwen2.5-VL, Qwen3-VL and GUI-Owl share it)."""

    name = "mobile_use"
    verbs: frozenset[Verb] = frozenset(
        {"tap", "long_press", "swipe", "type", "key", "open_app", "wait", "finish"})

    def __init__(self, name: str = "qwen-vl", answers: bool = True, opens: bool = True,
                 layout: Literal["plain", "thought_action", "thinking_conclusion"] = "plain",
                 asks: bool = False) -> None:
        self.name = name
        self.answers, self.opens, self.layout, self.asks = answers, opens, layout, asks
        if not opens:
            self.verbs = self.verbs - {"open_app"}
        if asks:  # the scripted model writes ask_user only where the prompt offers it
            self.verbs = self.verbs | {"ask"}

    # -- reading --------------------------------------------------------------------------------------
    def call_of(self, text: str) -> dict[str, Any]:
        """The tool call's arguments (the JSON inside <tool_call>, or a bare {"name": "mobile_use", ...})."""
        match = _TOOL_CALL.search(text)
        body = match.group(1) if match else None
        if body is None:
            start = text.find('{"name"')
            if start < 0:
                raise ReplyError("no <tool_call> in the reply")
            body = text[start:]
        try:
            call, _ = json.JSONDecoder().raw_decode(body.strip())
        except ValueError as exc:
            raise ReplyError(f"the tool call is not JSON ({exc})") from None
        if not isinstance(call, dict):
            raise ReplyError("the tool call is not a JSON object")
        if call.get("name") not in (None, "mobile_use"):
            raise ReplyError(f"unknown tool {call.get('name')!r} (the tool is mobile_use)")
        arguments = call.get("arguments")
        if isinstance(arguments, str):  # some servers send the arguments as a JSON string
            try:
                arguments = json.loads(arguments)
            except ValueError:
                raise ReplyError("the tool call's arguments are not JSON") from None
        if not isinstance(arguments, dict) or not isinstance(arguments.get("action"), str):
            raise ReplyError("the tool call has no arguments.action")
        return arguments

    def decode(self, text: str) -> DecodedReply:
        arguments = self.call_of(text)
        thought, summary = self.thought_and_summary(text)
        return DecodedReply(self._native(arguments), thought=thought, summary=summary)

    def thought_and_summary(self, text: str) -> tuple[str | None, str | None]:
        if self.layout == "thinking_conclusion":
            thought = re.search(r"<thinking>\s*(.*?)\s*</thinking>", text, re.S)
            if thought is None:
                thought = re.search(r"^(.*?)</think>", text, re.S)
            summary = re.search(r"<conclusion>\s*(.*?)\s*</conclusion>", text, re.S)
            return (thought.group(1).strip() if thought else None,
                    summary.group(1).strip() if summary else None)
        thought = re.search(r"Thought:\s*(.*)", text)
        action = re.search(r"Action:\s*(.*)", text)
        return (thought.group(1).strip() if thought else None, action.group(1).strip() if action else None)

    def _native(self, args: dict[str, Any]) -> NativeAction:
        action = args["action"].strip().lower().replace("tap", "click")  # as GUI-Owl's reader does

        def coordinate(key: str = "coordinate") -> tuple[float, float]:
            if key not in args:
                raise ReplyError(f"{action} needs {key}")
            return point_of(args[key], key)

        if action == "click":
            return NativeAction("tap", point=coordinate())
        if action == "long_press":
            seconds = _number(args.get("time", 1.0), "time")
            return NativeAction("long_press", point=coordinate(), duration_ms=round(seconds * 1000))
        if action == "swipe":
            return NativeAction("swipe", point=coordinate(), end=coordinate("coordinate2"))
        if action == "type":
            if not isinstance(args.get("text"), str):
                raise ReplyError(f"type needs text as a string, not {args.get('text')!r}")
            return NativeAction("type", text=args["text"])
        if action == "key":
            key = _KEYS.get(str(args.get("text", "")).strip().lower())
            if key is None:
                raise ReplyError(f"key {args.get('text')!r} has no phone equivalent here")
            return NativeAction("key", key=key)  # type: ignore[arg-type]
        if action == "system_button":
            button = _BUTTONS.get(str(args.get("button", "")).strip().lower())
            if button is None:
                raise ReplyError("system_button must be Back, Home, Menu or Enter, "
                                 f"not {args.get('button')!r}")
            return NativeAction("key", key=button)  # type: ignore[arg-type]
        if action in ("open", "open_app"):
            return NativeAction("open_app", text=str(args.get("text") or ""))
        if action == "wait":
            return NativeAction("wait", seconds=_number(args.get("time", 1.0), "time"))
        if action == "terminate":
            status = str(args.get("status", "success")).strip().lower()
            if status not in ("success", "failure"):
                raise ReplyError(f"terminate status must be success or failure, not {status!r}")
            return NativeAction("finish", status="done" if status == "success" else "infeasible")
        if action == "answer":
            if not isinstance(args.get("text"), str):
                raise ReplyError("answer needs text")
            return NativeAction("finish", text=args["text"])
        if action in _ASKS:
            question = args.get("text")
            if not isinstance(question, str) or not question.strip():
                raise ReplyError(f"{action} needs text: the question to ask the user")
            return NativeAction("ask", text=question)
        raise ReplyError(f"unknown mobile_use action {action!r}")

    # -- writing (the scripted model) ------------------------------------------------------------------
    def encode(self, native: NativeAction, thought: str) -> str:
        args = self._arguments(native)
        call = json.dumps({"name": "mobile_use", "arguments": args}, ensure_ascii=False)
        tool = f"<tool_call>\n{call}\n</tool_call>"
        summary = f"{native.verb} ({thought})"
        if self.layout == "thought_action":
            return f"Thought: {thought}\nAction: {summary}\n{tool}"
        if self.layout == "thinking_conclusion":
            return f"<thinking>\n{thought}\n</thinking>\n{tool}\n<conclusion>\n{summary}\n</conclusion>"
        return tool

    def _arguments(self, native: NativeAction) -> dict[str, Any]:
        def xy(point: tuple[float, float] | None) -> list[int]:
            assert point is not None
            return [round(point[0]), round(point[1])]

        verb = native.verb
        if verb == "tap":
            return {"action": "click", "coordinate": xy(native.point)}
        if verb == "long_press":
            return {"action": "long_press", "coordinate": xy(native.point),
                    "time": (native.duration_ms or 1000) / 1000}
        if verb == "swipe":
            return {"action": "swipe", "coordinate": xy(native.point), "coordinate2": xy(native.end)}
        if verb == "type":
            if native.enter:
                raise NativeActionError("mobile_use types, then presses Enter with system_button")
            return {"action": "type", "text": native.text or ""}
        if verb == "key":
            names = {"back": "Back", "home": "Home", "enter": "Enter", "app_switch": "Menu"}
            button = names.get(native.key or "")
            if button is None:
                raise NativeActionError(f"mobile_use has no {native.key} button")
            return {"action": "system_button", "button": button}
        if verb == "open_app":
            if not self.opens:
                raise NativeActionError(f"{self.name}'s mobile_use has no open action")
            return {"action": "open", "text": native.text or ""}
        if verb == "wait":
            return {"action": "wait", "time": native.seconds or 1.0}
        if verb == "ask":
            return {"action": "ask_user", "text": native.text or ""}
        if native.text:
            if not self.answers:
                raise NativeActionError(f"{self.name}'s mobile_use has no answer action")
            return {"action": "answer", "text": native.text}
        return {"action": "terminate", "status": "success" if native.status == "done" else "failure"}


def _number(value: Any, what: str) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float | str):
        raise ReplyError(f"{what} must be a number, not {value!r}")
    try:
        return float(value)
    except ValueError:
        raise ReplyError(f"{what} must be a number, not {value!r}") from None


class QwenVLAgent(NativeAgent):
    """Qwen2.5-VL / Qwen3-VL mobile_use (see the module docstring)."""

    info = AdapterInfo(
        family="Qwen2.5-VL / Qwen3-VL",
        format_source="QwenLM/Qwen3-VL cookbooks/mobile_agent.ipynb, cookbooks/utils/agent_function_call.py",
        models=("Qwen/Qwen2.5-VL-7B-Instruct", "Qwen/Qwen3-VL-8B-Instruct (version=3)"),
        asks="Qwen3-VL: MobileWorld's mobile_use ask_user (text), the reply as '; Ask user response: ...' "
             "in the task progress (ask_user=false: not offered); Qwen2.5-VL: cannot ask (the tool has "
             "no such action)")
    default_history = 100
    default_max_tokens = 2048

    def __init__(self, version: str | float = "2.5", min_pixels: int = QWEN_MIN_PIXELS,
                 max_pixels: int = QWEN_MAX_PIXELS, ask_user: bool | str = True, **kwargs: Any) -> None:
        self.version = {"2.5": "2.5", "3": "3", "3.0": "3"}.get(str(version), "")
        if not self.version:
            raise ConfigError(f"version must be 2.5 or 3, not {version!r}")
        self.ask_user = self.version == "3" and _flag(ask_user, "ask_user")
        if self.version == "3":
            self.codec = MobileUseCodec("qwen-vl", answers=True, opens=False, layout="thought_action",
                                        asks=self.ask_user)
            self.frame_spec = FrameSpec.relative(999)
        else:
            self.codec = MobileUseCodec("qwen-vl", answers=False, opens=True, layout="plain")
            self.frame_spec = FrameSpec.absolute(SmartResize(min_pixels=int(min_pixels),
                                                             max_pixels=int(max_pixels)))
        super().__init__(**kwargs)

    def messages(self, observation: Observation, screen: Screen) -> list[Message]:
        if self.version == "3":
            system = MOBILEWORLD_QWEN3_ASK_USER_PROMPT if self.ask_user else QWEN3_SYSTEM_PROMPT
            steps = "".join(f"Step {i}: {_clean(self._summary(t) + answered(t))}; "
                            for i, t in self._numbered())
            query = (f"The user query: {self.context.instruction}.\nTask progress (You have done the "
                     f"following operation on the current device): {steps}.\n")
        else:
            width, height = int(screen.frame.extent_x), int(screen.frame.extent_y)
            system = "You are a helpful assistant." + tool_block(QWEN25_MOBILE_USE, width, height)
            steps = "".join(f"Step {i}: {self._call(t)}{answered(t)}; " for i, t in self._numbered())
            query = (f"The user query:  {self.context.instruction}\nTask progress (You have done the "
                     f"following operation on the current device): {steps}")
        return [{"role": "system", "content": system},
                {"role": "user", "content": [{"type": "text", "text": query},
                                             {"type": "image_url", "image_url": {"url": screen.image_url}}]}]

    def describe_arguments(self) -> dict[str, Any]:
        return super().describe_arguments() | {"version": self.version, "ask_user": self.ask_user}

    def _numbered(self) -> list[tuple[int, Turn]]:
        turns = self.recent()
        first = len(self.turns) - len(turns) + 1
        return [(first + i, t) for i, t in enumerate(turns) if t.parsed is not None]

    def _summary(self, turn: Turn) -> str:
        assert turn.parsed is not None
        return turn.parsed.summary or turn.parsed.thought or turn.parsed.native.verb

    def _call(self, turn: Turn) -> str:
        match = _TOOL_CALL.search(turn.reply)
        return " ".join((match.group(1) if match else turn.reply).split())


def answered(turn: Turn) -> str:
    """MobileWorld's note of the user's reply after the step that asked ("" for other steps)."""
    return ASK_USER_RESPONSE.format(reply=turn.user_reply) if turn.user_reply is not None else ""


def _clean(text: str) -> str:
    return text.replace("\n", "").replace('"', "")  # as the cookbook cleans its history lines
