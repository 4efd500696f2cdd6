"""Every string of the Video app, English and Simplified Chinese, and how counts, dates and times show."""

from __future__ import annotations

from datetime import datetime

from spa_bench.phone.api import Locale
from spa_bench.phone.i18n import Strings

STRINGS = Strings(
    {
        "app_name": ("Video", "视频"),
        "tab_home": ("Home", "首页"),
        "tab_library": ("Library", "我的"),
        "search": ("Search", "搜索"),
        "search_hint": ("Search videos", "搜索视频"),
        "no_results": ("No videos found", "没有找到相关视频"),
        "all": ("All", "全部"),
        "cat_food": ("Food", "美食"),
        "cat_tech": ("Tech", "科技"),
        "cat_travel": ("Travel", "旅行"),
        "cat_music": ("Music", "音乐"),
        "cat_sports": ("Fitness", "健身"),
        "cat_knowledge": ("Science", "知识"),
        "cat_gaming": ("Gaming", "游戏"),
        "views": ("{n} views", "{n}次观看"),
        "days_ago": ("{n} days ago", "{n}天前"),
        "today": ("Today", "今天"),
        "yesterday": ("1 day ago", "1天前"),
        "premieres": ("Premieres {when}", "首映 {when}"),
        "premiere_title": ("Premiere", "首映"),
        "premiere_body": (
            "This video premieres {when}. Come back then to watch it.",
            "{when}首映，敬请期待",
        ),
        "ok": ("OK", "确定"),
        "cancel": ("Cancel", "取消"),
        "subscribers": ("{n} subscribers", "{n}位订阅者"),
        "history": ("History", "观看记录"),
        "watch_later": ("Watch later", "稍后观看"),
        "liked_videos": ("Liked videos", "点赞的视频"),
        "clear_history": ("Clear history", "清空记录"),
        "clear_history_confirm": ("Clear all watch history?", "确定清空全部观看记录？"),
        "clear": ("Clear", "清空"),
        "empty": ("Nothing here yet", "这里还没有内容"),
        "like": ("Like", "点赞"),
        "liked": ("Liked", "已点赞"),
        "like_added": ("Added to Liked videos", "已点赞"),
        "like_removed": ("Removed from Liked videos", "已取消点赞"),
        "saved_later": ("Saved to Watch later", "已添加到稍后观看"),
        "removed_later": ("Removed from Watch later", "已从稍后观看中移除"),
        "saved": ("Saved", "已保存"),
        "share": ("Share", "分享"),
        "speed": ("Speed", "倍速"),
        "playback_speed": ("Playback speed", "播放速度"),
        "normal": ("Normal", "正常"),
        "captions": ("Captions", "字幕"),
        "subtitles_off": ("Off", "关闭"),
        "lang_en": ("English", "英语"),
        "lang_zh": ("Chinese", "中文"),
        "lang_ja": ("Japanese", "日语"),
        "subtitles_unavailable": ("No captions in {lang} for this video", "该视频没有{lang}字幕"),
        "play": ("Play", "播放"),
        "pause": ("Pause", "暂停"),
        "rewind": ("Rewind 10 seconds", "后退10秒"),
        "forward": ("Forward 10 seconds", "快进10秒"),
        "seek": ("Playback position", "播放进度"),
        "comments": ("Comments · {n}", "评论 · {n}"),
        "add_comment": ("Add a comment…", "发一条友善的评论"),
        "post": ("Post", "发布"),
        "comment_posted": ("Comment posted", "评论已发布"),
        "you": ("You", "我"),
        "navigate_up": ("Navigate up", "向上导航"),
        "more_options": ("More options", "更多选项"),
        "remove_watch_later": ("Remove from Watch later", "从稍后观看中移除"),
        "save_watch_later": ("Save to Watch later", "添加到稍后观看"),
    }
)


def count(n: int, locale: Locale) -> str:
    """1.2M / 120万 (view and subscriber counts as video apps round them)."""
    if locale == "zh":
        if n >= 100_000_000:
            return f"{n / 100_000_000:.1f}亿".replace(".0亿", "亿")
        if n >= 10_000:
            return f"{n / 10_000:.1f}万".replace(".0万", "万")
        return str(n)
    if n >= 1_000_000:
        return f"{n / 1_000_000:.1f}M".replace(".0M", "M")
    if n >= 1_000:
        return f"{n / 1_000:.0f}K"
    return str(n)


def clock(seconds: float) -> str:
    """8:24 or 1:02:10."""
    s = max(0, int(seconds))
    if s >= 3600:
        return f"{s // 3600}:{s % 3600 // 60:02d}:{s % 60:02d}"
    return f"{s // 60}:{s % 60:02d}"


def when(at: datetime, locale: Locale) -> str:
    """A premiere's date and time: "Wed, Dec 2 at 20:00" / "12月2日 20:00"."""
    if locale == "zh":
        return f"{at.month}月{at.day}日 {at:%H:%M}"
    return f"{at:%a, %b} {at.day} at {at:%H:%M}"
