"""External agent programs through the pipeline: a program written here drives the virtual phone with
the plain `adb` command line only - on a PATH where there is no adb, so it must use the harness's - and
writes SPA-Bench's recording format; others fail or hang. Keys given in `cmd`, by `--agent-arg` and by
`--secret-env` reach no file of the run, nor the report, nor what the CLI prints."""

from __future__ import annotations

import json
import os
import sys
import textwrap
import time
from pathlib import Path

import pytest
from pim_runs import on_shared_phones_args

from spa_bench.results.schema import EpisodeLog
from spa_bench.runner.config import AgentConfig, RunConfig
from spa_bench.runner.run import run_benchmark
from spa_bench.tasks.repository import TaskFilter

pytestmark = pytest.mark.usefixtures("adb_env")

KEY = "sk-test-DISTINCTIVE-external-key-77aa01"

AGENT = textwrap.dedent('''
    """Turns Wi-Fi off like an SPA-Bench agent: plain `adb` only, screenshots + log.json, exit code 0.
    It also leaks every key it has everywhere it can: the harness must scrub them."""
    import argparse, json, os, re, shutil, subprocess, sys, time

    parser = argparse.ArgumentParser()
    for name in ("--serial", "--instruction", "--lang", "--max-rounds", "--output-dir", "--task-id"):
        parser.add_argument(name, required=True)
    parser.add_argument("--openai_api_key")
    parser.add_argument("--agent-key")
    args = parser.parse_args()
    assert shutil.which("adb") == os.environ["ADB"], (shutil.which("adb"), os.environ["ADB"])
    keys = [args.openai_api_key, args.agent_key, os.environ.get("SPA_BENCH_API_KEY"),
            os.environ.get("SPA_TEST_LISTED")]
    print("keys:", *keys)
    print("keys:", *keys, file=sys.stderr)
    with open(os.path.join(args.output_dir, "notes.txt"), "w") as notes:
        notes.write(f"my keys are {{keys}}\\n")
    assert args.serial == os.environ["SPA_BENCH_SERIAL"] == os.environ["ANDROID_SERIAL"]
    assert args.output_dir == os.environ["SPA_BENCH_OUTPUT_DIR"]
    assert args.lang == os.environ["SPA_BENCH_LANGUAGE"] == "en"
    assert "Turn off Wi-Fi." in args.instruction and int(args.max_rounds) > 0
    print("my key is", os.environ.get("SPA_TEST_EXTERNAL_KEY"), file=sys.stderr)  # scrubbed by the harness

    def adb(*cmd):
        return subprocess.run(["adb", "-s", args.serial, *cmd], capture_output=True, check=True).stdout

    def screenshot(i):
        png = adb("exec-out", "screencap", "-p")
        assert png.startswith(b"\\x89PNG"), png[:20]
        with open(os.path.join(args.output_dir, f"{{i}}.png"), "wb") as f:
            f.write(png)

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
                    "response": f"tapping {{pattern}} with key {{args.openai_api_key}}",
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


def path_without_adb() -> str:
    """$PATH minus every folder that holds an adb: the harness then uses the one inside adbutils."""
    folders = os.environ.get("PATH", "").split(os.pathsep)
    return os.pathsep.join(f for f in folders if f and not (Path(f) / "adb").exists())


@pytest.fixture
def no_adb_on_path(monkeypatch: pytest.MonkeyPatch) -> None:
    import shutil

    monkeypatch.setenv("PATH", path_without_adb())
    monkeypatch.delenv("ADBUTILS_ADB_PATH", raising=False)
    assert shutil.which("adb") is None


@pytest.mark.usefixtures("no_adb_on_path")
def test_external_programs_are_run_recorded_and_policed(results_dir: Path, tmp_path: Path) -> None:
    programs = {}
    for name, source in (("agent", AGENT.format()), ("failing", FAILING), ("hanging", HANGING)):
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


CMD_KEY = "cmdkey-DISTINCTIVE-5e1d0c9a7b"  # typed into cmd, as SPA-Bench's agents take it
ARG_KEY = "argkey-DISTINCTIVE-3f2a8b6c4d"  # --agent-arg api_key=..., handed over through {api_key}
LISTED = "listed-DISTINCTIVE-77c1e5a0f9"  # in a variable whose name says nothing, listed by --secret-env


@pytest.mark.usefixtures("no_adb_on_path")
def test_keys_reach_no_file_report_or_console(results_dir: Path, tmp_path: Path,
                                              capsys: pytest.CaptureFixture[str],
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    from cli_helpers import run_cli

    program = tmp_path / "agent.py"
    program.write_text(AGENT.format())
    monkeypatch.setenv("SPA_TEST_LISTED", LISTED)
    cmd = f"{sys.executable} {program} --openai_api_key {CMD_KEY} --agent-key {{api_key}}"
    result = run_cli(capsys, "run", "--task", "settings_wifi_off_en", *on_shared_phones_args(1), "--out",
                     str(results_dir), "--agent", "external", "--agent-arg", f"cmd={cmd}",
                     "--agent-arg", f"api_key={ARG_KEY}", "--agent-arg", "model=gpt-4o",
                     "--secret-env", "SPA_TEST_LISTED")
    assert result.code == 0, result.err
    (run_dir,) = [p for p in results_dir.iterdir() if p.is_dir()]
    episode = json.loads(next(run_dir.glob("episodes/*/episode.json")).read_text(encoding="utf-8"))
    assert episode["termination"] == "done", episode["errors"]
    agent_dir = next(run_dir.glob("episodes/*/agent"))
    # the program did get every key, and printed them: what it printed is there, scrubbed
    stdout = (agent_dir / "stdout.log").read_text(encoding="utf-8")
    assert stdout.startswith("keys: ***REDACTED*** ***REDACTED*** ***REDACTED*** ***REDACTED***"), stdout
    assert (agent_dir / "notes.txt").read_text(encoding="utf-8").count("***REDACTED***") == 4
    assert (run_dir / "report.html").is_file() and (run_dir / "manifest.json").is_file()
    files = [p for p in run_dir.rglob("*") if p.is_file()]
    assert len(files) > 10
    for path in files:
        data = path.read_bytes()
        for key in (CMD_KEY, ARG_KEY, LISTED):
            assert key.encode() not in data, (key, path)
    for key in (CMD_KEY, ARG_KEY, LISTED):
        assert key not in result.out and key not in result.err
    manifest = json.loads((run_dir / "manifest.json").read_text(encoding="utf-8"))
    assert manifest["agents"][0]["args"]["api_key"] == "***REDACTED***"
    assert "--openai_api_key ***REDACTED***" in manifest["agents"][0]["args"]["cmd"]
    command = episode["agent_exit"]["command"]
    assert command[command.index("--agent-key") + 1] == "***REDACTED***"  # the filled-in {api_key}


def test_the_program_gets_the_harness_adb_without_shadowing_path(tmp_path: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    from adbutils._utils import _get_bin_dir
    from spa_bench.agents.external import harness_adb_env

    bundled = os.path.join(_get_bin_dir(), "adb")
    tools, venv = tmp_path / "usr-bin", tmp_path / "venv-bin"
    for folder in (tools, venv):
        folder.mkdir()
        (folder / "python").write_text("#!/bin/sh\n")
    fake = tools / "adb"
    fake.write_text("#!/bin/sh\nexit 0\n")  # answers `adb version`, so adbutils takes it
    fake.chmod(0o755)
    monkeypatch.delenv("ADBUTILS_ADB_PATH", raising=False)
    # no adb on PATH: the bundled one, its folder first
    monkeypatch.setenv("PATH", str(venv))
    expected = {"ADB": bundled, "PATH": os.pathsep.join([_get_bin_dir(), str(venv)])}
    assert harness_adb_env(str(venv)) == expected
    # PATH's adb is the harness's: PATH stays as it is (the venv's python keeps winning)
    path = os.pathsep.join([str(venv), str(tools)])
    monkeypatch.setenv("PATH", path)
    assert harness_adb_env(path) == {"ADB": str(fake)}
    # an adb chosen by ADBUTILS_ADB_PATH that PATH would not find: its folder goes first
    monkeypatch.setenv("ADBUTILS_ADB_PATH", bundled)
    assert harness_adb_env(path)["PATH"].split(os.pathsep)[0] == _get_bin_dir()
