"""Every string of the Music app, English and Simplified Chinese."""

from __future__ import annotations

from spa_bench.phone.i18n import Strings

STRINGS = Strings(
    {
        "app_name": ("Music", "音乐"),
        "tab_songs": ("Songs", "歌曲"),
        "tab_albums": ("Albums", "专辑"),
        "tab_playlists": ("Playlists", "歌单"),
        "tab_liked": ("Liked", "我喜欢"),
        "search": ("Search", "搜索"),
        "search_hint": ("Songs, artists, albums", "搜索歌曲、歌手、专辑"),
        "no_results": ("No songs found", "没有找到相关歌曲"),
        "songs_count": ("{n} songs", "{n} 首歌曲"),
        "album_info": ("{artist} · {year} · {n} songs", "{artist} · {year} · {n} 首"),
        "shuffle_all": ("Shuffle all", "随机播放全部"),
        "play_all": ("Play", "播放全部"),
        "new_playlist": ("New playlist", "新建歌单"),
        "playlist_name": ("Playlist name", "歌单名称"),
        "create": ("Create", "创建"),
        "cancel": ("Cancel", "取消"),
        "save": ("Save", "保存"),
        "delete": ("Delete", "删除"),
        "rename": ("Rename", "重命名"),
        "rename_playlist": ("Rename playlist", "重命名歌单"),
        "delete_playlist": ("Delete playlist", "删除歌单"),
        "delete_confirm": (
            "Delete \u201c{name}\u201d? The songs stay in your library.",
            "删除歌单“{name}”？歌曲仍保留在曲库中。",
        ),
        "playlist_empty": ("No songs yet. Add songs from the library.", "还没有歌曲，去曲库添加吧"),
        "liked_empty": ("Songs you like appear here", "你喜欢的歌曲会显示在这里"),
        "add_to_playlist": ("Add to playlist", "添加到歌单"),
        "added_to": ("Added to {name}", "已添加到“{name}”"),
        "already_in": ("Already in {name}", "“{name}”中已有这首歌"),
        "remove_from_playlist": ("Remove from playlist", "从歌单中移除"),
        "move_up": ("Move up", "上移"),
        "move_down": ("Move down", "下移"),
        "like": ("Like", "喜欢"),
        "unlike": ("Remove from Liked", "取消喜欢"),
        "liked_toast": ("Added to Liked", "已添加到我喜欢"),
        "unliked_toast": ("Removed from Liked", "已取消喜欢"),
        "go_to_album": ("Go to album", "查看专辑"),
        "more_options": ("More options", "更多选项"),
        "play": ("Play", "播放"),
        "pause": ("Pause", "暂停"),
        "next": ("Next", "下一首"),
        "previous": ("Previous", "上一首"),
        "shuffle": ("Shuffle", "随机播放"),
        "shuffle_on": ("Shuffle on", "已开启随机播放"),
        "shuffle_off": ("Shuffle off", "已关闭随机播放"),
        "repeat": ("Repeat", "循环"),
        "repeat_off": ("Repeat off", "不循环"),
        "repeat_all": ("Repeat all", "列表循环"),
        "repeat_one": ("Repeat one", "单曲循环"),
        "now_playing": ("Now playing", "正在播放"),
        "nothing_playing": ("Nothing playing", "暂无播放"),
        "playing_from": ("Playing from {name}", "播放来源：{name}"),
        "navigate_up": ("Navigate up", "向上导航"),
        "seek": ("Playback position", "播放进度"),
    }
)


def mmss(seconds: float) -> str:
    """3:05 (durations and positions as music players show them)."""
    s = max(0, int(seconds))
    return f"{s // 60}:{s % 60:02d}"
