"""The view toolkit: one view tree renders the screenshot, produces the uiautomator XML and hit-tests
taps, so the picture and the XML always describe the same screen."""

from spa_bench.phone.ui.canvas import Canvas
from spa_bench.phone.ui.geometry import Metrics, Rect
from spa_bench.phone.ui.material import FRAME, LINEAR, Kit, Scrim
from spa_bench.phone.ui.theme import RGB, Palette, palette, tone
from spa_bench.phone.ui.view import Callback, Frame, View, Window
from spa_bench.phone.ui.widgets import Button, EditText, ImageView, ScrollList, SeekBar, Switch, TextView
from spa_bench.phone.ui.xmldump import dump

__all__ = [
    "FRAME",
    "LINEAR",
    "RGB",
    "Button",
    "Callback",
    "Canvas",
    "EditText",
    "Frame",
    "ImageView",
    "Kit",
    "Metrics",
    "Palette",
    "Rect",
    "Scrim",
    "ScrollList",
    "SeekBar",
    "Switch",
    "TextView",
    "View",
    "Window",
    "dump",
    "palette",
    "tone",
]
