"""`ui-tars`: UI-TARS-1.5 (and UI-TARS 1.0 with `version=1.0`) as its authors run it on phones.

Format: the mobile prompt `ui_tars.prompt.MOBILE_USE_DOUBAO` and the reader
`ui_tars.action_parser.parse_action_to_structure_output` of the `ui-tars` package (PyPI, Apache-2.0,
by ByteDance: bytedance/UI-TARS `codes/`), imported, not re-typed. A reply is
`Thought: ...\nAction: click(point='<point>x y</point>')`; the actions are click, long_press,
type(content=...) (a trailing "\\n" submits), scroll(point, direction), open_app(app_name=...),
drag(start_point, end_point), press_home, press_back, finished(content=...), and wait() (from the
package's computer-use action space; the mobile prompt does not list it).
Before the package's reader sees a reply, the forms vLLM produces are brought to its input form:
`<|box_start|>`/`<|box_end|>` tokens (kept or stripped), `<point>x y</point>`, `<point>x,y</point>`,
`(x,y)`, `[x, y]` and 4-number boxes `(x1,y1,x2,y2)` / `<bbox>x1 y1 x2 y2</bbox>` (their centre).

Frame: UI-TARS-1.5 answers in absolute pixels of the image after Qwen2.5-VL's smart_resize (factor 28,
min_pixels / max_pixels arguments, default 4*28*28 and 16384*28*28 as the model's processor config);
`version=1.0` answers in relative 0-1000 (`start_box='<|box_start|>(x,y)<|box_end|>'`), with the
mobile prompt template of bytedance/UI-TARS README_v1.md (click, long_press, type, scroll(start_box,
end_box) - a swipe -, press_home, press_back, finished).

History (the authors' OSWorld agent, `history_n`): a system message "You are a helpful assistant.",
the prompt as the first user message, then every earlier reply as an assistant message, each after
the screenshot it answered for the last `history` - 1 of them, and the current screenshot last: at most
`history` (default 5) screenshots per request.

Finish: `finished(content='...')` -> finish (done) with the content as the answer (UI-TARS writes its
answer or a summary there); UI-TARS has no way to say a task is infeasible. Thought language: English,
or Chinese for Chinese tasks (`prompt_language`).

Asking the user: `call_user()`, in the authors' words "Submit the task and call the user when the task
is unsolvable, or when you need the user's help" (bytedance/UI-TARS README_v1.md, the action spaces of
its computer and vLLM-example prompts; UI-TARS-1.5 still emits it, and the package's parser knows it as
CALL_USER). It takes no argument, so the question asked is the step's Thought -> ask_user. Neither
mobile prompt (MOBILE_USE_DOUBAO, the 1.0 mobile template) lists it: with `ask_user=true` (the
default) the authors' call_user line is added after finished(...) in the action space; `ask_user=false`
sends their mobile prompt unchanged (a call_user() reply is still read as a question). The user's reply
goes back as the authors' chat does with a person's words: a user message with the reply's text, right
after the assistant turn that called the user (and before the next screenshot).

Arguments: those of every native adapter (spa_bench.agent.native_agent), plus version (1.5 | 1.0),
min_pixels, max_pixels, ask_user (true). Serve e.g. ByteDance-Seed/UI-TARS-1.5-7B with vLLM.
"""

from __future__ import annotations

import re
from typing import Any

from spa_bench.agent.codec import DecodedReply, NativeCodec, ReplyError, call_of, point_of, quote
from spa_bench.agent.frames import QWEN_MAX_PIXELS, QWEN_MIN_PIXELS, FrameSpec, SmartResize
from spa_bench.agent.native import NativeAction, NativeActionError, Verb
from spa_bench.agent.native_agent import AdapterInfo, NativeAgent, Screen, _flag
from spa_bench.device.observation import Observation
from spa_bench.errors import ConfigError
from spa_bench.models.messages import Message, system_message

_BOX_TOKENS = re.compile(r"<\|box_(?:start|end)\|>")
_POINT_TAG = re.compile(r"<point>\s*(-?[\d.]+)[\s,]+(-?[\d.]+)\s*</point>")
_BBOX_TAG = re.compile(r"<bbox>\s*(-?[\d.]+)[\s,]+(-?[\d.]+)[\s,]+(-?[\d.]+)[\s,]+(-?[\d.]+)\s*</bbox>")
_BRACKETS = re.compile(r"(?<=')\[\s*(-?[\d.]+(?:\s*,\s*-?[\d.]+)*)\s*\](?=')")
_VERBS: dict[str, Verb] = {
    "click": "tap", "left_single": "tap", "left_double": "double_tap", "long_press": "long_press",
    "type": "type", "scroll": "scroll", "drag": "swipe", "swipe": "swipe", "open_app": "open_app",
    "press_home": "key", "press_back": "key", "home": "key", "back": "key", "wait": "wait",
    "finished": "finish", "call_user": "ask", "hotkey": "key", "press_enter": "key",
}
# bytedance/UI-TARS README_v1.md, the computer prompt's action space (verbatim)
CALL_USER_LINE = ("call_user() # Submit the task and call the user when the task is unsolvable, or when "
                  "you need the user's help.\n")


def _canonical(text: str) -> str:
    """vLLM's forms of a point -> the `(x,y)` / `(x1,y1,x2,y2)` the package's reader takes."""
    text = _BOX_TOKENS.sub("", text)
    text = _POINT_TAG.sub(lambda m: f"({m[1]},{m[2]})", text)
    text = _BBOX_TAG.sub(lambda m: f"({m[1]},{m[2]},{m[3]},{m[4]})", text)
    return _BRACKETS.sub(lambda m: "(" + re.sub(r"\s+", "", m[1]) + ")", text)


class UITarsCodec(NativeCodec):
    name = "ui-tars"
    verbs: frozenset[Verb] = frozenset(
        {"tap", "long_press", "type", "scroll", "swipe", "open_app", "key", "wait", "ask", "finish"})
    type_submits = True

    version = "1.5"

    def decode(self, text: str) -> DecodedReply:
        from ui_tars.action_parser import parse_action_to_structure_output

        text = _canonical(text.strip())
        if "Action:" not in text:
            raise ReplyError("no 'Action:' in the reply")
        action_text = text.split("Action:")[-1].strip().split(")\n\n")[0]
        if not action_text:
            raise ReplyError("nothing after 'Action:'")
        if "type(content" not in action_text:  # the package's reader prints and returns None on these
            name, _, kwargs = call_of(action_text if action_text.endswith(")") else action_text + ")")
            for key, value in kwargs.items():
                if not isinstance(value, str):
                    raise ReplyError(f"{name}: argument {key} must be a quoted string, not {value!r}")
        # factor 1 with the qwen2vl reader: the numbers come back as written, in the model's frame, and
        # the shared frame layer maps them (the package would divide by the smart-resized size itself)
        parsed = parse_action_to_structure_output(text, 1, 1, 1, model_type="qwen2vl")
        if not parsed:
            raise ReplyError("no action in the reply")
        first = parsed[0]
        name = str(first.get("action_type") or "")
        inputs: dict[str, Any] = first.get("action_inputs") or {}
        thought = first.get("thought")
        return DecodedReply(self._native(name, inputs, thought), thought=thought)

    def _native(self, name: str, inputs: dict[str, Any], thought: str | None = None) -> NativeAction:
        verb = _VERBS.get(name)
        if verb is None:
            raise ReplyError(f"unknown action {name!r} (known: {', '.join(sorted(_VERBS))})")
        start = point_of(inputs["start_box"], "start_box") if inputs.get("start_box") else None
        end = point_of(inputs["end_box"], "end_box") if inputs.get("end_box") else None
        if verb == "key":
            key = {"press_home": "home", "home": "home", "press_back": "back", "back": "back",
                   "press_enter": "enter"}.get(name)
            if name == "hotkey":
                pressed = str(inputs.get("key") or inputs.get("hotkey") or "").strip().lower()
                key = {"enter": "enter", "return": "enter", "back": "back", "home": "home"}.get(pressed)
                if key is None:
                    raise ReplyError(f"hotkey {pressed!r} has no phone equivalent")
            return NativeAction("key", key=key)  # type: ignore[arg-type]
        if verb == "scroll":
            direction = str(inputs.get("direction") or "").strip().lower()
            if direction not in ("up", "down", "left", "right"):
                if start is not None and end is not None:  # 1.0: scroll(start_box, end_box) is a swipe
                    return NativeAction("swipe", point=start, end=end)
                raise ReplyError(f"scroll direction must be up, down, left or right, not {direction!r}")
            return NativeAction("scroll", point=start, direction=direction)  # type: ignore[arg-type]
        if verb == "type":
            return NativeAction("type", text=str(inputs.get("content", "")))
        if verb == "open_app":
            return NativeAction("open_app", text=str(inputs.get("app_name") or ""))
        if verb == "wait":
            return NativeAction("wait", seconds=5.0)  # "Sleep for 5s and take a screenshot"
        if verb == "ask":  # call_user() has no argument: the thought says what the model wants to know
            question = str(inputs.get("content") or "").strip() or (thought or "").strip()
            if not question:
                raise ReplyError("call_user() with no Thought: there is no question to ask the user")
            return NativeAction("ask", text=question)
        if verb == "finish":
            return NativeAction("finish", text=str(inputs.get("content") or "") or None)
        return NativeAction(verb, point=start, end=end)

    # -- writing (the scripted model) ------------------------------------------------------------------
    def _point(self, point: tuple[float, float] | None) -> str:
        assert point is not None
        x, y = (round(v) for v in point)
        return f"<point>{x} {y}</point>" if self.version == "1.5" else f"<|box_start|>({x},{y})<|box_end|>"

    def encode(self, native: NativeAction, thought: str) -> str:
        arg = "point" if self.version == "1.5" else "start_box"
        end_arg = ("start_point", "end_point") if self.version == "1.5" else ("start_box", "end_box")
        verb = native.verb
        if verb in ("tap", "long_press"):
            call = f"{'click' if verb == 'tap' else 'long_press'}({arg}='{self._point(native.point)}')"
        elif verb == "swipe":  # 1.0's mobile prompt calls the finger's path scroll(start_box, end_box)
            name = "drag" if self.version == "1.5" else "scroll"
            call = (f"{name}({end_arg[0]}='{self._point(native.point)}', "
                    f"{end_arg[1]}='{self._point(native.end)}')")
        elif verb == "scroll":
            call = f"scroll({arg}='{self._point(native.point)}', direction='{native.direction}')"
        elif verb == "type":
            submit = "\n" if native.enter else ""
            call = f"type(content={quote((native.text or '') + submit)})"
        elif verb == "key":
            if native.key not in ("home", "back"):  # enter only comes as type(content='...\n')
                raise NativeActionError(f"UI-TARS has no {native.key} key")
            call = "press_home()" if native.key == "home" else "press_back()"
        elif verb == "open_app":
            call = f"open_app(app_name={quote(native.text or '')})"
        elif verb == "wait":
            call = "wait()"
        elif verb == "ask":  # the question is the thought
            return f"Thought: {native.text or thought}\nAction: call_user()"
        else:
            call = f"finished(content={quote(native.text or '')})"
        return f"Thought: {thought}\nAction: {call}"


# UI-TARS 1.0's mobile prompt, verbatim: bytedance/UI-TARS README_v1.md, "Prompt Templates", "Prompt
# template for mobile" (a raw string there: its "\\n" inside the code fence are two characters). The
# instruction follows it.
MOBILE_PROMPT_V1 = (
    'You are a GUI agent. You are given a task and your action history, with screenshots. You need to perform the next action to complete the task. \n'  # noqa: E501
    '\n'
    '## Output Format\n'
    '```\\nThought: ...\n'
    'Action: ...\\n```\n'
    '\n'
    '## Action Space\n'
    "click(start_box='<|box_start|>(x1,y1)<|box_end|>')\n"
    "long_press(start_box='<|box_start|>(x1,y1)<|box_end|>', time='')\n"
    "type(content='')\n"
    "scroll(start_box='<|box_start|>(x1,y1)<|box_end|>', end_box='<|box_start|>(x3,y3)<|box_end|>')\n"
    'press_home()\n'
    'press_back()\n'
    "finished(content='') # Submit the task regardless of whether it succeeds or fails.\n"
    '\n'
    '## Note\n'
    '- Use English in `Thought` part.\n'
    '\n'
    '- Write a small plan and finally summarize your next action (with its target element) in one sentence in `Thought` part.\n'  # noqa: E501
    '\n'
    '## User Instruction\n'
)


class UITarsV1Codec(UITarsCodec):
    """UI-TARS 1.0: box tokens, 0-1000, and its mobile action space (no scroll, open_app or submitting
    type: scroll(start_box, end_box) is the swipe)."""

    version = "1.0"
    verbs = frozenset({"tap", "long_press", "type", "swipe", "key", "wait", "ask", "finish"})
    type_submits = False


def mobile_prompt(version: str, language: str, instruction: str, ask_user: bool = False) -> str:
    """The authors' mobile prompt: MOBILE_USE_DOUBAO for 1.5; for 1.0 the README_v1 template, whose
    fixed "Use English" says Chinese for Chinese tasks (what 1.5's {language} does). `ask_user` adds
    their call_user line after the finished line, as in their computer prompt."""
    from ui_tars.prompt import MOBILE_USE_DOUBAO

    if version == "1.5":
        prompt = str(MOBILE_USE_DOUBAO).format(language=language, instruction=instruction)
    else:
        prompt = MOBILE_PROMPT_V1.replace("Use English in", f"Use {language} in") + instruction
    if not ask_user:
        return prompt
    head, finished, tail = prompt.partition("finished(content=")
    end = tail.index("\n") + 1
    return head + finished + tail[:end] + CALL_USER_LINE + tail[end:]


class UITarsAgent(NativeAgent):
    """UI-TARS (see the module docstring)."""

    info = AdapterInfo(
        family="UI-TARS-1.5 / 1.0",
        format_source="PyPI ui-tars: ui_tars/prompt.py MOBILE_USE_DOUBAO, ui_tars/action_parser.py",
        models=("ByteDance-Seed/UI-TARS-1.5-7B", "bytedance-research/UI-TARS-7B-SFT (version=1.0)"),
        asks="call_user() (the Thought is the question; the line is added to the prompt unless "
             "ask_user=false); the reply: a user message after that turn")
    default_history = 5
    default_max_tokens = 1024

    def __init__(self, version: str | float = "1.5", min_pixels: int = QWEN_MIN_PIXELS,
                 max_pixels: int = QWEN_MAX_PIXELS, ask_user: bool | str = True, **kwargs: Any) -> None:
        self.ask_user = _flag(ask_user, "ask_user")
        self.version = str(version)
        if self.version not in ("1.5", "1.0", "1"):
            raise ConfigError(f"version must be 1.5 or 1.0, not {version!r}")
        self.version = "1.0" if self.version == "1" else self.version
        self.codec = UITarsCodec() if self.version == "1.5" else UITarsV1Codec()
        self.frame_spec = (FrameSpec.absolute(SmartResize(min_pixels=int(min_pixels),
                                                          max_pixels=int(max_pixels)))
                           if self.version == "1.5" else FrameSpec.relative(1000))
        super().__init__(**kwargs)
        self.history_length = max(1, self.history_length)

    def messages(self, observation: Observation, screen: Screen) -> list[Message]:
        language = "Chinese" if self.language == "zh" else "English"
        prompt = mobile_prompt(self.version, language, self.context.instruction, self.ask_user)
        out: list[Message] = [system_message("You are a helpful assistant."),
                              {"role": "user", "content": [{"type": "text", "text": prompt}]}]
        with_image = len(self.turns) - (self.history_length - 1)  # earlier turns that keep their image
        for index, turn in enumerate(self.turns):
            if index >= with_image:
                out.append(_image_message(turn.screen.image_url))
            out.append({"role": "assistant", "content": turn.reply})
            if turn.user_reply is not None:  # the user's answer to call_user(), as a person's message
                out.append({"role": "user", "content": [{"type": "text", "text": turn.user_reply}]})
        out.append(_image_message(screen.image_url))
        return out

    def describe_arguments(self) -> dict[str, Any]:
        return super().describe_arguments() | {"version": self.version, "ask_user": self.ask_user}


def _image_message(url: str) -> Message:
    return {"role": "user", "content": [{"type": "image_url", "image_url": {"url": url}}]}
