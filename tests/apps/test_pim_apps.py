"""Clock, Contacts, Messages and Calendar: each app's main screen read back by OCR in English and Chinese.
Their tasks run in tests/tasks/test_every_task.py and their near misses, kept in the task files, in
tests/tasks/test_near_misses.py."""

from __future__ import annotations

from pathlib import Path
from typing import Any, NamedTuple

import pytest
from pim_runs import missing_labels, ocr_read

pytestmark = [pytest.mark.usefixtures("adb_env"), pytest.mark.slow]


class AppCase(NamedTuple):
    package: str
    labels: dict[str, list[str]]  # what OCR must read on the main screen, per locale


APPS = {
    "clock": AppCase("com.android.deskclock", {
        "en": ["Alarm", "Wake up", "6:30 AM", "Stopwatch", "Timer"],
        "zh": ["闹钟", "工作日", "06:30", "秒表", "计时器", "起床"]}),
    "contacts": AppCase("com.android.contacts", {
        "en": ["Search contacts", "Favourites", "Alice Chen", "Anna Lin", "Bob Li"],
        "zh": ["搜索联系人", "收藏", "王芳", "Anna Lin", "David Kim"]}),
    "messages": AppCase("com.android.messaging", {
        "en": ["Messages", "Alice Chen", "Start chat", "Perfect, see you there"],
        "zh": ["信息", "发起聊天", "张伟", "好的，不见不散"]}),
    "calendar": AppCase("com.android.calendar", {
        "en": ["Team standup", "Lunch with Alice", "Room 301", "9:00 AM"],
        "zh": ["项目评审会", "3号会议室", "星期", "09:00"]}),
}


@pytest.mark.parametrize("locale", ["en", "zh"])
@pytest.mark.parametrize("app", list(APPS))
def test_main_screen_reads_in_both_languages(ocr: Any, tmp_path: Path, app: str, locale: str) -> None:
    case = APPS[app]
    read = ocr_read(ocr, locale, case.package, tmp_path, str(tmp_path / f"{app}_{locale}.png"))
    assert not missing_labels(read, case.labels[locale]), f"OCR read {read}"
