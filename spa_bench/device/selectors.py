"""Propose the selector a golden script should use for an element on the current screen.

Task authors name elements by `Selector` (spa_bench/actions.py), which the oracle resolves with
`elements.find`. The proposal follows the task format's advice: a resource id first (the same in both
languages), then the text or content description, then the class; the first field set that matches this
element alone is returned. When none is unique, the best one gets the `nth` that picks this element, and
the proposal says so, because `nth` breaks when the list above it changes. A label the UI shows in the
other language too (an `other_language` lookup: the virtual phone's string tables) becomes
`any_of: [{text: OK}, {text: 确定}]`, so the step runs under `--vary locale`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from spa_bench.actions import Selector
from spa_bench.device.elements import UIElement, matching

# (field, value) -> the same label in the UI's other language, or None
OtherLanguage = Callable[[str, str], str | None]


@dataclass(frozen=True)
class SelectorProposal:
    selector: Selector
    unique: bool  # the selector without `nth` matches this element only
    matches: int  # how many visible elements the selector without `nth` matches

    def as_yaml(self) -> str:
        """The selector as a golden script writes it: `{resource_id: send}`."""
        return _flow(self.selector.model_dump(exclude_defaults=True, exclude_none=True))


def _flow(value: object) -> str:
    if isinstance(value, dict):
        return "{" + ", ".join(f"{key}: {_flow(item)}" for key, item in value.items()) + "}"
    if isinstance(value, list):
        return "[" + ", ".join(_flow(item) for item in value) + "]"
    if isinstance(value, int):
        return str(value)
    text = str(value)
    plain = text and text.strip() == text and not any(c in text for c in ":{}[],#&*!|>'\"%@`") \
        and not text[0].isdigit() and text.lower() not in {"yes", "no", "true", "false", "null", "on", "off"}
    return text if plain else "'" + text.replace("'", "''") + "'"


def _label_field(element: UIElement, field: str, other_language: OtherLanguage | None) -> Selector:
    value = element.text if field == "text" else element.content_desc
    other = other_language(field, value) if other_language else None
    if other and other != value:
        return Selector(any_of=[Selector(**{field: value}), Selector(**{field: other})])
    return Selector(**{field: value})


def _candidates(element: UIElement, elements: list[UIElement],
                other_language: OtherLanguage | None) -> list[Selector]:
    out: list[Selector] = []
    if element.resource_id:
        short = element.resource_id.rpartition("/")[2]
        # the short id matches any package's view of that name: the full one only when it must
        out.append(Selector(resource_id=short))
        out.append(Selector(resource_id=element.resource_id))
    labels = [field for field, value in (("text", element.text), ("content_desc", element.content_desc))
              if value.strip()]
    for field in labels:
        out.append(_label_field(element, field, other_language))
    if element.resource_id:
        for field in labels:
            label = _label_field(element, field, other_language)
            out.append(label.model_copy(update={"resource_id": element.resource_id.rpartition("/")[2]}))
    for field in labels:
        label = _label_field(element, field, other_language)
        out.append(label.model_copy(update={"class_name": element.class_name.rpartition(".")[2]}))
    if element.class_name:
        out.append(Selector(class_name=element.class_name.rpartition(".")[2]))
    return out


def propose(element: UIElement, elements: list[UIElement],
            other_language: OtherLanguage | None = None) -> SelectorProposal | None:
    """The selector that finds `element` among `elements` (one screen's dump), or None for an element with
    nothing to name it by (no id, label or class) or no area (the oracle never picks those)."""
    if element.area == 0:
        return None
    candidates = _candidates(element, elements, other_language)
    for selector in candidates:
        found = matching(elements, selector)
        if found == [element]:
            return SelectorProposal(selector, unique=True, matches=1)
    for selector in candidates:
        found = matching(elements, selector)
        if element in found:
            return SelectorProposal(selector.model_copy(update={"nth": found.index(element)}),
                                    unique=False, matches=len(found))
    return None
