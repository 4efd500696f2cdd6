"""One observation of the screen, as the harness takes it and as an agent program that shells out to adb
takes it, on the same virtual phone in one run.

Starts one virtual phone (its own process, as `spa-bench run` does) at --size on free ports and a private
adb server, then prints p50/p95 over --runs runs, each after a screen change (so every frame is freshly
rendered and encoded, as after an action); the two observations take turns run by run, so that a shared
machine's load weighs on both alike:

  Device.observe        screenshot + UI dump + foreground app/activity + keyboard, through Device
  CLI observe           AppAgent's sequence (scripts/and_controller.py: get_screenshot, get_xml), six
                        `adb` processes: shell screencap -p /sdcard/F.png, pull, shell uiautomator dump
                        /sdcard/F.xml, pull, shell dumpsys window | grep (focus), shell dumpsys
                        input_method | grep (keyboard)
  ratio                 CLI p50 / Device p50
  observe + execute     Device.observe then Device.execute of a tap or key that changes the screen
  screencap alone       `screencap -p` through Device (what the phone's frame costs, for reference)

    python benchmarks/observe.py [--runs 40] [--size 1080x2400]
"""

from __future__ import annotations

import argparse
import os
import shutil
import socket
import statistics
import subprocess
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

# Untimed pause before each timed run, so that no run pays for the end of the one before (six adb
# processes exiting, the phone finishing the screen change); observe + execute runs back to back.
SETTLE_S = 0.05


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def timed(fn: Callable[[], Any], runs: int, before: Callable[[], Any],
          check: Callable[[Any], bool], settle_s: float = SETTLE_S) -> list[float]:
    """Milliseconds of `runs` calls of `fn` (after one warm-up), each after `before`; every result is
    checked, so that a failing call cannot pass for a fast one."""
    before()
    fn()
    times = []
    for _ in range(runs):
        before()
        time.sleep(settle_s)
        t0 = time.perf_counter()
        result = fn()
        times.append((time.perf_counter() - t0) * 1000)
        if not check(result):
            raise SystemExit(f"benchmark aborted: unexpected result {str(result)[:200]!r}")
    return times


def timed_pair(first: tuple[Callable[[], Any], Callable[[Any], bool]],
               second: tuple[Callable[[], Any], Callable[[Any], bool]], runs: int,
               before: Callable[[], Any]) -> tuple[list[float], list[float]]:
    """`timed` of two operations taking turns, in the order first, second, second, first, ...: with a
    `before` that toggles between two screens, each operation sees each screen equally often."""
    times: tuple[list[float], list[float]] = ([], [])
    for fn, _check in (first, second):
        before()
        fn()  # warm-up
    pairs = [(first, times[0]), (second, times[1])]
    for run in range(runs):
        for (fn, check), out in (pairs if run % 2 == 0 else pairs[::-1]):
            before()
            time.sleep(SETTLE_S)
            t0 = time.perf_counter()
            result = fn()
            out.append((time.perf_counter() - t0) * 1000)
            if not check(result):
                raise SystemExit(f"benchmark aborted: unexpected result {str(result)[:200]!r}")
    return times


def line(name: str, times: list[float], target: str = "") -> float:
    p50 = statistics.median(times)
    print(f"  {name:<34} p50 {p50:6.1f} ms   p95 {percentile(times, 0.95):6.1f} ms   {target}")
    return p50


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    parser.add_argument("--runs", type=int, default=40)
    parser.add_argument("--size", default="1080x2400")
    args = parser.parse_args()

    from adbutils._utils import adb_path

    tmp = Path(tempfile.mkdtemp(prefix="spa-observe-"))
    port = str(_free_port())
    os.environ["ANDROID_ADB_SERVER_PORT"] = port
    os.environ["HOME"] = str(tmp)  # the phone's console token and adb's keys stay in here
    adb = adb_path()
    subprocess.run([adb, "start-server"], capture_output=True, check=True, timeout=60)

    from spa_bench.actions import Key, Selector, Tap
    from spa_bench.device.device import Device
    from spa_bench.device.observation import Observation
    from spa_bench.phone.process import start_phone_processes

    pool = start_phone_processes(1, size=args.size, data_root=tmp / "phones")
    try:
        phone = pool.phones[0]
        device = Device(phone.serial, console_port=phone.console_port)
        device.connect()
        device.health_check()
        info = device.info()
        device.press_key("home")
        settings_icon = next(e for e in device.observe().elements if e.text == "Settings").center
        flip = {"n": 0}

        def change_screen() -> None:
            """Home screen and Settings in turn (its icon tapped, then the home key, as an agent does), so
            that the next frame must be rendered afresh."""
            flip["n"] += 1
            if flip["n"] % 2:
                device.tap(*settings_icon)
            else:
                device.press_key("home")

        def observed(obs: Observation) -> bool:
            return obs.screenshot_png.startswith(b"\x89PNG") and len(obs.all_elements) > 3 and \
                obs.package is not None

        local = tmp / "pulled"
        local.mkdir()

        def adb_run(*argv: str) -> bytes:
            return subprocess.run([adb, "-s", phone.serial, *argv], capture_output=True, check=True,
                                  stdin=subprocess.DEVNULL).stdout

        def cli_observe() -> tuple[bytes, str, bytes, bytes]:
            adb_run("shell", "screencap", "-p", "/sdcard/spa_observe.png")
            adb_run("pull", "/sdcard/spa_observe.png", str(local / "spa_observe.png"))
            adb_run("shell", "uiautomator", "dump", "/sdcard/spa_observe.xml")
            adb_run("pull", "/sdcard/spa_observe.xml", str(local / "spa_observe.xml"))
            focus = adb_run("shell", "dumpsys window | grep -E 'mCurrentFocus|mFocusedApp'")
            keyboard = adb_run("shell", "dumpsys input_method | grep mInputShown")
            return ((local / "spa_observe.png").read_bytes(),
                    (local / "spa_observe.xml").read_text(encoding="utf-8"), focus, keyboard)

        def cli_observed(result: tuple[bytes, str, bytes, bytes]) -> bool:
            png, xml, focus, _keyboard = result
            return png.startswith(b"\x89PNG") and "</hierarchy>" in xml and b"mCurrentFocus" in focus

        print(f"virtual phone {info.screen_width}x{info.screen_height} on {phone.serial} (own process), "
              f"{args.runs} runs each, a fresh frame before every run, {os.cpu_count()} CPUs")
        n = args.runs
        # the two observations take turns, so that both see the same load of a shared machine
        both = timed_pair((device.observe, observed), (cli_observe, cli_observed), n, change_screen)
        device_p50 = line("Device.observe", both[0], "(issue #11 target at 1080x2400: p50 <= 45 ms)")
        cli_p50 = line("CLI observe (6 adb processes)", both[1])
        print(f"  {'ratio CLI / Device (p50)':<34} {cli_p50 / device_p50:6.2f}x"
              "                              (target >= 1.5x)")

        on_home = {"yes": True}

        def step() -> Observation:
            obs = device.observe()
            action = Tap(selector=Selector(text="Settings")) if on_home["yes"] else Key(key="home")
            device.execute(action, obs)
            on_home["yes"] = not on_home["yes"]
            return obs

        device.press_key("home")
        line("observe + execute (tap / home key)", timed(step, n, lambda: None, observed, settle_s=0.0),
             "(target p50 <= 60 ms)")
        line("screencap -p alone, via Device", timed(device.screenshot_png, n, change_screen,
                                                      lambda png: png.startswith(b"\x89PNG")))
    finally:
        pool.stop()
        subprocess.run([adb, "-P", port, "kill-server"], capture_output=True, timeout=30, check=False)
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
