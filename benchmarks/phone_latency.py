"""Latency of the virtual phone as agents see it, through the real adb (the one bundled with adbutils).

Starts one phone at 1080x2400 on free ports, a private adb server, connects, and prints p50/p95 over
--runs runs for: `adb exec-out screencap -p` (cached frame and fresh frame after a screen change),
`adb shell uiautomator dump` + `adb shell cat`, `adb shell input tap`, and snapshot load through the
console (`adb emu avd snapshot load`), then the same operations through adbutils' in-process client
(no process start per call), uiautomator2, and a raw console socket.

    python benchmarks/phone_latency.py [--runs 30]
"""

from __future__ import annotations

import argparse
import os
import socket
import statistics
import subprocess
import tempfile
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

TARGETS_MS = {"screencap": 150.0, "dump": 80.0, "tap": 30.0, "snapshot load": 100.0}


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))
    return ordered[index]


def measure(fn: Callable[[], Any], runs: int, before: Callable[[], Any] | None = None,
            check: Callable[[Any], bool] | None = None) -> list[float]:
    """Times of `runs` calls (after one warm-up); `check` validates every result, so a failing
    operation cannot pass for a fast one."""
    fn()
    times = []
    for _ in range(runs):
        if before is not None:
            before()
        t0 = time.perf_counter()
        result = fn()
        times.append((time.perf_counter() - t0) * 1000)
        if check is not None and not check(result):
            raise SystemExit(f"benchmark aborted: unexpected result {str(result)[:200]!r}")
    return times


def is_png(data: Any) -> bool:
    return isinstance(data, bytes) and data.startswith(b"\x89PNG") and len(data) > 10_000


def report(name: str, times: list[float], target_key: str | None) -> None:
    p50, p95 = statistics.median(times), percentile(times, 0.95)
    verdict = ""
    if target_key is not None:
        target = TARGETS_MS[target_key]
        verdict = f"target p50 < {target:.0f} ms: {'ok' if p50 < target else 'MISSED'}"
    print(f"{name:<52} p50 {p50:7.1f} ms   p95 {p95:7.1f} ms   {verdict}")


class Console:
    """A raw console client (what `adb emu` does, without the process start)."""

    def __init__(self, port: int, token: str) -> None:
        self.sock = socket.create_connection(("127.0.0.1", port))
        self._read()
        if token:
            self.cmd(f"auth {token}")

    def _read(self) -> str:
        data = b""
        while not (data.endswith(b"OK\r\n") or b"KO:" in data):
            data += self.sock.recv(4096)
        return data.decode()

    def cmd(self, line: str) -> str:
        self.sock.sendall(line.encode() + b"\r\n")
        return self._read()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=30)
    args = parser.parse_args()

    import adbutils

    from spa_bench.phone.api import PhoneConfig
    from spa_bench.phone.server import AUTO_PORT, VirtualPhone

    adb = str(Path(adbutils.__file__).parent / "binaries" / "adb")
    with tempfile.TemporaryDirectory(prefix="spa-latency-") as tmp:
        home = Path(tmp) / "home"
        home.mkdir()
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            server_port = s.getsockname()[1]
        env = dict(os.environ, ANDROID_ADB_SERVER_PORT=str(server_port), HOME=str(home))
        config = replace(PhoneConfig(), port=AUTO_PORT, data_dir=Path(tmp) / "phone",
                         width=1080, height=2400)
        phone = VirtualPhone(config, token_path=home / ".emulator_console_auth_token")
        phone.start()
        assert phone.system is not None and phone.snapshots is not None
        system = phone.system

        def run(*argv: str, serial: bool = True) -> bytes:
            cmd = [adb, *(["-s", phone.serial] if serial else []), *argv]
            proc = subprocess.run(cmd, env=env, stdin=subprocess.DEVNULL, capture_output=True, check=True)
            return proc.stdout

        try:
            run("start-server", serial=False)
            run("connect", phone.serial, serial=False)
            time.sleep(0.3)
            phone.snapshots.save("bench")
            flip = {"n": 0}

            def change_screen() -> None:
                """Alternate between the home screen and Settings so the next frame must be rendered."""
                flip["n"] += 1
                if flip["n"] % 2:
                    system.start_activity("com.android.settings")
                else:
                    system.press_key(3)

            print(f"virtual phone 1080x2400 on {phone.serial}, {args.runs} runs each, "
                  f"{os.cpu_count()} CPUs\n-- adb command line (one adb process per call)")
            def go_home() -> None:
                system.press_key(3)

            def dumped(out: Any) -> bool:
                return b"UI hierchary dumped to" in out

            def ok(out: Any) -> bool:
                return b"OK" in out and b"KO" not in out

            def dump_and_cat() -> bytes:
                return run("shell", "uiautomator dump") + run("shell", "cat /sdcard/window_dump.xml")

            def emu_load() -> bytes:
                emu = ["-s", phone.emulator_serial, "emu"]
                return run(*emu, "avd", "snapshot", "load", "bench", serial=False)

            n = args.runs
            report("adb exec-out screencap -p (frame unchanged)",
                   measure(lambda: run("exec-out", "screencap -p"), n, check=is_png), "screencap")
            report("adb exec-out screencap -p (fresh frame)",
                   measure(lambda: run("exec-out", "screencap -p"), n, change_screen, is_png), "screencap")
            report("adb shell uiautomator dump + adb shell cat",
                   measure(dump_and_cat, n, change_screen, lambda out: b"</hierarchy>" in out), None)
            report("adb shell uiautomator dump (alone)",
                   measure(lambda: run("shell", "uiautomator dump"), n, change_screen, dumped), "dump")
            report("adb shell input tap 540 1200",
                   measure(lambda: run("shell", "input tap 540 1200"), n, go_home), "tap")
            report("adb emu avd snapshot load", measure(emu_load, n, check=ok), "snapshot load")

            print("-- adbutils in-process client, raw console socket")
            device = adbutils.AdbClient(host="127.0.0.1", port=server_port).device(phone.serial)
            report("adbutils screenshot() (fresh frame, decoded)",
                   measure(device.screenshot, n, change_screen, lambda im: im.size == (1080, 2400)),
                   "screencap")
            report("adbutils shell('screencap -p') bytes (fresh frame)",
                   measure(lambda: device.shell("screencap -p", encoding=None), n, change_screen, is_png),
                   "screencap")
            report("adbutils dump_hierarchy() (fresh frame)",
                   measure(device.dump_hierarchy, n, change_screen, lambda x: "</hierarchy>" in x), "dump")
            report("adbutils click(540, 1200)", measure(lambda: device.click(540, 1200), n, go_home), "tap")

            print("-- uiautomator2 (JSON-RPC over tcp:9008)")
            import uiautomator2

            u2 = uiautomator2.connect(device)
            report("u2 screenshot() (fresh frame, JPEG, decoded)",
                   measure(u2.screenshot, n, change_screen, lambda im: im.size == (1080, 2400)), "screencap")
            report("u2 dump_hierarchy() (fresh frame)",
                   measure(u2.dump_hierarchy, n, change_screen, lambda x: "</hierarchy>" in x), "dump")
            report("u2 click(540, 1200)", measure(lambda: u2.click(540, 1200), n, go_home), "tap")

            print("-- console")
            console = Console(config.console_port, phone.console_token)
            report("console 'avd snapshot load' (socket)",
                   measure(lambda: console.cmd("avd snapshot load bench").encode(), n, check=ok),
                   "snapshot load")
            store = phone.snapshots
            report("SnapshotStore.load, back to back (in-process)",
                   measure(lambda: store.load("bench"), n), None)
        finally:
            subprocess.run([adb, "-P", str(server_port), "kill-server"], env=env, capture_output=True)
            phone.stop()


if __name__ == "__main__":
    main()
