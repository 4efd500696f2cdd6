"""VIEW intents for http(s) URIs: with the Browser installed `am start` answers as a real device does when
an activity starts (the one `Starting: Intent { ... }` line of the captures, `dat=` as Uri.toSafeString
shows a web URI) and the page opens in a new tab; without it the intent is refused in the words of the
Pixel 2 capture, as before the Browser existed."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from conftest import Sh

from spa_bench.phone.api import PhoneConfig
from spa_bench.phone.shell import Shell
from spa_bench.phone.shell.commands.intents import resolve_implicit
from spa_bench.phone.system import PhoneOS
from spa_bench.phone.vfs import VirtualFS

BROWSER = "com.android.browser"
STARTING = re.compile(r"^Starting: Intent \{ (.*) \}$", re.M)
REFUSED = re.compile(r"^Error: Activity not started, unable to resolve Intent \{ (.*) \}$", re.M)


def capture(captures: Path, name: str) -> str:
    return (captures / "shell" / "am_start" / name).read_text(encoding="utf-8")


@pytest.mark.conformance("ime / am / monkey captures")
def test_view_https_opens_the_page_in_a_new_tab(captures: Path, phone: PhoneOS, sh: Sh) -> None:
    started = capture(captures, "stackoverflow27436050_via_dotnet_android10774_am_start_-n.txt")
    real_lines = [ln for ln in started.splitlines() if ln.startswith(("Starting:", "Error", "Warning"))]
    assert len(real_lines) == 1 and STARTING.match(real_lines[0])  # a started activity: one line, no error
    store = phone.apps[BROWSER].store  # type: ignore[attr-defined]
    tabs_before = len(store.tabs())
    out = sh("am start -a android.intent.action.VIEW -d https://openpedia.org/wiki/Mount_Everest")
    assert out == "Starting: Intent { act=android.intent.action.VIEW dat=https://openpedia.org/... }\n"
    assert STARTING.match(out.splitlines()[0]) and not REFUSED.search(out)
    assert phone.current_focus() == (BROWSER, "com.android.browser.BrowserActivity")
    phone.frame()  # the screen is built: the intent's page is loaded in a new, active tab
    tabs = store.tabs()
    assert len(tabs) == tabs_before + 1
    assert (tabs[-1].url, tabs[-1].active) == ("https://openpedia.org/wiki/Mount_Everest", True)
    assert store.history()[0].url == "https://openpedia.org/wiki/Mount_Everest"
    heading = phone.frame().find(rid="com.android.browser:id/page_heading")
    assert heading is not None and heading.text == "Mount Everest"
    sh("am start -a android.intent.action.VIEW -d http://no-such-host.example/")
    phone.frame()
    title = phone.frame().find(rid="com.android.browser:id/error_title")
    assert title is not None and title.text == "This site can't be reached"


@pytest.mark.conformance("ime / am / monkey captures")
def test_view_https_without_the_browser_is_refused(captures: Path, tmp_path: Path) -> None:
    real = capture(captures, "fenix_issue7925_pixel2_2020_am_start_pkg_unresolved.txt")
    assert REFUSED.search(real)
    view = "android.intent.action.VIEW"
    assert resolve_implicit(view, "https://example.com", None, {"com.android.settings"}) is None
    assert resolve_implicit(view, "https://example.com", None, {BROWSER}) is not None
    phone = PhoneOS(PhoneConfig(), VirtualFS(tmp_path / "fs"))
    try:
        del phone.apps[BROWSER]  # a phone image without a browser
        out = Shell(phone).run("am start -a android.intent.action.VIEW -d https://example.com/a?b=c")
        text = out.output.decode()
        assert text == (
            "Starting: Intent { act=android.intent.action.VIEW dat=https://example.com/... }\n"
            "Error: Activity not started, unable to resolve Intent { act=android.intent.action.VIEW "
            "dat=https://example.com/... flg=0x10000000 }\n"
        )
        ours, theirs = REFUSED.search(text), REFUSED.search(real)
        assert ours and theirs
        # the flag Android adds when it refuses (FLAG_ACTIVITY_NEW_TASK), after the action, as in the capture
        assert "flg=0x10000000" in ours.group(1).split() and "flg=0x10000000" in theirs.group(1).split()
        assert ours.group(1).split()[0].startswith("act=") and theirs.group(1).split()[0].startswith("act=")
    finally:
        phone.close()
