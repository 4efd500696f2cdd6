"""The shop's seeded catalogue: 62 products in 9 categories with English and Chinese titles, and
look-alikes on purpose (Earbuds Pro vs Pro 2, three 4K monitors, two power banks ...).

Columns: sku, category, brand, title_en, title_zh, price, rating, reviews, colours, sizes, specs.
Colours are keys translated by the app; specs are (label key, value) with language-neutral values.
"""

from __future__ import annotations

Product = tuple[
    str, str, str, str, str, float, float, int, tuple[str, ...], tuple[str, ...], tuple[tuple[str, str], ...]
]

BT = ("connectivity", "Bluetooth 5.3")
SHOE = ("39", "40", "41", "42", "43", "44")
WEAR = ("S", "M", "L", "XL")

CATALOGUE: tuple[Product, ...] = (
    # audio
    ('EB-PRO', 'audio', 'Aurora', 'Aurora Wireless Earbuds Pro', 'Aurora 无线降噪耳机 Pro', 129.99, 4.6,
     2310, ('black', 'white'), (), (('battery', '30 h'), BT, ('weight', '5.3 g'))),
    ('EB-PRO2', 'audio', 'Aurora', 'Aurora Wireless Earbuds Pro 2', 'Aurora 无线降噪耳机 Pro 2', 169.99,
     4.7, 980, ('black', 'white', 'blue'), (),
     (('battery', '36 h'), ('connectivity', 'Bluetooth 5.4'), ('weight', '5.1 g'))),
    ('EB-LITE', 'audio', 'Aurora', 'Aurora Wireless Earbuds Lite', 'Aurora 无线耳机 青春版', 59.99, 4.2,
     5120, ('white', 'pink'), (), (('battery', '24 h'), BT)),
    ('EB-SPORT', 'audio', 'Pulse', 'Pulse Sport Earbuds', 'Pulse 运动蓝牙耳机', 49.99, 4.3, 1870,
     ('black', 'green'), (), (('battery', '20 h'), BT, ('waterproof', 'IPX7'))),
    ('HP-STUDIO', 'audio', 'Sonix', 'Sonix Studio Headphones', 'Sonix 头戴式录音室耳机', 199.0, 4.8, 760,
     ('black', 'silver'), (), (('connectivity', '3.5 mm'), ('weight', '270 g'))),
    ('HP-NC700', 'audio', 'Sonix', 'Sonix NC700 Noise Cancelling Headphones', 'Sonix NC700 头戴式降噪耳机',
     279.0, 4.6, 1430, ('black', 'silver'), (), (('battery', '40 h'), BT, ('weight', '250 g'))),
    ('HP-KIDS', 'audio', 'Pulse', 'Pulse Kids Headphones', 'Pulse 儿童头戴耳机', 25.99, 4.1, 640,
     ('blue', 'pink'), (), (('connectivity', '3.5 mm'), ('weight', '160 g'))),
    ('SP-MINI', 'audio', 'Boomly', 'Boomly Mini Bluetooth Speaker', 'Boomly 迷你蓝牙音箱', 35.99, 4.4, 3300,
     ('black', 'blue', 'red'), (), (('battery', '12 h'), BT, ('waterproof', 'IP67'))),
    ('SP-MAX', 'audio', 'Boomly', 'Boomly Max Party Speaker', 'Boomly Max 派对音箱', 149.99, 4.5, 420,
     ('black',), (), (('battery', '18 h'), ('power', '80 W'))),
    ('SP-SMART', 'audio', 'Sonix', 'Sonix Smart Speaker', 'Sonix 智能音箱', 89.0, 4.3, 2100,
     ('grey', 'white'), (), (('connectivity', 'Wi-Fi, Bluetooth'), ('power', '20 W'))),
    # phones
    ('PH-X15', 'phones', 'Nova', 'Nova X15 Smartphone', 'Nova X15 智能手机', 699.0, 4.5, 1250,
     ('black', 'blue'), ('128 GB', '256 GB'), (('screen', '6.5" OLED'), ('battery', '5000 mAh'))),
    ('PH-X15P', 'phones', 'Nova', 'Nova X15 Pro Smartphone', 'Nova X15 Pro 智能手机', 899.0, 4.6, 830,
     ('black', 'silver'), ('256 GB', '512 GB'), (('screen', '6.7" OLED'), ('battery', '5200 mAh'))),
    ('PH-A5', 'phones', 'Nova', 'Nova A5 Smartphone', 'Nova A5 智能手机', 249.0, 4.1, 2900,
     ('black', 'green'), ('64 GB', '128 GB'), (('screen', '6.4" LCD'), ('battery', '5000 mAh'))),
    ('PH-CASE15', 'phones', 'Nova', 'Clear Case for Nova X15', 'Nova X15 透明手机壳', 15.99, 4.4, 4100, (),
     (), (('material', 'TPU'),)),
    ('PH-CHG65', 'phones', 'Voltix', 'Voltix 65W Fast Charger', 'Voltix 65W 快速充电器', 29.99, 4.6, 5200,
     ('white',), (), (('power', '65 W'), ('ports', 'USB-C x2'))),
    ('PH-PB20', 'phones', 'Voltix', 'Voltix 20000mAh Power Bank', 'Voltix 20000毫安充电宝', 39.99, 4.5,
     6100, ('black', 'white'), (), (('capacity', '20000 mAh'), ('weight', '380 g'))),
    ('PH-PB10', 'phones', 'Voltix', 'Voltix 10000mAh Power Bank', 'Voltix 10000毫安充电宝', 24.99, 4.4,
     7300, ('black', 'white'), (), (('capacity', '10000 mAh'), ('weight', '210 g'))),
    ('PH-CBL', 'phones', 'Voltix', 'Voltix USB-C Cable 2 m', 'Voltix USB-C 数据线 2 米', 9.99, 4.3, 8800,
     (), (), (('length', '2 m'),)),
    # computers
    ('LP-AIR14', 'computers', 'Lumina', 'Lumina Air 14 Laptop', 'Lumina Air 14 笔记本电脑', 999.0, 4.6, 540,
     ('silver', 'grey'), ('16 GB', '32 GB'), (('screen', '14" 2.8K'), ('weight', '1.2 kg'))),
    ('LP-PRO16', 'computers', 'Lumina', 'Lumina Pro 16 Laptop', 'Lumina Pro 16 笔记本电脑', 1599.0, 4.7,
     310, ('grey',), ('32 GB', '64 GB'), (('screen', '16" 3.2K'), ('weight', '2.1 kg'))),
    ('MN-27-4K', 'computers', 'ViewPeak', 'ViewPeak 27" 4K Monitor', 'ViewPeak 27 英寸 4K 显示器', 329.99,
     4.5, 880, (), (), (('screen', '27" 3840x2160'), ('refresh', '60 Hz'))),
    ('MN-32-4K', 'computers', 'ViewPeak', 'ViewPeak 32" 4K Monitor', 'ViewPeak 32 英寸 4K 显示器', 449.99,
     4.6, 410, (), (), (('screen', '32" 3840x2160'), ('refresh', '60 Hz'))),
    ('MN-24-FHD', 'computers', 'ViewPeak', 'ViewPeak 24" Full HD Monitor', 'ViewPeak 24 英寸全高清显示器',
     139.99, 4.3, 1900, (), (), (('screen', '24" 1920x1080'), ('refresh', '75 Hz'))),
    ('MN-27-QHD', 'computers', 'Orion', 'Orion 27" QHD Gaming Monitor', 'Orion 27 英寸 2K 电竞显示器',
     279.99, 4.6, 720, (), (), (('screen', '27" 2560x1440'), ('refresh', '165 Hz'))),
    ('MN-28-4K', 'computers', 'Orion', 'Orion 28" 4K Monitor', 'Orion 28 英寸 4K 显示器', 299.0, 4.4, 260,
     (), (), (('screen', '28" 3840x2160'), ('refresh', '60 Hz'))),
    ('KB-MECH', 'computers', 'KeyCraft', 'KeyCraft Mechanical Keyboard', 'KeyCraft 机械键盘', 89.99, 4.7,
     1500, ('black', 'white'), (), (('connectivity', 'USB-C, Bluetooth'), ('switches', 'Brown'))),
    ('KB-SLIM', 'computers', 'KeyCraft', 'KeyCraft Slim Wireless Keyboard', 'KeyCraft 超薄无线键盘', 45.99,
     4.4, 2200, ('black', 'white'), (), (BT, ('battery', '3 months'))),
    ('MS-ERGO', 'computers', 'Glide', 'Glide Ergonomic Mouse', 'Glide 人体工学鼠标', 39.99, 4.5, 3100,
     ('black',), (), (BT, ('dpi', '4000'))),
    ('MS-GAME', 'computers', 'Glide', 'Glide Gaming Mouse', 'Glide 电竞鼠标', 49.99, 4.6, 2700,
     ('black', 'white'), (), (('connectivity', 'USB'), ('dpi', '26000'))),
    ('HUB-7', 'computers', 'Voltix', 'Voltix 7-in-1 USB-C Hub', 'Voltix 七合一 USB-C 扩展坞', 34.99, 4.3,
     1600, ('grey',), (), (('ports', 'HDMI, USB-A x3, SD, PD'),)),
    # home
    ('LAMP-DESK', 'home', 'Lumo', 'Lumo LED Desk Lamp', 'Lumo LED 护眼台灯', 32.99, 4.6, 2500,
     ('white', 'black'), (), (('power', '10 W'),)),
    ('LAMP-FLOOR', 'home', 'Lumo', 'Lumo Floor Lamp', 'Lumo 落地灯', 69.0, 4.3, 480, ('black',), (),
     (('power', '24 W'), ('height', '160 cm'))),
    ('VAC-ROBOT', 'home', 'CleanBot', 'CleanBot Robot Vacuum S8', 'CleanBot 扫地机器人 S8', 299.0, 4.5,
     1900, ('white', 'black'), (), (('battery', '180 min'), ('suction', '4000 Pa'))),
    ('VAC-STICK', 'home', 'CleanBot', 'CleanBot Cordless Stick Vacuum', 'CleanBot 无线手持吸尘器', 189.0,
     4.4, 1100, ('grey',), (), (('battery', '60 min'), ('weight', '1.5 kg'))),
    ('AIR-PUR', 'home', 'Breeze', 'Breeze Air Purifier 300', 'Breeze 空气净化器 300', 159.0, 4.6, 950,
     ('white',), (), (('room', '40 m²'),)),
    ('PIL-MEM', 'home', 'Dreamy', 'Dreamy Memory Foam Pillow', 'Dreamy 记忆棉枕头', 29.99, 4.2, 3800,
     ('white',), (), (('material', 'Memory foam'),)),
    ('TOWEL-SET', 'home', 'Softy', 'Softy Cotton Bath Towel Set', 'Softy 纯棉浴巾套装', 24.99, 4.5, 2600,
     ('white', 'grey', 'beige'), (), (('material', '100% cotton'),)),
    # kitchen
    ('KET-ELEC', 'kitchen', 'Brewmaster', 'Brewmaster Electric Kettle 1.7 L', 'Brewmaster 电热水壶 1.7 升',
     34.99, 4.6, 4200, ('silver', 'black'), (), (('capacity', '1.7 L'), ('power', '1800 W'))),
    ('KET-GLASS', 'kitchen', 'Brewmaster', 'Brewmaster Glass Kettle', 'Brewmaster 玻璃电热水壶', 29.99, 4.3,
     1300, (), (), (('capacity', '1.5 L'), ('power', '1500 W'))),
    ('COF-DRIP', 'kitchen', 'Brewmaster', 'Brewmaster Drip Coffee Maker', 'Brewmaster 滴滤咖啡机', 59.99,
     4.4, 870, ('black',), (), (('capacity', '1.2 L'),)),
    ('AIRFRY', 'kitchen', 'Crispo', 'Crispo Air Fryer 5 L', 'Crispo 空气炸锅 5 升', 89.99, 4.7, 5600,
     ('black', 'white'), (), (('capacity', '5 L'), ('power', '1500 W'))),
    ('RICE-COOK', 'kitchen', 'Crispo', 'Crispo Smart Rice Cooker', 'Crispo 智能电饭煲', 79.0, 4.5, 3100,
     ('white',), (), (('capacity', '4 L'),)),
    ('KNIFE-SET', 'kitchen', 'Edge', "Edge Chef's Knife Set (5 pcs)", 'Edge 厨师刀具五件套', 49.0, 4.4, 900,
     (), (), (('material', 'Stainless steel'),)),
    # sports
    ('YOGA-MAT', 'sports', 'FlexFit', 'FlexFit Yoga Mat 6 mm', 'FlexFit 瑜伽垫 6 毫米', 25.99, 4.6, 4500,
     ('purple', 'blue', 'green'), (), (('material', 'TPE'), ('size', '183x61 cm'))),
    ('DUMB-SET', 'sports', 'FlexFit', 'FlexFit Adjustable Dumbbells', 'FlexFit 可调节哑铃', 119.0, 4.5, 650,
     (), (), (('weight', '2-24 kg'),)),
    ('BOTTLE', 'sports', 'Hydro', 'Hydro Steel Water Bottle 750 ml', 'Hydro 不锈钢保温杯 750 毫升', 19.99,
     4.7, 6200, ('blue', 'black', 'pink'), (), (('capacity', '750 ml'),)),
    ('RUN-AIR', 'sports', 'Stride', 'Stride Air Running Shoes', 'Stride Air 跑步鞋', 89.0, 4.5, 2100,
     ('black', 'white', 'blue'), SHOE, (('weight', '240 g'),)),
    ('RUN-TRAIL', 'sports', 'Stride', 'Stride Trail Running Shoes', 'Stride 越野跑鞋', 109.0, 4.4, 780,
     ('black', 'green'), SHOE, (('weight', '290 g'),)),
    ('BIKE-LIGHT', 'sports', 'Stride', 'Stride Bike Light Set', 'Stride 自行车灯套装', 18.99, 4.2, 1400, (),
     (), (('battery', '8 h'),)),
    # clothing
    ('TEE-BASIC', 'clothing', 'Basics', 'Basics Cotton Crew T-Shirt', 'Basics 纯棉圆领 T 恤', 12.99, 4.4,
     9100, ('white', 'black', 'navy'), WEAR, (('material', '100% cotton'),)),
    ('HOODIE', 'clothing', 'Basics', 'Basics Fleece Zip Hoodie', 'Basics 抓绒连帽卫衣', 39.99, 4.5, 2300,
     ('grey', 'black'), WEAR, (('material', 'Cotton, polyester'),)),
    ('JACKET-DOWN', 'clothing', 'NorthPeak', 'NorthPeak Lightweight Down Jacket', 'NorthPeak 轻薄羽绒服',
     129.0, 4.6, 1200, ('black', 'navy', 'red'), WEAR, (('fill', '90% down'),)),
    ('JACKET-RAIN', 'clothing', 'NorthPeak', 'NorthPeak Rain Jacket', 'NorthPeak 防水冲锋衣', 99.0, 4.5,
     860, ('blue', 'black'), WEAR, (('waterproof', '10000 mm'),)),
    ('SOCKS', 'clothing', 'Basics', 'Basics Sport Socks (6 pairs)', 'Basics 运动袜（6 双装）', 14.99, 4.3,
     5300, ('white', 'black'), ('M', 'L'), (('material', 'Cotton'),)),
    # beauty
    ('SUNSCREEN', 'beauty', 'Glow', 'Glow SPF 50 Sunscreen', 'Glow SPF50 防晒霜', 18.0, 4.6, 7400, (), (),
     (('capacity', '50 ml'),)),
    ('CREAM', 'beauty', 'Glow', 'Glow Hydrating Face Cream', 'Glow 保湿面霜', 26.0, 4.5, 3300, (), (),
     (('capacity', '50 ml'),)),
    ('TOOTHBRUSH', 'beauty', 'Brite', 'Brite Sonic Electric Toothbrush', 'Brite 声波电动牙刷', 45.0, 4.6,
     2900, ('white', 'black'), (), (('battery', '30 days'),)),
    ('HAIRDRY', 'beauty', 'Brite', 'Brite Ionic Hair Dryer', 'Brite 负离子吹风机', 55.0, 4.4, 1700,
     ('white', 'pink'), (), (('power', '1800 W'),)),
    # books
    ('BOOK-3BODY', 'books', 'Cixin Liu', 'The Three-Body Problem', '三体', 14.99, 4.8, 12000, (), (),
     (('pages', '400'),)),
    ('BOOK-TOLIVE', 'books', 'Yu Hua', 'To Live', '活着', 12.5, 4.8, 9800, (), (), (('pages', '256'),)),
    ('BOOK-ATOMIC', 'books', 'James Clear', 'Atomic Habits', '原子习惯', 16.99, 4.7, 15000, (), (),
     (('pages', '320'),)),
    ('BOOK-SAPIENS', 'books', 'Yuval Noah Harari', 'Sapiens', '人类简史', 18.99, 4.7, 11000, (), (),
     (('pages', '464'),)),
)

CATEGORIES: tuple[tuple[str, str], ...] = (  # key, icon
    ("audio", "headphones"),
    ("phones", "phone_device"),
    ("computers", "display"),
    ("home", "home"),
    ("kitchen", "kettle"),
    ("sports", "sports"),
    ("clothing", "shirt"),
    ("beauty", "sparkle"),
    ("books", "book"),
)

# Past orders: (order_no, created "YYYY-MM-DD HH:MM", status, [(sku, colour, size, quantity)])
PAST_ORDERS: tuple[tuple[str, str, str, tuple[tuple[str, str, str, int], ...]], ...] = (
    ("SO20240503-0001", "2024-05-03 19:20", "delivered", (("SP-MINI", "blue", "", 1), ("PH-CBL", "", "", 2))),
    (
        "SO20240618-0002",
        "2024-06-18 08:05",
        "delivered",
        (("BOTTLE", "pink", "", 1), ("YOGA-MAT", "purple", "", 1)),
    ),
    ("SO20240709-0003", "2024-07-09 21:47", "shipped", (("BOOK-3BODY", "", "", 1), ("SUNSCREEN", "", "", 2))),
)
SEED_WISHLIST = ("HP-NC700", "LP-AIR14")
SEED_CART = (("TEE-BASIC", "white", "M", 1),)
ADDRESS = {
    "en": "Alex Chen · 88 Century Avenue, Apt 12B, Pudong, Shanghai",
    "zh": "陈晓明 · 上海市浦东新区世纪大道 88 号 12B 室",
}
