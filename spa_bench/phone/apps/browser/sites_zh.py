"""中文站点：百科（长城、西湖、故宫、东方明珠）、本地新闻、生鲜商城、餐厅订座表单和图书馆意见反馈
（上海 / 杭州，2024 年 7 月）。"""

from __future__ import annotations

from spa_bench.phone.apps.browser.web import Page, choice, fact, h, item, link, meta, p, submit, text_field

WIKI = "https://zh.openpedia.org/wiki/"
NEWS = "https://chenbao.cn/"
SHOP = "https://tianyuanxian.cn/"
XIAOGUAN = "https://jiangnanxiaoguan.cn/"
LIBRARY = "https://citylib.cn/"

SHORTCUTS: tuple[tuple[str, str], ...] = (
    ("开放百科", WIKI + "shouye"),
    ("晨报网", NEWS),
    ("田园鲜", SHOP),
    ("江南小馆", XIAOGUAN),
    ("市图书馆", LIBRARY),
)

PAGES: tuple[Page, ...] = (
    Page(
        WIKI + "shouye",
        "开放百科，自由的百科全书",
        (
            h("开放百科"),
            p("人人可编辑的自由百科全书。本周推荐条目："),
            link("长城", WIKI + "changcheng"),
            link("西湖", WIKI + "xihu"),
            link("故宫", WIKI + "gugong"),
            link("东方明珠广播电视塔", WIKI + "dongfangmingzhu"),
        ),
        keywords="百科 词条",
    ),
    Page(
        WIKI + "changcheng",
        "长城 - 开放百科",
        (
            h("长城"),
            p(
                "长城是中国古代的军事防御工程，东起河北山海关，西至甘肃嘉峪关，是世界上修建时间最长、"
                "工程量最大的古代防御工程。"
            ),
            fact("始建", "西周时期"),
            fact("总长度", "21196.18 千米"),
            fact("明长城长度", "8851.8 千米"),
            fact("列入世界遗产", "1987 年"),
            p("现存长城中，北京八达岭、慕田峪等段最为游客熟知。"),
            link("另见：故宫", WIKI + "gugong"),
        ),
        keywords="长城 八达岭 世界遗产 古迹",
    ),
    Page(
        WIKI + "xihu",
        "西湖 - 开放百科",
        (
            h("西湖"),
            p("西湖位于浙江省杭州市西部，以“西湖十景”闻名，是中国主要的观赏性淡水湖泊之一。"),
            fact("所在地", "浙江省杭州市"),
            fact("面积", "6.38 平方千米"),
            fact("平均水深", "2.27 米"),
            fact("列入世界遗产", "2011 年"),
            p("苏堤春晓、断桥残雪、三潭印月等景点吸引着各地游客。"),
        ),
        keywords="西湖 杭州 湖泊 景点",
    ),
    Page(
        WIKI + "gugong",
        "故宫 - 开放百科",
        (
            h("故宫"),
            p("北京故宫是中国明清两代的皇家宫殿，旧称紫禁城，位于北京中轴线的中心。"),
            fact("建成", "1420 年"),
            fact("占地面积", "约 72 万平方米"),
            fact("房屋", "9000 余间"),
            fact("列入世界遗产", "1987 年"),
            p("故宫博物院每周一闭馆（法定节假日除外），门票旺季 60 元。"),
        ),
        keywords="故宫 紫禁城 北京 博物院",
    ),
    Page(
        WIKI + "dongfangmingzhu",
        "东方明珠广播电视塔 - 开放百科",
        (
            h("东方明珠广播电视塔"),
            p("东方明珠广播电视塔位于上海浦东新区陆家嘴，是上海的标志性建筑之一。"),
            fact("高度", "468 米"),
            fact("建成", "1994 年"),
            fact("观光层", "259 米全透明观光廊"),
            fact("地址", "上海市浦东新区世纪大道 1 号"),
        ),
        keywords="东方明珠 上海 电视塔 陆家嘴",
    ),
    Page(
        NEWS,
        "晨报网 - 上海本地新闻",
        (
            h("晨报网"),
            meta("2024 年 7 月 20 日 星期六"),
            link("地铁 18 号线二期 7 月 28 日开通", NEWS + "2024/0719/ditie18"),
            link("市图书馆暑期延长开放至 21 点", NEWS + "2024/0718/tushuguan"),
            link("滨江音乐节本周末开幕", NEWS + "2024/0717/yinyuejie"),
        ),
        keywords="新闻 上海 本地",
    ),
    Page(
        NEWS + "2024/0719/ditie18",
        "地铁 18 号线二期 7 月 28 日开通 - 晨报网",
        (
            h("地铁 18 号线二期 7 月 28 日开通"),
            meta("记者 周晓岚 · 2024 年 7 月 19 日"),
            p("地铁 18 号线二期将于 7 月 28 日首班车起开通运营，新增 8 座车站，线路全长 14.1 千米。"),
            p("开通后，从长江南路站到航头站全程约需 52 分钟，高峰时段行车间隔 4 分钟。"),
            link("返回晨报网", NEWS),
        ),
        keywords="地铁 18号线 交通 开通",
    ),
    Page(
        NEWS + "2024/0718/tushuguan",
        "市图书馆暑期延长开放至 21 点 - 晨报网",
        (
            h("市图书馆暑期延长开放至 21 点"),
            meta("记者 陈立 · 2024 年 7 月 18 日"),
            p("7 月 20 日至 8 月 31 日，市图书馆周一至周四开放时间延长至 21:00，比平时晚两个小时。"),
            p("暑期每位读者可借阅图书 20 册，借期 30 天。"),
            link("市图书馆", LIBRARY),
        ),
        keywords="图书馆 暑期 开放时间 借书",
    ),
    Page(
        NEWS + "2024/0717/yinyuejie",
        "滨江音乐节本周末开幕 - 晨报网",
        (
            h("滨江音乐节本周末开幕"),
            meta("记者 王一鸣 · 2024 年 7 月 17 日"),
            p("第五届滨江音乐节将于 7 月 20 日至 21 日在徐汇滨江举行，共有 24 支乐队参加演出。"),
            p("音乐节每天 16:00 开始，单日票 180 元，两日通票 320 元。"),
        ),
        keywords="音乐节 演出 滨江 周末",
    ),
    Page(
        SHOP,
        "田园鲜 - 新鲜蔬果 当日送达",
        (
            h("田园鲜"),
            meta("今日价格 · 满 59 元免运费"),
            item("阳光玫瑰葡萄 500g", "¥39.90", "云南产地直发"),
            item("赣南脐橙 5 斤装", "¥29.90"),
            item("有机西兰花 400g", "¥8.80"),
            item("土鸡蛋 30 枚", "¥45.00", "散养"),
            item("五常大米 5kg", "¥69.00"),
            item("纯牛奶 250ml×12", "¥42.50"),
            item("云南小粒咖啡豆 500g", "¥58.00"),
            item("冷榨菜籽油 5L", "¥79.00"),
            item("麒麟西瓜 1 个", "¥25.80", "本周特价"),
        ),
        keywords="生鲜 水果 蔬菜 买菜 商城 价格",
    ),
    Page(
        XIAOGUAN,
        "江南小馆 - 杭帮菜",
        (
            h("江南小馆"),
            p("正宗杭帮菜：西湖醋鱼、东坡肉、龙井虾仁。"),
            fact("地址", "上海市黄浦区南京东路 299 号 3 楼"),
            fact("电话", "021-6321 8899"),
            fact("营业时间", "每天 10:30 - 21:30"),
            fact("人均", "¥128"),
            link("在线订座", XIAOGUAN + "yuding"),
        ),
        keywords="餐厅 杭帮菜 订座 吃饭 西湖醋鱼",
    ),
    Page(
        XIAOGUAN + "yuding",
        "在线订座 - 江南小馆",
        (
            h("在线订座"),
            p("座位保留 15 分钟，8 人以上请致电预订。"),
            text_field("name", "姓名"),
            text_field("phone", "手机号"),
            text_field("date", "日期（YYYY-MM-DD）"),
            choice("party", "人数", ("2", "3", "4", "6", "8")),
            choice("time", "时间", ("11:30", "12:00", "17:30", "18:00", "18:30", "19:00")),
            text_field("notes", "备注", required=False),
            submit("提交预订"),
        ),
        keywords="订座 预订 餐厅",
        form="xiaoguan_booking",
        confirm="{name}，您好！已为您预订 {date} {time} 的 {party} 人餐位，预订号 {ref}。",
    ),
    Page(
        LIBRARY,
        "市图书馆",
        (
            h("市图书馆"),
            fact("地址", "上海市徐汇区淮海中路 1555 号"),
            fact("周一至周四", "9:00 - 21:00（暑期）"),
            fact("周五至周日", "9:00 - 17:00"),
            p("持读者证每次可借图书 20 册，借期 30 天，可在线续借一次。"),
            link("意见反馈", LIBRARY + "fankui"),
        ),
        keywords="图书馆 开放时间 借阅",
    ),
    Page(
        LIBRARY + "fankui",
        "意见反馈 - 市图书馆",
        (
            h("意见反馈"),
            p("我们会在五个工作日内答复您的留言。"),
            text_field("name", "姓名"),
            text_field("contact", "手机或邮箱"),
            choice("topic", "类型", ("开放时间", "借阅服务", "活动讲座", "其他")),
            text_field("message", "留言内容"),
            submit("提交"),
        ),
        keywords="反馈 意见 留言 图书馆",
        form="library_fankui",
        confirm="{name}，感谢您的反馈（{topic}），受理编号 {ref}。",
    ),
)
