"""uiautomator2's device server on its own: selectors against a canned dump, the JSON-RPC error
shapes, and the real uiautomator2 client through the real adb server (fake OS and fake shell)."""

from __future__ import annotations

import base64
import io
import json
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from PIL import Image

from spa_bench.phone.adb import AdbServer, make_banner, phone_services
from spa_bench.phone.api import PhoneConfig
from spa_bench.phone.touch import Gesture
from spa_bench.phone.u2rpc import U2Server
from spa_bench.phone.u2rpc.http import Request
from spa_bench.phone.u2rpc.selector import parse_hierarchy, select
from spa_bench.phone.vfs import VirtualFS

if TYPE_CHECKING:
    from conftest import AdbCli

FLAGS = ("checkable", "checked", "clickable", "enabled", "focusable", "focused", "scrollable",
         "long-clickable", "password", "selected")


def node(index: int, text: str, rid: str, cls: str, bounds: str, desc: str = "", children: str = "",
         **flags: bool) -> str:
    """One <node> in AOSP attribute order; flags use underscores (long_clickable)."""
    values = {"enabled": True, **{k.replace("_", "-"): v for k, v in flags.items()}}
    attrs = " ".join(f'{f}="{str(values.get(f, False)).lower()}"' for f in FLAGS)
    head = (f'<node index="{index}" text="{text}" resource-id="{rid}" class="android.widget.{cls}" '
            f'package="com.demo" content-desc="{desc}" {attrs} bounds="{bounds}"')
    return f"{head}>{children}</node>" if children else f"{head} />"


XML = ("<?xml version='1.0' encoding='UTF-8' standalone='yes' ?><hierarchy rotation=\"0\">"
       + node(0, "", "", "FrameLayout", "[0,0][1080,2400]", scrollable=True, children=(
           node(0, "Wi-Fi", "com.demo:id/title", "TextView", "[0,100][1080,200]", clickable=True,
                focusable=True)
           + node(1, "Bluetooth", "com.demo:id/title", "TextView", "[0,200][1080,300]", desc="bt",
                  checkable=True, checked=True, clickable=True, focusable=True,
                  children=node(0, "On", "com.demo:id/state", "Switch", "[900,220][1000,280]",
                                checkable=True, checked=True))
           + node(2, "Search", "com.demo:id/search", "EditText", "[0,300][1080,400]", clickable=True,
                  focusable=True, focused=True)))
       + "</hierarchy>")


class FakeSystem:
    """Records input; the screen never changes."""

    def __init__(self) -> None:
        self.config = PhoneConfig(width=1080, height=2400)
        self.lock = threading.RLock()
        self.events: list[tuple[Any, ...]] = []
        self.clipboard = ""

    def screen_size(self) -> tuple[int, int]:
        return (1080, 2400)

    def settings_get(self, namespace: str, key: str) -> str | None:
        return None  # no wm overrides, no rotation

    def screenshot(self) -> Image.Image:
        return Image.new("RGB", (1080, 2400), (10, 200, 30))

    def dump_hierarchy(self, compressed: bool = False, mode: str = "active") -> str:
        return XML

    def current_focus(self) -> tuple[str, str]:
        return ("com.demo", "com.demo.Main")

    def tap(self, x: int, y: int) -> None:
        self.events.append(("tap", x, y))

    def long_press(self, x: int, y: int, duration_ms: int = 1000) -> None:
        self.events.append(("long", x, y, duration_ms))

    def swipe(self, x1: int, y1: int, x2: int, y2: int, duration_ms: int = 300) -> None:
        self.events.append(("swipe", x1, y1, x2, y2, duration_ms))

    def perform_gesture(self, gesture: Gesture, wait: bool = True) -> None:
        """Recorded as DOWN point, UP point and the gesture's length (nothing waits)."""
        events = list(gesture.events())
        self.events.append(("gesture", (events[0].x, events[0].y), (events[-1].x, events[-1].y),
                            gesture.duration_ms))

    def press_key(self, keycode: int) -> None:
        self.events.append(("key", keycode))

    def input_text(self, text: str) -> None:
        self.events.append(("text", text))

    def get_clipboard(self) -> str:
        return self.clipboard

    def set_clipboard(self, text: str) -> None:
        self.clipboard = text


def rpc(server: U2Server, method: str, params: object) -> dict[str, Any]:
    body = json.dumps({"jsonrpc": "2.0", "id": 1, "method": method, "params": params}).encode()
    response = server.handle(Request("POST", "/jsonrpc/0", "HTTP/1.1", {}, body))
    assert response.status == 200
    result: dict[str, Any] = json.loads(response.body)
    return result


def sel(**fields: Any) -> dict[str, Any]:
    from uiautomator2._selector import Selector

    return dict(Selector(**fields))


def test_selectors_match_like_uiselector() -> None:
    nodes = parse_hierarchy(XML)
    assert [n.get("text") for n in select(nodes, sel(text="Wi-Fi"))] == ["Wi-Fi"]
    assert len(select(nodes, sel(resourceId="com.demo:id/title"))) == 2
    assert select(nodes, sel(resourceId="com.demo:id/title", instance=1))[0].get("text") == "Bluetooth"
    assert [n.get("text") for n in select(nodes, sel(textMatches="B.*h"))] == ["Bluetooth"]
    assert select(nodes, sel(textMatches="luetooth")) == []  # a Java regex must match the whole text
    switches = select(nodes, sel(checked=True, className="android.widget.Switch"))
    assert [n.get("text") for n in switches] == ["On"]
    assert [n.get("text") for n in select(nodes, sel(description="bt"))] == ["Bluetooth"]
    child = sel(text="Bluetooth")
    child["childOrSibling"] = ["child"]
    child["childOrSiblingSelector"] = [sel(className="android.widget.Switch")]
    assert [n.get("text") for n in select(nodes, child)] == ["On"]
    sibling = sel(text="Wi-Fi")
    sibling["childOrSibling"] = ["sibling"]
    sibling["childOrSiblingSelector"] = [sel(className="android.widget.EditText")]
    assert [n.get("text") for n in select(nodes, sibling)] == ["Search"]


def test_rpc_methods_and_errors() -> None:
    system = FakeSystem()
    server = U2Server(system)  # type: ignore[arg-type]
    info = rpc(server, "objInfo", [sel(text="Bluetooth")])["result"]
    assert info["bounds"] == {"left": 0, "top": 200, "right": 1080, "bottom": 300}
    assert info["checked"] is True
    assert info["childCount"] == 1
    missing = rpc(server, "objInfo", [sel(text="Nope")])["error"]
    assert "UiObjectNotFoundException" in missing["message"]
    assert rpc(server, "nope", [])["error"]["code"] == -32601
    assert rpc(server, "count", [sel(resourceId="com.demo:id/title")])["result"] == 2
    assert rpc(server, "waitForExists", [sel(text="Wi-Fi"), 100])["result"] is True
    assert rpc(server, "waitForExists", [sel(text="Nope"), 150])["result"] is False
    assert rpc(server, "waitUntilGone", [sel(text="Nope"), 100])["result"] is True
    rpc(server, "click", [10, 20])
    rpc(server, "click", [10, 20, 800])
    rpc(server, "swipe", [1, 2, 3, 4, 20])
    rpc(server, "pressKey", ["home"])
    rpc(server, "setText", [sel(resourceId="com.demo:id/search"), "你好"])
    # a click holds 100 ms (REGULAR_CLICK_LENGTH), click(x, y, ms) ms; a swipe of 20 steps is 19 MOVEs
    # 5 ms apart (InteractionController)
    assert system.events[:4] == [("gesture", (10, 20), (10, 20), 100), ("gesture", (10, 20), (10, 20), 800),
                                 ("gesture", (1, 2), (3, 4), 95), ("key", 3)]
    # setText on a focused field: move to the end, delete its 6 characters, type.
    assert system.events[4:] == [("key", 123)] + [("key", 67)] * 6 + [("text", "你好")]
    shot = rpc(server, "takeScreenshot", [1, 80])["result"]
    image = Image.open(io.BytesIO(base64.b64decode(shot)))
    assert (image.format, image.size) == ("JPEG", (1080, 2400))
    assert rpc(server, "deviceInfo", {})["result"]["displayHeight"] == 2400
    bad = server.handle(Request("POST", "/jsonrpc/0", "HTTP/1.1", {}, b"{not json"))
    assert "Parse error" in json.loads(bad.body)["error"]["message"]
    assert server.handle(Request("GET", "/ping", "HTTP/1.1", {}, b"")).body == b"pong"


# -- the real uiautomator2 client ------------------------------------------------------------------------

@dataclass(frozen=True)
class Out:
    stdout: bytes
    stderr: bytes = b""
    exit_code: int = 0


class MiniShell:
    """What uiautomator2's connect and send_keys ask the shell; md5sum of the pushed jar is real."""

    def __init__(self, fs: VirtualFS) -> None:
        self.fs = fs
        self.commands: list[str] = []

    def run(self, command: str, stdin: bytes | Callable[[], bytes] = b"", client: object = None) -> Out:
        suffix = "; echo X4EXIT:$?"  # adbutils' shell2 learns the exit code this way
        if command.endswith(suffix):
            out = self.run(command[:-len(suffix)], stdin)
            return Out(out.stdout + out.stderr + f"X4EXIT:{out.exit_code}\n".encode())
        return self._run(command)

    def _run(self, command: str) -> Out:
        import hashlib

        self.commands.append(command)
        if command.startswith("toybox md5sum"):
            path = command.split()[-1].strip("'")
            if not self.fs.exists(path):
                return Out(b"", f"md5sum: {path}: No such file or directory\n".encode(), 1)
            return Out(f"{hashlib.md5(self.fs.read_bytes(path)).hexdigest()}  {path}\n".encode())
        if command.startswith("ime list"):
            return Out(b"com.android.inputmethod.latin/.LatinIME\n")
        return Out(b"", f"{command}: inaccessible or not found\n".encode(), 127)


@pytest.fixture
def u2_device(tmp_path: Path, adb_cli: AdbCli) -> Iterator[tuple[Any, FakeSystem, MiniShell]]:
    import uiautomator2 as u2

    fs = VirtualFS(tmp_path)
    fs.ensure_layout()
    system = FakeSystem()
    shell = MiniShell(fs)
    u2server = U2Server(system)  # type: ignore[arg-type]
    server = AdbServer(0, make_banner({"ro.product.model": "Fake"}),  # 0: bound to a free port
                       phone_services(shell, fs, {9008: u2server.handle_stream}))
    server.start()
    serial = f"127.0.0.1:{server.port}"
    adb_cli.connect(serial)
    try:
        yield u2.connect(adb_cli.client().device(serial)), system, shell
    finally:
        adb_cli.run("disconnect", serial, check=False)
        server.stop()


def test_uiautomator2_client(u2_device: tuple[Any, FakeSystem, MiniShell]) -> None:
    from uiautomator2.exceptions import UiObjectNotFoundError

    d, system, shell = u2_device
    assert not any("app_process" in c for c in shell.commands)  # /ping answered: no server launch
    assert shell.fs.exists("/data/local/tmp/u2.jar")  # pushed after the md5 check failed
    assert "Bluetooth" in d.dump_hierarchy()
    d(text="Wi-Fi").click()
    assert system.events[-1] == ("gesture", (540, 150), (540, 150), 100)  # a 100 ms click
    assert d(text="Bluetooth").info["checked"] is True
    assert d(text="Wi-Fi").exists
    with pytest.raises(UiObjectNotFoundError):
        d(text="Nowhere").click(timeout=0.2)
    d.press("back")
    assert system.events[-1] == ("key", 4)
    d.send_keys("你好")
    assert system.events[-1] == ("text", "你好")
    assert d.clipboard == "你好"
    assert d.screenshot().size == (1080, 2400)


def test_http_keep_alive_forward_and_bad_requests(u2_device: tuple[Any, FakeSystem, MiniShell],
                                                   adb_cli: AdbCli) -> None:
    import urllib.request

    import adbutils

    d, _system, _shell = u2_device
    dev = d.adb_device
    sock = dev.create_connection(adbutils.Network.TCP, 9008)
    sock.sendall(b"GET /ping HTTP/1.1\r\nHost: x\r\n\r\nGET /info HTTP/1.1\r\nHost: x\r\n\r\n")
    data = b""
    while data.count(b"HTTP/1.1 200") < 2 or not data.rstrip().endswith(b"}"):
        data += sock.recv(65536)
    assert b"\r\n\r\npong" in data
    assert b'"displayWidth": 1080' in data
    body = json.dumps({"jsonrpc": "2.0", "id": 3, "method": "count", "params": [sel(text="On")]}).encode()
    sock.sendall(b"POST /jsonrpc/0 HTTP/1.1\r\nContent-Length: %d\r\n\r\n" % len(body))
    assert sock.recv(1000) == b"HTTP/1.1 100 Continue\r\n\r\n"  # headers alone get an interim answer
    sock.sendall(body)
    data = b""
    while not data.endswith(b"}"):
        data += sock.recv(65536)
    assert data.startswith(b"HTTP/1.1 200 OK")
    assert data.endswith(b'"result": 1}')
    sock.sendall(b"NOT HTTP\r\n\r\n")
    assert sock.recv(1000).startswith(b"HTTP/1.1 400")
    sock.close()

    # tcp:0: adb binds a free port itself and prints it (no port picked here that another could take)
    port = int(adb_cli.text("forward", "tcp:0", "tcp:9008", serial=dev.serial))
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/ping", timeout=10) as response:
            assert response.read() == b"pong"
        body = json.dumps({"jsonrpc": "2.0", "id": 7, "method": "count", "params": [sel(text="On")]}).encode()
        request = urllib.request.Request(f"http://127.0.0.1:{port}/jsonrpc/0", data=body,
                                         headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(request, timeout=10) as response:
            assert json.loads(response.read()) == {"jsonrpc": "2.0", "id": 7, "result": 1}
    finally:
        adb_cli.run("forward", "--remove", f"tcp:{port}", serial=dev.serial, check=False)
