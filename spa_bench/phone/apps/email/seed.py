"""The Email app's seeded mailboxes: one account per phone language (the English user Alex Chen and
the Chinese user 陈晓明), each with real-looking threads - work, travel, receipts, family - with
look-alike senders and subjects on purpose (two Lisas, two invoices, two meeting changes)."""

from __future__ import annotations

from dataclasses import dataclass

ACCOUNTS = {
    "en": ("Alex Chen", "alex.chen@example.com"),
    "zh": ("陈晓明", "chenxiaoming@example.cn"),
}
LABELS = {"en": ("Work", "Travel", "Family", "Receipts"), "zh": ("工作", "旅行", "家人", "账单")}


@dataclass(frozen=True)
class SeedMessage:
    sender: str  # "Name <addr>"; "" is the account owner
    to: str  # comma-separated addresses; "" is the account owner
    date: str  # "YYYY-MM-DD HH:MM" (UTC)
    body: str
    cc: str = ""
    attachments: tuple[tuple[str, int], ...] = ()  # (file name, size in bytes)


@dataclass(frozen=True)
class SeedThread:
    subject: str
    messages: tuple[SeedMessage, ...]
    folder: str = "inbox"
    labels: tuple[str, ...] = ()
    starred: bool = False
    read: bool = True


EN: tuple[SeedThread, ...] = (
    SeedThread(
        "Q3 planning meeting moved to Thursday",
        (
            SeedMessage(
                "Lisa Park <lisa.park@northwind.com>",
                "",
                "2024-07-22 08:45",
                "Hi Alex,\n\nThe Q3 planning meeting is moved to Thursday, July 25 at 2:30 PM in room 4B. "
                "Please bring the updated budget numbers.\n\nThanks,\n"
                "Lisa Park\nFinance, Northwind · +1 415 555 0163",
                cc="tom.reed@northwind.com",
            ),
        ),
        labels=("Work",),
        read=False,
    ),
    SeedThread(
        "Your flight to Tokyo: booking confirmation",
        (
            SeedMessage(
                "SkyWays Airlines <noreply@skyways.com>",
                "",
                "2024-07-21 19:10",
                "Thank you for booking with SkyWays.\n\nBooking reference: KX7Q2M\nFlight NH 920, "
                "Friday July 12, departs 09:35 from Terminal 2, seat 34A.\n\nHave a pleasant trip!",
                attachments=(("eticket_KX7Q2M.pdf", 48213),),
            ),
        ),
        labels=("Travel",),
        starred=True,
    ),
    SeedThread(
        "Invoice #2024-0615 from BrightNet",
        (
            SeedMessage(
                "BrightNet Billing <billing@brightnet.io>",
                "",
                "2024-07-20 07:00",
                "Your invoice #2024-0615 for internet service is ready. Amount due: $59.99, due by August 5.",
                attachments=(("invoice_2024-0615.pdf", 30870),),
            ),
        ),
        labels=("Receipts",),
    ),
    SeedThread(
        "Invoice #2024-0715 from BrightNet",
        (
            SeedMessage(
                "BrightNet Billing <billing@brightnet.io>",
                "",
                "2024-07-21 07:00",
                "Your invoice #2024-0715 for internet service is ready. Amount due: $64.99, due by "
                "September 5.",
                attachments=(("invoice_2024-0715.pdf", 31022),),
            ),
        ),
        read=False,
    ),
    SeedThread(
        "Dinner on Sunday?",
        (
            SeedMessage(
                "Mom <linda.chen@example.com>",
                "",
                "2024-07-20 18:30",
                "Are you coming for dinner on Sunday? Dad is making dumplings. Come around 6.",
            ),
            SeedMessage("", "linda.chen@example.com", "2024-07-20 19:02", "Yes! I'll bring dessert."),
            SeedMessage(
                "Mom <linda.chen@example.com>",
                "",
                "2024-07-20 19:15",
                "Great, see you then. Don't forget the photos from the trip.",
            ),
        ),
        labels=("Family",),
    ),
    SeedThread(
        "Design review notes",
        (
            SeedMessage(
                "Lisa Wong <lisa.wong@pixelcraft.design>",
                "",
                "2024-07-19 16:05",
                "Hi Alex, here are my notes from today's design review. The new onboarding screens look "
                "great; let's simplify the settings page before Friday.\n\n"
                "Lisa Wong · PixelCraft Design · +1 628 555 0142",
                attachments=(("design_review_notes.docx", 22310),),
            ),
        ),
        labels=("Work",),
    ),
    SeedThread(
        "Book club: August pick",
        (
            SeedMessage(
                "Emma Zhou <emma.zhou@example.com>",
                "",
                "2024-07-18 12:40",
                "Hi all! For August we're reading The Midnight Library. We meet on Wednesday, August 14 "
                "at 7:00 PM at the Corner Café on 5th Street.",
            ),
        ),
        read=False,
    ),
    SeedThread(
        "Your order has shipped",
        (
            SeedMessage(
                "Shop <orders@spa-shop.com>",
                "",
                "2024-07-17 10:22",
                "Good news! Your order SO20240715-0002 has shipped. Tracking number: 1Z 999 AA1 0123 4567 "
                "84. Expected delivery: July 19.",
            ),
        ),
        labels=("Receipts",),
    ),
    SeedThread(
        "Welcome to the team, Alex",
        (
            SeedMessage(
                "Daniel Ortiz <daniel.ortiz@northwind.com>",
                "",
                "2024-07-15 09:00",
                "Welcome aboard! Your onboarding session is on Monday at 10:00 AM. My phone number is "
                "+1 415 555 0177 if you need anything.",
            ),
        ),
        labels=("Work",),
        starred=True,
    ),
    SeedThread(
        "Hiking this weekend",
        (
            SeedMessage(
                "Alice Chen <alice.chen@example.com>",
                "",
                "2024-07-14 20:15",
                "Trail conditions look perfect for Saturday. Meet at the Mission Peak trailhead at 8:00?",
            ),
        ),
    ),
    SeedThread(
        "Weekly newsletter: 5 tips for better sleep",
        (
            SeedMessage(
                "Healthline Weekly <news@healthweekly.com>",
                "",
                "2024-07-13 06:00",
                "1. Keep a regular schedule. 2. Avoid screens an hour before bed. 3. Keep your room cool. "
                "4. Cut caffeine after noon. 5. Get morning sunlight.",
            ),
        ),
        folder="archive",
    ),
    SeedThread(
        "Slides for Monday",
        (
            SeedMessage(
                "",
                "bob.li@example.com",
                "2024-07-12 17:40",
                "Hi Bob, attached are the slides for Monday's kickoff.\n\nAlex",
                attachments=(("kickoff_slides.pdf", 41200),),
            ),
        ),
        folder="sent",
    ),
    SeedThread(
        "Team lunch",
        (SeedMessage("", "tom.reed@northwind.com", "2024-07-11 11:02", "Shall we book the Thai place?"),),
        folder="drafts",
    ),
)

ZH: tuple[SeedThread, ...] = (
    SeedThread(
        "关于周四项目评审会的时间调整",
        (
            SeedMessage(
                "王芳 <wangfang@huaxin-tech.cn>",
                "",
                "2024-07-22 09:10",
                "晓明你好：\n\n原定周三的项目评审会改到7月25日（周四）下午3点，地点在8楼第二会议室，请准备好二季度的"
                "数据汇报。\n\n王芳",
                cc="liuyang@huaxin-tech.cn",
            ),
        ),
        labels=("工作",),
        read=False,
    ),
    SeedThread(
        "【携程旅行】机票出票成功通知",
        (
            SeedMessage(
                "携程旅行 <noreply@ctrip-mail.cn>",
                "",
                "2024-07-21 20:30",
                "尊敬的陈晓明先生：您预订的 7月30日 北京首都 — 成都天府 CA4113 航班已出票，起飞时间 08:15，"
                "订单号 2024073012345。祝您旅途愉快！",
                attachments=(("电子行程单_CA4113.pdf", 45120),),
            ),
        ),
        labels=("旅行",),
        starred=True,
    ),
    SeedThread(
        "您的6月电费账单",
        (
            SeedMessage(
                "国家电网 <service@95598-mail.cn>",
                "",
                "2024-07-05 08:00",
                "尊敬的客户：您6月份的电费为 186.50 元，请于7月20日前缴纳。",
                attachments=(("电费账单_202406.pdf", 21500),),
            ),
        ),
        labels=("账单",),
    ),
    SeedThread(
        "您的7月电费账单",
        (
            SeedMessage(
                "国家电网 <service@95598-mail.cn>",
                "",
                "2024-07-21 08:00",
                "尊敬的客户：您7月份的电费为 243.80 元，请于8月20日前缴纳。",
                attachments=(("电费账单_202407.pdf", 21680),),
            ),
        ),
        read=False,
    ),
    SeedThread(
        "周末回家吃饭",
        (
            SeedMessage(
                "妈妈 <mama1965@example.cn>",
                "",
                "2024-07-20 18:00",
                "儿子，周六中午回家吃饭吧，你爸说要做红烧排骨。",
            ),
            SeedMessage("", "mama1965@example.cn", "2024-07-20 18:20", "好的妈，我周六十一点半到。"),
            SeedMessage(
                "妈妈 <mama1965@example.cn>",
                "",
                "2024-07-20 18:25",
                "好，记得把上次旅游的照片带回来给我们看看。",
            ),
        ),
        labels=("家人",),
    ),
    SeedThread(
        "新版首页设计稿",
        (
            SeedMessage(
                "王芳芳 <wangff@pixel-studio.cn>",
                "",
                "2024-07-19 15:30",
                "陈老师好，新版首页的设计稿已经做好了，请查收附件，有修改意见随时告诉我。\n\n"
                "王芳芳 像素工作室 手机 186 2135 7788",
                attachments=(("首页设计稿_v2.pdf", 47300),),
            ),
        ),
        labels=("工作",),
    ),
    SeedThread(
        "读书会八月书单",
        (
            SeedMessage(
                "韩梅梅 <hanmeimei@example.cn>",
                "",
                "2024-07-18 21:00",
                "大家好！八月份我们一起读《长安的荔枝》，8月10日（周六）下午2点在西单图书大厦三楼咖啡厅见。",
            ),
        ),
        read=False,
    ),
    SeedThread(
        "您的订单已发货",
        (
            SeedMessage(
                "购物 <orders@spa-shop.cn>",
                "",
                "2024-07-17 10:30",
                "您的订单 SO20240715-0003 已发货，顺丰快递单号 SF1402 3387 5521，预计7月19日送达。",
            ),
        ),
        labels=("账单",),
    ),
    SeedThread(
        "入职欢迎",
        (
            SeedMessage(
                "赵磊 <zhaolei@huaxin-tech.cn>",
                "",
                "2024-07-15 09:00",
                "欢迎加入华信科技！周一上午10点在3楼培训室参加入职培训。"
                "我的手机号是 139 1088 6688，有问题随时联系我。",
            ),
        ),
        labels=("工作",),
        starred=True,
    ),
    SeedThread(
        "周六爬香山",
        (
            SeedMessage(
                "李雷 <lilei@example.cn>",
                "",
                "2024-07-14 20:00",
                "周六早上七点半香山东门集合，记得带水和防晒。有事打我电话 135 0123 4567。",
            ),
        ),
    ),
    SeedThread(
        "每周健康资讯：夏季防暑小贴士",
        (
            SeedMessage(
                "健康周刊 <news@jiankang-weekly.cn>",
                "",
                "2024-07-13 07:00",
                "1. 多喝水；2. 避免正午外出；3. 饮食清淡；4. 保证睡眠。",
            ),
        ),
        folder="archive",
    ),
    SeedThread(
        "季度报表",
        (
            SeedMessage(
                "",
                "zhangwei@huaxin-tech.cn",
                "2024-07-12 17:30",
                "张伟你好，二季度报表见附件。\n\n晓明",
                attachments=(("二季度报表.xlsx", 38100),),
            ),
        ),
        folder="sent",
    ),
    SeedThread(
        "团建安排",
        (SeedMessage("", "liuyang@huaxin-tech.cn", "2024-07-11 11:00", "下周五团建去郊区烧烤怎么样？"),),
        folder="drafts",
    ),
)

THREADS = {"en": EN, "zh": ZH}
