"""The Files suite through the real pipeline (oracle passes every task, noop none), and the
browser's operations on a PhoneOS: seeded storage, rename, move, delete, search."""

from __future__ import annotations

from pathlib import Path

from spa_bench.phone.api import PhoneConfig
from spa_bench.phone.system import PhoneOS
from spa_bench.phone.vfs import VirtualFS

PKG = "com.android.documentsui"


def tap(phone: PhoneOS, text: str = "", rid: str = "", long: bool = False) -> None:
    view = phone.frame().find(rid=f"{PKG}:id/{rid}" if rid and ":" not in rid else rid, text=text)
    assert view is not None, (text, rid)
    (phone.long_press if long else phone.tap)(*view.bounds.center)


def test_seeded_storage_and_operations(tmp_path: Path) -> None:
    fs = VirtualFS(tmp_path / "fs")
    phone = PhoneOS(PhoneConfig(locale="en"), fs)
    assert len(fs.listdir("/sdcard/Download")) == 18
    assert "58213" in fs.read_bytes("/sdcard/Documents/Travel/tokyo_itinerary.txt").decode()
    phone.start_activity(PKG)
    tap(phone, "Download")
    tap(phone, "invoice_0423.pdf", long=True)
    tap(phone, rid="action_menu_rename")
    phone.press_key(67)  # the field starts with the old name
    phone.input_text("X")
    tap(phone, rid="android:id/button1")
    assert fs.exists("/sdcard/Download/invoice_0423.pdX")
    tap(phone, "invoice_0623.pdf", long=True)
    tap(phone, rid="action_menu_move_to")
    tap(phone, "Music")
    tap(phone, rid="android:id/button1")
    assert fs.exists("/sdcard/Music/invoice_0623.pdf") and not fs.exists("/sdcard/Download/invoice_0623.pdf")
    phone.press_key(4)  # up to the storage root
    tap(phone, rid="option_menu_search")
    phone.input_text("invoice")
    names = {v.text for v in phone.frame().views() if v.rid == "android:id/title"}
    assert {"invoice_0523.pdf", "invoice_0623.pdf", "invoice_0423.pdX"} <= names


def test_pm_clear_keeps_user_files(tmp_path: Path) -> None:
    fs = VirtualFS(tmp_path / "fs")
    phone = PhoneOS(PhoneConfig(locale="en"), fs)
    fs.remove("/sdcard/Download/app-release.apk")
    phone.clear_package(PKG)
    PhoneOS(PhoneConfig(locale="en"), fs)  # the phone starts again on the same storage
    assert not fs.exists("/sdcard/Download/app-release.apk")
