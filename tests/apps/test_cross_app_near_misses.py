"""Near misses: a scripted agent (the oracle replaying a wrong script) does almost the right thing -
wrong product, wrong recipient, wrong file, wrong size, wrong number, one change too many - and the
task's own state checks must fail. The task files are copied with only the script replaced."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml
from pim_runs import failures, run_suite

pytestmark = pytest.mark.usefixtures("adb_env")
TASKS = Path(__file__).resolve().parents[2] / "tasks"


def tap(**selector: Any) -> dict[str, Any]:
    return {"type": "tap", "selector": selector}


def typ(text: str, rid: str, enter: bool = False) -> dict[str, Any]:
    return {"type": "type", "text": text, "selector": {"resource_id": rid}, "enter": enter}


def shop_search(query: str) -> list[dict[str, Any]]:
    return [tap(resource_id="search_bar"), typ(query, "search_src_text", enter=True)]


DONE = {"type": "finish"}
NEAR_MISSES: dict[str, list[dict[str, Any]]] = {
    # wrong product: Earbuds Pro instead of Pro 2
    "shop_cart_earbuds_pro2_blue_en": [
        *shop_search("earbuds pro"),
        tap(text="Aurora Wireless Earbuds Pro"),
        tap(resource_id="add_to_cart"),
        DONE,
    ],
    # wrong look-alike: 10000 mAh instead of 20000 mAh
    "shop_wishlist_power_bank_en": [
        *shop_search("power bank"),
        tap(text="Voltix 10000mAh Power Bank"),
        tap(resource_id="wishlist"),
        DONE,
    ],
    # wrong answer: the cheapest ViewPeak instead of the cheapest 4K monitor
    "shop_cheapest_4k_monitor_en": [*shop_search("4K monitor"), {"type": "finish", "answer": "$329.99"}],
    # wrong size
    "shop_buy_running_shoes_en": [
        *shop_search("running shoes"),
        tap(text="Stride Air Running Shoes"),
        tap(resource_id="color_white"),
        {"type": "scroll", "direction": "down", "selector": {"resource_id": "product_scroll"}},
        tap(resource_id="size_41"),
        tap(resource_id="qty_plus"),
        tap(resource_id="buy_now"),
        tap(resource_id="place_order"),
        DONE,
    ],
    # wrong recipient: Alice Chen instead of Alice Zhang
    "chat_two_alices_en": [
        tap(text="Alice Chen"),
        typ("Thanks for the welcome!", "message_input"),
        tap(resource_id="send"),
        {"type": "key", "key": "back"},
        {"type": "key", "key": "back"},
        tap(resource_id="action_search"),
        typ("Emma", "search_src_text"),
        tap(resource_id="contact_item"),
        typ("See you at book club", "message_input"),
        tap(resource_id="send"),
        DONE,
    ],
    # wrong text
    "chat_send_lilei_zh": [
        tap(text="李雷"),
        typ("好的，周日见", "message_input"),
        tap(resource_id="send"),
        DONE,
    ],
    # wrong file
    "files_delete_invoice_en": [
        tap(text="Download"),
        {"type": "long_press", "selector": {"text": "invoice_0423.pdf"}},
        tap(resource_id="action_menu_delete"),
        tap(resource_id="android:id/button1"),
        DONE,
    ],
    # one change too many: the folder is made, and a file is deleted as well
    "files_new_folder_en": [
        tap(text="Download"),
        tap(resource_id="action_menu_create_dir"),
        typ("Taxes 2024", "android:id/text1"),
        tap(resource_id="android:id/button1"),
        {"type": "long_press", "selector": {"text": "app-release.apk"}},
        tap(resource_id="action_menu_delete"),
        tap(resource_id="android:id/button1"),
        DONE,
    ],
    # wrong destination folder
    "files_move_lease_zh": [
        tap(text="Download"),
        {"type": "scroll", "direction": "down", "selector": {"resource_id": "dir_list"}},
        {"type": "long_press", "selector": {"text": "租房合同.pdf"}},
        tap(resource_id="action_menu_move_to"),
        tap(text="Music"),
        tap(resource_id="android:id/button1"),
        DONE,
    ],
    # wrong operation: 15 x instead of 15 %
    "calculator_percent_en": [
        tap(resource_id=r)
        for r in (
            "digit_2",
            "digit_4",
            "digit_8",
            "digit_0",
            "op_mul",
            "digit_1",
            "dec_point",
            "digit_5",
            "eq",
        )
    ]
    + [DONE],
    # cross-app, wrong recipient of the shared product
    "cross_share_earbuds_en": [
        {"type": "open_app", "app": "com.spa.shop"},
        *shop_search("earbuds pro"),
        tap(text="Aurora Wireless Earbuds Pro 2"),
        tap(resource_id="com.spa.shop:id/share"),
        tap(text="Bob Li"),
        tap(resource_id="android:id/button1"),
        DONE,
    ],
    # cross-app, the look-alike contact's number (王方, not 王芳)
    "cross_contact_to_chat_zh": [
        {"type": "open_app", "app": "com.spa.chat"},
        tap(text="李雷"),
        typ("139 8765 4312", "message_input"),
        tap(resource_id="send"),
        DONE,
    ],
    # cross-app, a mistyped number in the note
    "cross_itinerary_to_note_en": [
        {"type": "open_app", "app": "com.google.android.keep"},
        tap(resource_id="com.google.android.keep:id/new_note_button"),
        typ("Hotel", "com.google.android.keep:id/editable_title"),
        typ("Confirmation 58231", "com.google.android.keep:id/edit_note_text"),
        tap(content_desc="Navigate up"),
        DONE,
    ],
}


def _near_miss_tree(root: Path) -> Path:
    """A task tree holding the chosen tasks with their scripts replaced by the near misses."""
    found: dict[str, dict[str, Any]] = {}
    for path in TASKS.glob("*/*.yaml"):
        if path.name == "suites.yaml":
            continue
        for task in yaml.safe_load(path.read_text()) or []:
            if isinstance(task, dict) and task.get("id") in NEAR_MISSES:
                found[task["id"]] = {**task, "golden_script": NEAR_MISSES[task["id"]]}
    assert sorted(found) == sorted(NEAR_MISSES)
    out = root / "tasks" / "near_misses"
    out.mkdir(parents=True)
    (out / "tasks.yaml").write_text(yaml.safe_dump(list(found.values()), allow_unicode=True, sort_keys=False))
    return root / "tasks"


def test_near_misses_fail_their_checks(tmp_path: Path) -> None:
    tree = _near_miss_tree(tmp_path)
    logs = run_suite([], tmp_path / "results", ["oracle"], ids=sorted(NEAR_MISSES), tasks_dir=tree)
    assert len(logs) == len(NEAR_MISSES)
    assert all(log.termination == "done" for log in logs.values()), {
        k: (log.termination, [e.message for e in log.errors]) for k, log in logs.items()
    }
    assert failures(logs, "oracle", False) == []
