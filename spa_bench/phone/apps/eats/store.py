"""The Eats app's state in SQLite: `/data/data/com.spa.eats/databases/eats.db`.

Tables (what checks read):
- `restaurants(_id, key, locale, name, cuisine, rating, reviews, delivery_fee, min_order, eta_minutes,
  distance_km, price_level, address)`: the restaurants near the user (`locale` en or zh);
- `dishes(_id, key, restaurant, section, name, price, description, sizes, spices, popular)`: menus
  (`sizes` as JSON [[label, extra price], ...], `spices` as JSON [[label, 0], ...]);
- `cart(_id, restaurant, dish, size, spice, quantity, unit_price, added_at)`: one cart per restaurant,
  one row per dish + size + spice (`''` when the dish has no such option);
- `addresses(_id, locale, label, recipient, phone, address, is_default)`;
- `coupons(_id, locale, code, title, min_spend, discount, restaurant, expires, used)`;
- `orders(_id, order_no, locale, restaurant, created_at, eta_at, status, subtotal, delivery_fee, discount,
  total, coupon, address_id, address, note, scheduled)`: `eta_at` is the restaurant's minutes after
  placing, or the chosen time of a scheduled order (`scheduled` 1); status `placed` -> `preparing` (2 min
  after placing, and not before 30 min ahead of `eta_at`) -> `on_the_way` (15 min ahead) -> `delivered`
  (at `eta_at`), advanced by the phone's clock whenever the app reads its orders; `cancelled` when the
  user cancels a placed order. The six seeded orders are delivered; new order ids start at 1001;
- `order_items(_id, order_id, dish, name, size, spice, quantity, unit_price)`;
- `prefs(key, value)`: `checkout_address` (the address chosen for the next checkout).
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

from spa_bench.phone.apps.db import AppDatabase
from spa_bench.phone.apps.eats.models import Address, CartLine, Coupon, Dish, Order, OrderItem, Restaurant
from spa_bench.phone.apps.eats.seed import ADDRESSES, COUPONS, MENUS, PAST_ORDERS, RESTAURANTS

SCHEMA = """
CREATE TABLE restaurants (_id INTEGER PRIMARY KEY, key TEXT UNIQUE NOT NULL, locale TEXT, name TEXT,
    cuisine TEXT, rating REAL, reviews INTEGER, delivery_fee REAL, min_order REAL, eta_minutes INTEGER,
    distance_km REAL, price_level INTEGER, address TEXT);
CREATE TABLE dishes (_id INTEGER PRIMARY KEY, key TEXT UNIQUE NOT NULL, restaurant TEXT, section TEXT,
    name TEXT, price REAL, description TEXT, sizes TEXT, spices TEXT, popular INTEGER);
CREATE TABLE cart (_id INTEGER PRIMARY KEY AUTOINCREMENT, restaurant TEXT NOT NULL, dish TEXT NOT NULL,
    size TEXT NOT NULL DEFAULT '', spice TEXT NOT NULL DEFAULT '', quantity INTEGER NOT NULL,
    unit_price REAL, added_at INTEGER);
CREATE TABLE addresses (_id INTEGER PRIMARY KEY AUTOINCREMENT, locale TEXT, label TEXT, recipient TEXT,
    phone TEXT, address TEXT, is_default INTEGER NOT NULL DEFAULT 0);
CREATE TABLE coupons (_id INTEGER PRIMARY KEY AUTOINCREMENT, locale TEXT, code TEXT UNIQUE, title TEXT,
    min_spend REAL, discount REAL, restaurant TEXT, expires TEXT, used INTEGER NOT NULL DEFAULT 0);
CREATE TABLE orders (_id INTEGER PRIMARY KEY AUTOINCREMENT, order_no TEXT UNIQUE, locale TEXT,
    restaurant TEXT, created_at INTEGER, eta_at INTEGER, status TEXT, subtotal REAL, delivery_fee REAL,
    discount REAL, total REAL, coupon TEXT, address_id INTEGER, address TEXT, note TEXT,
    scheduled INTEGER NOT NULL DEFAULT 0);
CREATE TABLE order_items (_id INTEGER PRIMARY KEY AUTOINCREMENT, order_id INTEGER, dish TEXT, name TEXT,
    size TEXT, spice TEXT, quantity INTEGER, unit_price REAL);
CREATE TABLE prefs (key TEXT PRIMARY KEY, value TEXT);
"""
FIRST_NEW_ORDER = 1001
STATUSES = ("placed", "preparing", "on_the_way", "delivered")
ACCEPTED_AFTER_MS = 2 * 60_000  # the restaurant takes the order
PREPARING_AHEAD_MS = 30 * 60_000  # cooking starts at most this long before the delivery time
RIDING_AHEAD_MS = 15 * 60_000  # the rider picks it up this long before


def ms(when: datetime) -> int:
    return int(when.replace(tzinfo=UTC).timestamp() * 1000)


def _parse(text: str) -> int:
    return ms(datetime.strptime(text, "%Y-%m-%d %H:%M"))


def status_at(created_at: int, eta_at: int, now_ms: int) -> str:
    """Where an order is at `now_ms`: the restaurant's stages, then the rider's, timed back from the
    delivery time (so an order scheduled for tomorrow stays `placed` until shortly before)."""
    preparing = max(created_at + ACCEPTED_AFTER_MS, eta_at - PREPARING_AHEAD_MS)
    riding = max(preparing, eta_at - RIDING_AHEAD_MS)
    if now_ms >= eta_at:
        return "delivered"
    if now_ms >= riding:
        return "on_the_way"
    if now_ms >= preparing:
        return "preparing"
    return "placed"


class EatsStore(AppDatabase):
    """Open-per-call SQLite access (a snapshot swaps the files underneath)."""

    def __init__(self, path: Callable[[], Path]) -> None:
        super().__init__(path)
        self._menu: dict[str, Dish] | None = None
        self._restaurants: dict[str, Restaurant] | None = None

    def ensure(self) -> None:
        if self._path().exists():
            return
        with self.db() as conn:
            conn.executescript("BEGIN;" + SCHEMA + "COMMIT;")
            conn.execute("BEGIN")
            for i, r in enumerate(RESTAURANTS, start=1):
                conn.execute(
                    "INSERT INTO restaurants VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)", (i, *r[1:2], r[0], *r[2:])
                )
            i = 0
            for restaurant, dishes in MENUS.items():
                for key, section, name, price, desc, sizes, spices, popular in dishes:
                    i += 1
                    conn.execute(
                        "INSERT INTO dishes VALUES (?,?,?,?,?,?,?,?,?,?)",
                        (
                            i,
                            key,
                            restaurant,
                            section,
                            name,
                            price,
                            desc,
                            json.dumps([list(s) for s in sizes], ensure_ascii=False),
                            json.dumps([list(s) for s in spices], ensure_ascii=False),
                            int(popular),
                        ),
                    )
            for locale, label, recipient, phone, address, default in ADDRESSES:
                conn.execute(
                    "INSERT INTO addresses (locale, label, recipient, phone, address, is_default) "
                    "VALUES (?,?,?,?,?,?)",
                    (locale, label, recipient, phone, address, int(default)),
                )
            for coupon in COUPONS:
                conn.execute(
                    "INSERT INTO coupons (locale, code, title, min_spend, discount, restaurant, expires) "
                    "VALUES (?,?,?,?,?,?,?)",
                    coupon,
                )
            self._seed_orders(conn)
            conn.execute("UPDATE sqlite_sequence SET seq = ? WHERE name = 'orders'", (FIRST_NEW_ORDER - 1,))
            conn.execute("COMMIT")

    def _seed_orders(self, conn: sqlite3.Connection) -> None:
        fees = {r[1]: r[6] for r in RESTAURANTS}
        etas = {r[1]: r[8] for r in RESTAURANTS}
        dishes = {d[0]: d for menu in MENUS.values() for d in menu}
        homes = {row[0]: row[4] for row in ADDRESSES if row[5]}
        for locale, no, restaurant, when, items, note in PAST_ORDERS:
            priced = [
                (dishes[k], size, spice, qty, round(dishes[k][3] + dict(dishes[k][5]).get(size, 0.0), 2))
                for k, size, spice, qty in items
            ]
            subtotal = round(sum(p * q for _d, _s, _sp, q, p in priced), 2)
            created = _parse(when)
            cur = conn.execute(
                "INSERT INTO orders (order_no, locale, restaurant, created_at, eta_at, status, subtotal, "
                "delivery_fee, discount, total, coupon, address_id, address, note) "
                "VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
                (
                    no,
                    locale,
                    restaurant,
                    created,
                    created + etas[restaurant] * 60_000,
                    "delivered",
                    subtotal,
                    fees[restaurant],
                    0,
                    round(subtotal + fees[restaurant], 2),
                    "",
                    1 if locale == "en" else 3,
                    homes[locale],
                    note,
                ),
            )
            for dish, size, spice, qty, price in priced:
                conn.execute(
                    "INSERT INTO order_items (order_id, dish, name, size, spice, quantity, unit_price) "
                    "VALUES (?,?,?,?,?,?,?)",
                    (cur.lastrowid, dish[0], dish[2], size, spice, qty, price),
                )

    # -- catalogue (never changes on the phone: read once) ------------------------------------------
    def restaurants(self, locale: str | None = None) -> list[Restaurant]:
        if self._restaurants is None:
            self.ensure()
            with self.db() as conn:
                rows = conn.execute("SELECT * FROM restaurants ORDER BY _id").fetchall()
            self._restaurants = {
                r["key"]: Restaurant(
                    r["key"],
                    r["locale"],
                    r["name"],
                    r["cuisine"],
                    float(r["rating"]),
                    int(r["reviews"]),
                    float(r["delivery_fee"]),
                    float(r["min_order"]),
                    int(r["eta_minutes"]),
                    float(r["distance_km"]),
                    int(r["price_level"]),
                    r["address"],
                )
                for r in rows
            }
        found = list(self._restaurants.values())
        return [r for r in found if locale is None or r.locale == locale]

    def restaurant(self, key: str) -> Restaurant | None:
        return next((r for r in self.restaurants() if r.key == key), None)

    def dishes(self) -> dict[str, Dish]:
        if self._menu is None:
            self.ensure()
            with self.db() as conn:
                rows = conn.execute("SELECT * FROM dishes ORDER BY _id").fetchall()
            self._menu = {
                r["key"]: Dish(
                    r["key"],
                    r["restaurant"],
                    r["section"],
                    r["name"],
                    float(r["price"]),
                    r["description"],
                    tuple((str(a), float(b)) for a, b in json.loads(r["sizes"])),
                    tuple(str(a) for a, _b in json.loads(r["spices"])),
                    bool(r["popular"]),
                )
                for r in rows
            }
        return self._menu

    def menu(self, restaurant: str) -> list[Dish]:
        return [d for d in self.dishes().values() if d.restaurant == restaurant]

    # -- cart -----------------------------------------------------------------------------------------
    def cart(self, restaurant: str | None = None) -> list[CartLine]:
        dishes = self.dishes()
        with self.db() as conn:
            rows = conn.execute("SELECT * FROM cart ORDER BY _id").fetchall()
        return [
            CartLine(
                int(r["_id"]),
                dishes[r["dish"]],
                r["size"],
                r["spice"],
                int(r["quantity"]),
                float(r["unit_price"]),
            )
            for r in rows
            if r["dish"] in dishes and (restaurant is None or r["restaurant"] == restaurant)
        ]

    def add_to_cart(self, dish: Dish, size: str, spice: str, quantity: int, now_ms: int) -> None:
        with self.db() as conn:
            row = conn.execute(
                "SELECT _id FROM cart WHERE dish=? AND size=? AND spice=?", (dish.key, size, spice)
            ).fetchone()
            if row is None:
                conn.execute(
                    "INSERT INTO cart (restaurant, dish, size, spice, quantity, unit_price, added_at) "
                    "VALUES (?,?,?,?,?,?,?)",
                    (dish.restaurant, dish.key, size, spice, quantity, dish.unit_price(size), now_ms),
                )
            else:
                conn.execute(
                    "UPDATE cart SET quantity = min(99, quantity + ?) WHERE _id = ?", (quantity, row["_id"])
                )

    def set_quantity(self, line_id: int, quantity: int) -> None:
        with self.db() as conn:
            if quantity <= 0:
                conn.execute("DELETE FROM cart WHERE _id = ?", (line_id,))
            else:
                conn.execute("UPDATE cart SET quantity = ? WHERE _id = ?", (min(quantity, 99), line_id))

    def clear_cart(self, restaurant: str) -> None:
        with self.db() as conn:
            conn.execute("DELETE FROM cart WHERE restaurant = ?", (restaurant,))

    # -- addresses ------------------------------------------------------------------------------------
    def addresses(self, locale: str) -> list[Address]:
        with self.db() as conn:
            rows = conn.execute(
                "SELECT * FROM addresses WHERE locale = ? ORDER BY is_default DESC, _id", (locale,)
            ).fetchall()
        return [
            Address(
                int(r["_id"]), r["label"], r["recipient"], r["phone"], r["address"], bool(r["is_default"])
            )
            for r in rows
        ]

    def address(self, address_id: int) -> Address | None:
        with self.db() as conn:
            row = conn.execute("SELECT locale FROM addresses WHERE _id = ?", (address_id,)).fetchone()
        if row is None:
            return None
        return next((a for a in self.addresses(row["locale"]) if a.id == address_id), None)

    def save_address(
        self,
        locale: str,
        address_id: int | None,
        label: str,
        recipient: str,
        phone: str,
        address: str,
        default: bool,
    ) -> int:
        with self.db() as conn:
            conn.execute("BEGIN")
            if address_id is None:
                cur = conn.execute(
                    "INSERT INTO addresses (locale, label, recipient, phone, address) VALUES (?,?,?,?,?)",
                    (locale, label, recipient, phone, address),
                )
                address_id = int(cur.lastrowid or 0)
            else:
                conn.execute(
                    "UPDATE addresses SET label=?, recipient=?, phone=?, address=? WHERE _id=?",
                    (label, recipient, phone, address, address_id),
                )
            if default:
                conn.execute(
                    "UPDATE addresses SET is_default = (_id = ?) WHERE locale = ?", (address_id, locale)
                )
            conn.execute("COMMIT")
        return address_id

    def delete_address(self, address_id: int) -> None:
        with self.db() as conn:
            conn.execute("DELETE FROM addresses WHERE _id = ?", (address_id,))

    def default_address(self, locale: str) -> Address | None:
        found = self.addresses(locale)
        return next((a for a in found if a.is_default), found[0] if found else None)

    def checkout_address(self, locale: str) -> Address | None:
        """The address chosen for the next order, else the default one."""
        chosen = self.pref("checkout_address")
        found = self.address(int(chosen)) if chosen and chosen.isdigit() else None
        return (
            found if found is not None and found in self.addresses(locale) else self.default_address(locale)
        )

    def pref(self, key: str) -> str | None:
        with self.db() as conn:
            row = conn.execute("SELECT value FROM prefs WHERE key = ?", (key,)).fetchone()
        return None if row is None else str(row["value"])

    def set_pref(self, key: str, value: str | None) -> None:
        with self.db() as conn:
            if value is None:
                conn.execute("DELETE FROM prefs WHERE key = ?", (key,))
            else:
                conn.execute("INSERT OR REPLACE INTO prefs VALUES (?, ?)", (key, value))

    # -- coupons --------------------------------------------------------------------------------------
    def coupons(self, locale: str) -> list[Coupon]:
        with self.db() as conn:
            rows = conn.execute("SELECT * FROM coupons WHERE locale = ? ORDER BY _id", (locale,)).fetchall()
        return [
            Coupon(
                r["code"],
                r["title"],
                float(r["min_spend"]),
                float(r["discount"]),
                r["restaurant"] or "",
                r["expires"],
                bool(r["used"]),
            )
            for r in rows
        ]

    # -- orders ---------------------------------------------------------------------------------------
    def place_order(
        self,
        locale: str,
        restaurant: Restaurant,
        lines: list[CartLine],
        address: Address,
        coupon: Coupon | None,
        note: str,
        now: datetime,
        deliver_at: datetime | None = None,
    ) -> int | None:
        """Create an order of `lines` (status `placed`; delivered as soon as possible, or at `deliver_at`),
        mark its coupon used and empty that cart."""
        if not lines:
            return None
        subtotal = round(sum(line.unit_price * line.quantity for line in lines), 2)
        discount = coupon.discount if coupon is not None else 0.0
        total = round(max(0.0, subtotal + restaurant.delivery_fee - discount), 2)
        created = ms(now)
        eta = ms(deliver_at) if deliver_at is not None else created + restaurant.eta_minutes * 60_000
        with self.db() as conn:
            conn.execute("BEGIN")
            seq = conn.execute("SELECT seq FROM sqlite_sequence WHERE name = 'orders'").fetchone()
            order_no = f"E{now:%Y%m%d}-{int(seq['seq']) + 1:04d}"
            cur = conn.execute(
                "INSERT INTO orders (order_no, locale, restaurant, created_at, eta_at, status, subtotal, "
                "delivery_fee, discount, total, coupon, address_id, address, note, scheduled) "
                "VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
                (
                    order_no,
                    locale,
                    restaurant.key,
                    created,
                    eta,
                    "placed",
                    subtotal,
                    restaurant.delivery_fee,
                    discount,
                    total,
                    coupon.code if coupon else "",
                    address.id,
                    address.address,
                    note,
                    int(deliver_at is not None),
                ),
            )
            order_id = int(cur.lastrowid or 0)
            for line in lines:
                conn.execute(
                    "INSERT INTO order_items (order_id, dish, name, size, spice, quantity, unit_price) "
                    "VALUES (?,?,?,?,?,?,?)",
                    (
                        order_id,
                        line.dish.key,
                        line.dish.name,
                        line.size,
                        line.spice,
                        line.quantity,
                        line.unit_price,
                    ),
                )
            if coupon is not None:
                conn.execute("UPDATE coupons SET used = 1 WHERE code = ?", (coupon.code,))
            conn.execute("DELETE FROM cart WHERE restaurant = ?", (restaurant.key,))
            conn.execute("DELETE FROM prefs WHERE key = 'checkout_address'")
            conn.execute("COMMIT")
        return order_id

    def refresh_statuses(self, now_ms: int) -> None:
        """Move open orders along by the phone's clock."""
        with self.db() as conn:
            rows = conn.execute(
                "SELECT _id, created_at, eta_at, status FROM orders "
                "WHERE status IN ('placed', 'preparing', 'on_the_way')"
            ).fetchall()
            for r in rows:
                status = status_at(int(r["created_at"]), int(r["eta_at"]), now_ms)
                if STATUSES.index(status) > STATUSES.index(r["status"]):
                    conn.execute("UPDATE orders SET status = ? WHERE _id = ?", (status, r["_id"]))

    def orders(self, locale: str, now_ms: int) -> list[Order]:
        self.refresh_statuses(now_ms)
        with self.db() as conn:
            orders = conn.execute(
                "SELECT * FROM orders WHERE locale = ? ORDER BY created_at DESC, _id DESC", (locale,)
            ).fetchall()
            items = conn.execute("SELECT * FROM order_items ORDER BY _id").fetchall()
        return [
            Order(
                int(o["_id"]),
                o["order_no"],
                o["restaurant"],
                int(o["created_at"]),
                int(o["eta_at"]),
                o["status"],
                float(o["subtotal"]),
                float(o["delivery_fee"]),
                float(o["discount"]),
                float(o["total"]),
                o["coupon"] or "",
                o["address"] or "",
                o["note"] or "",
                bool(o["scheduled"]),
                tuple(
                    OrderItem(
                        i["dish"],
                        i["name"],
                        i["size"],
                        i["spice"],
                        int(i["quantity"]),
                        float(i["unit_price"]),
                    )
                    for i in items
                    if i["order_id"] == o["_id"]
                ),
            )
            for o in orders
        ]

    def cancel(self, order_id: int) -> bool:
        with self.db() as conn:
            return (
                conn.execute(
                    "UPDATE orders SET status = 'cancelled' WHERE _id = ? AND status = 'placed'", (order_id,)
                ).rowcount
                > 0
            )

    def reorder(self, order: Order, now_ms: int) -> None:
        """Put an order's dishes (with their options) into that restaurant's cart again."""
        dishes = self.dishes()
        for item in order.items:
            dish = dishes.get(item.dish)
            if dish is not None:
                self.add_to_cart(dish, item.size, item.spice, item.quantity, now_ms)
