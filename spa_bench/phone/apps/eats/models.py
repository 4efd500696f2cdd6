"""The Eats app's values, as its screens use them (rows of eats.db, documented in `store.py`)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Restaurant:
    key: str
    locale: str
    name: str
    cuisine: str
    rating: float
    reviews: int
    delivery_fee: float
    min_order: float
    eta_minutes: int
    distance_km: float
    price_level: int
    address: str


@dataclass(frozen=True)
class Dish:
    key: str
    restaurant: str
    section: str
    name: str
    price: float
    description: str
    sizes: tuple[tuple[str, float], ...]
    spices: tuple[str, ...]
    popular: bool

    def unit_price(self, size: str) -> float:
        return round(self.price + dict(self.sizes).get(size, 0.0), 2)


@dataclass(frozen=True)
class CartLine:
    id: int
    dish: Dish
    size: str
    spice: str
    quantity: int
    unit_price: float


@dataclass(frozen=True)
class Address:
    id: int
    label: str
    recipient: str
    phone: str
    address: str
    is_default: bool


@dataclass(frozen=True)
class Coupon:
    code: str
    title: str
    min_spend: float
    discount: float
    restaurant: str
    expires: str
    used: bool

    def applies(self, restaurant: str, subtotal: float, today: str) -> bool:
        return (
            not self.used
            and self.expires >= today
            and subtotal >= self.min_spend
            and self.restaurant in ("", restaurant)
        )


@dataclass(frozen=True)
class OrderItem:
    dish: str
    name: str
    size: str
    spice: str
    quantity: int
    unit_price: float


@dataclass(frozen=True)
class Order:
    id: int
    order_no: str
    restaurant: str
    created_at: int
    eta_at: int
    status: str
    subtotal: float
    delivery_fee: float
    discount: float
    total: float
    coupon: str
    address: str
    note: str
    scheduled: bool
    items: tuple[OrderItem, ...]
