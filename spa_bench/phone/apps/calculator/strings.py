"""Every string of the Calculator, English and Simplified Chinese (wording of Google's Calculator)."""

from __future__ import annotations

from spa_bench.phone.i18n import Strings

STRINGS = Strings(
    {
        "app_name": ("Calculator", "计算器"),
        "history": ("History", "历史记录"),
        "no_history": ("No history yet", "暂无历史记录"),
        "clear_history": ("Clear history", "清除历史记录"),
        "clear_history_title": ("Clear history?", "要清除历史记录吗？"),
        "clear_history_body": ("All past calculations will be deleted.", "所有计算记录都将被删除。"),
        "clear": ("Clear", "清除"),
        "cancel": ("Cancel", "取消"),
        "navigate_up": ("Navigate up", "向上导航"),
        "error_syntax": ("Format error", "格式错误"),
        "error_div_zero": ("Can't divide by 0", "不能除以0"),
        "desc_clr": ("clear", "清除"),
        "desc_del": ("backspace", "退格"),
        "desc_add": ("plus", "加"),
        "desc_sub": ("minus", "减"),
        "desc_mul": ("multiply", "乘"),
        "desc_div": ("divide", "除"),
        "desc_pct": ("percent", "百分比"),
        "desc_lparen": ("left parenthesis", "左括号"),
        "desc_rparen": ("right parenthesis", "右括号"),
        "desc_point": ("point", "小数点"),
        "desc_eq": ("equals", "等于"),
    }
)
