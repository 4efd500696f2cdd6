"""The Chat suite through the real pipeline (oracle passes every task - three instances of each
parameterised one - noop none), and the app on a
PhoneOS: sending, a new conversation, sharing a Shop product as a card."""

from __future__ import annotations

from pathlib import Path

from spa_bench.phone.api import PhoneConfig
from spa_bench.phone.system import PhoneOS
from spa_bench.phone.vfs import VirtualFS


def tap(phone: PhoneOS, rid: str = "", text: str = "") -> None:
    view = phone.frame().find(rid=rid, text=text)
    assert view is not None, (rid, text)
    phone.tap(*view.bounds.center)


def test_share_product_then_reply(tmp_path: Path) -> None:
    phone = PhoneOS(PhoneConfig(locale="zh"), VirtualFS(tmp_path / "fs"))
    store = phone.apps["com.spa.chat"].store  # type: ignore[attr-defined]
    phone.start_activity("com.spa.shop")
    phone.start_activity("com.spa.shop", "com.spa.shop.ProductActivity", {"sku": "BOTTLE"})
    tap(phone, "com.spa.shop:id/share")
    assert phone.current_focus() == ("com.spa.chat", "com.spa.chat.ShareActivity")
    tap(phone, text="妈妈")
    tap(phone, "com.spa.chat:id/share_note")
    phone.input_text("这个杯子不错")
    tap(phone, "android:id/button1")
    assert phone.current_focus()[0] == "com.spa.shop"  # back in the app that shared
    mom = next(c for c in store.contacts() if c.name == "妈妈")
    last = store.messages(mom.id)[-2:]
    assert [(m.type, m.body, m.sku, m.id) for m in last] == [
        ("product", "Hydro 不锈钢保温杯 750 毫升", "BOTTLE", 1001), ("text", "这个杯子不错", "", 1002)]
    phone.start_activity("com.spa.chat")
    first = phone.frame().find(rid="com.spa.chat:id/subtitle")
    assert first is not None and first.text == "这个杯子不错"
