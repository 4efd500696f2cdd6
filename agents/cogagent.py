"""`cogagent`: CogAgent-9B (cogagent-9b-20241220) with its grounded operations, on the Mobile platform.

Format: THUDM/CogAgent `README.md` ("Model Inputs and Outputs": the query
`Task: {task}\\nHistory steps: \\n0. {grounded op}\\t{action}...\\n(Platform: Mobile)\\n(Answer in
Action-Operation-Sensitive format.)\\n`, one user message with the text and the screenshot, as
`app/client.py` sends it) and `Action_space_en.md` (the operations). A reply:
`Action: <one sentence>\\nGrounded Operation: CLICK(box=[[x1,y1,x2,y2]], element_type='...',
element_info='...')\\n<<一般操作>>` (the sensitivity tag is read but not acted on).

Operations: CLICK (tap the box's centre), DOUBLE_CLICK (a tap: our actions have no double tap),
RIGHT_CLICK (a long press, the phone's context menu), TYPE(box, text) (type into the editable element
under the box's centre, else into the focused field), SCROLL_UP / DOWN / LEFT / RIGHT(box, step_count)
(scroll at the box's centre), KEY_PRESS(key) (Return -> enter; Back and Home, the phone's keys, are
accepted although Action_space_en.md lists desktop keys only), LAUNCH(app=name) (url= is refused: no
browser step here), QUOTE_TEXT / LLM / QUOTE_CLIPBOARD (no effect on the phone: a note, whose `result`
is kept), END() (finish done; the last kept `result` is the answer, since END itself carries none).
HOVER and GESTURE have no phone equivalent and are invalid replies.

Frame: boxes of three-digit numbers 000-999; the operation's point is the box's centre, with
(a / 1000 * w, b / 1000 * h) as the README maps corners: relative 0-999 divided by 1000.

History: every earlier step as "{index}. {grounded operation}\\t{action}" (index from 0), as the
README builds it; `history` bounds how many (default all, 100). No earlier screenshots.

Finish: END() -> finish done (answer: the last quoted result); CogAgent has no way to say a task is
infeasible. Serve THUDM/cogagent-9b-20241220 with vLLM (its app/vllm_openai_server.py or vllm serve).
"""

from __future__ import annotations

import re
from typing import Any

from spa_bench.actions import Action, Finish, TypeText
from spa_bench.agent.codec import DecodedReply, NativeCodec, ParsedReply, ReplyError, call_of, quote
from spa_bench.agent.frames import FrameSpec
from spa_bench.agent.native import NativeAction, NativeActionError, Verb
from spa_bench.agent.native_agent import AdapterInfo, NativeAgent, Screen
from spa_bench.device.observation import Observation
from spa_bench.models.messages import Message

_OPERATION = re.compile(r"Grounded Operation:\s*(.*)")
_BOX = re.compile(r"box=\[[\[\]\d\s,.]*\]")
_LEADING_ZEROS = re.compile(r"(?<![\d.])0+(?=\d)")
_ACTION = re.compile(r"Action:\s*(.*)")
_NOTES = ("QUOTE_TEXT", "LLM", "QUOTE_CLIPBOARD")
_SCROLLS = {"SCROLL_UP": "up", "SCROLL_DOWN": "down", "SCROLL_LEFT": "left", "SCROLL_RIGHT": "right"}
_KEYS = {"return": "enter", "enter": "enter", "back": "back", "home": "home", "backspace": "delete"}
PLATFORM = "(Platform: Mobile)\n"
FORMAT = "(Answer in Action-Operation-Sensitive format.)\n"


def _box_centre(value: Any) -> tuple[float, float]:
    """[[a,b,c,d]] (the documented form), [a,b,c,d] or [a,b] -> the centre."""
    if isinstance(value, list | tuple) and len(value) == 1 and isinstance(value[0], list | tuple):
        value = value[0]
    if not (isinstance(value, list | tuple) and len(value) in (2, 4)
            and all(isinstance(v, int | float) and not isinstance(v, bool) for v in value)):
        raise ReplyError(f"box must be [[x1,y1,x2,y2]] of numbers, not {value!r}")
    if not all(0 <= v <= 999 for v in value):  # "three-digit numbers ranging from 000 to 999"
        raise ReplyError(f"box {value!r} is outside the model's frame (000-999)")
    if len(value) == 2:
        return float(value[0]), float(value[1])
    return (value[0] + value[2]) / 2, (value[1] + value[3]) / 2


class CogAgentCodec(NativeCodec):
    name = "cogagent"
    verbs: frozenset[Verb] = frozenset(
        {"tap", "double_tap", "long_press", "scroll", "type", "key", "open_app", "note", "finish"})

    def decode(self, text: str) -> DecodedReply:
        operation = _OPERATION.search(text)
        if operation is None:
            raise ReplyError("no 'Grounded Operation:' in the reply")
        action = _ACTION.search(text)
        # three-digit numbers such as 086 are not Python literals: read them as decimals
        source = _BOX.sub(lambda m: _LEADING_ZEROS.sub("", m.group(0)), operation.group(1).strip())
        name, args, kwargs = call_of(source)
        if args:
            raise ReplyError(f"{name} takes keyword arguments only")
        summary = action.group(1).strip() if action else None
        return DecodedReply(self._native(name, kwargs), thought=summary, summary=operation.group(1).strip())

    def _native(self, name: str, kwargs: dict[str, Any]) -> NativeAction:
        def centre() -> tuple[float, float]:
            if "box" not in kwargs:
                raise ReplyError(f"{name} needs box=[[x1,y1,x2,y2]]")
            return _box_centre(kwargs["box"])

        if name in ("CLICK", "DOUBLE_CLICK", "RIGHT_CLICK", "LONG_PRESS"):
            verbs: dict[str, Verb] = {"CLICK": "tap", "DOUBLE_CLICK": "double_tap"}
            verb = verbs.get(name, "long_press")
            return NativeAction(verb, point=centre())
        if name == "TYPE":
            text = kwargs.get("text")
            if not isinstance(text, str):
                raise ReplyError(f"TYPE needs text='...', not {text!r}")
            return NativeAction("type", point=centre() if "box" in kwargs else None, text=text)
        if name in _SCROLLS:
            return NativeAction("scroll", point=centre(), direction=_SCROLLS[name])  # type: ignore[arg-type]
        if name == "KEY_PRESS":
            key = _KEYS.get(str(kwargs.get("key", "")).strip().lower())
            if key is None:
                raise ReplyError(f"KEY_PRESS key {kwargs.get('key')!r} has no phone equivalent here")
            return NativeAction("key", key=key)  # type: ignore[arg-type]
        if name == "LAUNCH":
            url, app = str(kwargs.get("url") or "None"), str(kwargs.get("app") or "None")
            if url != "None":
                raise ReplyError("LAUNCH(url=...) is not supported: open the browser app instead")
            if app == "None":
                raise ReplyError("LAUNCH needs app='...'")
            return NativeAction("open_app", text=app)
        if name in _NOTES:
            result = kwargs.get("result")
            return NativeAction("note", text=str(result) if result is not None else None)
        if name == "END":
            return NativeAction("finish")
        raise ReplyError(f"unknown operation {name!r}")

    def expand(self, action: Action) -> list[Action | NativeAction]:
        if isinstance(action, Finish) and action.answer:  # END carries no answer: quote it first
            return [NativeAction("note", text=action.answer), Finish()]
        return [action]

    def encode(self, native: NativeAction, thought: str) -> str:
        def box(point: tuple[float, float] | None) -> str:
            assert point is not None
            x, y = round(point[0]), round(point[1])
            corners = (max(x - 1, 0), max(y - 1, 0), min(x + 1, 999), min(y + 1, 999))
            return "box=[[{:03d},{:03d},{:03d},{:03d}]]".format(*corners)

        verb = native.verb
        if verb in ("tap", "double_tap", "long_press"):
            name = {"tap": "CLICK", "double_tap": "DOUBLE_CLICK", "long_press": "RIGHT_CLICK"}[verb]
            op = f"{name}({box(native.point)}, element_type='Clickable text', element_info={quote(thought)})"
        elif verb == "scroll":
            direction = (native.direction or "down").upper()
            op = (f"SCROLL_{direction}({box(native.point)}, element_type='Scroll', element_info='Scroll', "
                  "step_count=5)")
        elif verb == "type":
            if native.enter:
                raise NativeActionError("CogAgent types, then presses KEY_PRESS(key='Return')")
            where = f"{box(native.point)}, " if native.point is not None else ""
            op = f"TYPE({where}text={quote(native.text or '')}, element_type='Text input box')"
        elif verb == "key":
            key = {"enter": "Return", "back": "Back", "home": "Home"}.get(native.key or "")
            if key is None:
                raise NativeActionError(f"CogAgent has no {native.key} key")
            op = f"KEY_PRESS(key='{key}')"
        elif verb == "open_app":
            op = f"LAUNCH(app={quote(native.text or '')}, url='None')"
        elif verb == "note":
            op = (f"QUOTE_TEXT(box=[[000,000,999,999]], element_type='Window', element_info='answer', "
                  f"output='__CogName_Answer__', result={quote(native.text or '')})")
        elif verb == "finish" and native.status == "done" and not native.text:
            op = "END()"
        else:
            raise NativeActionError("CogAgent's END() carries no answer (quote it first) and no infeasible")
        return f"Action: {thought}\nGrounded Operation: {op}\n<<一般操作>>"


class CogAgentAgent(NativeAgent):
    """CogAgent-9B (see the module docstring)."""

    info = AdapterInfo(
        family="CogAgent-9B",
        format_source="THUDM/CogAgent README.md (Model Inputs and Outputs), Action_space_en.md",
        models=("THUDM/cogagent-9b-20241220",))
    default_history = 100
    default_max_tokens = 1024

    def __init__(self, **kwargs: Any) -> None:
        self.codec = CogAgentCodec()
        self.frame_spec = FrameSpec.relative(999, 1000)
        super().__init__(**kwargs)

    def reset(self, context: Any) -> None:
        super().reset(context)
        self.quoted: str | None = None

    def messages(self, observation: Observation, screen: Screen) -> list[Message]:
        history = "\nHistory steps: "
        usable = [t for t in self.recent() if t.parsed is not None]
        for index, turn in enumerate(usable):
            assert turn.parsed is not None
            history += f"\n{index}. {turn.parsed.summary}\t{turn.parsed.thought or ''}"
        query = f"Task: {self.context.instruction}{history}\n{PLATFORM}{FORMAT}"
        return [{"role": "user", "content": [{"type": "text", "text": query},
                                             {"type": "image_url", "image_url": {"url": screen.image_url}}]}]

    def parse(self, text: str, screen: Screen, observation: Observation) -> ParsedReply:
        parsed = self.codec.parse(text, screen.frame)
        action, native = parsed.action, parsed.native
        if native.verb == "note" and native.text:
            self.quoted = native.text
        elif isinstance(action, Finish) and action.answer is None and self.quoted:
            action = action.model_copy(update={"answer": self.quoted})
        elif isinstance(action, TypeText) and native.point is not None:
            x, y = screen.frame.to_screen(*native.point)
            field = next((e for e in observation.elements if e.editable
                          and e.bounds[0] <= x < e.bounds[2] and e.bounds[1] <= y < e.bounds[3]), None)
            if field is not None:
                action = action.model_copy(update={"element": field.index})
        return ParsedReply(action, native, parsed.thought, parsed.summary)
