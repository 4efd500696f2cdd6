"""Every string of the Settings app, English and Simplified Chinese (wording of Android 14's Settings)."""

from __future__ import annotations

from spa_bench.phone.i18n import Strings

STRINGS = Strings(
    {
        "app_name": ("Settings", "设置"),
        "search_hint": ("Search Settings", "搜索设置"),
        "search_none": ("No results", "无结果"),
        "navigate_up": ("Navigate up", "向上导航"),
        # homepage
        "network": ("Network & internet", "网络和互联网"),
        "network_summary": ("Wi‑Fi, mobile, data usage, hotspot", "WLAN、移动网络、流量使用、热点"),
        "connected": ("Connected devices", "已连接的设备"),
        "connected_summary": ("Bluetooth, pairing", "蓝牙、配对"),
        "apps": ("Apps", "应用"),
        "apps_summary": ("Recent apps, default apps", "最近使用的应用、默认应用"),
        "notifications": ("Notifications", "通知"),
        "notifications_summary": ("Notification history, conversations", "通知历史记录、对话"),
        "battery": ("Battery", "电池"),
        "storage": ("Storage", "存储"),
        "sound": ("Sound & vibration", "提示音和振动"),
        "sound_summary": ("Volume, haptics, Do Not Disturb", "音量、触感反馈、勿扰模式"),
        "display": ("Display", "显示"),
        "display_summary": ("Dark theme, font size, brightness", "深色主题、字体大小、亮度"),
        "location": ("Location", "位置信息"),
        "system": ("System", "系统"),
        "system_summary": ("Languages, date & time, keyboard", "语言、日期和时间、键盘"),
        "about": ("About phone", "关于手机"),
        # network
        "wifi": ("Wi‑Fi", "WLAN"),
        "wifi_connected": ("Connected to VirtualWifi", "已连接到 VirtualWifi"),
        "off": ("Off", "已关闭"),
        "on": ("On", "已开启"),
        "mobile_data": ("Mobile data", "移动数据"),
        "mobile_data_summary": ("Access data using mobile network", "使用移动网络访问数据"),
        "airplane": ("Airplane mode", "飞行模式"),
        "airplane_summary": ("Turn off Wi‑Fi, Bluetooth and mobile radios", "关闭 WLAN、蓝牙和移动网络"),
        # connected devices
        "bluetooth": ("Bluetooth", "蓝牙"),
        "use_bluetooth": ("Use Bluetooth", "使用蓝牙"),
        "bluetooth_visible": ("Visible as “{name}” to other devices", "其他设备可以看到“{name}”"),
        "bluetooth_off_summary": (
            "When Bluetooth is turned on, your device can communicate with other nearby Bluetooth devices.",
            "开启蓝牙后，您的设备可以与附近的其他蓝牙设备通信。",
        ),
        # notifications / sound
        "dnd": ("Do Not Disturb", "勿扰模式"),
        "dnd_summary": ("Only get notified by important people and apps", "仅接收重要联系人和应用的通知"),
        "touch_sounds": ("Touch sounds", "触摸提示音"),
        "haptics": ("Vibration & haptics", "振动和触感反馈"),
        # battery
        "battery_level": ("Battery level", "电池电量"),
        "battery_saver": ("Battery Saver", "省电模式"),
        "battery_saver_summary": ("Extends battery life", "延长电池续航时间"),
        "battery_percentage": ("Battery percentage", "电池电量百分比"),
        "battery_percentage_summary": (
            "Show battery percentage in status bar",
            "在状态栏中显示电池电量百分比",
        ),
        # storage
        "storage_used": ("{used} used", "已使用 {used}"),
        "images": ("Images", "图片"),
        "videos": ("Videos", "视频"),
        "audio": ("Audio", "音频"),
        "documents": ("Documents & other", "文档和其他文件"),
        "app_data": ("Apps", "应用"),
        # display
        "brightness": ("Brightness level", "亮度"),
        "brightness_down": ("Decrease brightness", "降低亮度"),
        "brightness_up": ("Increase brightness", "提高亮度"),
        "adaptive_brightness": ("Adaptive brightness", "自动调节亮度"),
        "adaptive_brightness_summary": (
            "Automatically adjust screen brightness to your environment",
            "根据环境自动调节屏幕亮度",
        ),
        "dark_theme": ("Dark theme", "深色主题"),
        "dark_theme_summary": ("Use dark theme", "使用深色主题"),
        "screen_timeout": ("Screen timeout", "屏幕超时"),
        "after": ("After {t} of inactivity", "无操作 {t}后"),
        "seconds": ("{n} seconds", "{n} 秒"),
        "minutes": ("{n} minutes", "{n} 分钟"),
        "minute": ("1 minute", "1 分钟"),
        "cancel": ("Cancel", "取消"),
        "ok": ("OK", "确定"),
        # location
        "use_location": ("Use location", "使用位置信息"),
        "location_summary": (
            "Apps with the Nearby devices permission can determine the relative position of "
            "connected devices.",
            "具有“附近设备”权限的应用可以确定已连接设备的相对位置。",
        ),
        # system
        "languages": ("Languages", "语言"),
        "system_languages": ("System languages", "系统语言"),
        "lang_en": ("English (United States)", "English (United States)"),
        "lang_zh": ("简体中文（中国）", "简体中文（中国）"),
        "date_time": ("Date & time", "日期和时间"),
        "auto_time": ("Set time automatically", "自动设置时间"),
        "use_24h": ("Use 24-hour format", "使用 24 小时制"),
        "time_zone": ("Time zone", "时区"),
        "utc": ("GMT+00:00 Coordinated Universal Time", "GMT+00:00 协调世界时"),
        "keyboard": ("On-screen keyboard", "屏幕键盘"),
        "keyboard_choose": ("Default keyboard", "默认键盘"),
        # about
        "device_name": ("Device name", "设备名称"),
        "model": ("Model", "型号"),
        "android_version": ("Android version", "Android 版本"),
        "build_number": ("Build number", "版本号"),
        "serial": ("Serial number", "序列号"),
        "rename": ("Rename this device", "重命名此设备"),
        # apps
        "all_apps": ("All apps", "所有应用"),
        "app_info": ("App info", "应用信息"),
        "force_stop": ("Force stop", "强行停止"),
        "clear_storage": ("Clear storage", "清除存储空间"),
        "force_stop_title": ("Force stop?", "要强行停止吗？"),
        "force_stop_body": (
            "If you force stop an app, it may misbehave.",
            "如果强行停止某个应用，该应用可能会出现异常。",
        ),
        "clear_title": ("Delete app data?", "要删除应用数据吗？"),
        "clear_body": (
            "All of this app’s data will be deleted permanently. This includes all files, settings, "
            "accounts, databases, etc.",
            "此应用的所有数据都将被永久删除，包括所有文件、设置、帐号、数据库等。",
        ),
        "package_name": ("Package name", "软件包名称"),
        "stopped": ("{app} stopped", "已停止“{app}”"),
        "cleared": ("Storage cleared", "已清除存储空间"),
        "version": ("Version {v}", "版本 {v}"),
    }
)
