"""The jailed VirtualFS: normalisation, aliases and the symlink/NUL checks the shell relies on."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from spa_bench.phone.vfs import VfsError, VirtualFS


@pytest.fixture
def fs(tmp_path: Path) -> VirtualFS:
    v = VirtualFS(tmp_path / "root")
    v.root.mkdir()
    v.ensure_layout()
    return v


@pytest.fixture
def outside(tmp_path: Path) -> Path:
    d = tmp_path / "outside"
    d.mkdir()
    (d / "f").write_text("outside")
    return d


@pytest.mark.parametrize(("path", "cwd", "expected"), [
    ("../../etc/passwd", "/sdcard", "/etc/passwd"),
    ("/../../x", "/", "/x"),
    ("a/./b/../c", "/data", "/data/a/c"),
    ("/storage/emulated/0/DCIM", "/", "/sdcard/DCIM"),
    ("//sdcard//x", "/", "/sdcard/x"),
    ("", "/sdcard", "/sdcard"),
])
def test_normalize(path: str, cwd: str, expected: str) -> None:
    assert VirtualFS.normalize(path, cwd) == expected


def test_host_paths_stay_under_root(fs: VirtualFS) -> None:
    assert fs.host_path("../../../etc/passwd", "/sdcard") == fs.root / "etc" / "passwd"
    assert fs.host_path("/") == fs.root


def test_symlinks_out_are_refused(fs: VirtualFS, outside: Path) -> None:
    os.symlink(outside, fs.root / "sdcard" / "out")
    with pytest.raises(VfsError, match="Permission denied"):
        fs.read_bytes("/sdcard/out/f")
    with pytest.raises(VfsError):
        fs.write_bytes("/sdcard/out/new", b"x")
    assert "out" not in fs.listdir("/sdcard")
    assert not fs.exists("/sdcard/out/f")


def test_move_and_copy_recheck_the_final_name(fs: VirtualFS, outside: Path) -> None:
    fs.write_bytes("/sdcard/f", b"inside")
    fs.mkdir("/sdcard/d")
    os.symlink(outside / "f", fs.root / "sdcard" / "d" / "f")
    with pytest.raises(VfsError):
        fs.copy("/sdcard/f", "/sdcard/d")
    with pytest.raises(VfsError):
        fs.move("/sdcard/f", "/sdcard/d")
    assert (outside / "f").read_text() == "outside"
    assert fs.read_bytes("/sdcard/f") == b"inside"


def test_copy_tree_checks_each_entry_and_skips_links(fs: VirtualFS, outside: Path) -> None:
    fs.mkdir("/sdcard/src/sub", parents=True)
    fs.write_bytes("/sdcard/src/sub/a", b"a")
    os.symlink(outside / "f", fs.root / "sdcard" / "src" / "link")
    fs.copy("/sdcard/src", "/sdcard/Download", recursive=True)
    assert fs.read_bytes("/sdcard/Download/src/sub/a") == b"a"
    assert fs.listdir("/sdcard/Download/src") == ["sub"]
    with pytest.raises(VfsError, match="into itself"):
        fs.copy("/sdcard/src", "/sdcard/src/sub", recursive=True)


def test_nul_bytes_are_refused(fs: VirtualFS) -> None:
    with pytest.raises(VfsError, match="Invalid argument"):
        fs.host_path("/sdcard/a\x00b")
    assert not fs.exists("/sdcard/a\x00b")
