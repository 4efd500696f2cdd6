"""Android KeyEvent codes by name, as `input keyevent` and uiautomator2's pressKey accept them.

Names follow android.view.KeyEvent without the `KEYCODE_` prefix; `keycode_from_string` accepts both
spellings and plain numbers, like `KeyEvent.keyCodeFromString`. Keys that type a character
(letters, digits, punctuation) map to that character in `KEY_CHARS`, so `input keyevent KEYCODE_A`
can type "a" into the focused field the way the virtual keyboard's key character map would.
"""

from __future__ import annotations

KEYCODES: dict[str, int] = {
    "UNKNOWN": 0, "SOFT_LEFT": 1, "SOFT_RIGHT": 2, "HOME": 3, "BACK": 4, "CALL": 5, "ENDCALL": 6,
    "0": 7, "1": 8, "2": 9, "3": 10, "4": 11, "5": 12, "6": 13, "7": 14, "8": 15, "9": 16,
    "STAR": 17, "POUND": 18, "DPAD_UP": 19, "DPAD_DOWN": 20, "DPAD_LEFT": 21, "DPAD_RIGHT": 22,
    "DPAD_CENTER": 23, "VOLUME_UP": 24, "VOLUME_DOWN": 25, "POWER": 26, "CAMERA": 27, "CLEAR": 28,
    **{chr(ord("A") + i): 29 + i for i in range(26)},
    "COMMA": 55, "PERIOD": 56, "ALT_LEFT": 57, "ALT_RIGHT": 58, "SHIFT_LEFT": 59, "SHIFT_RIGHT": 60,
    "TAB": 61, "SPACE": 62, "SYM": 63, "EXPLORER": 64, "ENVELOPE": 65, "ENTER": 66, "DEL": 67,
    "GRAVE": 68, "MINUS": 69, "EQUALS": 70, "LEFT_BRACKET": 71, "RIGHT_BRACKET": 72, "BACKSLASH": 73,
    "SEMICOLON": 74, "APOSTROPHE": 75, "SLASH": 76, "AT": 77, "NUM": 78, "HEADSETHOOK": 79,
    "FOCUS": 80, "PLUS": 81, "MENU": 82, "NOTIFICATION": 83, "SEARCH": 84, "MEDIA_PLAY_PAUSE": 85,
    "MEDIA_STOP": 86, "MEDIA_NEXT": 87, "MEDIA_PREVIOUS": 88, "MEDIA_REWIND": 89,
    "MEDIA_FAST_FORWARD": 90, "MUTE": 91, "PAGE_UP": 92, "PAGE_DOWN": 93, "PICTSYMBOLS": 94,
    "SWITCH_CHARSET": 95, "BUTTON_A": 96, "BUTTON_B": 97, "BUTTON_C": 98, "BUTTON_X": 99,
    "BUTTON_Y": 100, "BUTTON_Z": 101, "BUTTON_L1": 102, "BUTTON_R1": 103, "BUTTON_L2": 104,
    "BUTTON_R2": 105, "BUTTON_THUMBL": 106, "BUTTON_THUMBR": 107, "BUTTON_START": 108,
    "BUTTON_SELECT": 109, "BUTTON_MODE": 110, "ESCAPE": 111, "FORWARD_DEL": 112, "CTRL_LEFT": 113,
    "CTRL_RIGHT": 114, "CAPS_LOCK": 115, "SCROLL_LOCK": 116, "META_LEFT": 117, "META_RIGHT": 118,
    "FUNCTION": 119, "SYSRQ": 120, "BREAK": 121, "MOVE_HOME": 122, "MOVE_END": 123, "INSERT": 124,
    "FORWARD": 125, "MEDIA_PLAY": 126, "MEDIA_PAUSE": 127, "MEDIA_CLOSE": 128, "MEDIA_EJECT": 129,
    "MEDIA_RECORD": 130,
    **{f"F{i}": 130 + i for i in range(1, 13)},
    "NUM_LOCK": 143,
    **{f"NUMPAD_{i}": 144 + i for i in range(10)},
    "NUMPAD_DIVIDE": 154, "NUMPAD_MULTIPLY": 155, "NUMPAD_SUBTRACT": 156, "NUMPAD_ADD": 157,
    "NUMPAD_DOT": 158, "NUMPAD_COMMA": 159, "NUMPAD_ENTER": 160, "NUMPAD_EQUALS": 161,
    "NUMPAD_LEFT_PAREN": 162, "NUMPAD_RIGHT_PAREN": 163, "VOLUME_MUTE": 164, "INFO": 165,
    "CHANNEL_UP": 166, "CHANNEL_DOWN": 167, "ZOOM_IN": 168, "ZOOM_OUT": 169, "TV": 170, "WINDOW": 171,
    "GUIDE": 172, "DVR": 173, "BOOKMARK": 174, "CAPTIONS": 175, "SETTINGS": 176, "TV_POWER": 177,
    "TV_INPUT": 178, "STB_POWER": 179, "STB_INPUT": 180, "AVR_POWER": 181, "AVR_INPUT": 182,
    "PROG_RED": 183, "PROG_GREEN": 184, "PROG_YELLOW": 185, "PROG_BLUE": 186, "APP_SWITCH": 187,
    **{f"BUTTON_{i}": 187 + i for i in range(1, 17)},
    "LANGUAGE_SWITCH": 204, "MANNER_MODE": 205, "3D_MODE": 206, "CONTACTS": 207, "CALENDAR": 208,
    "MUSIC": 209, "CALCULATOR": 210, "ZENKAKU_HANKAKU": 211, "EISU": 212, "MUHENKAN": 213,
    "HENKAN": 214, "KATAKANA_HIRAGANA": 215, "YEN": 216, "RO": 217, "KANA": 218, "ASSIST": 219,
    "BRIGHTNESS_DOWN": 220, "BRIGHTNESS_UP": 221, "MEDIA_AUDIO_TRACK": 222, "SLEEP": 223,
    "WAKEUP": 224, "PAIRING": 225, "MEDIA_TOP_MENU": 226, "11": 227, "12": 228, "LAST_CHANNEL": 229,
    "TV_DATA_SERVICE": 230, "VOICE_ASSIST": 231, "HELP": 259, "NAVIGATE_PREVIOUS": 260,
    "NAVIGATE_NEXT": 261, "NAVIGATE_IN": 262, "NAVIGATE_OUT": 263, "STEM_PRIMARY": 264,
    "STEM_1": 265, "STEM_2": 266, "STEM_3": 267, "DPAD_UP_LEFT": 268, "DPAD_DOWN_LEFT": 269,
    "DPAD_UP_RIGHT": 270, "DPAD_DOWN_RIGHT": 271, "MEDIA_SKIP_FORWARD": 272,
    "MEDIA_SKIP_BACKWARD": 273, "MEDIA_STEP_FORWARD": 274, "MEDIA_STEP_BACKWARD": 275,
    "SOFT_SLEEP": 276, "CUT": 277, "COPY": 278, "PASTE": 279, "SYSTEM_NAVIGATION_UP": 280,
    "SYSTEM_NAVIGATION_DOWN": 281, "SYSTEM_NAVIGATION_LEFT": 282, "SYSTEM_NAVIGATION_RIGHT": 283,
    "ALL_APPS": 284, "REFRESH": 285, "THUMBS_UP": 286, "THUMBS_DOWN": 287, "PROFILE_SWITCH": 288,
}

# The most common keys under their own names, for code that reads better with a constant.
HOME = KEYCODES["HOME"]
BACK = KEYCODES["BACK"]
ENTER = KEYCODES["ENTER"]
DEL = KEYCODES["DEL"]
TAB = KEYCODES["TAB"]
APP_SWITCH = KEYCODES["APP_SWITCH"]

NAMES: dict[int, str] = {code: name for name, code in KEYCODES.items()}

_PUNCTUATION = {
    "STAR": "*", "POUND": "#", "COMMA": ",", "PERIOD": ".", "SPACE": " ", "GRAVE": "`", "MINUS": "-",
    "EQUALS": "=", "LEFT_BRACKET": "[", "RIGHT_BRACKET": "]", "BACKSLASH": "\\", "SEMICOLON": ";",
    "APOSTROPHE": "'", "SLASH": "/", "AT": "@", "PLUS": "+", "NUMPAD_DIVIDE": "/",
    "NUMPAD_MULTIPLY": "*", "NUMPAD_SUBTRACT": "-", "NUMPAD_ADD": "+", "NUMPAD_DOT": ".",
    "NUMPAD_COMMA": ",", "NUMPAD_EQUALS": "=", "NUMPAD_LEFT_PAREN": "(", "NUMPAD_RIGHT_PAREN": ")",
}

KEY_CHARS: dict[int, str] = {
    **{KEYCODES[str(d)]: str(d) for d in range(10)},
    **{KEYCODES[f"NUMPAD_{d}"]: str(d) for d in range(10)},
    **{KEYCODES[chr(ord("A") + i)]: chr(ord("a") + i) for i in range(26)},
    **{KEYCODES[name]: char for name, char in _PUNCTUATION.items()},
}


def keycode_from_string(text: str) -> int | None:
    """`HOME`, `KEYCODE_HOME`, `keycode_home` or `3` -> 3; None when the name is unknown.

    A bare number is taken as a code (as KeyEvent.keyCodeFromString does), so "3" is HOME, not the
    digit key; the digit keys are `KEYCODE_3` etc.
    """
    text = text.strip()
    if not text:
        return None
    if text.isdigit():
        return int(text)
    name = text.upper()
    if name.startswith("KEYCODE_"):
        name = name[len("KEYCODE_"):]
    return KEYCODES.get(name)


def keycode_name(code: int) -> str:
    """`3` -> `KEYCODE_HOME`; unknown codes print as the number, like KeyEvent.keyCodeToString."""
    name = NAMES.get(code)
    return f"KEYCODE_{name}" if name is not None else str(code)
