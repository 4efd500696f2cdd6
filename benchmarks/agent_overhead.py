"""Each native adapter's own per-step overhead at 1080x2400: building the request (prompt, history,
image encoding - or resizing, with resize_image=true), and reading the reply back into our action.

No model and no phone: a virtual-phone screen is rendered in-process once, every registered
NativeAgent (spa_bench.agent.native_agent) is made with a dummy endpoint, and for --steps steps each
one builds its real request for that screen and parses a reply its own codec wrote (the scripted
native model's answer). Prints p50 / p95 per adapter; the target is p50 <= 60 ms per step.

    python benchmarks/agent_overhead.py [--steps 30] [--resize-image]
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

from spa_bench.actions import Tap
from spa_bench.agent import AGENTS, TaskContext
from spa_bench.agent.native_agent import NativeAgent
from spa_bench.device.observation import Observation
from spa_bench.models import ModelReply
from spa_bench.results.schema import TokenUsage
from spa_bench.tasks.repository import TaskRepository, default_tasks_root
from spa_bench.testing.native_model import sample_observation

TARGET_MS = 60.0


def native_adapters() -> list[str]:
    names = []
    for name in AGENTS.names():
        try:
            factory = AGENTS.get(name)
        except Exception:  # an agent whose optional dependency is missing is not measured here
            continue
        if isinstance(factory, type) and issubclass(factory, NativeAgent):
            names.append(name)
    return names


def measure(name: str, observation: Observation, context: TaskContext, steps: int,
            resize_image: bool) -> list[float]:
    agent = AGENTS.get(name)(model="overhead", base_url="http://127.0.0.1:9/v1", api_key_env="none",
                             resize_image=resize_image)
    assert isinstance(agent, NativeAgent)
    agent.reset(context)
    times = []
    target = observation.elements[len(observation.elements) // 2].center
    for _ in range(steps + 1):
        t0 = time.perf_counter()
        shown = agent.screen(observation)
        agent.messages(observation, shown)
        t1 = time.perf_counter()
        text = agent.codec.render(Tap(x=target[0], y=target[1]), shown.frame, observation, "benchmark")
        t2 = time.perf_counter()
        step = agent.interpret(ModelReply(text, TokenUsage(), 0.0, "overhead", "stop"), shown, observation)
        t3 = time.perf_counter()
        assert not isinstance(step.action, str), step.invalid_reason
        times.append((t1 - t0 + t3 - t2) * 1000)  # rendering the reply is the model's work, not counted
    agent.close()
    return times[1:]  # the first step warms imports and caches


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--steps", type=int, default=30)
    parser.add_argument("--resize-image", action="store_true", help="adapters resize the image themselves")
    args = parser.parse_args()
    task = TaskRepository(default_tasks_root()).get("settings_wifi_off_en")
    with tempfile.TemporaryDirectory() as tmp:
        observation = sample_observation(Path(tmp))
        context = TaskContext(task=task, instruction=task.instruction, language=task.language, max_steps=30,
                              seed=0, serial="none", screen_width=1080, screen_height=2400,
                              workdir=Path(tmp))
        print(f"per-step overhead at 1080x2400, {args.steps} steps (history fills up as it goes)"
              f"{', resize_image' if args.resize_image else ''}; target p50 <= {TARGET_MS:.0f} ms")
        print(f"{'adapter':<14} {'p50 ms':>8} {'p95 ms':>8}  verdict")
        for name in native_adapters():
            times = sorted(measure(name, observation, context, args.steps, args.resize_image))
            p50 = statistics.median(times)
            p95 = times[min(len(times) - 1, round(0.95 * (len(times) - 1)))]
            verdict = "ok" if p50 <= TARGET_MS else "OVER TARGET"
            print(f"{name:<14} {p50:8.2f} {p95:8.2f}  {verdict}")


if __name__ == "__main__":
    main()
