"""Reading an action out of a model's free-form answer.

Models rarely answer with exactly one clean JSON object: they wrap it in prose ("Reason: ... Action:
{...}"), in ```json fences, add trailing commas, use single quotes or Python literals (True/None), or
speak another agent's dialect (AndroidWorld's `{"action_type": "click", "index": 3}`). `parse_answer`
accepts all of these and returns the thought and one action dict in our format (spa_bench.actions);
it raises AnswerParseError with a short reason otherwise, so that the agent can tell the model what was
wrong on the next step. Validation against the Action union is left to `parse_action`.
"""

from __future__ import annotations

import ast
import json
import re
from dataclasses import dataclass
from typing import Any

_FENCE = re.compile(r"```(?:json|JSON|python)?\s*(.*?)```", re.S)
_TRAILING_COMMA = re.compile(r",\s*([}\]])")
_ACTION_LABEL = re.compile(r"(?:^|\n)\s*\**\s*(?:action|动作|操作)\s*\**\s*[:：]", re.I)
_THOUGHT_LABEL = re.compile(
    r"^\s*\**\s*(?:reason(?:ing)?|thought|think|思考|理由|原因)\s*\**\s*[:：]\s*", re.I)
_THOUGHT_KEYS = ("thought", "reason", "reasoning", "thinking", "explanation")

# Action names of other dialects -> ours. Keys are compared case-insensitively without _ - or spaces.
_TYPE_ALIASES = {
    "tap": "tap", "click": "tap", "press": "tap", "touch": "tap",
    "longpress": "long_press", "longclick": "long_press", "longtap": "long_press",
    "swipe": "swipe", "drag": "swipe",
    "scroll": "scroll",
    "type": "type", "text": "type", "input": "type", "inputtext": "type", "typetext": "type",
    "key": "key", "presskey": "key",
    "back": "back", "navigateback": "back", "pressback": "back",
    "home": "home", "navigatehome": "home", "presshome": "home",
    "enter": "enter", "keyboardenter": "enter", "pressenter": "enter",
    "openapp": "open_app", "launch": "open_app", "launchapp": "open_app", "open": "open_app",
    "wait": "wait",
    "finish": "finish", "done": "finish", "stop": "finish", "complete": "finish", "status": "finish",
    "answer": "finish", "infeasible": "finish",
    "askuser": "ask_user", "ask": "ask_user", "calluser": "ask_user", "askquestion": "ask_user",
}
_KEY_TYPES = {"back", "home", "enter"}
_ELEMENT_KEYS = ("element", "index", "element_id", "mark", "id", "som", "number")


class AnswerParseError(ValueError):
    """The answer holds no usable action; the message says why, briefly."""


@dataclass(frozen=True)
class ParsedAnswer:
    thought: str | None
    action: dict[str, Any]


def parse_answer(text: str) -> ParsedAnswer:
    """The thought and the action dict of a model answer. Raises AnswerParseError."""
    if not text or not text.strip():
        raise AnswerParseError("the answer is empty")
    label = _ACTION_LABEL.search(text)
    thought_text = text[:label.start()] if label else None
    # Prefer the object after "Action:", then fenced blocks, then any object in the text.
    regions = ([text[label.end():]] if label else []) + _FENCE.findall(text) + [text]
    last_error = "no JSON object in the answer"
    for region in regions:
        for candidate in _objects(region):
            try:
                data = _loads(candidate)
            except ValueError as exc:
                last_error = f"unreadable JSON ({exc})"
                continue
            if not isinstance(data, dict):
                continue
            thought, action = _split(data)
            if action is None:
                last_error = "the JSON object has no action type"
                continue
            if thought is None:
                before = thought_text if thought_text is not None else text[:max(0, text.find(candidate))]
                thought = _clean_thought(before)
            return ParsedAnswer(thought, normalize_action(action))
    raise AnswerParseError(last_error)


def _clean_thought(text: str) -> str | None:
    """Prose before the action, without its label and any opening code fence."""
    text = re.sub(r"```\w*", "", text)
    return _THOUGHT_LABEL.sub("", text).strip() or None


def _objects(text: str) -> list[str]:
    """Balanced {...} substrings in order of appearance (outermost only), quotes respected."""
    out: list[str] = []
    depth, start, quote, escaped = 0, -1, "", False
    for i, ch in enumerate(text):
        if quote:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == quote:
                quote = ""
            continue
        if ch in "\"'" and depth > 0:
            quote = ch
        elif ch == "{":
            if depth == 0:
                start = i
            depth += 1
        elif ch == "}" and depth > 0:
            depth -= 1
            if depth == 0:
                out.append(text[start:i + 1])
    return out


def _loads(candidate: str) -> Any:
    """JSON, then JSON without trailing commas, then a Python literal (single quotes, True/None)."""
    try:
        return json.loads(candidate)
    except ValueError:
        pass
    cleaned = _TRAILING_COMMA.sub(r"\1", candidate)
    try:
        return json.loads(cleaned)
    except ValueError as exc:
        error = exc
    pythonic = re.sub(r"\bnull\b", "None", cleaned)
    pythonic = re.sub(r"\btrue\b", "True", re.sub(r"\bfalse\b", "False", pythonic))
    try:
        return ast.literal_eval(pythonic)
    except (ValueError, SyntaxError, MemoryError, RecursionError):
        raise ValueError(str(error)) from None


def _split(data: dict[str, Any]) -> tuple[str | None, dict[str, Any] | None]:
    """(thought, action) from {"thought": ..., "action": {...}} or from a bare action object."""
    thought = next((str(data[k]) for k in _THOUGHT_KEYS if isinstance(data.get(k), str)), None)
    nested = data.get("action")
    if isinstance(nested, dict):
        return thought, nested
    if isinstance(nested, str) and "type" not in data and "action_type" not in data:
        rest = {k: v for k, v in data.items() if k != "action" and k not in _THOUGHT_KEYS}
        return thought, {"type": nested, **rest}
    if "type" in data or "action_type" in data:
        return thought, {k: v for k, v in data.items() if k not in _THOUGHT_KEYS}
    return thought, None


def _canon(name: str) -> str:
    return re.sub(r"[\s_-]+", "", name).casefold()


def normalize_action(raw: dict[str, Any]) -> dict[str, Any]:
    """Map other dialects' names and fields onto spa_bench.actions (unknown fields are kept, so that
    validation reports them)."""
    action = dict(raw)
    kind = action.pop("type", None)
    if kind is None:
        kind = action.pop("action_type", None)
    else:
        action.pop("action_type", None)
    if not isinstance(kind, str):
        return {"type": kind, **action}
    mapped = _TYPE_ALIASES.get(_canon(kind), kind)
    for key in _ELEMENT_KEYS[1:]:  # index / element_id / ... -> element
        if key in action and "element" not in action and mapped not in ("key", "open_app"):
            action["element"] = action.pop(key)
    if isinstance(action.get("element"), str) and action["element"].strip().lstrip("[").rstrip("]").isdigit():
        action["element"] = int(action["element"].strip().strip("[]"))
    for key in ("x", "y", "x1", "y1", "x2", "y2"):
        if isinstance(action.get(key), float):
            action[key] = round(action[key])
    if mapped in _KEY_TYPES:
        return {"type": "key", "key": mapped}
    if mapped == "key" and isinstance(action.get("key"), str):
        action["key"] = _canon(action["key"]).removeprefix("keycode")
        action["key"] = {"appswitch": "app_switch", "del": "delete", "recent": "app_switch"}.get(
            action["key"], action["key"])
    if mapped == "type" and "text" not in action:
        for key in ("content", "value", "input", "string"):
            if key in action:
                action["text"] = action.pop(key)
                break
    if mapped == "open_app" and "app" not in action:
        for key in ("app_name", "name", "package"):
            if key in action:
                action["app"] = action.pop(key)
                break
    if mapped == "ask_user" and "question" not in action:  # MobileWorld's {"action_type": "ask_user", "text"}
        for key in ("text", "message", "content", "query"):
            if key in action:
                action["question"] = action.pop(key)
                break
    if mapped == "scroll" and "direction" in action and isinstance(action["direction"], str):
        action["direction"] = action["direction"].strip().lower()
    if mapped == "finish":
        return _finish(kind, action)
    return {"type": mapped, **action}


def _finish(kind: str, action: dict[str, Any]) -> dict[str, Any]:
    status = action.pop("status", None) or action.pop("goal_status", None)
    answer = action.pop("answer", None)
    if answer is None and _canon(kind) == "answer":
        answer = action.pop("text", None)
    if _canon(kind) == "infeasible" or (isinstance(status, str) and "infeasible" in status.lower()):
        status = "infeasible"
    else:
        status = "done"
    out: dict[str, Any] = {"type": "finish", "status": status, **action}
    if answer is not None:
        out["answer"] = str(answer)
    return out
