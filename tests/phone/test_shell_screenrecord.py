"""`screenrecord` on the virtual phone writes a real H.264 MP4 of the screen; its messages are the printf
formats of AOSP's frameworks/av cmds/screenrecord/screenrecord.cpp. Each file is pulled with the real adb
and opened with PyAV (FFmpeg's demuxer and decoder)."""

from __future__ import annotations

import re
import time
from pathlib import Path
from typing import Any

import av
import pytest


def _video(path: Path) -> tuple[str, tuple[int, int], float, int]:
    """(codec, (width, height), duration in seconds, decoded frames) as FFmpeg reads the file."""
    with av.open(str(path)) as container:
        stream = container.streams.video[0]
        frames = sum(1 for _ in container.decode(stream))
        assert container.duration is not None
        return stream.codec_context.name, (stream.width, stream.height), container.duration / 1e6, frames


def _pull(phone: Any, remote: str, local: Path) -> Path:
    phone.adb.run("pull", remote, str(local), serial=phone.serial)
    return local


def test_records_the_time_limit_with_aosp_verbose_lines(running_phone: Any, tmp_path: Path) -> None:
    phone = running_phone
    phone.reset()
    started = time.monotonic()
    out = phone.shell("screenrecord --verbose --time-limit 2 /sdcard/rec.mp4")
    took = time.monotonic() - started
    lines = out.splitlines()
    # screenrecord.cpp's printf formats, in the order a recording prints them
    expected = [
        r"Time limit set to 2 seconds",
        r"Display is 1080x2400 @\d+\.\d\dfps \(orientation=ROTATION_0\), layerStack=\d+",
        r"Configuring recorder for 1080x2400 video/avc at 20\.00Mbps",
        r"Content area is 1080x2400 at offset x=0 y=0",
        r"Time limit reached",
        r"Encoder stopping; recorded \d+ frames in \d+ seconds",
        r"Stopping encoder and muxer",
        r"Executing: /system/bin/am broadcast -a android\.intent\.action\.MEDIA_SCANNER_SCAN_FILE "
        r"-d file:///sdcard/rec\.mp4",
    ]
    for pattern, line in zip(expected, lines, strict=False):
        assert re.fullmatch(pattern, line), (pattern, out)
    assert len(lines) > len(expected)  # am broadcast's own lines follow under --verbose
    codec, size, duration, frames = _video(_pull(phone, "/sdcard/rec.mp4", tmp_path / "rec.mp4"))
    assert (codec, size) == ("h264", (1080, 2400))
    assert 2.0 <= duration <= took  # the whole time limit, and no longer than the command ran
    assert frames >= 2


def test_size_letterboxes_as_set_display_projection(running_phone: Any, tmp_path: Path) -> None:
    phone = running_phone
    out = phone.shell("screenrecord --verbose --size 720x720 --bit-rate 4M --time-limit 1 /sdcard/sq.mp4")
    # setDisplayProjection keeps the display's 1080:2400 inside 720x720: 720 / (2400/1080) = 324 wide
    assert "Configuring recorder for 720x720 video/avc at 4.00Mbps\n" in out
    assert "Content area is 324x720 at offset x=198 y=0\n" in out
    codec, size, _duration, _frames = _video(_pull(phone, "/sdcard/sq.mp4", tmp_path / "sq.mp4"))
    assert (codec, size) == ("h264", (720, 720))


def test_stops_and_finishes_the_file_when_the_client_goes(running_phone: Any, tmp_path: Path) -> None:
    phone = running_phone
    device = phone.device()
    stream = device.shell("screenrecord /sdcard/live.mp4", stream=True)
    while "screenrecord" not in phone.shell("ps -A -o NAME"):
        time.sleep(0.1)
    phone.shell("input keyevent HOME")
    stream.close()  # what Ctrl-C on `adb shell screenrecord` does: the device's screenrecord gets SIGHUP
    while "screenrecord" in phone.shell("ps -A -o NAME"):
        time.sleep(0.1)
    codec, size, duration, _frames = _video(_pull(phone, "/sdcard/live.mp4", tmp_path / "live.mp4"))
    assert (codec, size) == ("h264", (1080, 2400))
    assert duration > 0


def test_sigint_from_kill_stops_it_cleanly(running_phone: Any, tmp_path: Path) -> None:
    phone = running_phone
    device = phone.device()
    stream = device.shell("screenrecord --verbose /sdcard/int.mp4", stream=True)
    try:
        deadline = time.monotonic() + 60  # only says how long a broken phone may hang the test
        # pidof exits 1 until the shell has started screenrecord (later than the stream's OKAY, under load)
        while not (pid := phone.adb.run("shell", "pidof screenrecord", serial=phone.serial,
                                        check=False).stdout.decode().strip()):
            assert time.monotonic() < deadline, "screenrecord never started"
            time.sleep(0.1)
        phone.shell(f"kill -INT {pid}")
        output = stream.read_until_close()
    finally:
        stream.close()
    assert "Time limit reached" not in output
    assert "Stopping encoder and muxer\n" in output
    codec, _size, duration, _frames = _video(_pull(phone, "/sdcard/int.mp4", tmp_path / "int.mp4"))
    assert codec == "h264" and duration > 0


@pytest.mark.parametrize(("args", "message"), [
    # screenrecord.cpp's messages for bad command lines (each exits 2)
    ("", "Must specify output file (see --help)."),
    ("--size 0x5 /sdcard/x.mp4", "Invalid size 0x5, width and height may not be zero"),
    ("--size 12 /sdcard/x.mp4", "Invalid size '12', must be width x height"),
    ("--bit-rate 5 /sdcard/x.mp4", "Bit rate 5bps outside acceptable range [100000,200000000]"),
    ("--bit-rate 5k /sdcard/x.mp4", "Unrecognized value: 5k"),
    ("--time-limit x /sdcard/x.mp4", "Error parsing time limit argument"),
    ("--output-format avi /sdcard/x.mp4", "Unknown format 'avi'"),
    ("--display-id 7 /sdcard/x.mp4", "Invalid physical display ID"),
])
def test_bad_command_lines(running_phone: Any, args: str, message: str) -> None:
    proc = running_phone.adb.run("shell", f"screenrecord {args}", serial=running_phone.serial, check=False)
    assert proc.returncode == 2
    assert message in proc.stderr.decode() + proc.stdout.decode()


def test_raw_h264_to_stdout_through_exec_out(running_phone: Any, tmp_path: Path) -> None:
    # `adb exec-out screenrecord --output-format=h264 -`: an Annex B stream on stdout, no file
    proc = running_phone.adb.run("exec-out", "screenrecord --output-format=h264 --time-limit 1 -",
                                 serial=running_phone.serial)
    raw = tmp_path / "live.h264"
    raw.write_bytes(proc.stdout)
    assert proc.stdout.startswith(b"\x00\x00\x00\x01")  # an Annex B start code, then SPS
    with av.open(str(raw), format="h264") as container:
        stream = container.streams.video[0]
        frames = sum(1 for _ in container.decode(stream))
        assert (stream.codec_context.name, stream.width, stream.height) == ("h264", 1080, 2400)
    assert frames >= 1


def test_a_file_it_cannot_open_is_refused_at_once(running_phone: Any) -> None:
    # main() opens the file (O_CREAT|O_RDWR) before recording: "Unable to open '%s': %s", exit 1
    for path, reason in (("''", "No such file or directory"), ("/sdcard", "Is a directory")):
        proc = running_phone.adb.run("shell", f"screenrecord {path}", serial=running_phone.serial,
                                     check=False)
        assert proc.returncode == 1
        assert f"Unable to open '{path.strip(chr(39))}': {reason}" in proc.stderr.decode()


def test_help_is_aosp_usage(running_phone: Any) -> None:
    proc = running_phone.adb.run("shell", "screenrecord --help", serial=running_phone.serial, check=False)
    text = proc.stderr.decode() + proc.stdout.decode()
    assert proc.returncode == 0
    assert text.startswith("Usage: screenrecord [options] <filename>\n\nAndroid screenrecord v1.3.  "
                           "Records the device's display to a .mp4 file.\n")
    assert "Default 20Mbps." in text and "Default is 180. Set to 0" in text
