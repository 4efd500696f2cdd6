"""The oracle on screens its golden script's author did not see (smaller, bigger text: --vary): a target
covered by a floating button is tapped beside it."""

from __future__ import annotations

from spa_bench.agents.oracle import _uncovered

from spa_bench.actions import Selector, Tap
from spa_bench.device.elements import parse_hierarchy

NODE = ('<node index="0" text="{text}" resource-id="{rid}" class="android.widget.{cls}" '
        'package="com.android.email" content-desc="" checkable="false" checked="false" clickable="true" '
        'enabled="true" focusable="true" focused="false" scrollable="false" long-clickable="false" '
        'password="false" selected="false" '
        'bounds="{bounds}">{children}</node>')


def screen(fab: str) -> str:
    star = NODE.format(text="", rid="com.android.email:id/star", cls="ImageView",
                       bounds="[900,2110][980,2170]", children="")
    row = NODE.format(text="Book club", rid="com.android.email:id/thread_item", cls="LinearLayout",
                      bounds="[216,2106][1000,2172]", children=star)
    button = NODE.format(text="Compose", rid="com.android.email:id/compose_button", cls="Button", bounds=fab,
                         children="")
    return f'<?xml version="1.0" ?><hierarchy rotation="0">{row}{button}</hierarchy>'


def test_a_target_covered_by_a_floating_button_is_tapped_beside_it() -> None:
    tap = Tap(selector=Selector(text="Book club"))
    covered = _uncovered(tap, parse_hierarchy(screen("[558,2052][1032,2220]")))
    assert covered.selector is None and covered.x is not None and covered.y is not None
    assert 216 <= covered.x < 558 and 2106 <= covered.y < 2172  # on the row, left of the button
    clear = _uncovered(tap, parse_hierarchy(screen("[800,1800][1000,1900]")))
    assert clear == tap  # nothing over its centre: the selector is kept


def test_the_targets_own_children_do_not_count_as_covering_it() -> None:
    tap = Tap(selector=Selector(resource_id="com.android.email:id/thread_item"))
    assert _uncovered(tap, parse_hierarchy(screen("[0,0][10,10]"))) == tap
