"""What keeps a phone process small: glibc malloc calls that are no-ops elsewhere, a bounded set of open
font faces, a malloc trim once the phone is idle, and a zygote that forks with no face open."""

from __future__ import annotations

from pathlib import Path

import pytest

from spa_bench.phone import foreground, malloc, zygote
from spa_bench.phone.ui import fonts


def test_malloc_calls_do_nothing_without_glibc(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(malloc, "_libc", lambda: None)
    assert malloc.trim() is False
    assert malloc.mallopt(malloc.M_ARENA_MAX, 1) is False


def test_malloc_trim_answers_on_this_platform() -> None:
    assert isinstance(malloc.trim(), bool)


def test_the_font_keeps_only_the_last_faces_open_and_draws_the_same_after_closing_them() -> None:
    sizes = range(20, 20 + fonts.FACES + 3)
    for size in sizes:
        fonts.font(size)
    assert fonts._load.cache_info().currsize == fonts.FACES
    before = fonts.font(sizes[0]).getmask2("Face 42", "L")[0]
    fonts.close_faces()
    assert fonts._load.cache_info().currsize == 0
    after = fonts.font(sizes[0]).getmask2("Face 42", "L")[0]
    assert (after.size, bytes(after)) == (before.size, bytes(before))


def test_idle_trim_trims_once_after_work_and_never_while_busy(monkeypatch: pytest.MonkeyPatch) -> None:
    trims: list[None] = []
    monkeypatch.setattr(malloc, "trim", lambda: trims.append(None) or True)
    commands = [0]
    idle = foreground.IdleTrim(lambda: commands[0])
    idle.tick()
    assert trims == []  # idle since it started: nothing to hand back
    for _ in range(3):  # busy: a command between every two ticks
        commands[0] += 1
        idle.tick()
    assert trims == []
    idle.tick()
    idle.tick()
    assert len(trims) == 1  # once, at the first tick without a command


@pytest.mark.skipif(not zygote.zygote_supported(), reason="the zygote needs Linux (fork, pidfd)")
def test_the_zygote_forks_with_no_font_face_open() -> None:
    # FreeType maps the font file once per open face: the zygote's maps name it only if a face is open
    pid = zygote.shared_zygote().process.pid
    maps = Path(f"/proc/{pid}/maps").read_text()
    assert Path(fonts.font_path()).name not in maps
