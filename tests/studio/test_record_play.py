"""The studio's recording and playing, in a real browser on a shared virtual phone: record a three-step
task by demonstration (its checks proposed from what changed), save it, validate it and run oracle and
noop on it; play a task as a person to success and find the episode in the report as the agent `human`."""

from __future__ import annotations

import json
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browser_helpers import chromium_browser
from cli_helpers import run_cli
from pim_runs import failures, run_suite, shared_devices

from spa_bench.device.state_digest import RawPart
from spa_bench.phone.apps.labels import LabelTranslator
from spa_bench.studio.phone import StudioPhone
from spa_bench.studio.proposals import propose_checks
from spa_bench.studio.server import Studio, StudioServer

pytestmark = [pytest.mark.usefixtures("adb_env"), pytest.mark.xdist_group("studio")]
chromium = chromium_browser


@pytest.fixture(scope="module")
def studio(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[StudioServer, Path]]:
    root = tmp_path_factory.mktemp("studio")
    device = shared_devices(1)[0]
    state = Studio(StudioPhone(device, LabelTranslator), record_dir=root / "tasks", runs_dir=root / "runs")
    server = StudioServer(state, port=0)
    server.start()
    try:
        yield server, root
    finally:
        if state.play is not None and not state.play.done:
            state.play.abandon()
        server.stop()


def _tap_text(page: Any, ui_path: str, text: str) -> None:
    """Click, on the page's screen, the middle of the node showing `text` (as the phone shows it now)."""
    page.wait_for_function(f"document.querySelector('#tree').innerText.includes({json.dumps(text)})",
                           timeout=30_000)
    for _ in range(300):  # what the page shows may be a moment ahead of what a new play has observed
        ui = json.loads(page.evaluate(f"fetch('{ui_path}').then(r => r.text())"))
        node = next((n for n in ui.get("nodes", []) if n["text"] == text), None)
        if node is not None:
            break
        page.wait_for_timeout(100)
    else:
        raise AssertionError(f"no node shows {text!r} on {ui_path}")
    box = page.locator("#screen").bounding_box()
    scale = box["width"] / ui["width"]
    x, y = (node["bounds"][0] + node["bounds"][2]) / 2, (node["bounds"][1] + node["bounds"][3]) / 2
    page.mouse.click(box["x"] + x * scale, box["y"] + y * scale)


def test_checks_proposed_from_a_state_change() -> None:
    table = "com.spa.chat/databases/chat.db#messages"
    before = {table: RawPart(["_id", "body", "date"], {"[1]": '[1, "hi", 1733000000000]'}),
              "settings:global": RawPart(["value"], {"wifi_on": "1", "adb_enabled": "1"}),
              "com.android.deskclock(de)/databases/alarms.db#alarm_templates":
                  RawPart(["_id", "hour", "enabled"], {"[1]": "[1, 6, 1]"})}
    after = {table: RawPart(["_id", "body", "date"], {"[1]": '[1, "hi", 1733000000000]',
                                                      "[2]": '[2, "see you", 1765000000000]'}),
             "settings:global": RawPart(["value"], {"wifi_on": "0", "adb_enabled": "1"}),
             "com.android.deskclock(de)/databases/alarms.db#alarm_templates":
                 RawPart(["_id", "hour", "enabled"], {"[1]": "[1, 6, 0]"}),
             "sdcard/Download/report.pdf": RawPart(["size mtime"], {"file": "12 1765000000"})}
    checks = propose_checks(before, after)
    by_query = {c.get("query") or c.get("command"): c for c in checks}
    added = by_query["SELECT body FROM messages WHERE _id > 1"]  # the moment column (date) left out
    assert added["db"] == "/data/data/com.spa.chat/databases/chat.db"
    assert added["expect_rows"] == [["see you"]]
    assert by_query["SELECT count(*) FROM messages"]["expect_rows"] == [[2]]
    changed = by_query["SELECT enabled FROM alarm_templates WHERE _id = 1"]
    assert changed["db"] == "/data/user_de/0/com.android.deskclock/databases/alarms.db"
    assert changed["expect_rows"] == [[0]]
    assert by_query["settings get global wifi_on"]["expect"] == "0"
    assert "settings get global adb_enabled" not in by_query  # unchanged
    assert by_query["ls /sdcard/Download/report.pdf"]["exit_code"] == 0
    assert propose_checks(after, after) == []


def test_record_a_task_validate_and_run_it(studio: tuple[StudioServer, Path], chromium: Any,
                                           capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    server, root = studio
    page = chromium.new_page(viewport={"width": 1400, "height": 900})
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(server.url)
    page.wait_for_selector("#tree div")
    page.click("#mode-record")
    page.click("#rec-begin")
    page.wait_for_function("document.querySelector('#rec-state').textContent.startsWith('recording')",
                           timeout=60_000)
    for done, text in enumerate(("Settings", "Network & internet", "Airplane mode"), start=1):
        _tap_text(page, "api/ui", text)
        page.wait_for_function(f"document.querySelectorAll('#rec-steps li').length === {done}")
    steps = page.locator("#rec-steps li").all_inner_texts()
    assert steps[1] == "{type: tap, selector: {any_of: [{text: 'Network & internet'}, {text: 网络和互联网}]}}"
    page.click("#rec-finish")
    page.wait_for_function("!document.querySelector('#rec-result').hidden", timeout=60_000)
    proposed = page.locator("#rec-checks").input_value()
    assert "settings get global airplane_mode_on" in proposed and "expect: '1'" in proposed
    page.fill("#rec-id", "settings_airplane_recorded_en")
    page.fill("#rec-instruction", "Turn on airplane mode.")
    page.click("#rec-save")
    page.wait_for_function("!document.querySelector('#rec-yaml').hidden")
    saved = page.locator("#rec-yaml").inner_text()
    assert saved.startswith("saved ") and "- {type: finish}" in saved
    assert not errors, errors
    page.close()
    tree = root / "tasks"
    assert run_cli(capsys, "tasks", "validate", str(tree)).code == 0
    logs = run_suite([], tmp_path / "results", ["oracle", "noop"], phones=1, tasks_dir=tree,
                     ids=["settings_airplane_recorded_en"])
    assert len(logs) == 2
    assert not failures(logs, "oracle", True) and not failures(logs, "noop", False)


def test_play_a_task_to_success_and_find_it_in_the_report(studio: tuple[StudioServer, Path],
                                                          chromium: Any, tmp_path: Path) -> None:
    from spa_bench.evaluation.metrics import summarize
    from spa_bench.report import write_report

    server, root = studio
    page = chromium.new_page(viewport={"width": 1400, "height": 900})
    page.goto(server.url)
    page.wait_for_selector("#tree div")
    page.click("#mode-play")
    page.wait_for_selector("#play-task option[value=settings_wifi_off_en]", state="attached")
    page.select_option("#play-task", "settings_wifi_off_en")
    started = time.monotonic()
    page.click("#play-begin")
    page.wait_for_function("document.querySelector('#play-instruction').textContent.includes('Wi-Fi')",
                           timeout=60_000)
    assert "step 1 of" in page.locator("#play-progress").inner_text()
    _tap_text(page, "api/play/ui", "Network & internet")
    page.wait_for_function("document.querySelector('#play-progress').textContent.includes('step 2 of')")
    _tap_text(page, "api/play/ui", "ON")  # the first switch: Wi-Fi
    page.wait_for_function("document.querySelector('#play-progress').textContent.includes('step 3 of')")
    page.click("#play-done")
    page.wait_for_function("document.querySelector('#play-result').textContent.length > 0", timeout=120_000)
    assert page.locator("#play-result .ok").inner_text() == "Success"
    page.close()
    with urllib.request.urlopen(server.url + "api/play", timeout=30) as answer:
        status = json.loads(answer.read())
    run_dir = Path(status["result"]["run_dir"])
    assert run_dir.parent == root / "runs" and time.monotonic() - started < 120
    report = write_report([run_dir], tmp_path / "report.html")
    rows = {row["agent"]: row for row in summarize(report.metrics.episodes).to_dict(orient="records")}
    assert rows["human"]["episodes"] == 1 and rows["human"]["successes"] == 1
    assert rows["human"]["steps"] == 3  # two taps and the finish, as the person made them


def _post(url: str, body: dict[str, Any]) -> tuple[int, Any]:
    request = urllib.request.Request(url, data=json.dumps(body).encode(),
                                     headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=120) as answer:
            return answer.status, json.loads(answer.read())
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read())


def test_record_asks_the_user_and_answers(studio: tuple[StudioServer, Path]) -> None:
    """An ask-and-answer task by the API the page uses: the question and the author's reply become the
    simulated user's rule and an ask_user check, the answer an answer check the author gives a kind."""
    server, _ = studio
    assert _post(server.url + "api/record/save", {"id": "x"})[0] == 400  # nothing recorded yet
    status, started = _post(server.url + "api/record/start", {"language": "zh"})
    assert status == 200 and started["language"] == "zh"
    status, asked = _post(server.url + "api/record/ask", {"question": "你想查哪个闹钟的时间？",
                                                          "reply": "起床的那个。"})
    assert status == 200 and asked["steps"] == [{"type": "ask_user", "question": "你想查哪个闹钟的时间？"}]
    assert asked["replies"][0]["reply"] == "起床的那个。" and asked["replies"][0]["when"]
    status, finished = _post(server.url + "api/record/finish", {"answer": "8:00"})
    assert status == 200 and finished["checks"] == []  # nothing changed on the phone
    status, saved = _post(server.url + "api/record/save", {
        "id": "clock_getup_asked_zh", "instruction": "我的闹钟几点响？", "checks": finished["checks_yaml"]})
    assert status == 200 and saved["saved"], saved
    assert "- {type: ask_user, question: 你想查哪个闹钟的时间？}" in saved["yaml"]
    assert "reply: 起床的那个。" in saved["yaml"] and "type: answer" in saved["yaml"]
    status, bad = _post(server.url + "api/record/save", {"id": "bad id!", "instruction": "x", "checks": "[]"})
    assert status == 400 and "bad id!" in bad["error"]
