"""What every Shop screen shares: the store, prices and titles in the owner's content language (the SIM's
country, `ctx.content_locale`; the labels follow the UI's), and the product row used by the home page,
search results and the wishlist."""

from __future__ import annotations

from typing import TYPE_CHECKING

from spa_bench.phone.apps.base import Activity
from spa_bench.phone.apps.shop.catalogue import CATEGORIES
from spa_bench.phone.apps.shop.store import Product
from spa_bench.phone.apps.shop.strings import price
from spa_bench.phone.apps.shop.widgets import thumbnail
from spa_bench.phone.ui import LINEAR, Callback, Rect, TextView, View

if TYPE_CHECKING:
    from spa_bench.phone.apps.shop import ShopApp

PACKAGE = "com.spa.shop"
RID = f"{PACKAGE}:id/"
GLYPHS = dict(CATEGORIES)
HUES = {
    "audio": "purple",
    "phones": "blue",
    "computers": "teal",
    "home": "orange",
    "kitchen": "red",
    "sports": "green",
    "clothing": "pink",
    "beauty": "yellow",
    "books": "grey",
}


class ShopActivity(Activity):
    app: ShopApp

    def now_ms(self) -> int:
        return int(self.ctx.clock.now().timestamp() * 1000)

    def price(self, value: float) -> str:
        return price(value, self.ctx.content_locale)  # the store's currency

    def title(self, product: Product) -> str:
        return product.title(self.ctx.content_locale)

    def rating(self, product: Product) -> str:
        return f"★ {product.rating:.1f} · {self.t('reviews', n=f'{product.reviews:,}')}"

    def open_product(self, sku: str) -> None:
        self.ctx.start_activity("com.spa.shop.ProductActivity", {"sku": sku})

    def product_row(
        self,
        area: Rect,
        top: int,
        product: Product,
        on_click: Callback | None = None,
        trailing: View | None = None,
    ) -> View:
        """A search-result style row: picture, title (two lines), price, rating."""
        kit = self.kit
        p = kit.palette
        pad = kit.dp(16)
        pic = kit.dp(96)
        left = area.left + pad + pic + kit.dp(16)
        right = area.right - pad - (kit.dp(48) if trailing is not None else 0)
        title_h = TextView.wrapped_height(self.title(product), kit.body_large, right - left, 2)
        # lines as tall as their text: at a larger font scale the row grows (wrap_content) instead of the
        # rating running into the divider
        price_h = max(kit.dp(28), TextView.line_height(kit.dp(18)))
        rating_h = max(kit.dp(22), TextView.line_height(kit.label))
        h = max(kit.dp(120), kit.dp(16) + title_h + price_h + rating_h + kit.dp(4))
        row = View(
            Rect(area.left, top, area.right, top + h),
            class_name=LINEAR,
            rid=RID + "product_item",
            on_click=on_click or (lambda: self.open_product(product.sku)),
        )
        row.add(
            thumbnail(
                kit,
                Rect(area.left + pad, top + kit.dp(12), area.left + pad + pic, top + kit.dp(12) + pic),
                GLYPHS[product.category],
                HUES[product.category],
            )
        )
        row.add(
            TextView(
                Rect(left, top + kit.dp(12), right, top + kit.dp(12) + title_h),
                self.title(product),
                kit.body_large,
                p.on_surface,
                rid=RID + "product_title",
                max_lines=2,
            )
        )
        y = top + kit.dp(16) + title_h
        row.add(
            TextView(
                Rect(left, y, right, y + price_h),
                self.price(product.price),
                kit.dp(18),
                p.error,
                rid=RID + "product_price",
                bold=True,
            )
        )
        row.add(
            TextView(
                Rect(left, y + price_h, right, y + price_h + rating_h),
                self.rating(product),
                kit.label,
                p.on_surface_variant,
                rid=RID + "product_rating",
            )
        )
        if trailing is not None:
            row.add(trailing)
        row.add(View(Rect(area.left + pad, top + h - 1, area.right - pad, top + h), bg=p.divider))
        return row
