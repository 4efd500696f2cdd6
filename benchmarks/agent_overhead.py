"""Each native adapter's own per-step overhead at 1080x2400: building the request (prompt, history,
image encoding - or resizing, with resize_image=true), and reading the reply back into our action.

No model and no phone: a virtual-phone screen is rendered in-process once, every registered
NativeAgent (spa_bench.agent.native_agent) is made with a dummy endpoint, and for --steps steps each
one builds its real request for that screen and parses a reply its own codec wrote (the scripted
native model's answer). Prints p50 / p95 wall-clock ms and the p50 CPU ms per adapter (on a busy machine
the wall time includes waiting for a core); the target is p50 <= 60 ms per step.

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
from spa_bench.models import ModelClient, ModelReply
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


class _Answering:
    """A model endpoint answered in-process with one fixed reply."""

    def __init__(self, text: str) -> None:
        self.text = text

    def chat(self, messages: object, **overrides: object) -> ModelReply:
        return ModelReply(self.text, TokenUsage(), 0.0, "overhead", "stop")

    def close(self) -> None:
        return None


def answer_second_endpoints(agent: NativeAgent, observation: Observation, target: tuple[int, int]) -> None:
    """An adapter that reads a reply with a second model's help (seeact-v's grounder: client `grounder`,
    codec `grounder_codec`, frame `grounder_frame_spec`) gets that model answered in-process, by its own
    codec, pointing at the same target: building its request (resizing, encoding) is still measured."""
    for attribute, value in list(vars(agent).items()):
        if isinstance(value, ModelClient) and value is not agent.client:
            value.close()
            codec, spec = getattr(agent, f"{attribute}_codec"), getattr(agent, f"{attribute}_frame_spec")
            frame = spec.bind(observation.width, observation.height)
            setattr(agent, attribute, _Answering(codec.render(Tap(x=target[0], y=target[1]), frame)))


def measure(name: str, observation: Observation, context: TaskContext, steps: int,
            resize_image: bool) -> tuple[list[float], list[float]]:
    """Wall-clock and CPU milliseconds per step (CPU: this process's, all threads - on a shared machine
    the wall time also holds the waits for a core; the CPU time is the work itself)."""
    agent = AGENTS.get(name)(model="overhead", base_url="http://127.0.0.1:9/v1", api_key_env="none",
                             resize_image=resize_image)
    assert isinstance(agent, NativeAgent)
    agent.reset(context)
    times, cpu = [], []
    target = observation.elements[len(observation.elements) // 2].center
    answer_second_endpoints(agent, observation, target)
    for _ in range(steps + 1):
        t0, c0 = time.perf_counter(), time.process_time()
        shown = agent.screen(observation)
        agent.messages(observation, shown)
        t1, c1 = time.perf_counter(), time.process_time()
        text = agent.codec.render(Tap(x=target[0], y=target[1]), shown.frame, observation, "benchmark")
        t2, c2 = time.perf_counter(), time.process_time()
        step = agent.interpret(ModelReply(text, TokenUsage(), 0.0, "overhead", "stop"), shown, observation)
        t3, c3 = time.perf_counter(), time.process_time()
        assert not isinstance(step.action, str), step.invalid_reason
        times.append((t1 - t0 + t3 - t2) * 1000)  # rendering the reply is the model's work, not counted
        cpu.append((c1 - c0 + c3 - c2) * 1000)
    agent.close()
    return times[1:], cpu[1:]  # the first step warms imports and caches


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--steps", type=int, default=30)
    parser.add_argument("--resize-image", action="store_true", help="adapters resize the image themselves")
    args = parser.parse_args()
    task = TaskRepository(default_tasks_root()).get("settings_wifi_off_en")
    with tempfile.TemporaryDirectory() as tmp:
        observation = sample_observation(Path(tmp))
        context = TaskContext.for_task(task, max_steps=30, instance_seed=0, serial="none", screen_width=1080,
                                       screen_height=2400, workdir=Path(tmp))
        print(f"per-step overhead at 1080x2400, {args.steps} steps (history fills up as it goes)"
              f"{', resize_image' if args.resize_image else ''}; target p50 <= {TARGET_MS:.0f} ms")
        print(f"{'adapter':<14} {'p50 ms':>8} {'p95 ms':>8} {'cpu p50':>8}  verdict")
        for name in native_adapters():
            wall, cpu = measure(name, observation, context, args.steps, args.resize_image)
            times = sorted(wall)
            p50 = statistics.median(times)
            p95 = times[min(len(times) - 1, round(0.95 * (len(times) - 1)))]
            verdict = "ok" if p50 <= TARGET_MS else "OVER TARGET"
            print(f"{name:<14} {p50:8.2f} {p95:8.2f} {statistics.median(cpu):8.2f}  {verdict}")


if __name__ == "__main__":
    main()
