"""`autoglm`: AutoGLM-Phone-9B (and -Multilingual) as zai-org/Open-AutoGLM runs it.

Format: the system prompts of `phone_agent/config/prompts_zh.py` (Chinese tasks) and `prompts_en.py`
(English tasks), quoted in agents/autoglm_prompts.py with the date line the authors prepend; the reply
`<think>...</think><answer>do(action="Tap", element=[x,y])</answer>` is read as
`phone_agent/model/client.py` (`_parse_response`: the action starts at `finish(message=` or
`do(action=`) and `phone_agent/actions/handler.py` (`parse_action`) read it. Actions: Tap, Type and
Type_Name (the handler clears the focused field first: here a type that replaces the focused field's
text), Swipe(start, end), Long Press, Double Tap (a tap: our actions have no double tap), Launch(app=
name), Back, Home, Wait(duration="x seconds"), Interact and Take_over (ask the user, below), Note /
Call_API (no effect on the phone in the authors' handler: a note, recorded as a 0.1 s wait), and
finish(message=...).

The English prompt lists fewer actions (Tap, Type, Swipe, Long Press, Launch, Back, finish) than the
Chinese one; replies with the others are read the same way for either language.

Frame: relative 0-999 ("坐标系统从左上角 (0,0) 开始到右下角（999,999)结束"), divided by 1000 as
`handler._convert_relative_to_absolute` does. The screenshot goes as the phone's PNG; the authors' vLLM
command sets `--mm_processor_kwargs {"max_pixels":5000000}`, which relative coordinates do not depend on.

History (phone_agent/agent.py): the system prompt, the first user message "<instruction>\\n\\n
{"current_app": "<name>"}" and then "** Screen Info **\\n\\n{...}" per step, each with its screenshot
first; earlier screenshots are removed and every earlier reply stays as
`<think>...</think><answer>...</answer>`. `history` bounds how many earlier steps are kept (default 100,
the authors' max_steps, i.e. all). current_app is the foreground app's name (the task's display name
for its apps) or "System Home", as their get_current_app answers for apps it does not know.

Finish: finish(message=...) -> finish (done), the message as the answer (AutoGLM answers questions
there); AutoGLM has no way to say a task is infeasible.

Asking the user: the Chinese prompt's `do(action="Interact")` ("当有多个满足条件的选项时而触发的交互操作，
询问用户如何选择": when several options fit, ask the user which) and `do(action="Take_over",
message="...")` ("在登录和验证阶段需要用户协助": the user's help at a login or a verification; the
authors' handler waits for the person and goes on) -> ask_user, the question being the message, else the
step's thinking (Interact has no argument). The authors' agent has no channel for a person's words (its
takeover callback only waits), so the reply goes where the task's words went: the next user turn starts
with it, "<reply>\n\n** Screen Info **\n\n{...}", as the first turn is "<instruction>\n\n{...}". The
English prompt lists neither action (the authors' text is kept), so on English tasks AutoGLM is not told
it can ask; a reply with either is read the same way. Sampling as theirs: temperature 0, top_p 0.85,
frequency_penalty 0.2, max_tokens 3000. Serve zai-org/AutoGLM-Phone-9B (Chinese apps) or
zai-org/AutoGLM-Phone-9B-Multilingual. Extra argument: date (YYYY-MM-DD for the date line; default
today).
"""

from __future__ import annotations

import ast
import datetime as dt
import json
from typing import Any, ClassVar

from spa_bench.actions import TypeText
from spa_bench.agent.codec import DecodedReply, NativeCodec, ParsedReply, ReplyError, point_of
from spa_bench.agent.frames import FrameSpec
from spa_bench.agent.native import NativeAction, NativeActionError, Verb
from spa_bench.agent.native_agent import AdapterInfo, NativeAgent, Screen
from spa_bench.device.observation import Observation
from spa_bench.errors import ConfigError
from spa_bench.models.messages import Message, system_message

from .autoglm_prompts import SYSTEM_PROMPT_EN, SYSTEM_PROMPT_ZH, date_line

_NO_EFFECT = ("Note", "Call_API")
_ASKS = ("Interact", "Take_over")


class AutoGLMCodec(NativeCodec):
    name = "autoglm"
    verbs: frozenset[Verb] = frozenset(
        {"tap", "double_tap", "long_press", "swipe", "type", "key", "open_app", "wait", "ask", "finish"})
    type_clears = True

    def decode(self, text: str) -> DecodedReply:
        thought, action = _split(text)
        action = action.strip()
        if action.endswith("</answer>"):
            action = action[: -len("</answer>")].strip()
        if action.startswith("finish"):
            return DecodedReply(NativeAction("finish", text=_finish_message(action)), thought=thought)
        if not action.startswith("do"):
            raise ReplyError("no do(action=...) or finish(message=...) in the reply")
        kwargs = _do_arguments(action)
        name = kwargs.get("action")
        if not isinstance(name, str):
            raise ReplyError("do(...) names no action")
        return DecodedReply(self._native(name, kwargs, thought), thought=thought)

    def _native(self, name: str, kwargs: dict[str, Any], thought: str = "") -> NativeAction:
        def point(key: str) -> tuple[float, float]:
            if key not in kwargs:
                raise ReplyError(f"{name} needs {key}=[x,y]")
            return point_of(kwargs[key], key)

        if name in ("Tap", "Double Tap", "Long Press"):
            verbs: dict[str, Verb] = {"Tap": "tap", "Double Tap": "double_tap", "Long Press": "long_press"}
            verb = verbs[name]
            return NativeAction(verb, point=point("element"))
        if name in ("Type", "Type_Name"):
            value = kwargs.get("text")
            if not isinstance(value, str):
                raise ReplyError(f"{name} needs text=\"...\", not {value!r}")
            return NativeAction("type", text=value)
        if name == "Swipe":
            return NativeAction("swipe", point=point("start"), end=point("end"))
        if name == "Launch":
            return NativeAction("open_app", text=str(kwargs.get("app") or ""))
        if name in ("Back", "Home"):
            return NativeAction("key", key="back" if name == "Back" else "home")
        if name == "Wait":
            raw = str(kwargs.get("duration", "1 seconds"))
            try:  # as the authors' handler: "x seconds", 1 s when unreadable
                seconds = float(raw.replace("seconds", "").strip())
            except ValueError:
                seconds = 1.0
            return NativeAction("wait", seconds=seconds)
        if name in _ASKS:  # Interact takes no argument: the thinking says what the model wants to know
            question = str(kwargs.get("message") or "").strip() or thought.strip()
            if not question:
                raise ReplyError(f"{name} with no message and no thinking: no question to ask the user")
            return NativeAction("ask", text=question)
        if name in _NO_EFFECT:
            note = kwargs.get("message") or kwargs.get("instruction")
            return NativeAction("note", text=str(note) if note else None)
        raise ReplyError(f"unknown action {name!r}")

    def encode(self, native: NativeAction, thought: str) -> str:
        verb = native.verb

        def xy(point: tuple[float, float] | None) -> str:
            assert point is not None
            return f"[{round(point[0])},{round(point[1])}]"

        if verb in ("tap", "long_press", "double_tap"):
            name = {"tap": "Tap", "long_press": "Long Press", "double_tap": "Double Tap"}[verb]
            code = f'do(action="{name}", element={xy(native.point)})'
        elif verb == "swipe":
            code = f'do(action="Swipe", start={xy(native.point)}, end={xy(native.end)})'
        elif verb == "type":
            if native.enter:
                raise NativeActionError("AutoGLM has no enter key")
            code = f'do(action="Type", text={_literal(native.text or "")})'
        elif verb == "key":
            if native.key not in ("back", "home"):
                raise NativeActionError(f"AutoGLM has no {native.key} key")
            code = f'do(action="{native.key.capitalize()}")'
        elif verb == "open_app":
            code = f'do(action="Launch", app={_literal(native.text or "")})'
        elif verb == "wait":
            code = f'do(action="Wait", duration="{native.seconds or 1:g} seconds")'
        elif verb == "ask":  # Interact, the question in the thinking
            return f"<think>{native.text or thought}</think><answer>do(action=\"Interact\")</answer>"
        elif native.status == "infeasible":
            raise NativeActionError("AutoGLM has no way to say a task is infeasible")
        else:
            code = f"finish(message={_literal(native.text or 'Task completed.')})"
        return f"<think>{thought}</think><answer>{code}</answer>"


def _literal(text: str) -> str:
    return json.dumps(text, ensure_ascii=False)  # a double-quoted literal Python reads the same way


def _split(content: str) -> tuple[str, str]:
    """(thinking, action) as phone_agent/model/client.py `_parse_response` splits a reply."""
    for marker in ("finish(message=", "do(action="):
        if marker in content:
            before, after = content.split(marker, 1)
            return _thinking(before), marker + after
    if "<answer>" in content:
        before, after = content.split("<answer>", 1)
        return _thinking(before), after.replace("</answer>", "")
    return "", content


def _thinking(text: str) -> str:
    return text.replace("<think>", "").replace("</think>", "").replace("<answer>", "").strip()


def _finish_message(action: str) -> str | None:
    try:
        node = ast.parse(action, mode="eval").body
        if isinstance(node, ast.Call) and node.keywords:
            value = ast.literal_eval(node.keywords[0].value)
            return str(value) if value is not None else None
    except (SyntaxError, ValueError):
        pass
    inner = action.removeprefix("finish(message=")  # the authors' reader: strip the quotes and ")"
    if not inner.endswith(")"):
        raise ReplyError(f"unreadable finish: {action[:80]!r}")
    return inner[1:-2]


def _do_arguments(action: str) -> dict[str, Any]:
    source = action.replace("\n", "\\n").replace("\r", "\\r").replace("\t", "\\t")
    try:
        node = ast.parse(source, mode="eval").body
    except SyntaxError as exc:
        if action.startswith(('do(action="Type"', 'do(action="Type_Name"')) and "text=" in action:
            return {"action": "Type", "text": action.split("text=", 1)[1][1:-2]}  # the authors' fallback
        raise ReplyError(f"unreadable do(...): {action[:80]!r} ({exc.msg})") from None
    if not isinstance(node, ast.Call):
        raise ReplyError(f"the action is not a call: {action[:80]!r}")
    try:
        return {k.arg: ast.literal_eval(k.value) for k in node.keywords if k.arg}
    except ValueError:
        raise ReplyError("the arguments of do(...) are not literals") from None


class AutoGLMAgent(NativeAgent):
    """AutoGLM-Phone (see the module docstring)."""

    info = AdapterInfo(
        family="AutoGLM-Phone-9B",
        format_source="zai-org/Open-AutoGLM phone_agent/config/prompts_{zh,en}.py, actions/handler.py",
        models=("zai-org/AutoGLM-Phone-9B", "zai-org/AutoGLM-Phone-9B-Multilingual"),
        asks="do(action=\"Interact\") / do(action=\"Take_over\", message=...) (listed in the Chinese "
             "prompt only); the reply leads the next user turn")
    default_history = 100
    default_max_tokens = 3000
    sampling: ClassVar[dict[str, Any]] = {"top_p": 0.85, "frequency_penalty": 0.2}

    def __init__(self, date: str | None = None, **kwargs: Any) -> None:
        self.codec = AutoGLMCodec()
        self.frame_spec = FrameSpec.relative(999, 1000)
        try:
            self.date = dt.date.fromisoformat(str(date)) if date else None
        except ValueError:
            raise ConfigError(f"date must be YYYY-MM-DD, not {date!r}") from None
        super().__init__(**kwargs)

    def current_app(self, package: str | None) -> str:
        for ref in self.context.task.apps:
            if ref.package == package:
                return ref.name
        return "System Home"

    def messages(self, observation: Observation, screen: Screen) -> list[Message]:
        language = self.language
        day = self.date or dt.date.today()
        prompt = SYSTEM_PROMPT_ZH if language == "zh" else SYSTEM_PROMPT_EN
        out: list[Message] = [system_message(date_line(language, day) + prompt)]
        turns = self.recent()
        first_kept = len(self.turns) - len(turns)
        reply: str | None = None  # the user's answer to the turn before, which starts the next user turn
        if first_kept > 0:
            reply = self.turns[first_kept - 1].user_reply
        for index, turn in enumerate(turns, start=first_kept):
            text = self._screen_text(index, self.current_app(turn.screen.package))
            out.append(_user(_answered(reply, text), None))
            out.append({"role": "assistant", "content": _history_reply(turn.reply)})
            reply = turn.user_reply
        now = self._screen_text(len(self.turns), self.current_app(screen.package))
        out.append(_user(_answered(reply, now), screen.image_url))
        return out

    def _screen_text(self, index: int, app: str) -> str:
        info = json.dumps({"current_app": app}, ensure_ascii=False)
        return f"{self.context.instruction}\n\n{info}" if index == 0 else f"** Screen Info **\n\n{info}"

    def parse(self, text: str, screen: Screen, observation: Observation) -> ParsedReply:
        parsed = self.codec.parse(text, screen.frame)
        action = parsed.action
        if isinstance(action, TypeText):  # the handler clears the focused field before typing
            focused = next((e for e in observation.elements if e.focused and e.editable), None)
            if focused is not None:
                action = action.model_copy(update={"element": focused.index, "clear": True})
                parsed = ParsedReply(action, parsed.native, parsed.thought, parsed.summary)
        return parsed


def _user(text: str, image_url: str | None) -> Message:
    content: list[dict[str, Any]] = []
    if image_url is not None:
        content.append({"type": "image_url", "image_url": {"url": image_url}})
    content.append({"type": "text", "text": text})
    return {"role": "user", "content": content}


def _answered(reply: str | None, text: str) -> str:
    """A user turn, led by the user's reply to the question just asked, if any."""
    return text if reply is None else f"{reply}\n\n{text}"


def _history_reply(reply: str) -> str:
    """An earlier reply as the authors keep it: <think>thinking</think><answer>action</answer>."""
    thinking, action = _split(reply)
    return f"<think>{thinking}</think><answer>{action.strip().removesuffix('</answer>').strip()}</answer>"
