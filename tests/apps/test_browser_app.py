"""The Browser on a PhoneOS and its pieces: the offline web (URL rules, search), the store (tabs,
bookmarks, history, form submissions) and the screens (address bar, back within a tab, forms, sharing)."""

from __future__ import annotations

from pathlib import Path

import pytest

from spa_bench.phone.api import PhoneConfig
from spa_bench.phone.apps.browser.store import BrowserStore
from spa_bench.phone.apps.browser.web import looks_like_url, normalise, resolve, search, search_url
from spa_bench.phone.system import PhoneOS
from spa_bench.phone.vfs import VirtualFS

PKG = "com.android.browser"
ID = f"{PKG}:id/"


def test_urls_and_search() -> None:
    assert normalise("Openpedia.org/wiki/Mount_Everest") == "https://openpedia.org/wiki/Mount_Everest"
    assert normalise("lotusgarden.com") == "https://lotusgarden.com/"
    assert (
        looks_like_url("baydaily.com") and looks_like_url("http://x.y") and not looks_like_url("night market")
    )
    assert not looks_like_url("end.")
    assert resolve("https://openpedia.org/wiki/Eiffel_Tower").page is not None
    assert resolve("https://no-such-host.example/").error == "unresolved"
    assert resolve("https://openpedia.org/wiki/Nothing").error == "not_found"
    assert resolve(search_url("a b")).page is None and resolve(search_url("a b")).error == ""
    titles = [hit.page.title for hit in search("golden gate")]
    assert titles[0] == "Golden Gate Bridge - Openpedia"  # a title hit ranks first
    assert next(h.page.title for h in search("西湖")) == "西湖 - 开放百科"
    assert search("zzzz nothing") == [] and search("  ") == []


@pytest.fixture
def store(tmp_path: Path) -> BrowserStore:
    s = BrowserStore(lambda: tmp_path / "browser.db")
    s.ensure()
    return s


def test_tabs(store: BrowserStore) -> None:
    assert [t.id for t in store.tabs()] == [1, 2, 3] and store.active_tab().id == 3
    tab = store.new_tab("https://a.example/", "A", 5)
    assert tab.id == 101 and store.active_tab().id == 101
    store.navigate(tab.id, "https://b.example/", "B", 6)
    assert store.go_back(tab.id) == "https://a.example/"
    assert store.go_back(tab.id) is None  # the first page of the tab
    store.close_tab(101)  # the active tab closes: the one before it becomes active
    assert store.active_tab().id == 3
    store.close_tab(1)  # an inactive one: the active tab stays
    assert [t.id for t in store.tabs()] == [2, 3] and store.active_tab().id == 3
    store.close_all_tabs()
    assert store.active_tab().url == "https://searchly.com/"  # nothing left: a new-tab page opens


def test_bookmarks_history_forms(store: BrowserStore) -> None:
    assert len(store.bookmarks()) == 4 and len(store.history()) == 7
    now = 1_800_000_000_000
    store.add_bookmark("https://x.example/", "X", now)
    store.add_bookmark("https://x.example/", "X", now + 1)  # no duplicate
    assert store.is_bookmarked("https://x.example/") and len(store.bookmarks()) == 5
    assert store.bookmarks()[0].id == 1001
    store.remove_bookmark("https://x.example/")
    assert not store.is_bookmarked("https://x.example/")
    store.navigate(3, "https://y.example/", "Y", now + 2)
    assert store.history()[0].id == 1001
    store.delete_history(1001)
    assert len(store.history()) == 7
    store.clear_history()
    assert store.history() == []
    ref = store.submit_form(
        "lotus_reservation", "https://lotusgarden.com/reserve", {"name": "Al", "party": "2"}, 13, "LR"
    )
    assert ref == "LR-1001" and store.submission(ref) == {"name": "Al", "party": "2"}


def _tap(phone: PhoneOS, rid: str = "", text: str = "", desc: str = "") -> None:
    view = phone.frame().find(rid=rid, text=text, desc=desc)
    assert view is not None, (rid, text, desc)
    phone.tap(*view.bounds.center)


def _visible(phone: PhoneOS, rid: str) -> list[str]:
    return [v.text for v in phone.frame().views() if v.rid == rid]


def test_address_bar_back_and_forms(tmp_path: Path) -> None:
    phone = PhoneOS(PhoneConfig(locale="en"), VirtualFS(tmp_path / "fs"))
    store = phone.apps[PKG].store  # type: ignore[attr-defined]
    phone.start_activity(PKG)
    _tap(phone, ID + "url_bar")
    assert phone.frame().find(rid=ID + "url_bar").value == ""  # type: ignore[union-attr]  # a fresh entry
    phone.input_text("eiffel tower")
    phone.press_key(66)
    assert store.active_tab().url == search_url("eiffel tower")
    assert _visible(phone, ID + "result_title")[0] == "Eiffel Tower - Openpedia"
    _tap(phone, ID + "result_title", text="Eiffel Tower - Openpedia")
    assert "330 m" in _visible(phone, ID + "fact_value")
    phone.press_key(4)  # BACK: the results page again, in the same tab
    assert store.active_tab().url == search_url("eiffel tower") and len(store.tabs()) == 3
    _tap(phone, ID + "url_bar")
    phone.input_text("citylibrary.org/feedback")
    phone.press_key(66)
    _tap(phone, ID + "submit")  # nothing filled in: refused, nothing stored
    assert phone.toast_message == "Please fill in Your name"
    for rid, text in (("field_name", "Ana"), ("field_email", "ana@example.com"), ("field_message", "Hi")):
        _tap(phone, ID + rid)
        phone.input_text(text)
    phone.press_key(4)
    _tap(phone, ID + "submit")
    assert phone.toast_message == "Please choose Topic"
    _tap(phone, ID + "option_topic_Events")
    _tap(phone, ID + "submit")
    assert store.submission("LF-1001") == {
        "name": "Ana",
        "email": "ana@example.com",
        "topic": "Events",
        "message": "Hi",
    }
    assert _visible(phone, ID + "confirm_text") == [
        "Thanks, Ana. We received your message about Events. Reference: LF-1001."
    ]


def test_share_page_to_chat(tmp_path: Path) -> None:
    phone = PhoneOS(PhoneConfig(locale="zh"), VirtualFS(tmp_path / "fs"))
    chat = phone.apps["com.spa.chat"].store  # type: ignore[attr-defined]
    phone.start_activity(PKG)
    phone.start_activity(
        PKG, "com.android.browser.BrowserActivity", {"url": "https://zh.openpedia.org/wiki/gugong"}
    )
    _tap(phone, ID + "menu_button")
    _tap(phone, ID + "menu_share")
    _tap(phone, ID + "share_chat")
    assert phone.current_focus() == ("com.spa.chat", "com.spa.chat.ShareActivity")
    _tap(phone, text="李雷")
    _tap(phone, "android:id/button1")
    assert phone.current_focus()[0] == PKG  # back in the app that shared
    lilei = next(c for c in chat.contacts() if c.name == "李雷")
    last = chat.messages(lilei.id)[-1]
    assert (last.type, last.body, last.id) == (
        "text",
        "故宫 - 开放百科 https://zh.openpedia.org/wiki/gugong",
        1001,
    )


def test_a_toast_does_not_take_taps(tmp_path: Path) -> None:
    """Toasts are not touchable on Android: a tap on a button under one reaches the button."""
    phone = PhoneOS(PhoneConfig(locale="en"), VirtualFS(tmp_path / "fs"))
    phone.start_activity(
        PKG, "com.android.browser.BrowserActivity", {"url": "https://lotusgarden.com/reserve"}
    )
    for rid, text in (("field_name", "Al"), ("field_phone", "123"), ("field_date", "2024-07-26")):
        _tap(phone, ID + rid)
        phone.input_text(text)
    phone.press_key(4)
    _tap(phone, ID + "option_party_2")
    _tap(phone, ID + "option_time_18_00")
    phone.show_toast("Sent")
    button = phone.frame().find(rid=ID + "submit")
    toast = next(w for w in phone.frame().windows if w.name == "Toast")
    assert button is not None and not toast.root.bounds.intersect(button.bounds).empty  # it covers the button
    phone.tap(*button.bounds.center)
    assert phone.apps[PKG].store.active_tab().url == "https://lotusgarden.com/reserve?ref=LR-1001"  # type: ignore[attr-defined]
