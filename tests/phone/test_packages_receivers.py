"""Clipper's receiver (AndroidWorld's clipboard path), from its source: clipper.set answers RESULT_OK with
"Text is copied into clipboard.", clipper.get the clipboard's text while Clipper is in front, and
RESULT_CANCELED with "" when it cannot read it; nothing answers while Clipper is not installed."""

from __future__ import annotations

import threading
from dataclasses import dataclass, field

from spa_bench.phone.api import PackageInfo
from spa_bench.phone.system.app_receivers import CLIPPER_PACKAGE, BroadcastResult, ReceiverHost, deliver

CLIPPER = PackageInfo(CLIPPER_PACKAGE, "Clipper", "Clipper", "ca.zgrs.clipper.Main",
                      "/data/app/ca.zgrs.clipper-1/base.apk", system=False)


@dataclass
class Host:
    installed: list[PackageInfo] = field(default_factory=lambda: [CLIPPER])
    front: str = CLIPPER_PACKAGE
    clipboard: str = ""
    lock: threading.RLock = field(default_factory=threading.RLock)

    def packages(self) -> list[PackageInfo]:
        return self.installed

    def settings_get(self, namespace: str, key: str) -> str | None:
        return None

    def current_focus(self) -> tuple[str, str]:
        return self.front, "ca.zgrs.clipper.Main"

    def get_clipboard(self) -> str:
        return self.clipboard

    def set_clipboard(self, text: str) -> None:
        self.clipboard = text

    def input_text(self, text: str) -> None:
        raise AssertionError("Clipper types nothing")

    def press_key(self, keycode: int) -> None:
        raise AssertionError("Clipper presses nothing")

    def perform_editor_action(self, code: int) -> None:
        raise AssertionError("Clipper has no editor")


def test_clipper_sets_and_gets_the_clipboard_in_front() -> None:
    host = Host()
    assert isinstance(host, ReceiverHost)
    assert deliver(host, "clipper.set", {"text": "héllo 你好"}) == \
        BroadcastResult(-1, "Text is copied into clipboard.")
    assert host.clipboard == "héllo 你好"
    assert deliver(host, "clipper.get", {}) == BroadcastResult(-1, "héllo 你好")
    assert deliver(host, "clipper.set", {}) == \
        BroadcastResult(0, 'No text is provided. Use -e text "text to be pasted"')


def test_clipper_reads_nothing_from_the_background_or_when_absent() -> None:
    host = Host(front="com.android.settings", clipboard="secret")
    assert deliver(host, "clipper.get", {}) == BroadcastResult(0, "")
    assert deliver(Host(installed=[], clipboard="x"), "clipper.get", {}) is None
