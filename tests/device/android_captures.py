"""A phone played by a ScriptedTransport from real device output (shared/reference/android-captures,
the folder beside the repository; tests that need it skip, saying so, when it is absent)."""

from __future__ import annotations

import io
import re
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from PIL import Image

from spa_bench.device.device import OBSERVE_COMMAND
from spa_bench.device.transport import Request, Response

CAPTURES = Path(__file__).resolve().parents[3] / "shared" / "reference" / "android-captures"
NOT_FOUND = 127


def capture(relative: str) -> Path:
    path = CAPTURES / relative
    if not path.is_file():
        pytest.skip(f"reference capture {path} is missing (shared/reference beside the repository)")
    return path


def grep(path: Path, *words: str) -> str:
    """What `dumpsys ... | grep -E 'a|b'` prints on the device that produced the capture."""
    lines = [line for line in path.read_text(encoding="utf-8").splitlines() if any(w in line for w in words)]
    return "".join(line + "\n" for line in lines)


def getprop(path: Path) -> dict[str, str]:
    """`getprop`'s `[key]: [value]` lines."""
    return dict(re.findall(r"^\[([^\]]+)\]: \[([^\]]*)\]$", path.read_text(encoding="utf-8"), re.M))


def screenshot(width: int, height: int) -> bytes:
    buf = io.BytesIO()
    Image.new("RGB", (width, height), (250, 250, 250)).save(buf, format="PNG")
    return buf.getvalue()


@dataclass
class FakeAndroid:
    """Answers the commands Device sends with captured output of real devices: `dump` (uiautomator
    XML), `window` (dumpsys window), `input_method` (dumpsys input_method), `props` (getprop), `wm_size`
    (`wm size`). `input ...` commands succeed and are kept in `inputs`; anything else is not found."""

    dump: Path
    window: Path
    input_method: Path
    props: dict[str, str]
    wm_size: str
    png: bytes = b""
    inputs: list[str] = field(default_factory=list)
    serial: str = "R58M123ABC"

    def __call__(self, request: Request) -> Response:
        if request.service == "host":
            return Response(stdout=f"{self.serial}\tdevice\n".encode())
        if request.service == "console":
            return Response()
        command = request.command
        if command == OBSERVE_COMMAND:
            return Response(stdout=self.png + self.dump.read_bytes() + b"\n"
                            + grep(self.window, "mCurrentFocus", "mFocusedApp").encode()
                            + grep(self.input_method, "mInputShown").encode())
        if command.startswith("getprop "):
            answers = []
            for part in command.split("; "):
                if part.startswith("getprop "):
                    answers.append(self.props.get(part.split()[1], "") + "\n")
                elif part == "wm size":
                    answers.append(self.wm_size)
            return Response(stdout="".join(answers).encode())
        if command.startswith("input "):
            self.inputs.append(command)
            return Response()
        return Response(stderr=f"/system/bin/sh: {command.split()[0]}: inaccessible or not found\n".encode(),
                        exit_code=NOT_FOUND)


def vivo_home() -> FakeAndroid:
    """A vivo phone on its launcher (1080x2400), whose dumpsys is the Android 13 capture's."""
    return FakeAndroid(
        dump=capture("uiautomator_dump/vivo_launcher_home_zh_1080x2400.xml"),
        window=capture("shell/dumpsys_window/mtk_tb8168_android13_bugreport_dumpsys_window.txt"),
        input_method=capture("shell/ime/mtk_tb8168_android13_bugreport_dumpsys_input_method.txt"),
        props=getprop(capture("shell/getprop/motorola_edge20_android13_getprop.txt")),
        wm_size="Physical size: 1080x2400\n",  # AOSP's WindowManagerShellCommand format
        png=screenshot(1080, 2400))
