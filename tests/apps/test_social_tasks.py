"""Circle (com.spa.social): the store and screens on a PhoneOS (seeded networks per language, likes and
their counts, replies, follows, delete, the photo picker, sharing a post to Chat), and every Circle task -
single-app and cross-app, both languages, three instances of each parameterised one - through the real
pipeline in one run: the oracle passes every instance and noop none."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from spa_bench.phone.api import PhoneConfig
from spa_bench.phone.apps.social.store import FIRST_NEW_ID, SocialStore
from spa_bench.phone.system import PhoneOS
from spa_bench.phone.vfs import VirtualFS
from spa_bench.tasks.repository import TaskRepository

PKG = "com.spa.social"
TASKS = Path(__file__).resolve().parents[2] / "tasks"


def tap(phone: PhoneOS, rid: str = "", text: str = "", desc: str = "") -> None:
    view = phone.frame().find(rid=f"{PKG}:id/{rid}" if rid and ":" not in rid else rid, text=text, desc=desc)
    assert view is not None, (rid, text, desc)
    phone.tap(*view.bounds.center)


def texts(phone: PhoneOS, rid: str) -> list[str]:
    return [v.text for v in phone.frame().views() if v.rid == f"{PKG}:id/{rid}"]


def store_of(phone: PhoneOS) -> SocialStore:
    return phone.apps[PKG].store  # type: ignore[attr-defined,no-any-return]


def test_seeded_networks_are_per_language(tmp_path: Path) -> None:
    phone = PhoneOS(PhoneConfig(locale="zh"), VirtualFS(tmp_path / "fs"))
    store = store_of(phone)
    zh, en = store.feed("zh"), store.feed("en")
    assert zh and en and {p.id for p in zh}.isdisjoint({p.id for p in en})
    assert [p.created_at for p in zh] == sorted((p.created_at for p in zh), reverse=True)
    assert max(p.id for p in zh + en) < FIRST_NEW_ID
    me = store.user(1, "zh")
    assert me is not None and me.name == "陈晓明" and me.following == 5
    event = store.post(114, "zh")
    assert event is not None and "{date}" not in event.text and "月" in event.text
    phone.start_activity(PKG)
    assert texts(phone, "author_name")[0] == "小鹿爱吃饭"  # newest first: 3 hours ago


def test_like_counts_follow_the_owner_and_replies_point_at_their_comment(tmp_path: Path) -> None:
    phone = PhoneOS(PhoneConfig(locale="en"), VirtualFS(tmp_path / "fs"))
    store = store_of(phone)
    assert store.toggle_like(2) is True
    post = store.post(2, "en")
    assert post is not None and post.liked and post.likes == 129
    assert store.toggle_like(2) is False
    post = store.post(2, "en")
    assert post is not None and not post.liked and post.likes == 128
    phone.start_activity(PKG, "com.spa.social.PostActivity", {"post_id": 1})
    tap(phone, "reply_button", desc="Reply to Sofia Rossi")
    phone.input_text("Same here!")
    tap(phone, "send_comment")
    last = store.comments(1, "en")[-1]
    assert (last.id, last.author.id, last.parent and last.parent.name, last.text) == (
        FIRST_NEW_ID, 1, "Sofia Rossi", "Same here!")
    assert texts(phone, "comment_text")[-1] == "@Sofia Rossi Same here!"


def test_search_follow_and_delete_own_post(tmp_path: Path) -> None:
    phone = PhoneOS(PhoneConfig(locale="en"), VirtualFS(tmp_path / "fs"))
    store = store_of(phone)
    phone.start_activity(PKG)
    tap(phone, "nav_search")
    phone.input_text("chloe")
    phone.press_key(66)
    assert texts(phone, "user_name") == ["Chloe Kim", "Chloe Kimball"]
    follow = [v for v in phone.frame().views() if v.rid == f"{PKG}:id/follow_button"]
    assert [v.text for v in follow] == ["Following", "Follow"]
    phone.tap(*follow[1].bounds.center)
    user = store.user(17, "en")
    assert user is not None and user.followed and user.followers == 641
    phone.start_activity(PKG, "com.spa.social.PostActivity", {"post_id": 24})
    tap(phone, "post_menu")
    tap(phone, "android:id/button1")
    assert [p.id for p in store.posts_by(1, "en")] == [22, 23]
    assert not store.comments(24, "en")
    with sqlite3.connect(tmp_path / "fs/data/data/com.spa.social/databases/social.db") as conn:
        assert conn.execute("SELECT COUNT(*) FROM comments WHERE post_id = 24").fetchone() == (0,)


def test_compose_with_a_picked_photo(tmp_path: Path) -> None:
    phone = PhoneOS(PhoneConfig(locale="zh"), VirtualFS(tmp_path / "fs"))
    phone.start_activity(PKG)
    tap(phone, "nav_compose")
    tap(phone, "post_input")
    phone.input_text("周末野餐")
    tap(phone, "topic_input")
    phone.input_text("#周末去哪儿#")
    tap(phone, "add_photo")
    names = texts(phone, "photo_name")
    assert names[0] == "IMG_20240615_183000.jpg" and "猫咪.jpg" in names  # newest first
    assert "VID_20240615_183512.mp4" not in names
    tap(phone, "photo_name", text="猫咪.jpg")
    tap(phone, "visibility_friends")
    tap(phone, "post_button")
    mine = store_of(phone).posts_by(1, "zh")[0]
    assert (mine.id, mine.text, mine.topic, mine.image, mine.visibility) == (
        FIRST_NEW_ID, "周末野餐", "周末去哪儿", "/sdcard/Pictures/猫咪.jpg", "friends")


def test_a_real_photo_shows_its_own_pixels(tmp_path: Path) -> None:
    """A decodable image in DCIM is drawn from its pixels; the seeded placeholders get a drawn scene."""
    from PIL import Image

    fs = VirtualFS(tmp_path / "fs")
    phone = PhoneOS(PhoneConfig(locale="en"), fs)
    Image.new("RGB", (64, 48), (255, 0, 0)).save(fs.host_path("/sdcard/DCIM/Camera/IMG_20991231_235959.png"))
    phone.start_activity(PKG, "com.spa.social.ComposeActivity")
    tap(phone, "add_photo")
    tiles = [v for v in phone.frame().views() if v.rid == f"{PKG}:id/photo_item"]
    assert tiles[0].desc == "/sdcard/DCIM/Camera/IMG_20991231_235959.png"  # newest first
    x, y = tiles[0].bounds.left + tiles[0].bounds.width // 2, tiles[0].bounds.top + tiles[0].bounds.width // 2
    assert phone.screenshot().convert("RGB").getpixel((x, y)) == (255, 0, 0)
    x, y = tiles[1].bounds.left + tiles[1].bounds.width // 2, tiles[1].bounds.top + tiles[1].bounds.width // 2
    assert phone.screenshot().convert("RGB").getpixel((x, y)) != (255, 0, 0)


def test_notifications_list_likes_and_comments_on_my_posts(tmp_path: Path) -> None:
    phone = PhoneOS(PhoneConfig(locale="en"), VirtualFS(tmp_path / "fs"))
    notices = store_of(phone).notices("en")
    assert {n.post_id for n in notices} == {22, 23, 24}
    assert [n.created_at for n in notices] == sorted((n.created_at for n in notices), reverse=True)
    assert sum(n.kind == "like" for n in notices) == 5 and all(n.who.id != 1 for n in notices)
    phone.start_activity(PKG)
    tap(phone, "nav_notifications")
    # newest first: Sofia's comment came 26 hours ago, under the sourdough posted 28 hours ago
    assert texts(phone, "notification_text")[0] == "Sofia Rossi commented: Bread twins! I baked one yesterday"


def test_share_a_post_to_chat(tmp_path: Path) -> None:
    phone = PhoneOS(PhoneConfig(locale="en"), VirtualFS(tmp_path / "fs"))
    chat = phone.apps["com.spa.chat"].store  # type: ignore[attr-defined]
    phone.start_activity(PKG, "com.spa.social.PostActivity", {"post_id": 6})
    tap(phone, "share_button")
    assert phone.current_focus() == ("com.spa.chat", "com.spa.chat.ShareActivity")
    tap(phone, text="Bob Li")
    tap(phone, "android:id/button1")
    assert phone.current_focus()[0] == PKG
    bob = next(c for c in chat.contacts() if c.name == "Bob Li")
    last = chat.messages(bob.id)[-1]
    assert (last.type, last.sku, last.id) == ("post", "post:6", 1001)
    assert last.body.startswith("Liam O'Connor: Golden hour at Baker Beach")


def _social_tasks() -> tuple[list[str], list[str]]:
    records = [r for r in TaskRepository(TASKS).index() if "social" in r.tags]
    return [r.id for r in records if not r.parameterised], [r.id for r in records if r.parameterised]
