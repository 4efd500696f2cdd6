"""Synthetic run folders for the report benchmark: SPA-Bench-shaped episode logs at realistic sizes.

Shape: 340 tasks like SPA-Bench's (300 single-app + 40 cross-app, half English, half Chinese, difficulty
1-3, ~60 apps), several model agents with different skill, step counts around the golden count and
capped at 2 x golden + 1, model outputs per step of 40-1,500 characters depending on the agent
(see AGENTS), token counts and prices (one agent without a known price), and
key-component + judge verdicts with evidence. Screenshots and XML dumps are *not* written (10,000
episodes would be ~15 GB of PNG); the logs reference them as a real run does.
This is test data for timing the report, never results.
"""

from __future__ import annotations

import json
import random
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

Agent = tuple[str, float, str, float | None, int, tuple[int, int]]
AGENTS: list[Agent] = [
    # name, skill (0-1), reference, $ per 1k prompt tokens (None = unknown), tokens per step, output chars:
    # GPT-4o agents write a reasoned thought (AppAgent: observation/thought/action/summary), fine-tuned
    # small models a short action string
    ("m3a-gpt-4o", 0.62, "m3a", 0.0025, 5200, (250, 900)),
    ("appagent-gpt-4o", 0.48, "appagent", 0.0025, 6100, (500, 1500)),
    ("cogagent", 0.30, "cogagent", None, 1800, (60, 250)), ("auto-ui", 0.18, "autoui", 0.0, 600, (40, 120)),
    ("qwen-vl-max", 0.40, "qwen", 0.0008, 3900, (150, 600)),
    ("seeclick", 0.22, "seeclick", 0.0, 900, (40, 150)),
]
WORDS = tuple(str.split(
    "the screen shows settings list button search bar tap open scroll down find option menu back home "
    "navigate wifi bluetooth toggle enable disable alarm clock contact message send type text field "
    "confirm dialog save cancel page top bottom icon label current state target task goal next step "
    "visible item select profile account cart order product price review filter sort"))
ZH = tuple(str.split("屏幕 显示 设置 列表 按钮 搜索 点击 打开 向下 滚动 找到 选项 菜单 返回 "
                     "主页 闹钟 联系人 消息 发送 输入 文本 确认 保存 取消 页面 目标 任务 下一步"))
KINDS = ["tap", "tap", "tap", "tap", "scroll", "type", "key", "swipe", "open_app", "long_press"]


def _text(rng: random.Random, chars: int, zh: bool) -> str:
    words = ZH if zh else WORDS
    out: list[str] = []
    size = 0
    while size < chars:
        sentence = " ".join(rng.choice(words) for _ in range(rng.randint(6, 16))).capitalize() + "."
        out.append(sentence)
        size += len(sentence) + 1
    return ("" if zh else " ").join(out)[:chars]


def _action(rng: random.Random, kind: str) -> dict[str, Any]:
    if kind in ("tap", "long_press"):
        if rng.random() < 0.3:
            return {"type": kind, "element": rng.randint(0, 40)}
        return {"type": kind, "x": rng.randint(20, 1060), "y": rng.randint(100, 2300)}
    if kind == "scroll":
        return {"type": "scroll", "direction": rng.choice(["up", "down", "left", "right"])}
    if kind == "swipe":
        return {"type": "swipe", "x1": 540, "y1": 1800, "x2": 540, "y2": rng.randint(300, 900)}
    if kind == "type":
        return {"type": "type", "text": _text(rng, rng.randint(5, 30), rng.random() < 0.5)}
    if kind == "key":
        return {"type": "key", "key": rng.choice(["back", "home", "enter"])}
    return {"type": "open_app", "app": rng.choice(["Settings", "Clock", "淘宝", "Chrome"])}


def _tasks(rng: random.Random) -> list[dict[str, Any]]:
    apps = [f"com.example.app{i:02d}" for i in range(60)]
    tasks = []
    for i in range(340):
        lang = "en" if i % 2 == 0 else "zh"
        cross = i >= 300
        packages = rng.sample(apps, rng.randint(2, 3)) if cross else [apps[i % 60]]
        golden = rng.randint(3, 8) + (6 if cross else 0)
        tasks.append({
            "id": f"{packages[0].rsplit('.', 1)[1]}_{i}_{lang}",
            "apps": [{"package": p, "name": {"en": p.rsplit(".", 1)[1].title(), "zh": "应用" + p[-2:]}}
                     for p in packages],
            "language": lang, "difficulty": rng.randint(1, 3),
            "category": "cross_app" if cross else "single_app",
            "instruction": _text(rng, rng.randint(40, 160), lang == "zh"), "golden_steps": golden,
            "key_components": [_text(rng, 8, lang == "zh")]})
    return tasks


def _usage(prompt: int, completion: int, price: float | None, calls: int = 1) -> dict[str, Any]:
    cost = None if price is None else round((prompt + 3 * completion) * price / 1000, 6)
    return {"prompt_tokens": prompt, "completion_tokens": completion, "calls": calls, "cost_usd": cost}


def _episode(rng: random.Random, run_id: str, agent: Agent, task: dict[str, Any], repeat: int,
             start: datetime) -> dict[str, Any]:
    name, skill, reference, price, per_step, chars = agent
    success = rng.random() < skill * (1.15 - 0.15 * task["difficulty"])
    limit = 2 * task["golden_steps"] + 1
    n = min(limit, max(1, round(task["golden_steps"] * rng.uniform(0.9, 1.6)))) if success else \
        rng.choice([limit, rng.randint(1, limit)])
    zh = task["language"] == "zh"
    steps, clock, total = [], start, {"prompt_tokens": 0, "completion_tokens": 0, "calls": 0, "cost_usd": 0.0}
    for s in range(n):
        prompt, completion = int(per_step * rng.uniform(0.8, 1.2)), rng.randint(60, 400)
        last = s == n - 1 and (success or rng.random() < 0.5) and n < limit
        action = {"type": "finish", "status": "done"} if last else _action(rng, rng.choice(KINDS))
        thought = _text(rng, rng.randint(*chars), zh)
        usage = _usage(prompt, completion, price)
        steps.append({
            "index": s, "started_at": clock.isoformat(),
            "observation": {"screenshot": f"screenshots/{s:03d}.png", "hierarchy": f"hierarchy/{s:03d}.xml",
                            "package": task["apps"][0]["package"], "activity": ".Main",
                            "keyboard_shown": False, "width": 1080, "height": 2400},
            "action": action, "agent_output": f"Thought: {thought}\nAction: {json.dumps(action)}",
            "usage": usage, "timings": {"observe_s": rng.uniform(0.2, 0.6), "agent_s": rng.uniform(1, 9),
                                        "execute_s": rng.uniform(0.05, 0.5), "model_s": rng.uniform(1, 8)}})
        total = {k: (None if total[k] is None or usage[k] is None else total[k] + usage[k]) for k in total}
        clock += timedelta(seconds=rng.uniform(2, 12))
    said_done = bool(steps) and steps[-1]["action"]["type"] == "finish"
    verdict_time = clock.isoformat()
    verdicts = [
        {"evaluator": "key_components", "success": success or rng.random() < 0.3, "created_at": verdict_time,
         "evidence": [{"summary": "key component visible" if success else "not found",
                       "screenshot_index": n - 1,
                       "details": {"ocr_text": _text(rng, 300, zh)}}]},
        {"evaluator": "judge:gpt-4o", "success": success, "created_at": verdict_time,
         "usage": _usage(12000, 300, 0.0025),
         "evidence": [{"summary": _text(rng, rng.randint(150, 500), False)}]}]
    return {
        "schema_version": 1, "episode_id": f"{name}__{task['id']}__r{repeat}", "run_id": run_id,
        "status": "finished", "task": task, "task_file": f"spa-bench/{task['language']}.yaml",
        "instance": {"repeat": repeat, "seed": rng.getrandbits(60)},
        "agent": {"name": name, "reference": reference, "args": {"model": name}},
        "device": {"serial": f"emulator-{5554 + 2 * rng.randint(0, 7)}", "kind": "emulator",
                   "screen_width": 1080, "screen_height": 2400},
        "started_at": start.isoformat(), "finished_at": clock.isoformat(), "steps": steps,
        "final_observation": {"screenshot": "screenshots/final.png", "width": 1080, "height": 2400},
        "termination": "done" if said_done else "max_steps", "usage": total,
        "timings": {"setup_s": 3.0, "total_s": (clock - start).total_seconds()}, "verdicts": verdicts}


def generate(root: Path, episodes: int = 10_000, seed: int = 0) -> Path:
    """Write one run folder with `episodes` episode logs; returns the folder."""
    rng = random.Random(seed)
    run_id = f"synthetic-{episodes}"
    folder = root / run_id
    tasks = _tasks(rng)
    start = datetime(2025, 1, 1, tzinfo=UTC)
    rounds = range(episodes // (len(AGENTS) * len(tasks)) + 1)
    plan = [(a, t, r) for r in rounds for a in AGENTS for t in tasks]
    for agent, task, repeat in plan[:episodes]:
        log = _episode(rng, run_id, agent, task, repeat, start)
        path = folder / "episodes" / log["episode_id"] / "episode.json"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(log, ensure_ascii=False, indent=1), encoding="utf-8")
    manifest = {"schema_version": 1, "run_id": run_id, "created_at": start.isoformat(),
                "spa_bench_version": "synthetic", "python": "3.11", "platform": "synthetic",
                "tasks_root": "(synthetic)", "agents": [{"name": a[0], "reference": a[2]} for a in AGENTS],
                "devices": [{"serial": f"emulator-{5554 + 2 * i}", "kind": "emulator"} for i in range(8)]}
    (folder / "manifest.json").write_text(json.dumps(manifest, indent=1), encoding="utf-8")
    return folder
