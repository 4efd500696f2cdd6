"""The apps' content follows the SIM's country, their labels the UI language (`--vary locale`).

A US user who switches the phone to Chinese keeps the English mailbox, the US shop priced in dollars and the
restaurants near them in San Francisco, with Chinese labels around them; a Chinese SIM on an English phone
the other way round. With no SIM country set the content follows the UI language, as it always did. All
through the real adb server: `setprop`, `am start` and `uiautomator dump` as an agent or the runner sends
them, on one phone shared by the module."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from conftest import PhoneHandle

EMAIL = "com.android.email/.MainActivity"
SHOP = "com.spa.shop/.MainActivity"
EATS = "com.spa.eats/.MainActivity"
DUMP = "/sdcard/content_locale.xml"
Texts = dict[str, tuple[str, ...]]  # component -> texts

# what each language's content and labels show on the first screen of the three apps
EN_CONTENT = {
    EMAIL: ("Q3 planning meeting moved to Thursday", "Lisa Park"),
    SHOP: ("Atomic Habits", "$16.99"),
    EATS: ("Taco Loco", "Bella Napoli Pizzeria"),
}
ZH_CONTENT = {
    EMAIL: ("关于周四项目评审会的时间调整", "王芳"),
    SHOP: ("原子习惯", "¥16.99"),
    EATS: ("杨记麻辣烫", "港记茶餐厅"),
}
EN_LABELS = {EMAIL: ("Inbox", "Search in Email"), SHOP: ("Recommended for you", "Cart"),
             EATS: ("Restaurants near you", "Search restaurants or dishes")}
ZH_LABELS = {EMAIL: ("收件箱", "搜索邮件"), SHOP: ("为你推荐", "购物车"),
             EATS: ("附近商家", "搜索商家、菜品")}


@pytest.fixture
def phone(running_phone: PhoneHandle) -> PhoneHandle:
    running_phone.reset()  # the boot's state: no SIM country, English
    return running_phone


def texts(handle: PhoneHandle, component: str) -> list[str]:
    """The texts of `component`'s first screen, from the uiautomator dump."""
    handle.shell(f"am start -n {component}")
    xml = handle.shell(f"uiautomator dump {DUMP} >/dev/null && cat {DUMP}")
    return [n.get("text", "") for n in ET.fromstring(xml[xml.index("<?xml"):]).iter("node") if n.get("text")]


def assert_screens(handle: PhoneHandle, content: Texts, labels: Texts, other_content: Texts,
                   other_labels: Texts) -> dict[str, list[str]]:
    """Each app shows its `content` and `labels` and none of the other language's; returns what it shows."""
    shown = {component: texts(handle, component) for component in content}
    for component, found in shown.items():
        for text in (*content[component], *labels[component]):
            assert text in found, f"{component}: {text!r} not in {found}"
        for text in (*other_content[component], *other_labels[component]):
            assert text not in found, f"{component}: {text!r} shown in {found}"
    return shown


def test_us_sim_keeps_the_english_content_under_a_chinese_ui(phone: PhoneHandle) -> None:
    phone.shell("setprop gsm.sim.operator.iso-country us; setprop persist.sys.locale zh-CN")
    assert phone.shell("getprop persist.sys.locale").strip() == "zh-CN"
    assert phone.shell("getprop gsm.sim.operator.iso-country").strip() == "us"
    shown = assert_screens(phone, EN_CONTENT, ZH_LABELS, ZH_CONTENT, EN_LABELS)
    # the US shop and restaurants price in dollars, the address is the San Francisco home
    assert not any(t.startswith("¥") for t in shown[SHOP])
    assert any(t.startswith("送至：") and "San Francisco" in t for t in shown[EATS])
    assert any(t.endswith(" · $$") for t in shown[EATS]) and not any("¥" in t for t in shown[EATS])
    # the thread list's dates are the UI's format, and "me" the UI's word
    assert "2024/7/22" in shown[EMAIL]
    assert any(t.startswith("Mom, 我") for t in shown[EMAIL])


def test_chinese_sim_keeps_the_chinese_content_under_an_english_ui(phone: PhoneHandle) -> None:
    phone.shell("setprop gsm.sim.operator.iso-country cn; setprop persist.sys.locale en-US")
    assert phone.shell("getprop gsm.sim.operator.iso-country").strip() == "cn"
    shown = assert_screens(phone, ZH_CONTENT, EN_LABELS, EN_CONTENT, ZH_LABELS)
    assert not any(t.startswith("$") for t in shown[SHOP])
    assert any(t.startswith("Deliver to: ") and "上海市" in t for t in shown[EATS])
    assert any(t.endswith(" · ¥¥") for t in shown[EATS]) and not any("$" in t for t in shown[EATS])
    assert "7/22/24" in shown[EMAIL]
    assert any(t.startswith("妈妈, me") for t in shown[EMAIL])


@pytest.mark.parametrize("locale", ["zh-CN", "en-US"])
def test_without_a_sim_country_the_content_follows_the_ui(phone: PhoneHandle, locale: str) -> None:
    phone.shell(f"setprop persist.sys.locale {locale}")
    zh = locale == "zh-CN"
    assert phone.shell("getprop gsm.sim.operator.iso-country").strip() == ("cn" if zh else "us")
    if zh:
        assert_screens(phone, ZH_CONTENT, ZH_LABELS, EN_CONTENT, EN_LABELS)
    else:
        assert_screens(phone, EN_CONTENT, EN_LABELS, ZH_CONTENT, ZH_LABELS)
