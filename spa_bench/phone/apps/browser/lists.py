"""The Browser's list screens: the tab switcher (a grid of tab cards with close buttons), bookmarks and
history (rows that open their page in the active tab, each with a delete button; history can be
cleared after a confirmation)."""

from __future__ import annotations

from datetime import UTC, datetime
from functools import partial
from urllib.parse import urlsplit

from spa_bench.phone.apps.browser.page import RID
from spa_bench.phone.apps.browser.screens import BOOKMARKS, HISTORY, TABS, BrowserBase
from spa_bench.phone.apps.browser.store import Entry, Tab
from spa_bench.phone.apps.browser.web import HOME_URL, display_url
from spa_bench.phone.apps.shop.widgets import icon_button
from spa_bench.phone.ui import FRAME, LINEAR, Button, Rect, TextView, View


class TabSwitcherActivity(BrowserBase):
    name = TABS

    def pick(self, tab: Tab) -> None:
        self.app.store.activate(tab.id)
        self.ctx.finish()

    def close(self, tab: Tab) -> None:
        self.app.store.close_tab(tab.id)
        self.ctx.invalidate()

    def new_tab(self) -> None:
        self.open_url(HOME_URL, new_tab=True)
        self.ctx.finish()

    def close_all(self) -> None:
        self.app.store.close_all_tabs()
        self.ctx.invalidate()

    def build(self, area: Rect) -> View:
        kit = self.kit
        p = kit.palette
        tabs = self.app.store.tabs()
        root = View(area, class_name=LINEAR, rid=RID + "tab_switcher", bg=p.surface_high)
        bar, bar_h = kit.app_bar(area, f"{self.t('tabs')} ({len(tabs)})", self.ctx.finish, package=RID[:-4])
        bar.children[0].desc = self.t("navigate_up")
        bar.bg = p.surface_high
        s = kit.dp(48)
        top = area.top + kit.dp(8)
        bar.add(
            icon_button(
                kit,
                Rect(area.right - kit.dp(4) - s, top, area.right - kit.dp(4), top + s),
                "plus",
                self.t("new_tab"),
                self.new_tab,
                rid=RID + "new_tab_button",
            )
        )
        root.add(bar)
        grid = Rect(area.left, area.top + bar_h, area.right, area.bottom - kit.dp(64))
        gap = kit.dp(12)
        w = (grid.width - 3 * gap) // 2
        h = kit.dp(180)
        cards: list[View] = []
        for i, tab in enumerate(tabs):
            x = grid.left + gap + (i % 2) * (w + gap)
            y = grid.top + gap + (i // 2) * (h + gap)
            cards.append(self._card(Rect(x, y, x + w, y + h), tab))
        root.add(self.scroll_list(grid, cards, rid=RID + "tab_list", padding_bottom=gap))
        foot = area.bottom - kit.dp(56)
        if tabs:
            label = self.t("close_all_tabs")
            root.add(
                Button(
                    Rect(area.left + kit.dp(16), foot, area.left + kit.dp(200), foot + kit.dp(44)),
                    label,
                    kit.body_medium,
                    p.primary,
                    None,
                    on_click=self.close_all,
                    rid=RID + "close_all_tabs",
                )
            )
        return root

    def _card(self, rect: Rect, tab: Tab) -> View:
        kit = self.kit
        p = kit.palette
        card = View(
            rect,
            class_name=FRAME,
            rid=RID + "tab_card",
            on_click=partial(self.pick, tab),
            desc=tab.title,
            bg=p.surface,
            radius=kit.dp(12),
            selected=tab.active,
        )
        if tab.active:
            card.add(View(Rect(rect.left, rect.top, rect.right, rect.top + kit.dp(4)), bg=p.primary))
        head = kit.dp(44)
        card.add(
            TextView(
                Rect(rect.left + kit.dp(10), rect.top + kit.dp(4), rect.right - kit.dp(40), rect.top + head),
                tab.title,
                kit.body_medium,
                p.on_surface,
                rid=RID + "tab_title",
                bold=tab.active,
            )
        )
        s = kit.dp(36)
        card.add(
            icon_button(
                kit,
                Rect(
                    rect.right - s - kit.dp(2),
                    rect.top + kit.dp(4),
                    rect.right - kit.dp(2),
                    rect.top + kit.dp(4) + s,
                ),
                "close",
                self.t("close_tab") + " " + tab.title,
                partial(self.close, tab),
                rid=RID + "tab_close",
            )
        )
        preview = Rect(
            rect.left + kit.dp(8), rect.top + head, rect.right - kit.dp(8), rect.bottom - kit.dp(8)
        )
        box = View(preview, bg=p.background, radius=kit.dp(8))
        box.add(
            TextView(
                preview.inset(kit.dp(8)),
                display_url(tab.url),
                kit.label,
                p.on_surface_variant,
                max_lines=4,
                rid=RID + "tab_url",
            )
        )
        card.add(box)
        return card


class _EntryList(BrowserBase):
    """Bookmarks and history share their rows."""

    title_key = ""
    empty_key = ""

    def entries(self) -> list[Entry]:
        raise NotImplementedError

    def delete(self, entry: Entry) -> None:
        raise NotImplementedError

    def open_entry(self, entry: Entry) -> None:
        self.open_url(entry.url)
        self.ctx.finish()

    def subtitle(self, entry: Entry) -> str:
        return display_url(entry.url)

    def extra(self, area: Rect, bar: View) -> None:
        """Toolbar actions of the screen."""

    def build(self, area: Rect) -> View:
        kit = self.kit
        p = kit.palette
        root = View(area, class_name=LINEAR, rid=RID + self.title_key)
        bar, bar_h = kit.app_bar(area, self.t(self.title_key), self.ctx.finish, package=RID[:-4])
        bar.children[0].desc = self.t("navigate_up")
        self.extra(area, bar)
        root.add(bar)
        body = Rect(area.left, area.top + bar_h, area.right, area.bottom)
        rows: list[View] = []
        y = body.top
        for entry in self.entries():
            row = kit.list_item(
                Rect(body.left, 0, body.right - kit.dp(48), 0),
                y,
                entry.title,
                self.subtitle(entry),
                icon="public",
                hue="blue",
                on_click=partial(self.open_entry, entry),
                rid=RID + f"{self.title_key}_item",
            )
            s = kit.dp(48)
            cy = row.bounds.center[1]
            rows.append(row)
            rows.append(
                icon_button(
                    kit,
                    Rect(body.right - kit.dp(4) - s, cy - s // 2, body.right - kit.dp(4), cy + s // 2),
                    "close",
                    self.t("delete") + " " + entry.title,
                    partial(self.delete, entry),
                    rid=RID + f"{self.title_key}_delete",
                )
            )
            y = row.bounds.bottom
        if not rows:
            rows.append(
                TextView(
                    Rect(body.left, y + kit.dp(48), body.right, y + kit.dp(96)),
                    self.t(self.empty_key),
                    kit.body_large,
                    p.on_surface_variant,
                    align="center",
                    rid=RID + "empty",
                )
            )
        root.add(self.scroll_list(body, rows, rid=RID + f"{self.title_key}_list"))
        if self.ui("dialog") == "clear":
            root.add(
                kit.dialog(
                    area,
                    self.t("clear_history_title"),
                    self.t("clear_history_body"),
                    [(self.t("cancel"), self.setter("dialog", None)), (self.t("clear"), self._clear)],
                    self.setter("dialog", None),
                )
            )
        return root

    def _clear(self) -> None:
        self.app.store.clear_history()
        self.set_ui("dialog", None)
        self.ctx.toast(self.t("history_cleared"))


class BookmarksActivity(_EntryList):
    name = BOOKMARKS
    title_key = "bookmarks"
    empty_key = "no_bookmarks"

    def entries(self) -> list[Entry]:
        return self.app.store.bookmarks()

    def delete(self, entry: Entry) -> None:
        self.app.store.remove_bookmark(entry.url)
        self.ctx.invalidate()


class HistoryActivity(_EntryList):
    name = HISTORY
    title_key = "history"
    empty_key = "no_history"

    def entries(self) -> list[Entry]:
        return self.app.store.history()

    def delete(self, entry: Entry) -> None:
        self.app.store.delete_history(entry.id)
        self.ctx.invalidate()

    def subtitle(self, entry: Entry) -> str:
        when = datetime.fromtimestamp(entry.when / 1000, UTC)
        day = self.t("today") if when.date() == self.ctx.clock.now().date() else f"{when:%Y-%m-%d}"
        return f"{urlsplit(entry.url).hostname or ''} · {day} {when:%H:%M}"  # the site, as Chrome's history

    def extra(self, area: Rect, bar: View) -> None:
        kit = self.kit
        label = self.t("clear_history")
        w = kit.dp(150 if self.ctx.locale == "en" else 120)
        top = area.top + kit.dp(12)
        bar.add(
            Button(
                Rect(area.right - kit.dp(8) - w, top, area.right - kit.dp(8), top + kit.dp(40)),
                label,
                kit.body_medium,
                kit.palette.primary,
                None,
                on_click=self.setter("dialog", "clear"),
                rid=RID + "clear_history",
            )
        )


__all__ = ["BookmarksActivity", "HistoryActivity", "TabSwitcherActivity"]
