"""The Music app's seeded library: a bilingual collection as a listener in either language keeps it
(English-language albums and Mandarin ones side by side), four playlists and a few liked songs.

Artists and albums are invented; durations are in seconds. Track ids follow the order below (1-48).
"""

from __future__ import annotations

# (album, artist, year, genre, ((title, "m:ss"), ...))
ALBUMS: tuple[tuple[str, str, int, str, tuple[tuple[str, str], ...]], ...] = (
    (
        "Harbor Lights",
        "Maya Rivers",
        2021,
        "Indie",
        (
            ("Salt and Stars", "3:42"),
            ("Harbor Lights", "4:05"),
            ("Paper Boats", "3:18"),
            ("Slow Tide", "5:01"),
        ),
    ),
    (
        "Midnight Drive",
        "The Neon Foxes",
        2019,
        "Synth-pop",
        (
            ("City After Rain", "3:55"),
            ("Midnight Drive", "4:20"),
            ("Static Hearts", "3:33"),
            ("Chrome Summer", "3:47"),
        ),
    ),
    (
        "Golden Hour",
        "Elliot Grey",
        2022,
        "Folk",
        (
            ("Golden Hour", "3:12"),
            ("Willow Road", "4:40"),
            ("Letters Home", "3:58"),
            ("Autumn Train", "4:15"),
        ),
    ),
    (
        "Blue Room Sessions",
        "Nina Holt Quartet",
        2018,
        "Jazz",
        (("Blue Room", "6:12"), ("Late Coffee", "5:24"), ("Rainy Tuesday", "4:48"), ("Soft Landing", "5:55")),
    ),
    (
        "Run the Sky",
        "Kite Theory",
        2023,
        "Electronic",
        (("Run the Sky", "3:28"), ("Pulse", "3:05"), ("Skyline Sprint", "3:40"), ("Afterglow", "4:02")),
    ),
    (
        "Wild Coast",
        "Sam Okafor",
        2020,
        "Rock",
        (
            ("Wild Coast", "3:50"),
            ("Gasoline Moon", "4:11"),
            ("Broken Compass", "3:36"),
            ("Home Again", "4:27"),
        ),
    ),
    (
        "城市夜行",
        "林夏",
        2021,
        "流行",
        (("夜行", "4:01"), ("霓虹下", "3:46"), ("末班地铁", "4:22"), ("晚风", "3:39")),
    ),
    (
        "山海之间",
        "陈默",
        2019,
        "民谣",
        (("山海", "4:48"), ("南方小镇", "4:10"), ("旧信", "3:57"), ("候鸟", "5:06")),
    ),
    (
        "十七岁",
        "周小雨",
        2022,
        "流行",
        (("十七岁", "3:35"), ("操场", "3:20"), ("夏天的风", "4:03"), ("蓝色书包", "3:28")),
    ),
    (
        "江南烟雨",
        "苏婉",
        2018,
        "古风",
        (("烟雨", "4:16"), ("青石巷", "3:52"), ("画船", "4:30"), ("月下", "5:12")),
    ),
    (
        "逆光",
        "星火乐队",
        2020,
        "摇滚",
        (("逆光", "4:25"), ("燃烧", "3:41"), ("出发", "3:58"), ("无人之境", "5:20")),
    ),
    (
        "慢慢来",
        "何一帆",
        2023,
        "R&B",
        (("慢慢来", "3:44"), ("咖啡店", "3:31"), ("周末", "3:15"), ("想念", "4:09")),
    ),
)

# (name, track titles in playlist order, created "YYYY-MM-DD HH:MM")
PLAYLISTS: tuple[tuple[str, tuple[str, ...], str], ...] = (
    (
        "Morning Run",
        ("Run the Sky", "Pulse", "Skyline Sprint", "Chrome Summer", "Wild Coast"),
        "2024-05-02 07:10",
    ),
    ("Focus", ("Blue Room", "Late Coffee", "Soft Landing", "Letters Home"), "2024-05-20 09:00"),
    ("通勤路上", ("夜行", "末班地铁", "十七岁", "夏天的风", "出发", "慢慢来"), "2024-06-01 08:15"),
    ("睡前", ("山海", "旧信", "月下", "晚风"), "2024-06-12 22:30"),
)

LIKED: tuple[str, ...] = ("Harbor Lights", "Golden Hour", "Afterglow", "晚风", "南方小镇", "烟雨")
LIKED_AT = "2024-07-01 12:00"


def seconds(mmss: str) -> int:
    minutes, secs = mmss.split(":")
    return int(minutes) * 60 + int(secs)
