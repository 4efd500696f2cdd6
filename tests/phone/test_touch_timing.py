"""Gestures take their time as on a phone: `input swipe`/`draganddrop`/`motionevent` and uiautomator2's
click/swipe/drag/injectInputEvent inject timed events (InputShellCommand.sendSwipe, androidx
InteractionController), and tap, long press, scroll and fling follow from those times (ViewConfiguration's
400 ms long-press timeout and 8 dp slop, VelocityTracker's 100 ms horizon). The phone runs on a virtual
clock here: sleeping advances it, so the tests wait for nothing and assert exact times."""

from __future__ import annotations

import math
from datetime import datetime
from pathlib import Path

import pytest

from spa_bench.phone.api import PhoneConfig
from spa_bench.phone.shell import Shell
from spa_bench.phone.system import PhoneOS
from spa_bench.phone.system.clock import PhoneClock
from spa_bench.phone.touch import FRAME_MS, LONG_PRESS_TIMEOUT_MS, input_swipe, press, uiautomator_swipe
from spa_bench.phone.u2rpc.methods import U2Methods
from spa_bench.phone.ui import ScrollList, View
from spa_bench.phone.vfs import VirtualFS

KEEP = "com.google.android.keep"
MESSAGES = "com.android.messaging"


class VirtualClock:
    """Monotonic time that only moves when someone sleeps."""

    def __init__(self) -> None:
        self.now = 100.0

    def monotonic(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        self.now += seconds


@pytest.fixture
def clock() -> VirtualClock:
    return VirtualClock()


@pytest.fixture
def phone(tmp_path: Path, clock: VirtualClock) -> PhoneOS:
    phone_clock = PhoneClock(wall=lambda: datetime(2026, 1, 15, 9, 30), monotonic=clock.monotonic,
                             sleep=clock.sleep)
    return PhoneOS(PhoneConfig(), VirtualFS(tmp_path / "fs"), clock=phone_clock)


def find(phone: PhoneOS, **kw: str) -> View:
    view = phone.frame().find(**kw)
    assert view is not None, kw
    return view


def menu(phone: PhoneOS) -> list[str]:
    """The titles of the long-press menu on screen (a popup ListView), [] when there is none."""
    lists = [v for v in phone.frame().views() if v.class_name == "android.widget.ListView"]
    return [c.text for lst in lists for row in lst.children for c in row.children]


def list_offset(phone: PhoneOS, rid: str) -> int:
    view = phone.frame().find(rid=rid)
    assert isinstance(view, ScrollList), rid
    return view.offset


# -- the events, as Android's injectors build them ------------------------------------------------------

def test_input_swipe_events_follow_sendswipe() -> None:
    """DOWN at the start, MOVEs at lerp(elapsed / duration) while elapsed < duration, UP at the end."""
    events = list(input_swipe(100, 200, 100, 1000, 300).events())
    assert (events[0].action, events[0].x, events[0].y, events[0].t_ms) == ("down", 100, 200, 0)
    assert (events[-1].action, events[-1].x, events[-1].y, events[-1].t_ms) == ("up", 100, 1000, 300)
    moves = events[1:-1]
    assert {e.action for e in moves} == {"move"} and len(moves) == math.ceil(300 / FRAME_MS)
    for e in moves:
        assert e.t_ms < 300 and e.y == pytest.approx(200 + 800 * e.t_ms / 300)
    assert input_swipe(0, 0, 10, 10, -5).duration_ms == 300  # a negative duration means the default


def test_draganddrop_holds_the_long_press_time_first() -> None:
    drag = list(input_swipe(0, 0, 0, 900, 1000, hold_first_ms=LONG_PRESS_TIMEOUT_MS).events())
    assert drag[1].t_ms == LONG_PRESS_TIMEOUT_MS and drag[1].y == pytest.approx(900 * 0.4)
    assert drag[-1].t_ms == 1000
    short = input_swipe(0, 0, 0, 900, 100, hold_first_ms=LONG_PRESS_TIMEOUT_MS)
    assert [e.action for e in short.events()] == ["down", "up"] and short.duration_ms == 400


def test_uiautomator_swipe_moves_every_5_ms() -> None:
    """InteractionController.swipe: steps - 1 MOVEs at truncated step positions, 5 ms apart; uiautomator2
    asks for duration * 200 steps, so its 2 s swipe lasts 1995 ms."""
    events = list(uiautomator_swipe([(0, 0), (100, 7)], 10).events())
    expected = [(10 * i, int(0.7 * i), 5 * (i - 1)) for i in range(1, 10)]
    assert [(e.x, e.y, e.t_ms) for e in events[1:-1]] == expected
    assert (events[-1].action, events[-1].x, events[-1].y, events[-1].t_ms) == ("up", 100, 7, 45)
    assert uiautomator_swipe([(0, 0), (500, 0)], int(2.0 * 200)).duration_ms == 1995
    points = uiautomator_swipe([(0, 0), (0, 100), (100, 100)], 5)  # swipePoints: steps per segment
    assert points.duration_ms == 2 * 4 * 5
    drag = uiautomator_swipe([(0, 0), (0, 100)], 5, drag=True)  # long-press time, moves, a click's length
    assert drag.duration_ms == LONG_PRESS_TIMEOUT_MS + 4 * 5 + 100
    assert press(5, 5, 800).duration_ms == 800


# -- the time a call takes -----------------------------------------------------------------------------

def test_input_swipe_lasts_its_duration_on_the_phone_clock(phone: PhoneOS, clock: VirtualClock) -> None:
    phone.start_activity(MESSAGES)
    start = clock.now
    assert Shell(phone).run("input swipe 540 1500 540 1100 2000").exit_code == 0
    assert clock.now - start == pytest.approx(2.0)
    assert list_offset(phone, f"{MESSAGES}:id/list") == 400  # slow: the list follows the finger only
    start = clock.now
    Shell(phone).run("input draganddrop 540 1500 540 1100 100")  # the hold is longer than the drag
    assert clock.now - start == pytest.approx(0.4)
    start = clock.now
    Shell(phone).run("input tap 540 300")  # sendTap: DOWN and UP at once
    assert clock.now == start


def test_u2_gestures_last_as_on_the_server(phone: PhoneOS, clock: VirtualClock) -> None:
    u2 = U2Methods(phone)
    for call, seconds in (
        (lambda: u2.swipe(540, 1200, 540, 1500, 400), 1.995),  # d.swipe(..., duration=2.0)
        (lambda: u2.click(540, 1200), 0.1),  # REGULAR_CLICK_LENGTH
        (lambda: u2.click(540, 1200, 500), 0.5),  # d.long_click(x, y, 0.5)
        (lambda: u2.swipePoints([540, 1200, 540, 1300, 600, 1300], 20), 2 * 19 * 0.005),
        (lambda: u2.drag(540, 1200, 540, 1300, 10), 0.4 + 9 * 0.005 + 0.1),
    ):
        start = clock.now
        assert call() is True
        assert clock.now - start == pytest.approx(seconds)
    assert u2.click(-1, 5) is False  # AutomatorServiceImpl.click refuses negative points


# -- what the times make of a touch --------------------------------------------------------------------

@pytest.mark.parametrize(("held_ms", "long_press"), [(200, False), (399, False), (400, True), (500, True),
                                                      (1000, True)])
def test_a_swipe_in_place_held_400_ms_is_a_long_press(phone: PhoneOS, held_ms: int, long_press: bool) -> None:
    phone.start_activity(KEEP)
    x, y = find(phone, text="Shopping list").bounds.center
    Shell(phone).run(f"input swipe {x} {y} {x} {y} {held_ms}")
    assert phone.current_focus()[1].endswith(".BrowseActivity") == long_press
    if long_press:
        assert menu(phone) == ["Pin", "Make a copy", "Delete"]
    else:  # a tap opens the note
        assert menu(phone) == [] and phone.current_focus()[1].endswith(".EditorActivity")


def test_the_long_press_fires_while_the_finger_is_down(phone: PhoneOS) -> None:
    """draganddrop rests 400 ms before moving: the long press has fired, so the move scrolls nothing; the
    same path as a plain swipe scrolls the list."""
    phone.start_activity(MESSAGES)
    rid = f"{MESSAGES}:id/list"
    row = find(phone, rid=f"{MESSAGES}:id/conversation_row")
    x, y = row.bounds.center
    Shell(phone).run(f"input draganddrop {x} {y} {x} {y - 400} 1000")
    assert list_offset(phone, rid) == 0 and menu(phone)
    phone.press_key(4)  # BACK closes the menu
    assert not menu(phone)
    Shell(phone).run(f"input swipe {x} {y} {x} {y - 400} 1000")
    assert list_offset(phone, rid) == 400 and not menu(phone)


def test_separate_touch_calls_held_in_place_make_a_long_press(phone: PhoneOS, clock: VirtualClock) -> None:
    phone.start_activity(KEEP)
    x, y = find(phone, text="Shopping list").bounds.center
    sh = Shell(phone)
    sh.run(f"input motionevent DOWN {x} {y}")
    clock.sleep(0.6)  # the finger rests between the calls
    sh.run(f"input motionevent UP {x} {y}")
    assert menu(phone) == ["Pin", "Make a copy", "Delete"]
    phone.press_key(4)
    u2 = U2Methods(phone)  # uiautomator2's touch.down / sleep / touch.up goes the same way
    assert u2.injectInputEvent(0, x, y) and u2.injectInputEvent(2, x + 3, y)  # within the slop
    clock.sleep(0.5)
    assert u2.injectInputEvent(1, x, y)
    assert menu(phone) == ["Pin", "Make a copy", "Delete"]
    assert u2.injectInputEvent(3, x, y) is False  # TouchController knows DOWN, MOVE and UP only
    assert "Unknown action: WIGGLE" in sh.run("input motionevent WIGGLE 1 1").output.decode()


def test_fling_follows_the_speed_of_the_events(tmp_path: Path) -> None:
    """The same 400 px path: 400 ms lets the list follow the finger, 15 ms (uiautomator's 4 steps) throws
    it, and a finger that rests 100 ms before lifting (a drag's end) throws nothing."""
    offsets = []
    for name, gesture in (("slow", uiautomator_swipe([(540, 1500), (540, 1100)], 81)),
                          ("fast", uiautomator_swipe([(540, 1500), (540, 1100)], 4)),
                          ("rested", input_swipe(540, 1500, 540, 1100, 60))):
        clock = VirtualClock()
        phone = PhoneOS(PhoneConfig(), VirtualFS(tmp_path / name),
                        clock=PhoneClock(monotonic=clock.monotonic, sleep=clock.sleep))
        phone.start_activity(MESSAGES)
        if name == "rested":
            events = list(gesture.events())
            for e in events[:-1]:
                phone.touch(e.action, e.x, e.y)
                clock.sleep(FRAME_MS / 1000)
            clock.sleep(0.1)  # rests at the end point, then lifts
            phone.touch("move", 540, 1100)
            clock.sleep(0.1)
            phone.touch("up", 540, 1100)
        else:
            phone.perform_gesture(gesture)
        offsets.append(list_offset(phone, f"{MESSAGES}:id/list"))
    slow, fast, rested = offsets
    assert slow == 400 and fast > 2 * slow and rested == 400


def test_a_clock_that_stands_still_waits_the_gesture_once(tmp_path: Path) -> None:
    """With a monotonic clock that does not move (as some tests give the phone), each event waits only the
    gap since the previous one: the gesture sleeps its duration in all, not more."""
    slept: list[float] = []
    phone = PhoneOS(PhoneConfig(), VirtualFS(tmp_path / "fs"),
                    clock=PhoneClock(monotonic=lambda: 50.0, sleep=slept.append))
    phone.perform_gesture(input_swipe(540, 1500, 540, 1100, 1000))
    assert sum(slept) == pytest.approx(1.0)


def test_key_events_pause_as_runkeyevent_does(phone: PhoneOS, clock: VirtualClock) -> None:
    """--longpress holds a key the long-press time, --doubletap sends it again DOUBLE_TAP_MIN_TIME (40 ms)
    later, --delay waits between keys, keycombination -t holds the keys down that long."""
    sh = Shell(phone)
    for line, seconds in (("input keyevent --longpress KEYCODE_VOLUME_UP", 0.4),
                          ("input keyevent --doubletap KEYCODE_VOLUME_UP", 0.04),
                          ("input keyevent --delay 250 VOLUME_UP VOLUME_UP VOLUME_UP", 0.5),
                          ("input keycombination -t 300 KEYCODE_SHIFT_LEFT KEYCODE_A", 0.3),
                          ("input keyevent VOLUME_UP VOLUME_UP", 0.0)):
        start = clock.now
        assert sh.run(line).exit_code == 0, line
        assert clock.now - start == pytest.approx(seconds), line
    assert "NumberFormatException" in sh.run("input keyevent --delay soon HOME").output.decode()


def test_a_frozen_phone_lets_a_gesture_pass_without_waiting_for_it(tmp_path: Path) -> None:
    """A frozen phone (--phone-clock, the suite's $SPA_BENCH_PHONE_CLOCK) runs on the harness's time: a
    one-minute hold moves its monotonic clock on by a minute at once, and is still told apart as a long
    press (the touchscreen reads the events' planned times); its wall clock stays where it was frozen."""
    import time

    phone_clock = PhoneClock.frozen(datetime(2026, 1, 15, 9, 30))
    phone = PhoneOS(PhoneConfig(), VirtualFS(tmp_path / "fs"), clock=phone_clock)
    phone.start_activity(KEEP)
    x, y = find(phone, text="Shopping list").bounds.center
    before_phone, before_host = phone_clock.monotonic(), time.monotonic()
    Shell(phone).run(f"input swipe {x} {y} {x} {y} 60000")
    assert phone_clock.monotonic() - before_phone >= 60.0
    assert time.monotonic() - before_host < 60.0  # not waited out
    assert menu(phone) == ["Pin", "Make a copy", "Delete"]
    assert phone_clock.now() == datetime(2026, 1, 15, 9, 30)
