"""Maps on a PhoneOS and its pieces: routes (distance and time per mode), the store (search, saved lists,
search history per city) and the screens (directions with another start, sharing a place to Messages)."""

from __future__ import annotations

from pathlib import Path

import pytest

from spa_bench.phone.api import PhoneConfig
from spa_bench.phone.apps.maps.geo import MODES, distance_text, duration_text, great_circle_km, route
from spa_bench.phone.apps.maps.seed import HERE, PLACES
from spa_bench.phone.apps.maps.store import MapsStore
from spa_bench.phone.system import PhoneOS
from spa_bench.phone.vfs import VirtualFS

PKG = "com.spa.maps"
ID = f"{PKG}:id/"


def test_routes() -> None:
    # Union Square to the Ferry Building: about 1.6 km as the crow flies
    ferry = next(p for p in PLACES if p.key == "ferry_building")
    assert 1.4 < great_circle_km(HERE["sf"], (ferry.lat, ferry.lon)) < 1.8
    by_mode = {m: route(HERE["sf"], (ferry.lat, ferry.lon), m) for m in MODES}
    assert by_mode["walk"].minutes > by_mode["cycle"].minutes > by_mode["drive"].minutes - 5
    assert by_mode["walk"].metres < by_mode["drive"].metres  # driving detours more than walking
    assert route(HERE["sf"], HERE["sf"], "walk").minutes == 1  # never "0 min"
    assert distance_text(2414, imperial=True) == "1.5 mi" and distance_text(20, imperial=True) == "66 ft"
    assert (
        distance_text(1869, imperial=False) == "1.9 公里" and distance_text(620, imperial=False) == "620 米"
    )
    assert duration_text(63, zh=False) == "1 hr 3 min" and duration_text(23, zh=True) == "23 分钟"


@pytest.fixture
def store(tmp_path: Path) -> MapsStore:
    s = MapsStore(lambda: tmp_path / "maps.db")
    s.ensure()
    return s


def test_search_and_saved_lists(store: MapsStore) -> None:
    assert [p.key for p in store.search("sf", "coffee")] == [
        "philz_24th",
        "blue_bottle_hayes",
        "blue_bottle_mint",
    ]
    assert next(p.key for p in store.search("sh", "咖啡")) == "starbucks_roastery"
    assert store.search("sh", "coffee") == [] and store.search("sf", "") == []
    lists = store.lists()
    assert [(lst.id, lst.kind) for lst in lists] == [(1, "favorites"), (2, "want_to_go")]
    assert lists[0].place_keys == ("tartine", "city_lights", "bund", "xiaoyang")
    assert store.toggle_saved(2, "pier_39", 10) and store.is_saved("pier_39")
    assert not store.toggle_saved(2, "pier_39", 11) and not store.is_saved("pier_39")
    new = store.new_list("Date night", 12)
    assert new == 1001 and store.lists()[-1].name == "Date night"
    with pytest.raises(KeyError):
        store.toggle_saved(1, "nowhere", 13)
    store.record_search("sf", "park", 2_000_000_000_000)
    assert store.recent_searches("sf") == ["park", "museum", "coffee"]
    assert store.recent_searches("sh") == ["外滩", "咖啡"]


def _tap(phone: PhoneOS, rid: str = "", text: str = "") -> None:
    view = phone.frame().find(rid=rid, text=text)
    assert view is not None, (rid, text)
    phone.tap(*view.bounds.center)


def test_directions_from_another_place(tmp_path: Path) -> None:
    phone = PhoneOS(PhoneConfig(locale="en"), VirtualFS(tmp_path / "fs"))
    phone.start_activity(PKG, "com.spa.maps.DirectionsActivity", {"destination": "sfmoma"})
    _tap(phone, ID + "origin")
    phone.input_text("pier")
    _tap(phone, text="Pier 39")
    _tap(phone, ID + "mode_cycle")
    pier = next(p for p in PLACES if p.key == "pier_39")
    moma = next(p for p in PLACES if p.key == "sfmoma")
    expected = route((pier.lat, pier.lon), (moma.lat, moma.lon), "cycle")
    shown = phone.frame().find(rid=ID + "route_time")
    assert shown is not None and shown.text == f"{expected.minutes} min"
    with phone.apps[PKG].store.db() as conn:  # type: ignore[attr-defined]
        last = conn.execute(
            "SELECT origin, destination, mode, minutes FROM routes ORDER BY _id DESC"
        ).fetchone()
    assert tuple(last) == ("pier_39", "sfmoma", "cycle", expected.minutes)
    _tap(phone, ID + "swap")
    shown = phone.frame().find(rid=ID + "origin")
    assert shown is not None and shown.text == "SFMOMA"


def test_share_place_to_messages(tmp_path: Path) -> None:
    phone = PhoneOS(PhoneConfig(locale="zh"), VirtualFS(tmp_path / "fs"))
    phone.start_activity(PKG)
    phone.start_activity(PKG, "com.spa.maps.PlaceActivity", {"place": "yuyuan"})
    _tap(phone, ID + "share")
    _tap(phone, ID + "share_messages")
    _tap(phone, "com.android.messaging:id/recipient_text_view")
    phone.input_text("赵敏")
    _tap(phone, "com.android.messaging:id/conversation_name", text="赵敏")
    compose = phone.frame().find(rid="com.android.messaging:id/compose_message_text")
    assert compose is not None and compose.text == "豫园, 上海市黄浦区福佑路 168 号"
