"""Public facts about the apps SPA-Bench's tasks use: package, launch activity, names per language.

The importer needs them for cross-app tasks, whose files name apps only by display name ("Keep Notes",
"设置", "Youtube"). Keys are SPA-Bench's `task_app` values; ALIASES maps display-name spellings seen in
its files to keys. A user can extend both with `tasks import-spa-bench --app-map FILE`.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class KnownApp:
    package: str
    activity: str | None
    en: str
    zh: str


KNOWN_APPS: dict[str, KnownApp] = {
    "accuweather": KnownApp("com.accuweather.android", None, "AccuWeather", "AccuWeather"),
    "airbnb": KnownApp("com.airbnb.android", "com.airbnb.android.feat.homescreen.HomeActivity",
                       "Airbnb", "爱彼迎"),
    "alipay": KnownApp("com.eg.android.AlipayGphone", "com.eg.android.AlipayGphone.AlipayLogin",
                       "Alipay", "支付宝"),
    "amazon": KnownApp("com.amazon.mShop.android.shopping", "com.amazon.mShop.navigation.MainActivity",
                       "Amazon", "亚马逊"),
    "bbc": KnownApp("bbc.mobile.news.ww", "com.mobile.MainActivity", "BBC News", "BBC 新闻"),
    "bilibili": KnownApp("tv.danmaku.bili", "tv.danmaku.bili.MainActivityV2", "bilibili", "哔哩哔哩"),
    "chrome": KnownApp("com.android.chrome", "com.google.android.apps.chrome.Main", "Chrome", "Chrome"),
    "clock": KnownApp("com.google.android.deskclock", "com.android.deskclock.DeskClock", "Clock", "时钟"),
    "calendar": KnownApp("com.google.android.calendar",
                         "com.google.android.calendar.AllInOneCalendarActivity", "Calendar", "日历"),
    "douyin": KnownApp("com.ss.android.ugc.aweme", "com.ss.android.ugc.aweme.splash.SplashActivity",
                       "Douyin", "抖音"),
    "ebay": KnownApp("com.ebay.mobile", None, "eBay", "eBay"),
    "eleme": KnownApp("me.ele", "me.ele.Launcher", "Ele.me", "饿了么"),
    "evernote": KnownApp("com.evernote", "com.evernote.MainActivity", "Evernote", "印象笔记"),
    "expedia": KnownApp("com.expedia.bookings", "com.expedia.bookings.launch.PhoneLaunchActivity",
                        "Expedia", "Expedia"),
    "facebook": KnownApp("com.facebook.katana", "com.facebook.katana.activity.FbMainTabActivity",
                         "Facebook", "Facebook"),
    "gaodeditu": KnownApp("com.autonavi.minimap", "com.autonavi.map.activity.SplashActivity",
                          "Amap", "高德地图"),
    "gallery_huawei": KnownApp("com.huawei.photos", None, "Gallery", "图库"),
    "gmail": KnownApp("com.google.android.gm", "com.google.android.gm.ConversationListActivityGmail",
                      "Gmail", "Gmail"),
    "google_play": KnownApp("com.android.vending", "com.android.vending.AssetBrowserActivity",
                            "Google Play Store", "Google Play 商店"),
    "hanglvzongheng": KnownApp("com.umetrip.android.msky.app",
                               "com.umetrip.android.msky.app.module.startup.SplashActivity",
                               "Umetrip", "航旅纵横"),
    "huaweiliulanqi": KnownApp("com.huawei.browser", "com.huawei.browser.Main2", "Huawei Browser",
                               "华为浏览器"),
    "instagram": KnownApp("com.instagram.android", "com.instagram.mainactivity.InstagramMainActivity",
                          "Instagram", "Instagram"),
    "jingdong": KnownApp("com.jingdong.app.mall", "com.jingdong.app.mall.main.MainActivity", "JD", "京东"),
    "keep_notes": KnownApp("com.google.android.keep", "com.google.android.keep.activities.BrowseActivity",
                           "Keep Notes", "Keep 记事"),
    "linkedin": KnownApp("com.linkedin.android", "com.linkedin.android.authenticator.LaunchActivity",
                         "LinkedIn", "领英"),
    "meituan": KnownApp("com.sankuai.meituan", "com.meituan.android.pt.homepage.activity.MainActivity",
                        "Meituan", "美团"),
    "qq": KnownApp("com.tencent.mobileqq", None, "QQ", "QQ"),
    "qqmusic": KnownApp("com.tencent.qqmusic", "com.tencent.qqmusic.activity.AppStarterActivity",
                        "QQ Music", "QQ音乐"),
    "quora": KnownApp("com.quora.android", "com.quora.android.components.activities.QuoraActivity",
                      "Quora", "Quora"),
    "qvnaer": KnownApp("com.Qunar", "com.mqunar.splash.SplashActivity", "Qunar", "去哪儿"),
    "settings": KnownApp("com.android.settings", "com.android.settings.Settings", "Settings", "设置"),
    "spotify": KnownApp("com.spotify.music", "com.spotify.music.MainActivity", "Spotify", "Spotify"),
    "taobao": KnownApp("com.taobao.taobao", "com.taobao.tao.welcome.Welcome", "Taobao", "淘宝"),
    "temu": KnownApp("com.einnovation.temu", "com.baogong.home.activity.HomeActivity", "Temu", "Temu"),
    "tencentdocs": KnownApp("com.tencent.docs", "com.tencent.docs.DocsFlutterActivity", "Tencent Docs",
                            "腾讯文档"),
    "triller": KnownApp("co.triller.droid", None, "Triller", "Triller"),
    "wechat": KnownApp("com.tencent.mm", "com.tencent.mm.ui.LauncherUI", "WeChat", "微信"),
    "weibo": KnownApp("com.weico.international", "com.weico.international.appicon_white", "Weibo", "微博"),
    "whatsapp": KnownApp("com.whatsapp", "com.whatsapp.HomeActivity", "WhatsApp", "WhatsApp"),
    "x": KnownApp("com.twitter.android", "com.twitter.app.main.MainActivity", "X", "X"),
    "xiaohongshu": KnownApp("com.xingin.xhs", "com.xingin.xhs.index.v2.IndexActivityV2", "Xiaohongshu",
                            "小红书"),
    "youtube": KnownApp("com.google.android.youtube", "com.google.android.youtube.HomeActivity",
                        "YouTube", "YouTube"),
    "zhihu": KnownApp("com.zhihu.android", "com.zhihu.android.app.ui.activity.LauncherActivity", "Zhihu",
                      "知乎"),
    "zoom": KnownApp("us.zoom.videomeetings", "com.zipow.videobox.IMActivity", "Zoom", "Zoom"),
}

# Display-name spellings found in SPA-Bench's cross-app files -> keys above (compared case-folded,
# without spaces). Names equal to a key or to a KnownApp's en/zh name need no alias.
ALIASES: dict[str, str] = {
    "setting": "settings",
    "bbcnews": "bbc",
    "googleplaystore": "google_play",
    "keepnotes": "keep_notes",
    "图库": "gallery_huawei",
}


def app_key(name: str) -> str:
    return "".join(name.split()).casefold()


def lookup(name: str, *tables: dict[str, KnownApp]) -> KnownApp | None:
    """Resolve a display name or key: first in `tables` in order (e.g. the user's map), then in
    KNOWN_APPS and its ALIASES."""
    key = app_key(name)
    for table in (*tables, KNOWN_APPS):
        for k, app in table.items():
            if key in (app_key(k), app_key(app.en), app_key(app.zh)):
                return app
    alias = ALIASES.get(key)
    return KNOWN_APPS.get(alias) if alias else None
