"""The shop's state in SQLite: `/data/data/com.spa.shop/databases/shop.db`.

Tables (what checks read):
- `products(_id, sku, category, brand, title_en, title_zh, price, rating, reviews, colors, sizes, specs)`
  the catalogue (colours and sizes comma-separated, specs JSON);
- `cart(_id, sku, color, size, quantity, added_at)`: one row per product+colour+size;
- `wishlist(sku, added_at)`;
- `orders(_id, order_no, created_at, status, total, address)`: placed orders have status `processing`;
  the three past orders are `delivered`/`shipped`, and new order ids start at 1001;
- `order_items(_id, order_id, sku, title, price, quantity, color, size)`.
A fresh install has the catalogue, three past orders, two wishlist items and one T-shirt in the cart.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from spa_bench.phone.api import Locale
from spa_bench.phone.apps.db import AppDatabase
from spa_bench.phone.apps.shop.catalogue import CATALOGUE, PAST_ORDERS, SEED_CART, SEED_WISHLIST

SCHEMA = """
CREATE TABLE products (_id INTEGER PRIMARY KEY, sku TEXT UNIQUE NOT NULL, category TEXT, brand TEXT,
    title_en TEXT, title_zh TEXT, price REAL, rating REAL, reviews INTEGER, colors TEXT, sizes TEXT,
    specs TEXT);
CREATE TABLE cart (_id INTEGER PRIMARY KEY AUTOINCREMENT, sku TEXT NOT NULL, color TEXT NOT NULL DEFAULT '',
    size TEXT NOT NULL DEFAULT '', quantity INTEGER NOT NULL, added_at INTEGER);
CREATE TABLE wishlist (sku TEXT PRIMARY KEY, added_at INTEGER);
CREATE TABLE orders (_id INTEGER PRIMARY KEY AUTOINCREMENT, order_no TEXT UNIQUE, created_at INTEGER,
    status TEXT, total REAL, address TEXT);
CREATE TABLE order_items (_id INTEGER PRIMARY KEY AUTOINCREMENT, order_id INTEGER, sku TEXT, title TEXT,
    price REAL, quantity INTEGER, color TEXT, size TEXT);
"""
FIRST_NEW_ORDER = 1001


@dataclass(frozen=True)
class Product:
    id: int
    sku: str
    category: str
    brand: str
    title_en: str
    title_zh: str
    price: float
    rating: float
    reviews: int
    colors: tuple[str, ...]
    sizes: tuple[str, ...]
    specs: tuple[tuple[str, str], ...]

    def title(self, locale: Locale) -> str:
        return self.title_zh if locale == "zh" else self.title_en


@dataclass(frozen=True)
class CartLine:
    id: int
    product: Product
    color: str
    size: str
    quantity: int


@dataclass(frozen=True)
class Order:
    id: int
    order_no: str
    created_at: int
    status: str
    total: float
    items: tuple[tuple[str, str, int, str, str], ...]  # sku, title_en, quantity, colour, size


def _ms(text: str) -> int:
    return int(datetime.strptime(text, "%Y-%m-%d %H:%M").replace(tzinfo=UTC).timestamp() * 1000)


def _product(row: sqlite3.Row) -> Product:
    return Product(
        int(row["_id"]),
        row["sku"],
        row["category"],
        row["brand"],
        row["title_en"],
        row["title_zh"],
        float(row["price"]),
        float(row["rating"]),
        int(row["reviews"]),
        tuple(c for c in str(row["colors"]).split(",") if c),
        tuple(s for s in str(row["sizes"]).split(",") if s),
        tuple((str(k), str(v)) for k, v in json.loads(row["specs"])),
    )


class ShopStore(AppDatabase):
    """Open-per-call SQLite access (a snapshot swaps the files underneath)."""

    def __init__(self, path: Callable[[], Path]) -> None:
        super().__init__(path)
        self._products: dict[str, Product] | None = None

    def ensure(self) -> None:
        if self._path().exists():
            return
        with self.db() as conn:
            conn.executescript("BEGIN;" + SCHEMA + "COMMIT;")
            conn.execute("BEGIN")
            for i, p in enumerate(CATALOGUE, start=1):
                sku, cat, brand, en, zh, price, rating, reviews, colors, sizes, specs = p
                conn.execute(
                    "INSERT INTO products VALUES (?,?,?,?,?,?,?,?,?,?,?,?)",
                    (
                        i,
                        sku,
                        cat,
                        brand,
                        en,
                        zh,
                        price,
                        rating,
                        reviews,
                        ",".join(colors),
                        ",".join(sizes),
                        json.dumps(specs),
                    ),
                )
            prices = {p[0]: (p[3], p[5]) for p in CATALOGUE}
            for no, when, status, items in PAST_ORDERS:
                total = round(sum(prices[sku][1] * qty for sku, _c, _s, qty in items), 2)
                cur = conn.execute(
                    "INSERT INTO orders (order_no, created_at, status, total, address) VALUES (?,?,?,?,?)",
                    (no, _ms(when), status, total, "home"),
                )
                for sku, color, size, qty in items:
                    conn.execute(
                        "INSERT INTO order_items (order_id, sku, title, price, quantity, color, size) "
                        "VALUES (?,?,?,?,?,?,?)",
                        (cur.lastrowid, sku, prices[sku][0], prices[sku][1], qty, color, size),
                    )
            conn.execute("UPDATE sqlite_sequence SET seq = ? WHERE name = 'orders'", (FIRST_NEW_ORDER - 1,))
            for sku in SEED_WISHLIST:
                conn.execute("INSERT INTO wishlist VALUES (?, ?)", (sku, _ms("2024-07-01 12:00")))
            for sku, color, size, qty in SEED_CART:
                conn.execute(
                    "INSERT INTO cart (sku, color, size, quantity, added_at) VALUES (?,?,?,?,?)",
                    (sku, color, size, qty, _ms("2024-07-20 20:00")),
                )
            conn.execute("COMMIT")

    # -- catalogue ------------------------------------------------------------------------------------
    def products(self) -> dict[str, Product]:
        """All products by sku (the catalogue never changes on the phone, so it is read once)."""
        if self._products is None:
            self.ensure()
            with self.db() as conn:
                rows = conn.execute("SELECT * FROM products ORDER BY _id").fetchall()
            self._products = {r["sku"]: _product(r) for r in rows}
        return self._products

    def by_id(self, product_id: int) -> Product | None:
        return next((p for p in self.products().values() if p.id == product_id), None)

    # -- cart -----------------------------------------------------------------------------------------
    def cart(self) -> list[CartLine]:
        products = self.products()
        with self.db() as conn:
            rows = conn.execute("SELECT * FROM cart ORDER BY _id").fetchall()
        return [
            CartLine(int(r["_id"]), products[r["sku"]], r["color"], r["size"], int(r["quantity"]))
            for r in rows
            if r["sku"] in products
        ]

    def add_to_cart(self, sku: str, color: str, size: str, quantity: int, now_ms: int) -> None:
        with self.db() as conn:
            row = conn.execute(
                "SELECT _id FROM cart WHERE sku=? AND color=? AND size=?", (sku, color, size)
            ).fetchone()
            if row is None:
                conn.execute(
                    "INSERT INTO cart (sku, color, size, quantity, added_at) VALUES (?,?,?,?,?)",
                    (sku, color, size, quantity, now_ms),
                )
            else:
                conn.execute("UPDATE cart SET quantity = quantity + ? WHERE _id = ?", (quantity, row["_id"]))

    def set_quantity(self, line_id: int, quantity: int) -> None:
        with self.db() as conn:
            if quantity <= 0:
                conn.execute("DELETE FROM cart WHERE _id = ?", (line_id,))
            else:
                conn.execute("UPDATE cart SET quantity = ? WHERE _id = ?", (min(quantity, 99), line_id))

    # -- wishlist -------------------------------------------------------------------------------------
    def wishlist(self) -> list[Product]:
        products = self.products()
        with self.db() as conn:
            rows = conn.execute("SELECT sku FROM wishlist ORDER BY added_at DESC, sku").fetchall()
        return [products[r["sku"]] for r in rows if r["sku"] in products]

    def toggle_wishlist(self, sku: str, now_ms: int) -> bool:
        """Add or remove; True when the product is now in the wishlist."""
        with self.db() as conn:
            if conn.execute("DELETE FROM wishlist WHERE sku = ?", (sku,)).rowcount:
                return False
            conn.execute("INSERT INTO wishlist VALUES (?, ?)", (sku, now_ms))
            return True

    def in_wishlist(self, sku: str) -> bool:
        with self.db() as conn:
            return conn.execute("SELECT 1 FROM wishlist WHERE sku = ?", (sku,)).fetchone() is not None

    # -- orders ---------------------------------------------------------------------------------------
    def place_order(self, lines: list[CartLine], now: datetime, from_cart: bool) -> str | None:
        """Create an order (status `processing`) of `lines`; a cart checkout also empties the cart
        ("Buy now" leaves it alone). Returns the order number."""
        if not lines:
            return None
        total = round(sum(line.product.price * line.quantity for line in lines), 2)
        with self.db() as conn:
            conn.execute("BEGIN")
            seq = conn.execute("SELECT seq FROM sqlite_sequence WHERE name = 'orders'").fetchone()
            order_no = f"SO{now:%Y%m%d}-{int(seq['seq']) + 1:04d}"
            cur = conn.execute(
                "INSERT INTO orders (order_no, created_at, status, total, address) VALUES (?,?,?,?,?)",
                (order_no, int(now.replace(tzinfo=UTC).timestamp() * 1000), "processing", total, "home"),
            )
            for line in lines:
                conn.execute(
                    "INSERT INTO order_items (order_id, sku, title, price, quantity, color, size) "
                    "VALUES (?,?,?,?,?,?,?)",
                    (
                        cur.lastrowid,
                        line.product.sku,
                        line.product.title_en,
                        line.product.price,
                        line.quantity,
                        line.color,
                        line.size,
                    ),
                )
            if from_cart:
                conn.execute("DELETE FROM cart")
            conn.execute("COMMIT")
        return order_no

    def orders(self) -> list[Order]:
        with self.db() as conn:
            orders = conn.execute("SELECT * FROM orders ORDER BY created_at DESC").fetchall()
            items = conn.execute("SELECT * FROM order_items ORDER BY _id").fetchall()
        return [
            Order(
                int(o["_id"]),
                o["order_no"],
                int(o["created_at"]),
                o["status"],
                float(o["total"]),
                tuple(
                    (i["sku"], i["title"], int(i["quantity"]), i["color"], i["size"])
                    for i in items
                    if i["order_id"] == o["_id"]
                ),
            )
            for o in orders
        ]
