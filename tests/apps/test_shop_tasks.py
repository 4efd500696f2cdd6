"""The Shop suite through the real pipeline (oracle passes every task - three instances of each
parameterised one - noop none), and the store
and search on a PhoneOS: seeded catalogue, bilingual matching, filters, sort, cart, orders."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from spa_bench.phone.api import PhoneConfig
from spa_bench.phone.system import PhoneOS
from spa_bench.phone.vfs import VirtualFS

PKG = "com.spa.shop"


def tap(phone: PhoneOS, rid: str = "", text: str = "") -> None:
    view = phone.frame().find(rid=f"{PKG}:id/{rid}" if rid and ":" not in rid else rid, text=text)
    assert view is not None, (rid, text)
    phone.tap(*view.bounds.center)


def titles(phone: PhoneOS) -> list[str]:
    return [v.text for v in phone.frame().views() if v.rid == f"{PKG}:id/product_title"]


def test_catalogue_search_sort_filter(tmp_path: Path) -> None:
    phone = PhoneOS(PhoneConfig(locale="zh"), VirtualFS(tmp_path / "fs"))
    db = tmp_path / "fs/data/data/com.spa.shop/databases/shop.db"
    with sqlite3.connect(db) as conn:
        assert conn.execute("SELECT COUNT(*) FROM products").fetchone() == (62,)
        assert conn.execute("SELECT sku FROM cart").fetchall() == [("TEE-BASIC",)]
    phone.start_activity(PKG)
    tap(phone, "search_bar")
    phone.input_text("无线耳机")  # CJK words match by characters: 无线降噪耳机 too
    phone.press_key(66)
    expected = ["Aurora 无线降噪耳机 Pro", "Aurora 无线降噪耳机 Pro 2", "Aurora 无线耳机 青春版"]
    assert titles(phone)[:3] == expected
    tap(phone, "sort")
    tap(phone, "sort_price_desc")
    assert titles(phone)[0] == "Aurora 无线降噪耳机 Pro 2"
    tap(phone, "filter")
    tap(phone, "max_price")
    phone.input_text("60")
    tap(phone, "android:id/button1")
    assert titles(phone) == ["Aurora 无线耳机 青春版"]


def test_buy_now_leaves_cart_and_checkout_empties_it(tmp_path: Path) -> None:
    phone = PhoneOS(PhoneConfig(locale="en"), VirtualFS(tmp_path / "fs"))
    store = phone.apps[PKG].store  # type: ignore[attr-defined]
    phone.start_activity(PKG, "com.spa.shop.ProductActivity", {"sku": "BOTTLE"})
    tap(phone, "color_pink")
    tap(phone, "buy_now")
    tap(phone, "place_order")
    assert [line.product.sku for line in store.cart()] == ["TEE-BASIC"]
    assert phone.current_focus() == (PKG, "com.spa.shop.MainActivity")
    tap(phone, "nav_cart")
    tap(phone, "checkout")
    tap(phone, "place_order")
    assert store.cart() == []
    orders = [o for o in store.orders() if o.status == "processing"]
    assert sorted(o.items[0][0] for o in orders) == ["BOTTLE", "TEE-BASIC"] and orders[0].id >= 1001
