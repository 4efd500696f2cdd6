"""What uiautomator2's server reports from its accessibility listener: the last traversed text
(QueryController) and the last toast (AccessibilityEventListener), both kept until cleared."""

from __future__ import annotations

from pathlib import Path

import pytest

from spa_bench.phone.api import PhoneConfig
from spa_bench.phone.system import PhoneOS
from spa_bench.phone.u2rpc.methods import U2Methods
from spa_bench.phone.vfs import VirtualFS


@pytest.fixture
def phone(tmp_path: Path) -> PhoneOS:
    return PhoneOS(PhoneConfig(), VirtualFS(tmp_path / "fs"))


def test_last_traversed_text_is_none_until_text_is_traversed(phone: PhoneOS) -> None:
    """QueryController.getLastTraversedText answers null while no traversal event came (TalkBack-style
    movement by granularity, which nothing on this phone does); clear answers nothing."""
    u2 = U2Methods(phone)
    assert u2.call("getLastTraversedText", []) is None
    assert u2.call("clearLastTraversedText", []) is None
    assert u2.call("getLastTraversedText", None) is None


def test_toasts_reach_the_servers_listener(phone: PhoneOS) -> None:
    """makeToast shows a toast; getLastToast answers the last one seen (after it fades too) until
    clearLastToast, then None until the next - as the server's AccessibilityEventListener keeps it."""
    u2 = U2Methods(phone)
    assert u2.call("getLastToast", []) is None
    assert u2.call("makeToast", ["Saved", 1000.0]) is True
    assert "Saved" in phone.dump_hierarchy(mode="u2")  # on screen while it lasts
    assert u2.call("getLastToast", []) == "Saved"
    assert u2.call("clearLastToast", []) is True and u2.call("getLastToast", []) is None
    phone.show_toast("Note deleted")  # an app's own toast
    assert u2.call("getLastToast", []) == "Note deleted"
