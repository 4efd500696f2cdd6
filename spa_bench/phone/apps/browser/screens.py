"""The Browser's main screen (`com.android.browser.BrowserActivity`): the address bar, the tab count,
the overflow menu and the active tab's page. A VIEW intent's `url` opens in a new tab, as Chrome does
for links from other apps."""

from __future__ import annotations

from typing import TYPE_CHECKING
from urllib.parse import unquote

from spa_bench.phone.apps.base import Activity
from spa_bench.phone.apps.browser.page import RID, PageHost, layout
from spa_bench.phone.apps.browser.store import Tab
from spa_bench.phone.apps.browser.web import (
    HOME_URL,
    Page,
    looks_like_url,
    normalise,
    query_of,
    resolve,
    search_url,
)
from spa_bench.phone.apps.sharing import TextTarget, share_sheet, share_text
from spa_bench.phone.apps.shop.widgets import icon_button
from spa_bench.phone.ui import FRAME, LINEAR, Rect, TextView, View
from spa_bench.phone.ui.menu import MenuItem

if TYPE_CHECKING:
    from spa_bench.phone.apps.browser import BrowserApp

PACKAGE = "com.android.browser"


class BrowserBase(Activity):
    app: BrowserApp

    def now_ms(self) -> int:
        return int(self.ctx.clock.now().timestamp() * 1000)

    def title_of(self, url: str) -> str:
        resolved = resolve(url)
        if resolved.page is not None:
            return resolved.page.title
        if resolved.error:
            return resolved.host
        q = query_of(resolved.url)
        return f"{q} - Searchly" if q else "Searchly"

    def open_url(self, url: str, new_tab: bool = False) -> None:
        """Load `url` in the active tab (or a new one) and record the visit."""
        norm = normalise(url)
        store = self.app.store
        title = self.title_of(norm)
        if new_tab:
            tab = store.new_tab(norm, title, self.now_ms())
            store.navigate(tab.id, norm, title, self.now_ms(), push=False)
        else:
            store.navigate(store.active_tab().id, norm, title, self.now_ms())
        self.ctx.invalidate()


class BrowserActivity(BrowserBase):
    name = "com.android.browser.BrowserActivity"

    def _sync(self, tab: Tab) -> None:
        """A new page (or tab) in view: the address bar shows its URL, the page starts at its top and its
        form is empty."""
        if self.record.ui.get("shown") == [tab.id, tab.url]:
            return
        for key in [k for k in self.record.ui if k.startswith(("text:f_", "opt:"))] + [
            "scroll",
            "menu",
            "dialog",
            "focus",
        ]:
            self.record.ui.pop(key, None)
        self.record.ui["text:address"] = shown_url(tab.url)
        self.record.ui["shown"] = [tab.id, tab.url]

    def _address_state(self, tab: Tab) -> None:
        """Focusing the address bar starts a fresh entry (Chrome selects the whole URL, so typing replaces
        it); leaving it shows the page's URL again."""
        if self.ui("focus") == "address":
            if not self.record.ui.get("editing"):
                self.record.ui["editing"] = True
                self.record.ui["text:address"] = ""
        elif self.record.ui.pop("editing", None):
            self.record.ui["text:address"] = shown_url(tab.url)

    def _intent(self) -> None:
        url = str(self.record.args.get("url", ""))
        if url and not self.record.ui.get("intent_done"):
            self.record.ui["intent_done"] = True
            self.open_url(url, new_tab=True)

    def on_back(self) -> bool:
        if self.ui("focus") == "address":
            self.set_ui("focus", None)
            return True
        if super().on_back():
            return True
        tab = self.app.store.active_tab()
        previous = self.app.store.go_back(tab.id)
        if previous is None:
            return False
        self.app.store.navigate(tab.id, previous, self.title_of(previous), self.now_ms(), push=False)
        self.ctx.invalidate()
        return True

    # -- actions ------------------------------------------------------------------------------------
    def go(self, url: str) -> None:
        self.open_url(url)

    def submit_address(self) -> None:
        text = str(self.ui("text:address", "")).strip()
        if not text:
            return
        self.record.ui.pop("focus", None)
        self.record.ui.pop("shown", None)
        self.go(normalise(text) if looks_like_url(text) else search_url(text))

    def focus_address(self) -> None:
        self.request_focus("address")
        self.ctx.invalidate()

    def new_tab(self) -> None:
        self.open_url(HOME_URL, new_tab=True)

    def toggle_bookmark(self) -> None:
        tab = self.app.store.active_tab()
        if self.app.store.is_bookmarked(tab.url):
            self.app.store.remove_bookmark(tab.url)
            self.ctx.toast(self.t("bookmark_removed"))
        else:
            self.app.store.add_bookmark(tab.url, tab.title, self.now_ms())
            self.ctx.toast(self.t("bookmarked"))
        self.ctx.invalidate()

    def share_to(self, target: TextTarget) -> None:
        tab = self.app.store.active_tab()
        self.set_ui("dialog", None)
        share_text(self, target, f"{tab.title} {tab.url}", tab.title, "public", "blue")

    def choose(self, name: str, value: str) -> None:
        self.set_ui(f"opt:{name}", value)

    def submit_form(self) -> None:
        tab = self.app.store.active_tab()
        page = resolve(tab.url).page
        if page is None or not page.form:
            return
        values: dict[str, str] = {}
        for block in page.blocks:
            if block.kind == "field":
                value = str(self.ui(f"text:f_{block.name}", "")).strip()
            elif block.kind == "choice":
                value = str(self.ui(f"opt:{block.name}", ""))
            else:
                continue
            if block.required and not value:
                self.ctx.toast(self.t("required" if block.kind == "field" else "choose", field=block.text))
                return
            values[block.name] = value
        ref = self.app.store.submit_form(page.form, page.url, values, self.now_ms(), _prefix(page))
        self.go(f"{page.url}?ref={ref}")

    # -- layout -------------------------------------------------------------------------------------
    def build(self, area: Rect) -> View:
        self._intent()
        kit = self.kit
        p = kit.palette
        store = self.app.store
        tab = store.active_tab()
        self._sync(tab)
        self._address_state(tab)
        root = View(area, class_name=FRAME, rid=RID + "browser")
        bar_h = kit.dp(64)
        bar = View(area.with_height(bar_h), class_name=LINEAR, rid=RID + "toolbar", bg=p.surface_high)
        s = kit.dp(48)
        top = area.top + kit.dp(8)
        field = self.text_field(
            Rect(area.left + kit.dp(12), top, area.right - kit.dp(108), top + s),
            "address",
            self.t("address_hint"),
            rid=RID + "url_bar",
            on_submit=self.submit_address,
        )
        field.bg = p.background
        field.radius = s // 2
        field.underline = False
        bar.add(field)
        count = len(store.tabs())
        tabs_rect = Rect(area.right - kit.dp(104), top, area.right - kit.dp(56), top + s)
        tabs_button = View(
            tabs_rect,
            rid=RID + "tab_switcher_button",
            desc=self.t("switch_tabs"),
            on_click=lambda: self.ctx.start_activity(TABS),
        )
        box = Rect(
            tabs_rect.center[0] - kit.dp(11),
            tabs_rect.center[1] - kit.dp(11),
            tabs_rect.center[0] + kit.dp(11),
            tabs_rect.center[1] + kit.dp(11),
        )
        frame = View(box, bg=p.on_surface, radius=kit.dp(4))
        frame.add(View(box.inset(kit.dp(2)), bg=p.surface_high, radius=kit.dp(3)))
        frame.add(
            TextView(
                box, str(count) if count < 100 else ":D", kit.dp(12), p.on_surface, align="center", bold=True
            )
        )
        tabs_button.add(frame)
        bar.add(tabs_button)
        menu_rect = Rect(area.right - kit.dp(52), top, area.right - kit.dp(4), top + s)
        bar.add(
            icon_button(
                kit,
                menu_rect,
                "more_vert",
                self.t("more_options"),
                self.open_menu("main"),
                rid=RID + "menu_button",
            )
        )
        body = Rect(area.left, area.top + bar_h, area.right, area.bottom)
        resolved = resolve(tab.url)
        host = PageHost(
            kit,
            self.ctx.locale,
            self.t,
            self.go,
            self.focus_address,
            lambda r, key, hint, rid: self.text_field(r, key, hint, rid=rid),
            lambda name: str(self.ui(f"opt:{name}", "")),
            self.choose,
            self.submit_form,
            store.submission,
            content_locale=self.ctx.content_locale,
        )
        if tab.title != self.title_of(tab.url):
            store.set_title(tab.id, self.title_of(tab.url))
        root.add(View(body, bg=p.surface))
        root.add(self.scroll_list(body, layout(host, body, resolved), rid=RID + "page"))
        root.add(bar)
        if self.menu_target() == "main":
            marked = store.is_bookmarked(tab.url)
            items = [
                MenuItem(self.t("new_tab"), self.new_tab, RID + "menu_new_tab"),
                MenuItem(
                    self.t("remove_bookmark" if marked else "add_bookmark"),
                    self.toggle_bookmark,
                    RID + "menu_bookmark",
                ),
                MenuItem(
                    self.t("bookmarks"), lambda: self.ctx.start_activity(BOOKMARKS), RID + "menu_bookmarks"
                ),
                MenuItem(self.t("history"), lambda: self.ctx.start_activity(HISTORY), RID + "menu_history"),
                MenuItem(self.t("share"), self.setter("dialog", "share"), RID + "menu_share"),
            ]
            root.add(self.context_menu(area, menu_rect, items))
        if self.ui("dialog") == "share":
            root.add(self._share_dialog(area))
        return root

    def _share_dialog(self, area: Rect) -> View:
        return share_sheet(self, area, RID, self.share_to, self.setter("dialog", None))


def shown_url(url: str) -> str:
    """The address bar's text for a page: the URL without `https://` (a search: its words), as Chrome does."""
    if url == HOME_URL:
        return ""  # the new-tab page: an empty box with its hint, as Chrome's
    return query_of(url) or unquote(url.removeprefix("https://"))


def _prefix(page: Page) -> str:
    return "".join(word[0] for word in page.form.split("_")).upper()


TABS = "com.android.browser.TabSwitcherActivity"
BOOKMARKS = "com.android.browser.BookmarksActivity"
HISTORY = "com.android.browser.HistoryActivity"

__all__ = ["BOOKMARKS", "HISTORY", "TABS", "BrowserActivity", "BrowserBase"]
