"""Every string of the Clock app, English and Simplified Chinese (AOSP DeskClock's wording)."""

from __future__ import annotations

from spa_bench.phone.i18n import Strings

DAY_NAMES = (
    ("Monday", "星期一"),
    ("Tuesday", "星期二"),
    ("Wednesday", "星期三"),
    ("Thursday", "星期四"),
    ("Friday", "星期五"),
    ("Saturday", "星期六"),
    ("Sunday", "星期日"),
)
DAY_SHORT = (
    ("Mon", "周一"),
    ("Tue", "周二"),
    ("Wed", "周三"),
    ("Thu", "周四"),
    ("Fri", "周五"),
    ("Sat", "周六"),
    ("Sun", "周日"),
)
DAY_LETTER = (("M", "一"), ("T", "二"), ("W", "三"), ("T", "四"), ("F", "五"), ("S", "六"), ("S", "日"))

STRINGS = Strings(
    {
        "app_name": ("Clock", "时钟"),
        "tab_alarm": ("Alarm", "闹钟"),
        "tab_clock": ("Clock", "时钟"),
        "tab_timer": ("Timer", "计时器"),
        "tab_stopwatch": ("Stopwatch", "秒表"),
        "add_alarm": ("Add alarm", "添加闹钟"),
        "add_label": ("Add label", "添加标签"),
        "label": ("Label", "标签"),
        "delete": ("Delete", "删除"),
        "vibrate": ("Vibrate", "振动"),
        "expand": ("Expand alarm", "展开闹钟"),
        "collapse": ("Collapse alarm", "收起闹钟"),
        "not_scheduled": ("Not scheduled", "未安排"),
        "every_day": ("Every day", "每天"),
        "weekdays": ("Mon–Fri", "工作日"),
        "weekends": ("Sat, Sun", "周末"),
        "enter_time": ("Enter time", "输入时间"),
        "hour": ("Hour", "小时"),
        "minute": ("Minute", "分钟"),
        "am": ("AM", "上午"),
        "pm": ("PM", "下午"),
        "ok": ("OK", "确定"),
        "cancel": ("Cancel", "取消"),
        "invalid_time": ("Enter a valid time", "请输入有效时间"),
        "alarm_on": ("Alarm on", "闹钟已开启"),
        "alarm_off": ("Alarm off", "闹钟已关闭"),
        "alarm_deleted": ("Alarm deleted", "已删除闹钟"),
        "add_city": ("Add city", "添加城市"),
        "search_city": ("Search city", "搜索城市"),
        "select_cities": ("Select cities", "选择城市"),
        "ahead": ("{h} hr ahead", "快 {h} 小时"),
        "behind": ("{h} hr behind", "慢 {h} 小时"),
        "same_time": ("Same time", "时间相同"),
        "hours": ("Hours", "小时"),
        "minutes": ("Minutes", "分钟"),
        "seconds": ("Seconds", "秒"),
        "start": ("Start", "开始"),
        "pause": ("Pause", "暂停"),
        "resume": ("Resume", "继续"),
        "reset": ("Reset", "重置"),
        "lap": ("Lap", "计次"),
        "laps": ("Laps: {n}", "计次：{n}"),
        "delete_timer": ("Delete timer", "删除计时器"),
        "add_timer": ("Add timer", "添加计时器"),
        "timer_running": ("Running", "正在计时"),
        "timer_paused": ("Paused", "已暂停"),
        "navigate_up": ("Navigate up", "向上导航"),
    }
)
