"""Builders for the evaluation tests: phone-like screenshots drawn with Pillow and the bundled CJK font,
tasks, and episode logs written in the real results layout."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any, Literal

from PIL import Image, ImageDraw

from spa_bench.drawing import font as _font
from spa_bench.evaluation.ocr import OcrEngine, OcrResult
from spa_bench.results.layout import RunLayout
from spa_bench.results.schema import (
    AgentSpec,
    DeviceInfo,
    EpisodeLog,
    EpisodeTimings,
    ErrorInfo,
    InstanceInfo,
    ObservationRef,
    StepRecord,
    Termination,
    TokenUsage,
    Verdict,
)
from spa_bench.tasks.model import Task

T0 = datetime(2025, 1, 6, 9, 0, tzinfo=UTC)
RowKind = Literal["on", "off", "text"]


@dataclass(frozen=True)
class Row:
    """A list row: a title, an optional grey summary, and a switch (on/off) or nothing."""

    title: str
    kind: RowKind = "text"
    summary: str | None = None


def render_screen(title: str, rows: Sequence[Row], size: tuple[int, int] = (1080, 2400),
                  clock: str = "09:41", dark: bool = False) -> Image.Image:
    """A Material-like settings screen: status bar, title, rows with switches; sizes scale with width."""
    width = size[0]
    k = width / 1080
    bg, fg, grey = ((18, 18, 18), (235, 235, 235), (160, 160, 160)) if dark else \
        ((255, 255, 255), (28, 28, 30), (110, 110, 115))
    image = Image.new("RGB", size, bg)
    draw = ImageDraw.Draw(image)
    draw.text((int(48 * k), int(24 * k)), clock, fill=fg, font=_font(int(36 * k)))
    draw.rectangle((width - int(110 * k), int(34 * k), width - int(50 * k), int(62 * k)), outline=fg,
                   width=max(1, int(3 * k)))
    draw.rectangle((width - int(106 * k), int(38 * k), width - int(70 * k), int(58 * k)), fill=fg)
    draw.text((int(48 * k), int(150 * k)), title, fill=fg, font=_font(int(80 * k)))
    y = int(330 * k)
    title_font, summary_font = _font(int(50 * k)), _font(int(38 * k))
    for row in rows:
        draw.text((int(48 * k), y), row.title, fill=fg, font=title_font)
        if row.summary:
            draw.text((int(48 * k), y + int(70 * k)), row.summary, fill=grey, font=summary_font)
        if row.kind != "text":
            on = row.kind == "on"
            x0, y0 = width - int(190 * k), y + int(10 * k)
            track = (11, 87, 208) if on else (180, 180, 185)
            draw.rounded_rectangle((x0, y0, x0 + int(130 * k), y0 + int(70 * k)), radius=int(35 * k),
                                   fill=track)
            cx = x0 + (int(95 * k) if on else int(35 * k))
            r = int(27 * k)
            draw.ellipse((cx - r, y0 + int(35 * k) - r, cx + r, y0 + int(35 * k) + r), fill=(255, 255, 255))
        y += int(200 * k)
        draw.line((int(48 * k), y - int(30 * k), width - int(48 * k), y - int(30 * k)), fill=grey, width=1)
    return image


def settings_en() -> Image.Image:
    return render_screen("Settings", [Row("Wi-Fi", "on", "HomeNet-5G"), Row("Bluetooth", "off"),
                                      Row("Dark mode", "off"),
                                      Row("Display", summary="Brightness, font size")])


def settings_zh() -> Image.Image:
    return render_screen("设置", [Row("WLAN", "on", "已连接"), Row("蓝牙", "off"), Row("深色模式", "on"),
                                  Row("显示", summary="亮度、字体大小")])


def alarm_en() -> Image.Image:
    return render_screen("Alarm", [Row("07:30", "on", "Mon, Tue, Wed, Thu, Fri"),
                                   Row("08:15", "off", "Sat, Sun")], clock="09:42")


def alarm_zh() -> Image.Image:
    return render_screen("闹钟", [Row("07:30", "on", "周一至周五"), Row("08:15", "off", "周六、周日")],
                         clock="09:42")


def task(task_id: str = "clock_alarm_en", *, language: Literal["en", "zh"] = "en",
         key_components: list[str] | None = None, checks: list[dict[str, Any]] | None = None,
         difficulty: Literal[1, 2, 3] = 1, golden_steps: int = 4,
         apps: Sequence[str] = ("com.android.deskclock",),
         max_steps: int | None = None) -> Task:
    """A task; without checks it needs key components (pass [] to let the judge decide alone)."""
    category = "single_app" if len(apps) == 1 else "cross_app"
    data: dict[str, Any] = {
        "id": task_id, "apps": [{"package": p, "name": {"en": p.rsplit(".", 1)[-1]}} for p in apps],
        "language": language, "difficulty": difficulty, "category": category,
        "instruction": "Set an alarm for 7:30 on weekdays", "golden_steps": golden_steps,
        "key_components": key_components, "checks": checks or [], "max_steps": max_steps,
    }
    if category == "cross_app" and not checks and key_components is None:
        data["key_components"] = []
    return Task.model_validate(data)


def verdict(evaluator: str, success: bool | None, cost: float | None = 0.0, tokens: int = 0) -> Verdict:
    return Verdict(evaluator=evaluator, success=success, created_at=T0,
                   usage=TokenUsage(prompt_tokens=tokens, calls=1 if tokens else 0, cost_usd=cost))


def episode(the_task: Task, *, agent: str = "agent-a", steps: int = 0, termination: Termination = "done",
            verdicts: Sequence[Verdict] = (), total_s: float = 0.0, prompt_tokens: int = 0,
            completion_tokens: int = 0, cost: float | None = 0.0, repeat: int = 0,
            errors: Sequence[ErrorInfo] = ()) -> EpisodeLog:
    """A finished episode log with `steps` steps, each with a screenshot reference."""
    records = [StepRecord(index=i, started_at=T0 + timedelta(seconds=i),
                          observation=ObservationRef(screenshot=f"screenshots/{i:03d}.png"))
               for i in range(steps)]
    return EpisodeLog(
        episode_id=f"{agent}__{the_task.id}__r{repeat}", run_id="run-1", status="finished", task=the_task,
        instance=InstanceInfo(repeat=repeat, seed=0), agent=AgentSpec(name=agent, reference="scripted"),
        device=DeviceInfo(serial="emulator-5554", kind="virtual"), started_at=T0,
        finished_at=T0 + timedelta(seconds=total_s), steps=records,
        final_observation=ObservationRef(screenshot="screenshots/final.png"), termination=termination,
        usage=TokenUsage(prompt_tokens=prompt_tokens, completion_tokens=completion_tokens,
                         calls=steps if prompt_tokens else 0, cost_usd=cost),
        timings=EpisodeTimings(total_s=total_s), verdicts=list(verdicts), errors=list(errors))


def write_episode(run_root: Path, log: EpisodeLog, shots: Sequence[Image.Image],
                  final: Image.Image | None) -> Path:
    """Write the log and its screenshots (one per step, then final.png) in the results layout."""
    layout = RunLayout(run_root)
    folder = layout.episode_dir(log.episode_id)
    (folder / "screenshots").mkdir(parents=True, exist_ok=True)
    assert len(shots) == len(log.steps)
    for i, shot in enumerate(shots):
        shot.save(folder / "screenshots" / f"{i:03d}.png")
    if final is not None:
        final.save(folder / "screenshots" / "final.png")
    else:
        log = log.model_copy(update={"final_observation": None})
    layout.write_episode(log)
    return folder


class CountingEngine(OcrEngine):
    """The real engine, counting how often it actually recognised an image (cache misses)."""

    def __init__(self) -> None:
        super().__init__()
        self.calls = 0

    def recognise(self, image: Image.Image) -> OcrResult:
        self.calls += 1
        return super().recognise(image)
