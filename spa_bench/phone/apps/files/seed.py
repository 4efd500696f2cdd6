"""What a fresh phone's shared storage holds: realistic downloads, documents, photos and music in both
languages, with fixed modification times so every phone shows the same list.

Binary formats get their format's magic bytes and zero filler (at most 48 kB, so that the snapshots a
run copies stay small): the Files app shows names, dates and sizes, and the few text files (itinerary,
shopping list ...) hold real content that tasks ask about.
"""

from __future__ import annotations

import os
from datetime import UTC, datetime
from pathlib import Path

from spa_bench.phone.vfs import VirtualFS

# virtual path -> (date "YYYY-MM-DD HH:MM", content: text, or size in kB of filler)
SEED_FILES: dict[str, tuple[str, str | int]] = {
    # Download: invoices, reports, tickets - with look-alike names
    "/sdcard/Download/invoice_0423.pdf": ("2024-04-23 10:12", 86),
    "/sdcard/Download/invoice_0523.pdf": ("2024-05-23 09:40", 84),
    "/sdcard/Download/invoice_0623.pdf": ("2024-06-23 11:05", 91),
    "/sdcard/Download/2024年度报告.pdf": ("2025-01-15 16:20", 1450),
    "/sdcard/Download/2023年度报告.pdf": ("2024-01-12 15:02", 1320),
    "/sdcard/Download/boarding_pass_CA1832.pdf": ("2024-07-02 07:30", 64),
    "/sdcard/Download/电子发票_20240611.pdf": ("2024-06-11 20:45", 58),
    "/sdcard/Download/tax_return_2023.pdf": ("2024-03-28 14:10", 240),
    "/sdcard/Download/resume_alex_chen.pdf": ("2024-02-19 21:03", 132),
    "/sdcard/Download/个人简历_王磊.pdf": ("2024-02-20 09:16", 145),
    "/sdcard/Download/租房合同.pdf": ("2023-09-01 18:30", 410),
    "/sdcard/Download/Q3_sales.xlsx": ("2024-10-08 17:55", 38),
    "/sdcard/Download/Q3_sales_final.xlsx": ("2024-10-09 09:02", 41),
    "/sdcard/Download/meeting_notes_0312.docx": ("2024-03-12 12:00", 22),
    "/sdcard/Download/会议纪要_项目启动.docx": ("2024-03-15 16:45", 27),
    "/sdcard/Download/wallpaper_mountains.jpg": ("2024-05-05 22:14", 780),
    "/sdcard/Download/app-release.apk": ("2024-08-30 13:37", 2048),
    "/sdcard/Download/setup_guide.txt": (
        "2024-06-01 08:00",
        "Router setup guide\n1. Plug in the router.\n2. Open 192.168.1.1 and sign in with admin / admin.\n"
        "3. Change the Wi-Fi name and password.\n",
    ),
    # Documents: folders and notes
    "/sdcard/Documents/Work/project_plan.docx": ("2024-04-02 10:00", 35),
    "/sdcard/Documents/Work/budget_2024.xlsx": ("2024-01-08 11:30", 29),
    "/sdcard/Documents/Work/周报_第12周.docx": ("2024-03-22 18:10", 18),
    "/sdcard/Documents/Receipts/receipt_coffee_0102.jpg": ("2024-01-02 08:45", 310),
    "/sdcard/Documents/Receipts/receipt_taxi_0105.jpg": ("2024-01-05 23:12", 295),
    "/sdcard/Documents/Travel/tokyo_itinerary.txt": (
        "2024-06-20 21:00",
        "Tokyo trip, July 12-16\nFlight: NH 920, departs 09:35\nHotel: Hotel Gracery Shinjuku, "
        "confirmation 58213\nDay 2: teamLab Planets at 10:00\n",
    ),
    "/sdcard/Documents/Travel/签证材料清单.txt": (
        "2024-05-30 20:15",
        "签证材料清单\n1. 护照原件\n2. 两寸白底照片两张\n3. 在职证明\n"
        "4. 近六个月银行流水\n5. 机票和酒店预订单\n",
    ),
    "/sdcard/Documents/wifi_passwords.txt": (
        "2024-02-10 19:00",
        "Home: Sunflower-2024\nOffice guest: Blue#Ocean88\nParents' house: 13579qaz\n",
    ),
    "/sdcard/Documents/shopping_list.txt": (
        "2024-06-28 18:20",
        "Shopping list\n- oat milk\n- eggs (12)\n- basmati rice\n- dish soap\n- AA batteries\n",
    ),
    "/sdcard/Documents/读书笔记.txt": (
        "2024-04-18 22:40",
        "《活着》读书笔记\n作者：余华\n最喜欢的一句：人是为活着本身而活着。\n",
    ),
    "/sdcard/Documents/recipe_mapo_tofu.txt": (
        "2024-03-03 17:05",
        "Mapo tofu\n400 g silken tofu, 150 g minced pork, 2 tbsp doubanjiang, 1 tsp Sichuan pepper\n",
    ),
    "/sdcard/Documents/家庭开支.xlsx": ("2024-06-30 21:30", 24),
    "/sdcard/Documents/lease_agreement.pdf": ("2023-09-01 18:35", 388),
    # Pictures and camera
    "/sdcard/Pictures/Screenshots/Screenshot_20240501-093012.png": ("2024-05-01 09:30", 420),
    "/sdcard/Pictures/Screenshots/Screenshot_20240614-201544.png": ("2024-06-14 20:15", 390),
    "/sdcard/Pictures/毕业照.jpg": ("2023-06-28 15:00", 2600),
    "/sdcard/Pictures/family_dinner.jpg": ("2024-02-10 19:40", 2200),
    "/sdcard/Pictures/猫咪.jpg": ("2024-04-04 12:12", 1800),
    "/sdcard/Pictures/IMG_20240312_181502.jpg": ("2024-03-12 18:15", 2400),
    "/sdcard/DCIM/Camera/IMG_20240601_101010.jpg": ("2024-06-01 10:10", 3100),
    "/sdcard/DCIM/Camera/IMG_20240601_101245.jpg": ("2024-06-01 10:12", 3050),
    "/sdcard/DCIM/Camera/IMG_20240615_183000.jpg": ("2024-06-15 18:30", 2980),
    "/sdcard/DCIM/Camera/VID_20240615_183512.mp4": ("2024-06-15 18:35", 4096),
    # Music and movies
    "/sdcard/Music/晴天 - 周杰伦.mp3": ("2023-11-11 11:11", 4200),
    "/sdcard/Music/Bohemian Rhapsody - Queen.mp3": ("2023-12-01 20:00", 5600),
    "/sdcard/Music/podcast_ep12.mp3": ("2024-05-20 07:00", 3900),
    "/sdcard/Movies/birthday_party.mp4": ("2024-02-18 21:00", 4096),
    "/sdcard/Movies/旅行vlog.mp4": ("2024-07-20 22:30", 4096),
}

MAX_KB = 48
_HEADERS = {
    ".pdf": b"%PDF-1.7\n",
    ".jpg": b"\xff\xd8\xff\xe0\x00\x10JFIF\x00",
    ".png": b"\x89PNG\r\n\x1a\n",
    ".mp3": b"ID3\x04\x00\x00",
    ".mp4": b"\x00\x00\x00\x18ftypmp42",
    ".apk": b"PK\x03\x04",
    ".docx": b"PK\x03\x04",
    ".xlsx": b"PK\x03\x04",
}


def _stamp(text: str) -> float:
    return datetime.strptime(text, "%Y-%m-%d %H:%M").replace(tzinfo=UTC).timestamp()


def seed_file_bytes(path: str, content: str | int) -> bytes:
    """The bytes of one seed file: its text, or its format's magic bytes and zero filler."""
    if isinstance(content, str):
        return content.encode("utf-8")
    header = _HEADERS.get(os.path.splitext(path)[1], b"")
    # media are capped so that snapshots (copied per reset) stay small
    return header + bytes(max(0, min(content, MAX_KB) * 1000 - len(header)))


def seed_files() -> list[tuple[str, bytes, float]]:
    """(device path, bytes, mtime in s UTC) of every seed file: the one source of shared storage's seed,
    for the virtual phone and for a real device (spa_bench.device.seeding)."""
    return [(path, seed_file_bytes(path, content), _stamp(date))
            for path, (date, content) in SEED_FILES.items()]


def seed_storage(fs: VirtualFS) -> None:
    """Write the seed files (and give every folder the time of its newest file)."""
    folders: dict[Path, float] = {}
    for path, data, when in seed_files():
        host = fs.host_path(path)
        host.parent.mkdir(parents=True, exist_ok=True)
        host.write_bytes(data)
        os.utime(host, (when, when))
        parent = host.parent
        while parent != fs.host_path("/sdcard").parent:
            folders[parent] = max(folders.get(parent, 0.0), when)
            parent = parent.parent
    for folder, when in sorted(folders.items(), key=lambda item: -len(item[0].parts)):
        os.utime(folder, (when, when))
