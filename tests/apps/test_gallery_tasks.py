"""The Gallery and Camera on a PhoneOS: the seeded pictures are real images, the same on every phone; the
trash and restore keep Files' view of /sdcard right; albums; a picture shared to Chat; the camera's
shot is a JPEG named from the phone's clock (tests/phone/test_camera_pull.py pulls one over adb).
(Every task's oracle and noop run is tests/tasks/test_every_task.py.)"""

from __future__ import annotations

import io
from datetime import UTC, datetime
from pathlib import Path

from PIL import Image

from spa_bench.phone.api import PhoneConfig
from spa_bench.phone.system import PhoneOS
from spa_bench.phone.vfs import VirtualFS

PKG = "com.android.gallery3d"


def tap(phone: PhoneOS, rid: str = "", text: str = "", desc: str = "") -> None:
    view = phone.frame().find(rid=rid, text=text, desc=desc)
    assert view is not None, (rid, text, desc)
    phone.tap(*view.bounds.center)


def test_seeded_pictures_are_real_images(tmp_path: Path) -> None:
    fs = VirtualFS(tmp_path / "fs")
    phone = PhoneOS(PhoneConfig(locale="en"), fs)
    store = phone.apps[PKG].store  # type: ignore[attr-defined]
    photos = store.photos()
    assert len(photos) == 9
    for photo in photos:
        with Image.open(io.BytesIO(fs.read_bytes(photo.path))) as img:
            assert img.format == ("PNG" if photo.name.endswith(".png") else "JPEG"), photo.name
    # the same file, drawn the same way on every phone (a hash of the name picks the scene)
    other = VirtualFS(tmp_path / "fs2")
    PhoneOS(PhoneConfig(locale="zh"), other)
    assert other.read_bytes(photos[0].path) == fs.read_bytes(photos[0].path)
    assert datetime.fromtimestamp(
        fs.stat("/sdcard/DCIM/Camera/IMG_20240615_183000.jpg").mtime, UTC
    ) == datetime(2024, 6, 15, 18, 30, tzinfo=UTC)


def test_trash_restore_and_albums_keep_files_in_step(tmp_path: Path) -> None:
    fs = VirtualFS(tmp_path / "fs")
    phone = PhoneOS(PhoneConfig(locale="en"), fs)
    store = phone.apps[PKG].store  # type: ignore[attr-defined]
    path = "/sdcard/Pictures/family_dinner.jpg"
    store.trash_photo(path, 1_800_000_000_000)
    assert not fs.exists(path) and "family_dinner.jpg" not in fs.listdir("/sdcard/Pictures")
    hidden = [n for n in fs.listdir("/sdcard/Pictures") if n.startswith(".trashed-")]
    assert hidden == [f".trashed-{1_800_000_000 + 30 * 86400}-family_dinner.jpg"]
    assert [p.name for p in store.trashed()] == ["family_dinner.jpg"]
    assert path not in [p.path for p in store.photos()]
    store.restore(store.trashed()[0].path)
    assert fs.exists(path) and store.trashed() == []
    album = store.create_album("Family", 1)
    store.add_to_album(album, path)
    assert store.create_album("Family", 2) == album  # names are unique
    keys = [a.key for a in store.albums()]
    assert (
        keys[:4]
        == [
            "favorites",
            "folder:/sdcard/Pictures",
            "folder:/sdcard/DCIM/Camera",
            "folder:/sdcard/Pictures/Screenshots",
        ]
        and keys[4] == f"album:{album}"
    )
    # the Gallery's share to Chat sends a picture message
    phone.start_activity(PKG, f"{PKG}.PhotoActivity", {"path": path, "album": "all"})
    tap(phone, f"{PKG}:id/action_share")
    tap(phone, f"{PKG}:id/share_chat")
    tap(phone, text="Bob Li")
    tap(phone, "android:id/button1")
    chat = phone.apps["com.spa.chat"].store  # type: ignore[attr-defined]
    bob = next(c for c in chat.contacts() if c.name == "Bob Li")
    last = chat.messages(bob.id)[-1]
    assert (last.type, last.body, last.sku, last.id) == ("image", "family_dinner.jpg", path, 1001)
    assert phone.current_focus()[0] == PKG


def test_camera_names_shots_from_the_clock(tmp_path: Path) -> None:
    fs = VirtualFS(tmp_path / "fs")
    config = PhoneConfig(locale="zh", frozen_clock=datetime(2026, 3, 8, 14, 5, 9, tzinfo=UTC))
    phone = PhoneOS(config, fs)
    phone.start_activity("com.android.camera2")
    tap(phone, "com.android.camera2:id/shutter_button")
    tap(phone, "com.android.camera2:id/shutter_button")
    names = sorted(n for n in fs.listdir("/sdcard/DCIM/Camera") if n.startswith("IMG_2026"))
    assert names == ["IMG_20260308_140509.jpg", "IMG_20260308_140509_1.jpg"]
    with Image.open(io.BytesIO(fs.read_bytes("/sdcard/DCIM/Camera/" + names[0]))) as img:
        assert img.format == "JPEG" and img.size == (1024, 768)
        assert img.getexif()[0x0132] == "2026:03:08 14:05:09"
    tap(phone, "com.android.camera2:id/rounded_thumbnail_view")
    assert phone.current_focus() == (PKG, f"{PKG}.PhotoActivity")
