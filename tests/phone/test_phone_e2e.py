"""The whole virtual phone through the real adb server: the adb command line, adbutils, uiautomator2,
an agent-style driver that uses nothing but `adb`, snapshots and the console."""

from __future__ import annotations

import hashlib
import io
import json
import os
import re
import socket
import subprocess
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from PIL import Image

from spa_bench.phone.u2rpc.selector import UiNode, parse_hierarchy

if TYPE_CHECKING:
    from conftest import AdbCli, PhoneHandle

SETTINGS = "com.android.settings"
LAUNCHER = "com.google.android.apps.nexuslauncher"


@pytest.fixture
def phone(running_phone: PhoneHandle) -> PhoneHandle:
    running_phone.reset()
    return running_phone


def focus(handle: PhoneHandle) -> str:
    out = handle.shell("dumpsys window windows")
    line = next(ln for ln in out.splitlines() if "mCurrentFocus" in ln)
    return line.split()[-1].rstrip("}")


# -- the adb command line ---------------------------------------------------------------------------------

def test_devices_and_getprop(phone: PhoneHandle) -> None:
    assert f"{phone.serial}" in phone.adb.text("devices", "-l")
    assert "model:SPA_Virtual_Phone" in phone.adb.text("devices", "-l")
    assert phone.shell("getprop ro.product.model").strip() == "SPA Virtual Phone"


def test_screencap_png_of_configured_size(phone: PhoneHandle) -> None:
    png = phone.adb.run("exec-out", "screencap -p", serial=phone.serial).stdout
    image = Image.open(io.BytesIO(png))
    assert image.format == "PNG"
    assert image.size == (1080, 2400)
    image.load()  # the whole stream decodes


def test_uiautomator_dump_and_pull(phone: PhoneHandle, tmp_path: Path) -> None:
    out = phone.shell("uiautomator dump")
    assert "UI hierchary dumped to: /sdcard/window_dump.xml" in out
    phone.adb.run("pull", "/sdcard/window_dump.xml", str(tmp_path / "w.xml"), serial=phone.serial)
    nodes = parse_hierarchy((tmp_path / "w.xml").read_text(encoding="utf-8"))
    assert any(n.get("text") == "Settings" for n in nodes)


def test_push_pull_5mb(phone: PhoneHandle, tmp_path: Path) -> None:
    data = os.urandom(5 * 1024 * 1024)
    (tmp_path / "in.bin").write_bytes(data)
    phone.adb.run("push", str(tmp_path / "in.bin"), "/sdcard/Download/in.bin", serial=phone.serial)
    phone.adb.run("pull", "/sdcard/Download/in.bin", str(tmp_path / "out.bin"), serial=phone.serial)
    assert hashlib.sha256((tmp_path / "out.bin").read_bytes()).digest() == hashlib.sha256(data).digest()
    assert phone.shell("ls -l /sdcard/Download/in.bin").split()[4] == str(len(data))


def test_50_concurrent_adb_shells(phone: PhoneHandle) -> None:
    def one(i: int) -> str:
        return phone.adb.text("shell", f"echo n{i}", serial=phone.serial, timeout=120)

    with ThreadPoolExecutor(max_workers=50) as pool:
        outputs = list(pool.map(one, range(50)))
    assert outputs == [f"n{i}\n" for i in range(50)]


def test_phone_survives_an_adb_server_killed_mid_transfer(phone: PhoneHandle, tmp_path: Path) -> None:
    from cli_helpers import start_private_adb_server

    other = replace(phone.adb, port=start_private_adb_server(str(phone.adb.binary), phone.adb.env))
    other.env = dict(phone.adb.env, ANDROID_ADB_SERVER_PORT=str(other.port))
    try:
        other.connect(phone.serial)
        phone.device().sync.push(os.urandom(5 * 1024 * 1024), "/sdcard/Download/big.bin")
        pulls = [subprocess.Popen([str(other.binary), "-s", phone.serial, "pull", "/sdcard/Download/big.bin",
                                   str(tmp_path / f"b{i}.bin")], env=other.env, stdout=subprocess.DEVNULL,
                                  stderr=subprocess.DEVNULL) for i in range(3)]
        time.sleep(0.05)
    finally:
        subprocess.run([str(other.binary), "-P", str(other.port), "kill-server"], env=other.env,
                       capture_output=True, timeout=30)
    for pull in pulls:
        pull.wait(30)
    assert phone.shell("echo alive") == "alive\n"
    deadline = time.monotonic() + 60
    while phone.phone.adb_connections > 1 and time.monotonic() < deadline:
        time.sleep(0.05)
    assert phone.phone.adb_connections == 1  # the killed server's connection is gone, ours remains


# -- adbutils ----------------------------------------------------------------------------------------------

def test_adbutils_api(phone: PhoneHandle) -> None:
    d = phone.device()
    assert tuple(d.window_size()) == (1080, 2400)
    assert d.screenshot().size == (1080, 2400)
    assert "package:com.android.settings" in [f"package:{p}" for p in d.list_packages()]
    assert d.app_current().package == LAUNCHER
    d.app_start(SETTINGS)
    assert d.app_current().package == SETTINGS
    d.keyevent("HOME")
    assert d.app_current().package == LAUNCHER

    # click: tapping the Settings icon opens Settings
    nodes = parse_hierarchy(d.dump_hierarchy())
    icon = next(n for n in nodes if n.get("text") == "Settings" and n.flag("clickable"))
    d.click(*icon.center)
    assert d.app_current().package == SETTINGS

    # swipe: a vertical swipe scrolls the Settings list
    before = parse_hierarchy(d.dump_hierarchy())
    assert not find_text(before, "System")
    d.swipe(540, 2000, 540, 700, 0.3)
    assert find_text(parse_hierarchy(d.dump_hierarchy()), "System")

    # send_keys (`input text`): type into Settings' search field
    d.app_stop(SETTINGS)
    d.app_start(SETTINGS)
    nodes = parse_hierarchy(d.dump_hierarchy())
    search = next(n for n in nodes if n.get("resource-id").endswith("search_action_bar"))
    d.click(*search.center)
    field = find_editable(parse_hierarchy(d.dump_hierarchy()))
    assert field is not None
    d.click(*field.center)
    d.send_keys("wifi")
    field = find_editable(parse_hierarchy(d.dump_hierarchy()))
    assert field is not None
    assert field.get("text") == "wifi"


def find_editable(nodes: list[UiNode]) -> UiNode | None:
    return next((n for n in nodes if n.get("class") == "android.widget.EditText"), None)


def find_text(nodes: list[UiNode], text: str) -> bool:
    return any(text in n.get("text") for n in nodes)


# -- uiautomator2 ------------------------------------------------------------------------------------------

def test_uiautomator2(phone: PhoneHandle) -> None:
    import uiautomator2 as u2

    d = u2.connect(phone.device())
    xml = d.dump_hierarchy()
    assert "Settings" in xml
    d(text="Settings").click()
    assert d.app_current()["package"] == SETTINGS
    assert d.screenshot().size == (1080, 2400)
    d.press("home")
    assert d.app_current()["package"] == LAUNCHER
    d(text="Settings").click()
    d(resourceIdMatches=".*search.*").click()
    d(className="android.widget.EditText").click()
    d.send_keys("你好")
    assert d(textContains="你好").exists
    field = d(className="android.widget.EditText")
    field.set_text("bluetooth")
    assert field.get_text() == "bluetooth"
    field.clear_text()
    assert "bluetooth" not in d.dump_hierarchy()
    d.press("back")
    d.app_start("com.android.settings")
    assert d.app_current()["package"] == SETTINGS
    d.app_stop("com.android.settings")
    assert d.app_current()["package"] == LAUNCHER


# -- an agent that only uses the adb command line -----------------------------------------------------------

class CliDriver:
    """Drives the phone the way AppAgent/Mobile-Agent-style programs do: adb subprocesses only."""

    def __init__(self, adb: AdbCli, serial: str, workdir: Path) -> None:
        self.adb, self.serial, self.workdir = adb, serial, workdir

    def sh(self, command: str) -> str:
        return self.adb.text("shell", command, serial=self.serial)

    def screenshot(self) -> Image.Image:
        self.sh("screencap -p /sdcard/agent_shot.png")
        local = self.workdir / "shot.png"
        self.adb.run("pull", "/sdcard/agent_shot.png", str(local), serial=self.serial)
        self.sh("rm /sdcard/agent_shot.png")
        return Image.open(local)

    def dump(self) -> list[UiNode]:
        out = self.sh("uiautomator dump /sdcard/agent_ui.xml")
        assert "UI hierchary dumped to" in out
        local = self.workdir / "ui.xml"
        self.adb.run("pull", "/sdcard/agent_ui.xml", str(local), serial=self.serial)
        return parse_hierarchy(local.read_text(encoding="utf-8"))

    def tap_text(self, *texts: str, scrolls: int = 4) -> None:
        """Tap the first node showing one of `texts`, scrolling down (input swipe) to find it."""
        for _ in range(scrolls + 1):
            nodes = self.dump()
            for text in texts:
                for node in nodes:
                    if text in node.get("text") or text == node.get("content-desc"):
                        x, y = node.center
                        self.sh(f"input tap {x} {y}")
                        return
            self.sh("input swipe 540 1900 540 900 300")
        raise AssertionError(f"none of {texts} on screen: {[n.get('text') for n in nodes if n.get('text')]}")


def test_cli_driver_toggles_wifi_and_switches_language(phone: PhoneHandle, tmp_path: Path) -> None:
    agent = CliDriver(phone.adb, phone.serial, tmp_path)
    assert agent.screenshot().size == (1080, 2400)
    assert agent.sh("settings get global wifi_on").strip() == "1"
    agent.tap_text("Settings")
    agent.tap_text("Network & internet")
    agent.tap_text("Wi‑Fi", "Wi-Fi")
    assert agent.sh("settings get global wifi_on").strip() == "0"
    agent.sh("input keyevent KEYCODE_BACK")
    agent.sh("input keyevent KEYCODE_BACK")
    assert focus(phone).startswith(LAUNCHER)

    agent.tap_text("Settings")
    agent.tap_text("System")
    agent.tap_text("Languages")
    agent.tap_text("简体中文")
    assert agent.sh("getprop persist.sys.locale").strip().startswith("zh")
    assert any("语言" in n.get("text") for n in agent.dump())

    # typing: input text (ASCII) and ADBKeyboard's broadcast (any script)
    agent.sh("input keyevent KEYCODE_HOME")
    agent.sh("am force-stop com.android.settings")  # else Settings resumes on the Languages page
    agent.tap_text("设置")
    nodes = agent.dump()
    search = next(n for n in nodes if "search" in n.get("resource-id"))
    agent.sh(f"input tap {search.center[0]} {search.center[1]}")
    field = find_editable(agent.dump())
    assert field is not None
    agent.sh(f"input tap {field.center[0]} {field.center[1]}")
    agent.sh("input text 'wlan'")
    agent.sh("ime set com.android.adbkeyboard/.AdbIME")  # its broadcasts type only while it is the IME
    agent.sh("am broadcast -a ADB_INPUT_TEXT --es msg '网络'")
    assert any("wlan网络" in n.get("text") for n in agent.dump())


def test_tapping_every_clickable_node_triggers_it(phone: PhoneHandle) -> None:
    """On the home screen and the Settings main page, a tap at the centre of each clickable node of the
    dump lands on that very view (in-process hit test) and, through adb, changes the screen, except for
    buttons with nothing to do there (Back and Home on the home screen)."""
    d = phone.device()
    system = phone.phone.system

    def screen() -> str:  # the status bar clock ticks: ignore it
        return re.sub(r'text="\d{1,2}:\d{2}[^"]*"', 'text="CLOCK"', d.dump_hierarchy())

    no_ops = {(LAUNCHER, "Back"), (LAUNCHER, "Home")}
    for start in (f"{LAUNCHER}/.NexusLauncherActivity", f"{SETTINGS}/.Settings"):
        phone.reset()
        d.shell(f"am start -n {start}")
        baseline = screen()
        clickables = [n for n in parse_hierarchy(baseline) if n.flag("clickable") and n.flag("enabled")]
        assert len(clickables) >= 5
        for node in clickables:
            phone.reset()
            d.shell(f"am start -n {start}")
            assert screen() == baseline
            label = node.get("text") or node.get("content-desc") or node.get("resource-id")
            view = system.frame().hit(*node.center)
            assert view is not None, f"nothing takes a tap at the centre of {label!r}"
            b, (left, top, right, bottom) = view.bounds, node.bounds  # the dump clips bounds to the screen
            assert b.left <= left and b.top <= top and b.right >= right and b.bottom >= bottom, label
            assert view.rid == node.get("resource-id"), f"{label!r} is covered by {view.rid!r}"
            d.click(*node.center)
            if (start.split("/")[0], label) in no_ops:
                continue
            assert screen() != baseline, f"tapping {label!r} at {node.center} did nothing"


# -- snapshots and the console -----------------------------------------------------------------------------

def test_snapshot_restores_state_through_adb(phone: PhoneHandle) -> None:
    console = phone.phone.config.console_port
    serial = f"emulator-{console}"
    assert phone.adb.text("emu", "avd", "snapshot", "save", "e2e", serial=serial).strip() == "OK"
    phone.shell("settings put global wifi_on 0")
    phone.shell("am start -n com.android.settings/.Settings")
    phone.shell("echo changed > /sdcard/Download/marker.txt")
    phone.device().sync.push(b"x" * 1000, "/sdcard/Download/pushed.bin")
    assert phone.shell("settings get global wifi_on").strip() == "0"
    assert phone.adb.text("emu", "avd", "snapshot", "load", "e2e", serial=serial).strip() == "OK"
    assert phone.shell("settings get global wifi_on").strip() == "1"
    assert focus(phone).startswith(LAUNCHER)
    assert "No such file" in phone.adb.run("shell", "ls /sdcard/Download/marker.txt", serial=phone.serial,
                                           check=False).stderr.decode()
    assert "e2e" in phone.adb.text("emu", "avd", "snapshot", "list", serial=serial)
    assert phone.adb.text("emu", "avd", "snapshot", "delete", "e2e", serial=serial).strip() == "OK"


def test_console_kill_stops_the_phone(adb_cli: AdbCli, tmp_path: Path) -> None:
    from spa_bench.phone import start_phones

    token = adb_cli.home / ".emulator_console_auth_token"
    with start_phones(1, data_root=tmp_path, token_path=token) as pool:
        phone = pool[0]
        adb_cli.connect(phone.serial)
        assert adb_cli.text("shell", "echo up", serial=phone.serial) == "up\n"
        out = adb_cli.text("emu", "kill", serial=phone.emulator_serial)
        assert "bye bye" in out
        assert phone.wait(5)
        adb_cli.run("disconnect", phone.serial, check=False)


def test_start_phones_pool_and_errors(tmp_path: Path) -> None:
    from spa_bench.errors import PhoneError
    from spa_bench.phone import start_phones

    with start_phones(2, data_root=tmp_path, token_path=tmp_path / "token") as pool:
        ports = [p.config.port for p in pool]
        assert len(set(ports)) == 2
        assert all(p % 2 == 1 and not 5554 <= p <= 5585 for p in ports)
        assert (tmp_path / "phone-0" / "fs" / "sdcard").is_dir()
        with pytest.raises(PhoneError, match="already in use"):
            start_phones(1, base_port=ports[0], data_root=tmp_path / "other", token_path=tmp_path / "token")
    assert all(not p.running for p in pool)
    with pytest.raises(PhoneError, match="invalid screen size"):
        start_phones(1, size="huge")
    with pytest.raises(PhoneError, match="invalid locale"):
        start_phones(1, locale="fr")


def test_cli_start_prints_connect_line_and_stops_on_sigint(tmp_path: Path) -> None:
    import signal
    import sys

    env = dict(os.environ, HOME=str(tmp_path))
    ready = tmp_path / "ready.json"
    proc = subprocess.Popen([sys.executable, "-m", "spa_bench", "phone", "start", "--port", "0",
                             "--ready-file", str(ready),
                             "--data-dir", str(tmp_path / "data"), "--size", "720x1600", "--locale", "zh"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
    try:
        line = b""
        deadline = time.monotonic() + 30
        while b"adb connect" not in line and time.monotonic() < deadline:
            line += proc.stdout.readline() if proc.stdout else b""
        port = json.loads(ready.read_text())["port"]  # written before the connect line is printed
        assert f"adb connect 127.0.0.1:{port}".encode() in line
        proc.send_signal(signal.SIGINT)
        assert proc.wait(15) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
    bad = subprocess.run([sys.executable, "-m", "spa_bench", "phone", "start", "--size", "12"],
                         capture_output=True, env=env, timeout=60)
    assert bad.returncode == 1
    assert b"invalid screen size" in bad.stderr
    assert b"Traceback" not in bad.stderr
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", port))
        busy.listen()
        taken = subprocess.run([sys.executable, "-m", "spa_bench", "phone", "start", "--port", str(port),
                                "--data-dir", str(tmp_path / "data2")],
                               capture_output=True, env=env, timeout=60)
    assert taken.returncode == 1
    assert f"port {port} on 127.0.0.1 is already in use".encode() in taken.stderr
    assert len(taken.stderr.strip().splitlines()) == 1
