"""The Music and Video apps: their stores (playback position run by the phone's clock, playlists, likes,
speed, captions, resume from history), a share to Chat through the UI, the main screens read back by OCR in
both languages, and every Music, Video and media cross-app task through the real pipeline (oracle passes
three instances of each, noop none), in one run."""

from __future__ import annotations

import sqlite3
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from pim_runs import norm

from spa_bench.phone.api import PhoneConfig
from spa_bench.phone.system import PhoneOS
from spa_bench.phone.system.clock import PhoneClock
from spa_bench.phone.vfs import VirtualFS
from spa_bench.tasks.repository import TaskRepository

MUSIC = "com.android.music"
VIDEO = "com.spa.video"
T0 = datetime(2026, 3, 10, 9, 0)
TASKS = Path(__file__).resolve().parents[2] / "tasks"


def phone_at(tmp_path: Path, locale: str = "en") -> tuple[PhoneOS, PhoneClock]:
    clock = PhoneClock.frozen(T0)
    return PhoneOS(PhoneConfig(locale=locale), VirtualFS(tmp_path / "fs"), clock), clock  # type: ignore[arg-type]


def later(clock: PhoneClock, seconds: float) -> int:
    """Move the phone's clock on; the new time in ms."""
    clock.set_now(clock.now() + timedelta(seconds=seconds))
    return int(clock.now().timestamp() * 1000)


def tap(phone: PhoneOS, package: str, rid: str = "", text: str = "") -> None:
    full = rid if not rid or ":" in rid else f"{package}:id/{rid}"
    view = phone.frame().find(rid=full, text=text)
    assert view is not None, (rid, text)
    phone.tap(*view.bounds.center)


# -- Music ------------------------------------------------------------------------------------------------
def test_music_seed_and_position_follows_the_clock(tmp_path: Path) -> None:
    phone, clock = phone_at(tmp_path)
    store = phone.apps[MUSIC].store  # type: ignore[attr-defined]
    db = tmp_path / "fs/data/data/com.android.music/databases/music.db"
    with sqlite3.connect(db) as conn:
        assert conn.execute("SELECT count(*), count(DISTINCT title) FROM tracks").fetchone() == (48, 48)
        assert conn.execute("SELECT state, track_id FROM playback").fetchone() == ("stopped", None)
    harbor = next(t for t in store.songs() if t.title == "Harbor Lights")  # 4:05, track 2 of its album
    album = store.album_tracks(harbor.album_id)
    now = later(clock, 0)
    store.play([t.id for t in album], 1, now)
    assert store.current(later(clock, 30)).position_at(int(clock.now().timestamp() * 1000)) == 30_000
    store.toggle_play(int(clock.now().timestamp() * 1000))  # pause at 0:30
    paused = store.current(later(clock, 600))
    assert (paused.state, paused.position_ms) == ("paused", 30_000)  # a paused song does not move
    store.toggle_play(int(clock.now().timestamp() * 1000))
    # past the end of Harbor Lights (4:05 = 245 s): the next album track plays, 5 s in
    nxt = store.current(later(clock, 220))
    assert (store.tracks()[nxt.track_id].title, nxt.state, nxt.position_ms) == (
        "Paper Boats",
        "playing",
        5_000,
    )


def test_music_previous_restarts_then_goes_back_and_queue_end_stops(tmp_path: Path) -> None:
    phone, clock = phone_at(tmp_path)
    store = phone.apps[MUSIC].store  # type: ignore[attr-defined]
    album = store.album_tracks(1)  # Salt and Stars, Harbor Lights, Paper Boats, Slow Tide
    store.play([t.id for t in album], 3, later(clock, 0))
    store.skip(-1, later(clock, 10))  # 10 s in: previous restarts the song
    assert (store.playback().queue_index, store.playback().position_ms) == (3, 0)
    store.skip(-1, later(clock, 1))  # 1 s in: previous goes to the song before
    assert store.playback().queue_index == 2
    store.skip(1, later(clock, 0))
    # the last song ends with repeat off: the player stops at its end, paused
    end = store.current(later(clock, 301 + 5))
    assert (end.state, end.queue_index, end.position_ms) == ("paused", 3, 301_000)
    assert store.cycle_repeat(later(clock, 0)) == "all"
    store.toggle_play(later(clock, 0))  # at the end: starts the song again
    wrapped = store.current(later(clock, 301 + 2))
    assert (wrapped.queue_index, wrapped.position_ms) == (0, 2_000)  # repeat all wraps round
    assert store.cycle_repeat(later(clock, 0)) == "one"
    one = store.current(later(clock, 225))  # Salt and Stars is 3:42: 2 s + 225 s is 5 s into the replay
    assert (one.queue_index, one.position_ms // 1000) == (0, 5)


def test_music_playlists_and_search(tmp_path: Path) -> None:
    phone, clock = phone_at(tmp_path)
    store = phone.apps[MUSIC].store  # type: ignore[attr-defined]
    titles = {t.id: t.title for t in store.songs()}
    run = next(p for p in store.playlists() if p.name == "Morning Run")
    skyline = next(i for i in run.track_ids if titles[i] == "Skyline Sprint")
    store.move_in_playlist(run.id, skyline, -1)
    store.move_in_playlist(run.id, skyline, -1)
    store.move_in_playlist(run.id, skyline, -1)  # already at the top: stays
    pulse = next(i for i in run.track_ids if titles[i] == "Pulse")
    store.remove_from_playlist(run.id, pulse)
    order = [titles[i] for i in store.playlist(run.id).track_ids]
    assert order == ["Skyline Sprint", "Run the Sky", "Chrome Summer", "Wild Coast"]
    with sqlite3.connect(tmp_path / "fs/data/data/com.android.music/databases/music.db") as conn:
        positions = conn.execute(
            "SELECT position FROM playlist_tracks WHERE playlist_id = ? ORDER BY position", (run.id,)
        ).fetchall()
    assert positions == [(0,), (1,), (2,), (3,)]
    new = store.create_playlist("Gym Mix", later(clock, 0))
    assert new == 5 and store.add_to_playlist(new, skyline) and not store.add_to_playlist(new, skyline)
    # title matches rank first: "golden hour" is a song and the album of three more
    assert [t.title for t in store.search("golden hour")][:2] == ["Golden Hour", "Autumn Train"]
    night = [t.title for t in store.search("夜")]  # 夜行 by title, then the rest of the album 城市夜行
    assert night[0] == "夜行" and sorted(night) == sorted(["夜行", "霓虹下", "末班地铁", "晚风"])
    assert store.search("Hotel California") == []


def test_music_ui_new_playlist_from_a_song(tmp_path: Path) -> None:
    phone, _ = phone_at(tmp_path, "zh")
    store = phone.apps[MUSIC].store  # type: ignore[attr-defined]
    phone.start_activity(MUSIC)
    tap(phone, MUSIC, "search")
    phone.input_text("候鸟")
    tap(phone, MUSIC, "track_more")
    tap(phone, MUSIC, "menu_add_to_playlist")
    tap(phone, MUSIC, "new_playlist_option")
    phone.input_text("周末出游")
    tap(phone, MUSIC, "android:id/button1")
    made = next(p for p in store.playlists() if p.name == "周末出游")
    assert [store.tracks()[i].title for i in made.track_ids] == ["候鸟"]
    tap(phone, MUSIC, "track_item")
    tap(phone, MUSIC, "mini_player")
    assert phone.current_focus() == (MUSIC, "com.android.music.NowPlayingActivity")
    tap(phone, MUSIC, "repeat")
    tap(phone, MUSIC, "like")
    pb = store.playback()
    assert (store.tracks()[pb.track_id].title, pb.state, pb.repeat) == ("候鸟", "playing", "all")
    assert store.is_liked(pb.track_id)


# -- Video ------------------------------------------------------------------------------------------------
def test_video_speed_scales_the_clock_and_history_resumes(tmp_path: Path) -> None:
    phone, clock = phone_at(tmp_path)
    store = phone.apps[VIDEO].store  # type: ignore[attr-defined]
    store.open("v19", later(clock, 0))  # in the history at 320 s
    assert store.player().position_ms == 320_000
    store.set_speed(2.0, later(clock, 10))  # 10 s at 1x
    assert store.current(later(clock, 10)).position_at(int(clock.now().timestamp() * 1000)) == 350_000
    store.toggle_play(later(clock, 0))
    store.open("v20", later(clock, 5))  # not watched before: from the start; v19's place is kept
    with sqlite3.connect(tmp_path / "fs/data/data/com.spa.video/databases/video.db") as conn:
        assert conn.execute("SELECT position_s FROM history WHERE vid = 'v19'").fetchone() == (350,)
        query = "SELECT vid FROM history ORDER BY watched_at DESC, rowid DESC LIMIT 1"
        newest = conn.execute(query).fetchone()
    assert newest == ("v20",)
    assert store.player().position_ms == 0
    store.seek_by(-10_000, later(clock, 0))  # clamps at 0
    assert store.current(later(clock, 0)).position_ms == 0
    store.open("v08", later(clock, 0))  # a premiere cannot be played
    assert store.player().vid == "v20"


def test_video_ui_captions_speed_comment_and_share_to_chat(tmp_path: Path) -> None:
    phone, _ = phone_at(tmp_path)
    store = phone.apps[VIDEO].store  # type: ignore[attr-defined]
    phone.start_activity(VIDEO)
    tap(phone, VIDEO, "search")
    phone.input_text("Kyoto")
    tap(phone, VIDEO, "video_item")
    tap(phone, VIDEO, "captions")
    assert phone.frame().find(rid=f"{VIDEO}:id/captions_ja") is not None  # v09 has Japanese captions
    assert phone.frame().find(rid=f"{VIDEO}:id/captions_ko") is None
    tap(phone, VIDEO, "captions_ja")
    tap(phone, VIDEO, "speed")
    tap(phone, VIDEO, "speed_075")
    assert phone.frame().find(rid=f"{VIDEO}:id/subtitle_text", text="皆さん、こんにちは！") is not None
    tap(phone, VIDEO, "comment_input")
    phone.input_text("Saving this for spring")
    tap(phone, VIDEO, "post_comment")
    player = store.player()
    assert (player.vid, player.speed, player.subtitles_on, player.subtitle_lang) == ("v09", 0.75, True, "ja")
    mine = [c for c in store.comments("v09") if c.mine]
    assert [(c.id, c.body) for c in mine] == [(1001, "Saving this for spring")]
    tap(phone, VIDEO, "share")
    tap(phone, "", "", text="Bob Li")
    tap(phone, "", "android:id/button1")
    assert phone.current_focus()[0] == VIDEO  # back in the app that shared
    with sqlite3.connect(tmp_path / "fs/data/data/com.spa.chat/databases/chat.db") as conn:
        sent = conn.execute("SELECT type, body FROM messages WHERE _id > 1000").fetchall()
    assert sent == [("text", "Three Days in Kyoto on a Budget https://video.spa/watch?v=v09")]


# -- OCR of the main screens --------------------------------------------------------------------------------
OCR_EXPECTED = {
    ("en", MUSIC): ["Music", "Songs", "Albums", "Playlists", "Shuffle all"],
    ("zh", MUSIC): ["音乐", "歌曲", "专辑", "歌单", "随机播放全部"],
    ("en", VIDEO): ["Video", "Food", "Travel", "Premiere", "Library"],
    ("zh", VIDEO): ["视频", "美食", "旅行", "首映", "我的"],
}


@pytest.mark.slow
@pytest.mark.parametrize(("locale", "package"), sorted(OCR_EXPECTED))
def test_main_screen_is_readable(ocr: Any, tmp_path: Path, locale: str, package: str) -> None:
    phone = PhoneOS(PhoneConfig(locale=locale), VirtualFS(tmp_path / "fs"))  # type: ignore[arg-type]
    phone.start_activity(package)
    image = phone.screenshot()
    image.save(tmp_path / f"{package}_{locale}.png")
    read = [norm(t) for t in (ocr(image).txts or ())]
    missing = [label for label in OCR_EXPECTED[(locale, package)] if not any(norm(label) in r for r in read)]
    assert not missing, (missing, read)


# -- every task, oracle and noop -----------------------------------------------------------------------------
def _media_ids() -> tuple[list[str], list[str]]:
    records = [
        r
        for r in TaskRepository(TASKS).index()
        if r.suite in ("music", "video")
        or r.id.startswith(("cross_video_", "cross_music_", "cross_chat_song_", "cross_note_songs_"))
    ]
    return [r.id for r in records if not r.parameterised], [r.id for r in records if r.parameterised]
