"""spa-bench studio: its API on a shared virtual phone, and the page in a real browser (Chromium driven by
Playwright): pick an element and read its selector, tap and see the screen change, type Chinese."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest
from browser_helpers import chromium_browser
from pim_runs import shared_devices

from spa_bench.device.device import Device
from spa_bench.phone.apps.labels import LabelTranslator
from spa_bench.runner.pool import BASE_SNAPSHOT
from spa_bench.studio.phone import StudioPhone
from spa_bench.studio.server import StudioServer

pytestmark = [pytest.mark.usefixtures("adb_env"), pytest.mark.xdist_group("studio")]
chromium = chromium_browser


@pytest.fixture(scope="module")
def studio() -> Iterator[tuple[StudioServer, Device]]:
    device = shared_devices(1)[0]
    server = StudioServer(StudioPhone(device, LabelTranslator), port=0)
    server.start()
    try:
        yield server, device
    finally:
        server.stop()


def _get(url: str, headers: dict[str, str] | None = None) -> tuple[int, dict[str, str], bytes]:
    request = urllib.request.Request(url, headers=headers or {})
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, dict(response.headers), response.read()
    except urllib.error.HTTPError as exc:
        return exc.code, dict(exc.headers), exc.read()


def _post(url: str, body: bytes) -> tuple[int, Any]:
    request = urllib.request.Request(url, data=body, headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read())


def _from_the_base_state(device: Device) -> None:
    """Each test starts as a run's episode does (another test may have left a dialog or a keyboard up)."""
    device.load_snapshot(BASE_SNAPSHOT.format(language="en"))


def test_api_screen_ui_and_actions(studio: tuple[StudioServer, Device]) -> None:
    server, device = studio
    _from_the_base_state(device)
    assert server.url.startswith("http://127.0.0.1:")
    device.open_app("com.android.deskclock")
    status, headers, png = _get(server.url + "api/screen")
    assert status == 200 and png.startswith(b"\x89PNG") and headers["Cache-Control"] == "no-store"
    assert _get(server.url + "api/screen", {"If-None-Match": headers["ETag"]})[0] == 304  # unchanged
    status, _, body = _get(server.url + "api/ui")
    ui = json.loads(body)
    assert ui["package"] == "com.android.deskclock" and ui["width"] == 1080
    fab = next(n for n in ui["nodes"] if n["resource_id"].endswith("/fab"))
    assert fab["selector"] == "{resource_id: fab}" and fab["unique"] and "clickable" in fab["flags"]
    assert [n["node"] for n in ui["nodes"]] == list(range(len(ui["nodes"])))
    x, y = (fab["bounds"][0] + fab["bounds"][2]) // 2, (fab["bounds"][1] + fab["bounds"][3]) // 2
    status, done = _post(server.url + "api/act", json.dumps({"type": "tap", "x": x, "y": y}).encode())
    assert status == 200 and done["action"]["type"] == "tap"
    assert _get(server.url + "api/screen", {"If-None-Match": headers["ETag"]})[0] == 200  # it changed
    status, error = _post(server.url + "api/act", b'{"type": "tap", "x": -5, "y": 1}')
    assert status == 400 and "x" in error["error"]
    status, error = _post(server.url + "api/act", b"tap please")
    assert status == 400 and "not JSON" in error["error"]
    status, error = _post(server.url + "api/act", b'{"type": "finish"}')
    assert status == 400 and "finish" in error["error"]
    # what another web page could make the browser send: a form post, or any request by a rebound name
    form = urllib.request.Request(server.url + "api/act", data=b"type=tap&x=1&y=1",
                                  headers={"Content-Type": "application/x-www-form-urlencoded"})
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(form, timeout=30)
    assert refused.value.code == 415
    rebound = urllib.request.Request(server.url + "api/ui", headers={"Host": f"evil.example:{server.port}"})
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(rebound, timeout=30)
    assert refused.value.code == 403
    device.press_key("back")


def _tap_node(page: Any, server: StudioServer, scale: float, screen: dict[str, float], rid_end: str) -> None:
    """Click, on the page's screen, the middle of the node whose resource id ends so (as the phone has it
    now: a keyboard moves fields)."""
    ui = json.loads(_get(server.url + "api/ui")[2])
    node = next(n for n in ui["nodes"] if n["resource_id"].endswith(rid_end))
    x, y = (node["bounds"][0] + node["bounds"][2]) / 2, (node["bounds"][1] + node["bounds"][3]) / 2
    page.mouse.click(screen["x"] + x * scale, screen["y"] + y * scale)


def test_page_inspects_taps_and_types(studio: tuple[StudioServer, Device], chromium: Any) -> None:
    server, device = studio
    _from_the_base_state(device)
    device.open_app("com.android.deskclock")
    page = chromium.new_page(viewport={"width": 1400, "height": 900})
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(server.url)
    page.wait_for_selector("#tree div")
    tree = page.locator("#tree").inner_text()
    assert "#fab" in tree and "#alarm_recycler_view" in tree
    # pick the add-alarm button in inspect mode: its selector, unique, and what uiautomator says of it
    page.keyboard.press("i")
    screen = page.locator("#screen").bounding_box()
    scale = screen["width"] / 1080
    ui = json.loads(_get(server.url + "api/ui")[2])
    fab = next(n for n in ui["nodes"] if n["resource_id"].endswith("/fab"))
    fx, fy = (fab["bounds"][0] + fab["bounds"][2]) / 2, (fab["bounds"][1] + fab["bounds"][3]) / 2
    page.mouse.click(screen["x"] + fx * scale, screen["y"] + fy * scale)
    assert page.locator("#selector").inner_text() == "{resource_id: fab}"
    assert page.locator("#selector-note").inner_text() == "unique on this screen"
    assert "com.android.deskclock:id/fab" in page.locator("#props").inner_text()
    # a label shown in both UI languages is proposed in both (the tab labels)
    page.locator("#tree div", has_text='TextView "Clock"').first.click()
    assert page.locator("#selector").inner_text() == "{any_of: [{text: Clock}, {text: 时钟}]}"
    # inspect off: the same click taps; the screen changes to the new alarm's editor
    page.keyboard.press("i")
    before = page.evaluate("document.body.dataset.screen")
    page.mouse.click(screen["x"] + fx * scale, screen["y"] + fy * scale)
    page.wait_for_function(f"document.body.dataset.screen !== {json.dumps(before)}")
    page.wait_for_function("document.querySelector('#tree').innerText.includes('#hour')")
    # tap the hour field, then type into it through the text box (the agents' `type` action)
    _tap_node(page, server, scale, screen, "/hour")
    page.fill("#text", "9")
    page.click("#type")
    page.wait_for_function("document.querySelector('#tree').innerText.includes('\"9\" #hour')")
    # OK, then a Chinese label typed the same way
    page.locator("#tree div", has_text='"OK" #button1').first.wait_for()
    _tap_node(page, server, scale, screen, "/button1")
    page.wait_for_function("document.querySelector('#tree').innerText.includes('#edit_label')")
    _tap_node(page, server, scale, screen, "/edit_label")
    page.fill("#text", "晨跑")
    page.click("#type")
    page.wait_for_function("document.querySelector('#tree').innerText.includes('\"晨跑\"')")
    assert not errors, errors
    page.close()
    device.press_key("back")
    device.press_key("back")
