"""Every string of the Calendar app, English and Simplified Chinese (Google Calendar's wording)."""

from __future__ import annotations

from spa_bench.phone.i18n import Strings

MONTHS = (
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
)
WEEKDAYS = (
    ("Monday", "星期一"),
    ("Tuesday", "星期二"),
    ("Wednesday", "星期三"),
    ("Thursday", "星期四"),
    ("Friday", "星期五"),
    ("Saturday", "星期六"),
    ("Sunday", "星期日"),
)
WEEK_LETTERS = (("M", "一"), ("T", "二"), ("W", "三"), ("T", "四"), ("F", "五"), ("S", "六"), ("S", "日"))

STRINGS = Strings(
    {
        "app_name": ("Calendar", "日历"),
        "today": ("Today", "今天"),
        "month_view": ("Month view", "月视图"),
        "day_view": ("Day view", "日视图"),
        "previous": ("Previous", "上一页"),
        "next": ("Next", "下一页"),
        "new_event": ("New event", "新建活动"),
        "edit_event": ("Edit event", "修改活动"),
        "delete_event": ("Delete event", "删除活动"),
        "delete_title": ("Delete this event?", "要删除此活动吗？"),
        "deleted": ("Event deleted", "已删除活动"),
        "saved": ("Event saved", "已保存活动"),
        "no_events": ("No events", "没有活动"),
        "all_day": ("All day", "全天"),
        "title": ("Title", "标题"),
        "add_title": ("Add title", "添加标题"),
        "date": ("Date (YYYY-MM-DD)", "日期（年-月-日）"),
        "start_time": ("Start time", "开始时间"),
        "end_time": ("End time", "结束时间"),
        "location": ("Location", "地点"),
        "description": ("Description", "说明"),
        "save": ("Save", "保存"),
        "cancel": ("Cancel", "取消"),
        "delete": ("Delete", "删除"),
        "invalid": ("Check the date and times", "请检查日期和时间"),
        "navigate_up": ("Navigate up", "向上导航"),
        "month_title": ("{month} {year}", "{year}年{month}"),
    }
)
