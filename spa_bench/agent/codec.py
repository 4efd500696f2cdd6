"""The codec of a native adapter: its reply syntax, both ways.

A codec reads a model's reply into a NativeAction (`decode`) and writes one in the model's syntax
(`encode`); frames and the mapping onto our actions are the shared layer's (spa_bench.agent.native).
`parse(text, frame)` is what an adapter does with a reply: our Action, or ReplyError with a short
reason, which the adapter records as an invalid step. `render(action, frame, observation)` is the
reverse, what the scripted native model of the tests answers: an action in screen pixels written as
the model would write it, lowered to the verbs the syntax has (a scroll becomes a swipe where there is
no scroll verb).
"""

from __future__ import annotations

import ast
import re
from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import Any, ClassVar

from spa_bench.actions import Action, Scroll
from spa_bench.agent.frames import Frame
from spa_bench.agent.native import (
    NativeAction,
    NativeActionError,
    Verb,
    from_action,
    scroll_as_swipe,
    to_action,
)
from spa_bench.device.observation import Observation


class ReplyError(ValueError):
    """A reply the adapter cannot use; the message is the reason recorded with the invalid step."""


@dataclass(frozen=True)
class DecodedReply:
    """What a codec read out of one reply."""

    action: NativeAction
    thought: str | None = None
    summary: str | None = None  # a one-line description of the action, when the format has one


@dataclass(frozen=True)
class ParsedReply:
    action: Action
    native: NativeAction
    thought: str | None = None
    summary: str | None = None


class NativeCodec(ABC):
    """One model family's reply syntax. `verbs` are the NativeAction verbs it can write."""

    name: str
    verbs: frozenset[Verb]
    # whether `type` can submit (UI-TARS: a trailing "\n"); else the scripted model sends enter separately
    type_submits: ClassVar[bool] = False
    # whether `type` replaces the field's text (AutoGLM's handler clears it first)
    type_clears: ClassVar[bool] = False

    @abstractmethod
    def decode(self, text: str) -> DecodedReply:
        """The action of a reply. ReplyError (with a short reason) when there is none."""

    @abstractmethod
    def encode(self, native: NativeAction, thought: str) -> str:
        """A reply in this syntax doing `native` (whose verb is in `verbs`)."""

    def expand(self, action: Action) -> list[Action | NativeAction]:
        """The replies the model needs for one of our actions, for the scripted model: usually the action
        itself; a NativeAction is written as it is (CogAgent quotes its answer before END())."""
        return [action]

    # -- shared ---------------------------------------------------------------------------------------
    def parse(self, text: str, frame: Frame) -> ParsedReply:
        """Our Action for a reply, or ReplyError. Never raises anything else for any text."""
        if not text or not text.strip():
            raise ReplyError("the reply is empty")
        try:
            decoded = self.decode(text)
            action = to_action(decoded.action, frame)
        except ReplyError:
            raise
        except NativeActionError as exc:
            raise ReplyError(str(exc)) from None
        except Exception as exc:  # a syntax this codec's reader chokes on: still just an invalid reply
            raise ReplyError(f"unreadable {self.name} action ({type(exc).__name__}: {exc})") from None
        return ParsedReply(action, decoded.action, decoded.thought, decoded.summary)

    def render(self, action: Action, frame: Frame, observation: Observation | None = None,
               thought: str = "") -> str:
        """`action` (screen pixels or element indexes) as this model would reply it."""
        if isinstance(action, Scroll) and "scroll" not in self.verbs:
            box = None
            if action.element is not None and observation is not None:
                element = observation.element(action.element)
                box = element.bounds if element is not None else None
            native = scroll_as_swipe(action.direction, frame, box)
        else:
            native = from_action(action, frame, observation)
        if native.verb not in self.verbs:
            raise NativeActionError(f"{self.name} has no {native.verb} action")
        return self.encode(native, thought)


# -- small readers several codecs share ------------------------------------------------------------------
_NUMBER = r"-?\d+(?:\.\d+)?"
NUMBERS = re.compile(_NUMBER)


def numbers(text: str) -> list[float]:
    return [float(n) for n in NUMBERS.findall(text)]


def point_of(value: Any, what: str = "point") -> tuple[float, float]:
    """(x, y) from [x, y], (x, y), "x y", "x,y" or a box [x1, y1, x2, y2] (its centre)."""
    if isinstance(value, list | tuple) and len(value) == 1 and isinstance(value[0], list | tuple):
        value = value[0]  # [[x1, y1, x2, y2]]
    if isinstance(value, str):
        found = numbers(value)
    elif isinstance(value, list | tuple) and all(isinstance(v, int | float) and not isinstance(v, bool)
                                                 for v in value):
        found = [float(v) for v in value]
    else:
        raise ReplyError(f"{what} is not a list of numbers: {value!r}")
    if len(found) == 2:
        return found[0], found[1]
    if len(found) == 4:
        return (found[0] + found[2]) / 2, (found[1] + found[3]) / 2
    raise ReplyError(f"{what} needs 2 numbers (or a box of 4), got {len(found)}: {value!r}")


def call_of(source: str) -> tuple[str, list[Any], dict[str, Any]]:
    """Name, positional and keyword literal arguments of one Python-style call `name(a, k=v)`."""
    try:
        node = ast.parse(source.strip(), mode="eval").body
    except SyntaxError as exc:
        raise ReplyError(f"unreadable action call {source.strip()[:80]!r} ({exc.msg})") from None
    if not isinstance(node, ast.Call):
        raise ReplyError(f"the action is not a call: {source.strip()[:80]!r}")
    func = node.func
    name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""
    try:
        args = [ast.literal_eval(a) for a in node.args]
        kwargs = {k.arg: ast.literal_eval(k.value) for k in node.keywords if k.arg}
    except ValueError:
        raise ReplyError(f"the arguments of {name or 'the action'} are not literals") from None
    return name, args, kwargs


def quote(text: str) -> str:
    """A Python single-quoted literal (what the models write), escapes as repr makes them."""
    body = repr(text)
    if body.startswith('"'):  # repr chose double quotes because of a ' inside: write it escaped
        body = "'" + body[1:-1].replace("\\\"", "\"").replace("'", "\\'") + "'"
    return body
