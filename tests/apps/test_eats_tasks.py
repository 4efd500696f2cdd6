"""Eats (com.spa.eats): its tasks through the real pipeline (oracle passes every instance, noop none), and
the app on a PhoneOS - the seeded restaurants per language, search filters, dish options into a cart
per restaurant, checkout with coupon, note and delivery time, order stages by the phone's clock,
cancel and reorder."""

from __future__ import annotations

import sqlite3
from datetime import datetime, timedelta
from pathlib import Path

from spa_bench.phone.api import PhoneConfig
from spa_bench.phone.system import PhoneOS
from spa_bench.phone.system.clock import PhoneClock
from spa_bench.phone.vfs import VirtualFS

PKG = "com.spa.eats"
NOW = datetime(2026, 3, 2, 9, 0)


def phone_at(tmp_path: Path, locale: str, when: datetime = NOW) -> PhoneOS:
    return PhoneOS(PhoneConfig(locale=locale), VirtualFS(tmp_path / "fs"), clock=PhoneClock.frozen(when))  # type: ignore[arg-type]


def db(tmp_path: Path) -> sqlite3.Connection:
    return sqlite3.connect(tmp_path / "fs/data/data/com.spa.eats/databases/eats.db")


def tap(phone: PhoneOS, rid: str = "", text: str = "", desc: str = "") -> None:
    full = f"{PKG}:id/{rid}" if rid and ":" not in rid else rid
    view = phone.frame().find(rid=full, text=text, desc=desc)
    assert view is not None, (rid, text, desc)
    phone.tap(*view.bounds.center)


def texts(phone: PhoneOS, rid: str) -> list[str]:
    return [v.text for v in phone.frame().views() if v.rid == f"{PKG}:id/{rid}"]


def test_seed_and_search_filters_per_language(tmp_path: Path) -> None:
    phone = phone_at(tmp_path, "zh")
    with db(tmp_path) as conn:
        assert conn.execute("SELECT locale, count(*) FROM restaurants GROUP BY locale").fetchall() == [
            ("en", 10), ("zh", 10)]
        assert conn.execute("SELECT count(*) FROM orders").fetchone() == (6,)
    phone.start_activity(PKG)
    assert texts(phone, "restaurant_name")[0] == "杨记麻辣烫"  # nearest first, Chinese restaurants only
    tap(phone, "search_bar")
    phone.input_text("牛肉")  # dishes match too (酱牛肉, 牛肉拉面), and their descriptions (嫩豆腐配牛肉末)
    phone.press_key(66)
    assert set(texts(phone, "restaurant_name")) == {"老北京炸酱面", "马记兰州牛肉面", "川味小馆"}
    tap(phone, "filter_rating")
    assert texts(phone, "restaurant_name") == ["老北京炸酱面", "川味小馆"]  # 4.5+, nearest first


def test_options_cart_checkout_coupon_note_and_stages(tmp_path: Path) -> None:
    phone = phone_at(tmp_path, "en")
    phone.start_activity(PKG, "com.spa.eats.RestaurantActivity", {"restaurant": "golden-dragon"})
    tap(phone, desc="Options Kung Pao Chicken")
    tap(phone, "size_option", text="Large +$3.00")
    tap(phone, "spice_option", text="Hot")
    tap(phone, "qty_plus")
    tap(phone, "android:id/button1")
    assert texts(phone, "cart_summary") == ["2 items · $35.00"]
    tap(phone, "go_checkout")
    tap(phone, "coupon_row")
    tap(phone, "coupon_WELCOME5")
    tap(phone, "note")
    phone.input_text("Ring twice")
    tap(phone, "place_order")
    assert phone.current_focus() == (PKG, "com.spa.eats.OrderActivity")
    with db(tmp_path) as conn:
        assert conn.execute("SELECT _id, status, subtotal, total, coupon, note FROM orders WHERE _id > 1000"
                            ).fetchall() == [(1001, "placed", 35.0, 32.99, "WELCOME5", "Ring twice")]
        assert conn.execute("SELECT dish, size, spice, quantity FROM order_items WHERE order_id = 1001"
                            ).fetchall() == [("gd-kungpao", "Large", "Hot", 2)]
        assert conn.execute("SELECT used FROM coupons WHERE code = 'WELCOME5'").fetchone() == (1,)
        assert conn.execute("SELECT count(*) FROM cart").fetchone() == (0,)
    app = phone.apps[PKG]
    base = int(NOW.timestamp() * 1000)
    for minutes, stage in ((1, "placed"), (5, "preparing"), (20, "on_the_way"), (31, "delivered")):
        assert [o.status for o in app.store.orders("en", base + minutes * 60_000) if o.id == 1001] == [stage]  # type: ignore[attr-defined]


def test_status_is_timed_back_from_a_scheduled_delivery() -> None:
    from spa_bench.phone.apps.eats.store import status_at  # after PhoneOS: the apps import the system

    created = 0
    eta = 24 * 3600_000  # tomorrow
    assert status_at(created, eta, 3600_000) == "placed"
    assert status_at(created, eta, eta - 20 * 60_000) == "preparing"
    assert status_at(created, eta, eta - 5 * 60_000) == "on_the_way"
    assert status_at(created, eta, eta) == "delivered"


def test_scheduled_order_cancel_and_reorder(tmp_path: Path) -> None:
    phone = phone_at(tmp_path, "en")
    phone.start_activity(PKG, "com.spa.eats.RestaurantActivity", {"restaurant": "bella-napoli"})
    tap(phone, desc="Add Spaghetti Carbonara")
    tap(phone, "go_checkout")
    tap(phone, "delivery_time_row")
    tap(phone, "day_tomorrow")
    tap(phone, "slot_tomorrow_1830")
    tap(phone, "place_order")
    expected = (NOW + timedelta(days=1)).replace(hour=18, minute=30)
    with db(tmp_path) as conn:
        assert conn.execute("SELECT eta_at, scheduled FROM orders WHERE _id = 1001").fetchone() == (
            int(expected.timestamp() * 1000), 1)
    assert phone.frame().find(text="Scheduled delivery: " + expected.strftime("%Y-%m-%d %H:%M")) is not None
    tap(phone, "cancel_order")
    tap(phone, "android:id/button1")
    tap(phone, "reorder")
    with db(tmp_path) as conn:
        assert conn.execute("SELECT status FROM orders WHERE _id = 1001").fetchone() == ("cancelled",)
        assert conn.execute("SELECT restaurant, dish, quantity FROM cart").fetchall() == [
            ("bella-napoli", "bn-carbonara", 1)]
    assert phone.current_focus() == (PKG, "com.spa.eats.RestaurantActivity")


def test_store_coupons_addresses_and_reorder(tmp_path: Path) -> None:
    phone = phone_at(tmp_path, "en")
    store = phone.apps[PKG].store  # type: ignore[attr-defined]
    coupons = {c.code: c for c in store.coupons("en")}
    today = NOW.strftime("%Y-%m-%d")
    assert not coupons["SUMMER8"].applies("taco-loco", 100, today)  # expired 2024-06-30
    assert not coupons["BIGEATS10"].applies("taco-loco", 59.99, today)  # needs $60
    assert coupons["PIZZA3"].applies("bella-napoli", 15, today)
    assert not coupons["PIZZA3"].applies("taco-loco", 50, today)  # only at Bella Napoli
    new = store.save_address("en", None, "Gym", "Alex Chen", "415-555-0123", "2150 Lombard St", True)
    assert [(a.label, a.is_default) for a in store.addresses("en")] == [("Gym", True), ("Home", False),
                                                                         ("Work", False)]
    assert store.default_address("en").id == new and store.default_address("zh").label == "家"
    last = next(o for o in store.orders("en", 0) if o.restaurant == "golden-dragon")
    store.reorder(last, 0)
    cart = [(line.dish.key, line.size, line.spice, line.quantity) for line in store.cart("golden-dragon")]
    assert cart == [("gd-kungpao", "Large", "Hot", 1), ("gd-friedrice", "Regular", "", 1)]
