"""The action space agents act in: a pydantic discriminated union on `type`.

Targets are coordinates (`x`, `y` in screen pixels), an element index into the observation's element
list (`element`), or - in golden scripts written by task authors - a `selector` that the oracle resolves
against the current screen by text / resource-id / content-desc, so that one script works in both
languages and at any screen size.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, model_validator

KeyName = Literal["back", "home", "enter", "delete", "app_switch"]
Direction = Literal["up", "down", "left", "right"]


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Selector(_Model):
    """Finds one element on the current screen; all given fields must match. `nth` picks among matches."""

    text: str | None = None
    text_contains: str | None = None
    resource_id: str | None = None
    content_desc: str | None = None
    class_name: str | None = None
    any_of: list[Selector] | None = Field(
        None, min_length=1, description="the element also matches one of these (their `nth` is ignored): a "
                                        "label as each UI language shows it, for golden scripts run under "
                                        "`--vary locale`")
    nth: int = Field(0, ge=0)

    @model_validator(mode="after")
    def _not_empty(self) -> Selector:
        if not any((self.text, self.text_contains, self.resource_id, self.content_desc, self.class_name,
                    self.any_of)):
            raise ValueError("a selector needs at least one of text, text_contains, resource_id, "
                             "content_desc, class_name, any_of")
        return self


class _Targeted(_Model):
    x: int | None = Field(None, ge=0)
    y: int | None = Field(None, ge=0)
    element: int | None = Field(None, ge=0, description="index into the observation's element list")
    selector: Selector | None = None

    def _count_targets(self) -> int:
        return sum((self.x is not None and self.y is not None, self.element is not None,
                    self.selector is not None))

    @model_validator(mode="after")
    def _one_target(self) -> _Targeted:
        if (self.x is None) != (self.y is None):
            raise ValueError("give both x and y, or neither")
        if self._count_targets() != 1:
            raise ValueError("give exactly one target: x and y, element, or selector")
        return self


class Tap(_Targeted):
    type: Literal["tap"] = "tap"


class LongPress(_Targeted):
    type: Literal["long_press"] = "long_press"
    duration_ms: int = Field(1000, ge=500, le=10_000)


class Swipe(_Model):
    type: Literal["swipe"] = "swipe"
    x1: int = Field(ge=0)
    y1: int = Field(ge=0)
    x2: int = Field(ge=0)
    y2: int = Field(ge=0)
    duration_ms: int = Field(300, ge=10, le=10_000)


class Scroll(_Model):
    """Scroll the content in `direction` (content moves so that what is further `direction` appears)."""

    type: Literal["scroll"] = "scroll"
    direction: Direction
    element: int | None = Field(None, ge=0)
    selector: Selector | None = None


class TypeText(_Model):
    """Type text, into the focused field or first tapping the given element."""

    type: Literal["type"] = "type"
    text: str
    element: int | None = Field(None, ge=0)
    selector: Selector | None = None
    clear: bool = False
    enter: bool = False


class Key(_Model):
    type: Literal["key"] = "key"
    key: KeyName


class OpenApp(_Model):
    """Open an app by package name or by its display name in either language."""

    type: Literal["open_app"] = "open_app"
    app: str = Field(min_length=1)


class Wait(_Model):
    type: Literal["wait"] = "wait"
    seconds: float = Field(1.0, gt=0, le=60)


class AskUser(_Model):
    """Ask the user a question and wait for the reply, which the next observation carries
    (`Observation.user_reply`). Benchmarks answer with the task's simulated user (Task.user)."""

    type: Literal["ask_user"] = "ask_user"
    question: str = Field(min_length=1)


class Finish(_Model):
    type: Literal["finish"] = "finish"
    status: Literal["done", "infeasible"] = "done"
    answer: str | None = None


Action = Annotated[Tap | LongPress | Swipe | Scroll | TypeText | Key | OpenApp | Wait | AskUser | Finish,
                   Field(discriminator="type")]
ACTION_ADAPTER: TypeAdapter[Action] = TypeAdapter(Action)


def parse_action(data: object) -> Action:
    """Validate a dict (e.g. from an agent's JSON) into an Action; raises pydantic.ValidationError."""
    return ACTION_ADAPTER.validate_python(data)
