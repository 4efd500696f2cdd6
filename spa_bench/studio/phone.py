"""The studio's side of the phone: the screen, its elements with proposed selectors, and actions.

Any ADB device works (the virtual phone, an emulator, a phone): everything goes through `Device`, the
harness's one seam to devices, so what the page shows is what an agent and the oracle see - the same
uiautomator dump, the same element numbering, the same selector resolution (`elements.find`). Calls are
serialised by a lock: a device answers one observation or gesture at a time.
"""

from __future__ import annotations

import hashlib
import threading
from collections.abc import Callable
from typing import Any

from spa_bench.actions import ACTION_ADAPTER, Action, AskUser, Finish
from spa_bench.device.device import Device
from spa_bench.device.elements import UIElement
from spa_bench.device.gesture import InvalidAction
from spa_bench.device.observation import Observation
from spa_bench.device.selectors import OtherLanguage, propose


def _flags(element: UIElement) -> list[str]:
    names = ("clickable", "long_clickable", "scrollable", "checkable", "checked", "focusable", "focused",
             "selected", "enabled", "password")
    flags = [name for name in names if getattr(element, name)]
    return flags + (["editable"] if element.editable else [])


def node_json(position: int, element: UIElement, elements: list[UIElement],
              translate: OtherLanguage | None) -> dict[str, Any]:
    """One node of the dump as the page shows it: what uiautomator says, and the selector for it."""
    proposal = propose(element, elements, translate)
    return {
        "node": position, "index": element.index, "depth": element.depth,
        "class": element.class_name, "package": element.package, "text": element.text,
        "content_desc": element.content_desc, "resource_id": element.resource_id,
        "bounds": list(element.bounds), "flags": _flags(element),
        "selector": proposal.as_yaml() if proposal else None,
        "selector_fields": proposal.selector.model_dump(exclude_defaults=True, exclude_none=True)
        if proposal else None,
        "unique": proposal.unique if proposal else False,
        "matches": proposal.matches if proposal else 0,
    }


class StudioPhone:
    """One device the studio shows. `translate_for(package)` gives the other-language lookup for labels
    (the virtual phone's string tables); None proposes labels in the screen's language only."""

    def __init__(self, device: Device,
                 translate_for: Callable[[str | None], OtherLanguage | None] | None = None) -> None:
        self.device = device
        self._translate_for = translate_for
        self._lock = threading.Lock()

    def screen(self) -> bytes:
        """The screenshot (PNG); the server makes its ETag."""
        with self._lock:
            return self.device.screenshot_png()

    def inspect(self) -> dict[str, Any]:
        """The current screen's nodes (document order, with depth: the tree) and what is in front."""
        with self._lock:
            obs = self.device.observe()
        return self.describe(obs)

    def describe(self, obs: Observation) -> dict[str, Any]:
        """An observation as the page shows it: the screen's size and etag, its nodes with selectors."""
        translate = self._translate_for(obs.package) if self._translate_for else None
        elements = obs.all_elements
        return {
            "serial": self.device.serial, "package": obs.package, "activity": obs.activity,
            "keyboard": obs.keyboard_shown, "width": obs.width, "height": obs.height,
            "screen_etag": hashlib.sha1(obs.screenshot_png, usedforsecurity=False).hexdigest(),
            "nodes": [node_json(i, e, elements, translate) for i, e in enumerate(elements)],
        }

    def act(self, payload: object) -> tuple[Action, Observation]:
        """Carry out one action of the agents' action space (tap, long_press, swipe, scroll, type, key,
        open_app, wait) on the current screen; the action and the screen it was taken on.
        ValueError/InvalidAction for one that does not apply."""
        action = ACTION_ADAPTER.validate_python(payload)
        if isinstance(action, Finish | AskUser):
            raise InvalidAction(f"{action.type} ends or pauses an episode: the studio's phone has none")
        with self._lock:
            obs = self.device.observe()
            self.device.execute(action, obs, resolve_app=lambda app: app)
        return action, obs
