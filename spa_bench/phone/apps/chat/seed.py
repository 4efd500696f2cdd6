"""The Chat app's seeded friends and chat history (both languages, look-alike names on purpose:
Alice Chen / Alice Zhang, 王芳 / 王芳芳, 张伟 / 张薇)."""

from __future__ import annotations

# name, phone, avatar hue
CONTACTS: tuple[tuple[str, str, str], ...] = (
    ("Alice Chen", "+1 415 555 0101", "pink"),
    ("Alice Zhang", "+1 415 555 0144", "purple"),
    ("Bob Li", "+1 415 555 0102", "blue"),
    ("Brian Liu", "+1 415 555 0178", "teal"),
    ("Carol Wang", "+1 415 555 0103", "orange"),
    ("David Wu", "+1 415 555 0104", "green"),
    ("Emma Zhou", "+1 415 555 0105", "red"),
    ("Frank Sun", "+1 415 555 0106", "yellow"),
    ("Grace Lin", "+1 415 555 0107", "purple"),
    ("Henry Zhao", "+1 415 555 0108", "blue"),
    ("王芳", "138 0013 8001", "red"),
    ("王芳芳", "138 0013 8011", "orange"),
    ("李雷", "139 1234 5678", "blue"),
    ("韩梅梅", "136 8888 6666", "pink"),
    ("张伟", "137 2020 3030", "green"),
    ("张薇", "137 2020 3131", "teal"),
    ("陈静", "135 5555 1212", "purple"),
    ("刘洋", "186 0000 7777", "yellow"),
    ("妈妈", "139 0000 1111", "red"),
    ("爸爸", "139 0000 2222", "blue"),
)
ME = {"en": "Alex Chen", "zh": "陈晓明"}

# contact name -> [(outgoing, text, "YYYY-MM-DD HH:MM")], oldest first
HISTORY: dict[str, tuple[tuple[bool, str, str], ...]] = {
    "Alice Chen": (
        (False, "Are we still on for the hiking trip this Saturday?", "2024-07-18 19:02"),
        (True, "Yes! Meet at the trailhead at 8:00?", "2024-07-18 19:05"),
        (False, "Perfect. I'll bring the snacks.", "2024-07-18 19:06"),
        (False, "Don't forget sunscreen, it's going to be 31°C.", "2024-07-19 21:40"),
    ),
    "Bob Li": (
        (False, "Can you send me the slides from today's meeting?", "2024-07-17 16:20"),
        (True, "Sure, I'll email them tonight.", "2024-07-17 16:31"),
        (False, "Thanks! Also, my new number for work is 415 555 0199.", "2024-07-17 16:33"),
    ),
    "Carol Wang": (
        (False, "Happy birthday!! 🎂 Dinner at Lotus Garden on Friday at 7pm?", "2024-07-15 09:12"),
        (True, "Thank you! Friday works.", "2024-07-15 09:30"),
    ),
    "David Wu": (
        (True, "How much do I owe you for the concert tickets?", "2024-07-12 20:01"),
        (False, "$86 each, so $172 for the two.", "2024-07-12 20:09"),
    ),
    "Emma Zhou": (
        (False, "The book club meets next Wednesday at the café on 5th Street.", "2024-07-10 12:45"),
        (False, "We're reading Atomic Habits this month.", "2024-07-10 12:46"),
    ),
    "Alice Zhang": ((False, "Hi, this is Alice from the design team. Welcome aboard!", "2024-06-30 10:00"),),
    "王芳": (
        (False, "明天下午三点的会议改到四点了，地点还是 5 楼会议室。", "2024-07-19 17:20"),
        (True, "好的，收到。", "2024-07-19 17:22"),
        (False, "记得带上季度报表。", "2024-07-19 17:25"),
    ),
    "李雷": (
        (False, "周末一起去打羽毛球吗？", "2024-07-18 12:10"),
        (True, "可以啊，几点？", "2024-07-18 12:30"),
        (False, "周六上午十点，体育馆见。", "2024-07-18 12:31"),
    ),
    "韩梅梅": (
        (False, "上次推荐的那本《三体》我看完了，太好看了！", "2024-07-16 22:05"),
        (True, "哈哈，第二部更精彩。", "2024-07-16 22:10"),
    ),
    "张伟": (
        (False, "房租这个月是 4200 元，我先垫付了。", "2024-07-05 09:00"),
        (True, "好的，我转你一半。", "2024-07-05 09:15"),
    ),
    "妈妈": (
        (False, "周日回家吃饭吗？给你做红烧肉。", "2024-07-19 20:00"),
        (True, "回！大概中午十二点到。", "2024-07-19 20:05"),
        (False, "好，路上注意安全。", "2024-07-19 20:06"),
    ),
    "陈静": ((False, "你的快递放在前台了，取件码 6258。", "2024-07-11 15:40"),),
}
