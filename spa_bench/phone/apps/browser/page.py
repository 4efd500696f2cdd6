"""Laying out one web page as views: the blocks of an offline page, the search engine's home and results
pages, a form's confirmation, and Chrome-style error pages. Rows are laid out from `top` down; the
screen puts them in a scrolling list."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import partial

from spa_bench.phone.apps.browser import sites_en, sites_zh
from spa_bench.phone.apps.browser.web import Block, Page, Resolved, display_url, query_of, ref_of, search
from spa_bench.phone.apps.shop.widgets import chip
from spa_bench.phone.ui import LINEAR, Button, ImageView, Kit, Rect, TextView, View

RID = "com.android.browser:id/"


def option_rid(value: str) -> str:
    return "".join(ch if ch.isalnum() else "_" for ch in value)


@dataclass
class PageHost:
    """What a page needs from the screen showing it: its language, strings, navigation and form state."""

    kit: Kit
    locale: str  # the UI's
    t: Callable[..., str]
    go: Callable[[str], None]
    focus_address: Callable[[], None]
    field: Callable[[Rect, str, str, str], View]  # (rect, key, hint, rid) -> a text field
    option: Callable[[str], str]  # the chosen value of a choice field
    choose: Callable[[str, str], None]
    submit: Callable[[], None]
    submission: Callable[[str], dict[str, str]]
    content_locale: str = "en"  # the owner's content language (the SIM's country): the home page's shortcuts


class Layout:
    """Rows stacked down the page's column."""

    def __init__(self, host: PageHost, area: Rect) -> None:
        self.host = host
        self.kit = host.kit
        self.left = area.left + self.kit.dp(16)
        self.right = area.right - self.kit.dp(16)
        self.y = area.top + self.kit.dp(12)
        self.rows: list[View] = []

    def gap(self, dp: int) -> None:
        self.y += self.kit.dp(dp)

    def text(
        self,
        text: str,
        size: int,
        color: tuple[int, int, int],
        *,
        rid: str = "",
        bold: bool = False,
        lines: int = 30,
        on_click: Callable[[], None] | None = None,
        align: str = "left",
    ) -> View:
        width = self.right - self.left
        h = TextView.wrapped_height(text, size, width, lines) + self.kit.dp(4)
        view = TextView(
            Rect(self.left, self.y, self.right, self.y + h),
            text,
            size,
            color,
            rid=rid,
            bold=bold,
            max_lines=lines,
            on_click=on_click,
            align="center" if align == "center" else "left",
        )
        self.rows.append(view)
        self.y += h
        return view

    def add(self, view: View) -> None:
        self.rows.append(view)
        self.y = max(self.y, view.bounds.bottom)


def layout(host: PageHost, area: Rect, resolved: Resolved) -> list[View]:
    lay = Layout(host, area)
    host_name = resolved.host
    if resolved.error == "unresolved":
        _error(lay, "unresolved", host_name, "ERR_NAME_NOT_RESOLVED")
    elif resolved.error == "not_found":
        _error(lay, "not_found", host_name, "")
    elif resolved.page is None:
        q = query_of(resolved.url)
        if q or resolved.url.split("?", 1)[0].endswith("/search"):
            _results(lay, q)
        else:
            _home(lay)
    elif resolved.page.form and ref_of(resolved.url):
        _confirmation(lay, resolved.page, ref_of(resolved.url))
    else:
        for block in resolved.page.blocks:
            _block(lay, block)
    lay.gap(24)
    return lay.rows


def _error(lay: Layout, kind: str, host_name: str, code: str) -> None:
    kit, p, t = lay.kit, lay.kit.palette, lay.host.t
    lay.gap(48)
    s = kit.dp(72)
    lay.add(
        ImageView(
            Rect(lay.left, lay.y, lay.left + s, lay.y + s),
            "public",
            p.on_surface_variant,
            rid=RID + "error_icon",
        )
    )
    lay.gap(20)
    lay.text(t(f"{kind}_title"), kit.dp(24), p.on_surface, rid=RID + "error_title", bold=True)
    lay.gap(8)
    lay.text(t(f"{kind}_body", host=host_name), kit.body_large, p.on_surface_variant, rid=RID + "error_body")
    if code:
        lay.gap(8)
        lay.text(code, kit.label, p.on_surface_variant, rid=RID + "error_code")


def _home(lay: Layout) -> None:
    kit, p, host = lay.kit, lay.kit.palette, lay.host
    lay.gap(56)
    lay.text("Searchly", kit.dp(40), p.primary, rid=RID + "logo", bold=True, align="center")
    lay.gap(24)
    box = kit.search_bar(
        Rect(lay.left, lay.y, lay.right, lay.y + kit.dp(52)),
        host.t("address_hint"),
        on_click=host.focus_address,
        rid=RID + "search_box",
    )
    lay.add(box)
    lay.gap(32)
    lay.text(host.t("shortcuts"), kit.body_medium, p.on_surface_variant)
    lay.gap(4)
    shortcuts = sites_zh.SHORTCUTS if host.content_locale == "zh" else sites_en.SHORTCUTS
    for name, url in shortcuts:
        row = View(
            Rect(lay.left, lay.y, lay.right, lay.y + kit.dp(56)),
            class_name=LINEAR,
            rid=RID + "shortcut",
            on_click=partial(host.go, url),
            desc=name,
        )
        s = kit.dp(40)
        row.add(
            kit.icon_circle(
                Rect(lay.left, lay.y + kit.dp(8), lay.left + s, lay.y + kit.dp(8) + s), "public", "blue"
            )
        )
        row.add(
            TextView(
                Rect(lay.left + kit.dp(56), lay.y, lay.right, lay.y + kit.dp(56)),
                name,
                kit.body_large,
                p.on_surface,
                rid=RID + "shortcut_title",
            )
        )
        lay.add(row)


def _results(lay: Layout, query: str) -> None:
    kit, p, host = lay.kit, lay.kit.palette, lay.host
    hits = search(query)
    lay.text(host.t("results_for", q=query), kit.dp(20), p.on_surface, rid=RID + "results_header", bold=True)
    if not hits:
        lay.gap(12)
        lay.text(host.t("no_results", q=query), kit.body_large, p.on_surface_variant, rid=RID + "no_results")
        return
    lay.text(host.t("results_count", n=len(hits)), kit.label, p.on_surface_variant, rid=RID + "results_count")
    for hit in hits:
        lay.gap(14)
        lay.text(display_url(hit.page.url), kit.label, p.on_surface_variant, rid=RID + "result_url", lines=1)
        lay.text(
            hit.page.title,
            kit.dp(18),
            p.primary,
            rid=RID + "result_title",
            lines=2,
            on_click=partial(host.go, hit.page.url),
        )
        if hit.snippet:
            lay.text(hit.snippet, kit.body_medium, p.on_surface_variant, rid=RID + "result_snippet", lines=2)


def _confirmation(lay: Layout, page: Page, ref: str) -> None:
    kit, p = lay.kit, lay.kit.palette
    values = lay.host.submission(ref)
    lay.gap(24)
    s = kit.dp(56)
    lay.add(
        ImageView(Rect(lay.left, lay.y, lay.left + s, lay.y + s), "check", p.primary, rid=RID + "done_icon")
    )
    lay.gap(12)
    lay.text(lay.host.t("submitted"), kit.dp(24), p.on_surface, rid=RID + "confirm_title", bold=True)
    lay.gap(8)
    text = page.confirm
    for key, value in {**values, "ref": ref}.items():
        text = text.replace("{" + key + "}", value)
    lay.text(text, kit.body_large, p.on_surface, rid=RID + "confirm_text")


def _block(lay: Layout, block: Block) -> None:
    kit, p, host = lay.kit, lay.kit.palette, lay.host
    if block.kind == "h":
        lay.gap(4)
        lay.text(block.text, kit.dp(26), p.on_surface, rid=RID + "page_heading", bold=True)
        lay.gap(6)
    elif block.kind == "meta":
        lay.text(block.text, kit.body_medium, p.on_surface_variant, rid=RID + "page_meta")
        lay.gap(6)
    elif block.kind == "p":
        lay.text(block.text, kit.body_large, p.on_surface, rid=RID + "page_text")
        lay.gap(10)
    elif block.kind == "link":
        lay.text(
            block.text,
            kit.body_large,
            p.primary,
            rid=RID + "page_link",
            lines=2,
            on_click=partial(host.go, block.url),
        )
        lay.gap(10)
    elif block.kind == "fact":
        _fact(lay, block)
    elif block.kind == "item":
        _item(lay, block)
    elif block.kind == "field":
        lay.text(block.text + (" *" if block.required else ""), kit.body_medium, p.on_surface_variant)
        lay.add(
            host.field(
                Rect(lay.left, lay.y, lay.right, lay.y + kit.dp(52)),
                "f_" + block.name,
                block.text,
                RID + "field_" + block.name,
            )
        )
        lay.gap(12)
    elif block.kind == "choice":
        lay.text(block.text + " *", kit.body_medium, p.on_surface_variant)
        lay.gap(4)
        x, chosen = lay.left, host.option(block.name)
        for value in block.options:
            c = chip(
                kit,
                x,
                lay.y,
                value,
                value == chosen,
                partial(host.choose, block.name, value),
                rid=RID + f"option_{block.name}_{option_rid(value)}",
            )
            if c.bounds.right > lay.right:
                lay.y += kit.dp(44)
                x = lay.left
                c = chip(
                    kit,
                    x,
                    lay.y,
                    value,
                    value == chosen,
                    partial(host.choose, block.name, value),
                    rid=RID + f"option_{block.name}_{option_rid(value)}",
                )
            lay.rows.append(c)
            x = c.bounds.right + kit.dp(8)
        lay.y += kit.dp(48)
    elif block.kind == "submit":
        lay.gap(8)
        lay.add(
            Button(
                Rect(lay.left, lay.y, lay.right, lay.y + kit.dp(48)),
                block.text,
                kit.body_large,
                p.on_primary,
                p.primary,
                on_click=host.submit,
                rid=RID + "submit",
            )
        )


def _fact(lay: Layout, block: Block) -> None:
    kit, p = lay.kit, lay.kit.palette
    mid = lay.left + (lay.right - lay.left) * 2 // 5
    value_h = TextView.wrapped_height(block.value, kit.body_medium, lay.right - mid, 3)
    h = max(kit.dp(40), value_h + kit.dp(16))
    row = View(
        Rect(lay.left, lay.y, lay.right, lay.y + h), class_name=LINEAR, rid=RID + "fact", bg=p.surface_high
    )
    row.add(
        TextView(
            Rect(lay.left + kit.dp(10), lay.y, mid - kit.dp(8), lay.y + h),
            block.text,
            kit.body_medium,
            p.on_surface_variant,
            rid=RID + "fact_label",
            bold=True,
        )
    )
    row.add(
        TextView(
            Rect(mid, lay.y, lay.right - kit.dp(8), lay.y + h),
            block.value,
            kit.body_medium,
            p.on_surface,
            rid=RID + "fact_value",
            max_lines=3,
        )
    )
    lay.add(row)
    lay.y += kit.dp(2)


def _item(lay: Layout, block: Block) -> None:
    kit, p = lay.kit, lay.kit.palette
    h = kit.dp(64)
    row = View(
        Rect(lay.left, lay.y, lay.right, lay.y + h),
        class_name=LINEAR,
        rid=RID + "shop_item",
        bg=p.surface,
        radius=kit.dp(8),
    )
    price_w = kit.dp(96)
    title_bottom = lay.y + (kit.dp(36) if block.url else h)
    row.add(
        TextView(
            Rect(
                lay.left + kit.dp(12),
                lay.y + (kit.dp(6) if block.url else 0),
                lay.right - price_w,
                title_bottom,
            ),
            block.text,
            kit.body_large,
            p.on_surface,
            rid=RID + "item_name",
        )
    )
    if block.url:
        row.add(
            TextView(
                Rect(lay.left + kit.dp(12), lay.y + kit.dp(36), lay.right - price_w, lay.y + kit.dp(58)),
                block.url,
                kit.label,
                p.on_surface_variant,
                rid=RID + "item_note",
            )
        )
    row.add(
        TextView(
            Rect(lay.right - price_w, lay.y, lay.right - kit.dp(12), lay.y + h),
            block.value,
            kit.body_large,
            p.error,
            rid=RID + "item_price",
            bold=True,
            align="right",
        )
    )
    lay.add(row)
    lay.y += kit.dp(8)
