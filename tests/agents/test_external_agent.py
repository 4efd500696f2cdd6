"""External agent programs through the pipeline: a program written here drives the virtual phone with
the `adb` command line only and writes SPA-Bench's recording format; others fail or hang."""

from __future__ import annotations

import os
import sys
import textwrap
import time
from pathlib import Path

import pytest

from spa_bench.results.schema import EpisodeLog
from spa_bench.runner.config import AgentConfig, RunConfig
from spa_bench.runner.run import run_benchmark
from spa_bench.tasks.repository import TaskFilter

pytestmark = pytest.mark.usefixtures("adb_env")

KEY = "sk-test-DISTINCTIVE-external-key-77aa01"

AGENT = textwrap.dedent('''
    """Turns Wi-Fi off like an SPA-Bench agent: adb only, screenshots + log.json, exit code 0."""
    import argparse, json, os, re, subprocess, sys, time

    ADB = {adb!r}
    parser = argparse.ArgumentParser()
    for name in ("--serial", "--instruction", "--lang", "--max-rounds", "--output-dir", "--task-id"):
        parser.add_argument(name, required=True)
    args = parser.parse_args()
    assert args.serial == os.environ["SPA_BENCH_SERIAL"] == os.environ["ANDROID_SERIAL"]
    assert args.output_dir == os.environ["SPA_BENCH_OUTPUT_DIR"]
    assert args.lang == os.environ["SPA_BENCH_LANGUAGE"] == "en"
    assert "Turn off Wi-Fi." in args.instruction and int(args.max_rounds) > 0
    print("my key is", os.environ.get("SPA_TEST_EXTERNAL_KEY"), file=sys.stderr)  # scrubbed by the harness

    def adb(*cmd):
        return subprocess.run([ADB, "-s", args.serial, *cmd], capture_output=True, check=True).stdout

    def screenshot(i):
        adb("shell", "screencap", "-p", "/sdcard/shot.png")
        adb("pull", "/sdcard/shot.png", os.path.join(args.output_dir, f"{{i}}.png"))

    def centre(pattern):
        adb("shell", "uiautomator", "dump", "/sdcard/ui.xml")
        xml = adb("shell", "cat", "/sdcard/ui.xml").decode()
        for node in re.findall(r"<node [^>]*>", xml):
            if re.search(pattern, node):
                box = re.search(r'bounds="\\[(\\d+),(\\d+)\\]\\[(\\d+),(\\d+)\\]"', node)
                l, t, r, b = map(int, box.groups())
                return (l + r) // 2, (t + b) // 2
        raise SystemExit(f"not on screen: {{pattern}}")

    log = []
    for i, pattern in enumerate([r'text="Network &amp; internet"', r'resource-id="[^"]*switch_widget"']):
        screenshot(i)
        x, y = centre(pattern)
        adb("shell", "input", "tap", str(x), str(y))
        log.append({{"step": i, "prompt_tokens": 1000 * (i + 1), "completion_tokens": 50,
                    "response": f"tapping {{pattern}}",
                    "action": ["tap", {{"detail_type": "coordinates", "detail": [x, y]}}]}})
        time.sleep(0.2)
    screenshot(2)
    log.append({{"step": 2, "prompt_tokens": 500, "completion_tokens": 10,
                "action": ["finish", {{"detail_type": "string", "detail": ""}}]}})
    log.append({{"total_steps": 3, "finish_signal": 1, "elapsed_time_initial": 0.1, "elapsed_time_exec": 2.0,
                "total_prompt_tokens": 3500, "total_completion_tokens": 110}})
    json.dump(log, open(os.path.join(args.output_dir, "log.json"), "w"))
''')

FAILING = textwrap.dedent('''
    import sys
    print("starting up", file=sys.stderr)
    print("Traceback: ModelUnavailable: the model server refused the connection", file=sys.stderr)
    sys.exit(1)
''')

HANGING = textwrap.dedent('''
    import os, sys, time
    open(os.path.join(sys.argv[sys.argv.index("--output-dir") + 1], "started"), "w").close()
    time.sleep(120)
''')


def test_external_programs_are_run_recorded_and_policed(results_dir: Path, tmp_path: Path) -> None:
    from adbutils._utils import adb_path

    programs = {}
    for name, source in (("agent", AGENT.format(adb=adb_path())), ("failing", FAILING),
                         ("hanging", HANGING)):
        programs[name] = tmp_path / f"{name}.py"
        programs[name].write_text(source)
    python = sys.executable
    os.environ["SPA_TEST_EXTERNAL_KEY"] = KEY
    try:
        config = RunConfig(
            filter=TaskFilter(ids=["settings_wifi_off_en"]), phones=1, out=results_dir, agents=[
                AgentConfig(agent="external", name="ext",
                            args={"cmd": f"{python} {programs['agent']}", "model": "gpt-4o"}),
                AgentConfig(agent="external", name="ext-fails",
                            args={"cmd": f"{python} {programs['failing']}"}),
                AgentConfig(agent="external", name="ext-hangs",
                            args={"cmd": f"{python} {programs['hanging']}", "timeout_s": 2,
                                  "kill_grace_s": 1}),
            ])
        started = time.monotonic()
        result = run_benchmark(config)
        elapsed = time.monotonic() - started
    finally:
        os.environ.pop("SPA_TEST_EXTERNAL_KEY", None)
    logs: dict[str, EpisodeLog] = {log.agent.name: log for log in result.logs}
    for path in result.run_dir.rglob("*"):
        if path.is_file():
            assert KEY.encode() not in path.read_bytes(), path

    ext = logs["ext"]
    assert ext.termination == "done", (ext.errors, ext.agent_exit)
    assert next(v.success for v in ext.verdicts if v.evaluator == "state") is True
    assert [s.action.type for s in ext.steps if s.action] == ["tap", "tap", "finish"]
    assert [s.usage.prompt_tokens for s in ext.steps] == [1000, 2000, 500]
    assert ext.steps[0].usage.cost_usd == pytest.approx((1000 * 2.5 + 50 * 10) / 1e6)
    assert ext.usage.prompt_tokens == 3500 and ext.usage.completion_tokens == 110
    assert ext.steps[0].agent_output and "Network" in ext.steps[0].agent_output
    episode = result.run_dir / "episodes" / ext.episode_id
    for step in ext.steps:
        assert step.observation.screenshot is not None
        assert (episode / step.observation.screenshot).read_bytes().startswith(b"\x89PNG")
    assert (episode / "screenshots" / "final.png").is_file()  # the harness's own final screenshot
    assert (episode / "agent" / "log.json").is_file()
    assert ext.agent_exit is not None and ext.agent_exit.exit_code == 0 and ext.agent_exit.completed
    assert ext.agent_exit.finish_signal == 1 and ext.agent_exit.reported_steps == 3
    assert "***REDACTED***" in (episode / "agent" / "stderr.log").read_text()

    fails = logs["ext-fails"]
    assert fails.termination == "agent_error" and fails.steps == []
    assert "ModelUnavailable" in fails.errors[0].message and "exit 1" in fails.errors[0].message
    assert fails.agent_exit is not None and fails.agent_exit.exit_code == 1 and not fails.agent_exit.completed
    assert "starting up" in (fails.agent_exit.stderr_tail or "")
    assert next(v.success for v in fails.verdicts if v.evaluator == "state") is False  # checked all the same

    hangs = logs["ext-hangs"]
    assert hangs.termination == "episode_timeout"
    assert hangs.errors[0].kind == "timeout" and "killed" in hangs.errors[0].message
    assert hangs.agent_exit is not None and hangs.agent_exit.exit_code is None
    assert (result.run_dir / "episodes" / hangs.episode_id / "agent" / "started").is_file()
    assert elapsed < 60  # the 120 s sleeper was killed after its 2 s limit
