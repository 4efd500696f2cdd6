"""`--model-cache`: an mllm run against the local scripted server, then a rerun with the same cache that
sends the server nothing and repeats every action, on virtual phones whose clock is frozen (so both
runs see the same screens: the status bar clock is in every screenshot and element list)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from pim_runs import on_shared_phones

from spa_bench.results.schema import EpisodeLog
from spa_bench.runner.config import AgentConfig, RunConfig
from spa_bench.runner.run import run_benchmark
from spa_bench.tasks.repository import TaskFilter
from spa_bench.testing.openai_server import RecordedRequest, ScriptedOpenAIServer, TextReply

pytestmark = pytest.mark.usefixtures("adb_env")

_LINE = re.compile(r"^\[(\d+)\] (.*)$", re.M)


def tap(label: str, tokens: int) -> object:
    """Tap the first listed element whose line contains `label` (the numbers come from the request)."""

    def answer(request: RecordedRequest) -> TextReply:
        text = "\n".join(request.texts())
        n = next(int(m.group(1)) for m in _LINE.finditer(text) if label in m.group(2))
        return TextReply(f'Reason: tap {label}\nAction: {{"type": "tap", "element": {n}}}', tokens, 30)

    return answer


def only_log(logs: list[EpisodeLog]) -> EpisodeLog:
    (log,) = logs
    return log


def test_a_rerun_with_the_cache_sends_nothing_and_repeats_every_action(results_dir: Path,
                                                                       tmp_path: Path) -> None:
    cache = tmp_path / "model-cache"
    script = [tap("'Network & internet'", 1200), tap("id=switch_widget", 1300),
              TextReply('Reason: Wi-Fi is off.\nAction: {"type": "finish", "status": "done"}', 1400, 20)]
    with ScriptedOpenAIServer(script) as server:  # type: ignore[arg-type]
        config = RunConfig(
            filter=TaskFilter(ids=["settings_wifi_off_en"]), **on_shared_phones(1), out=results_dir,
            phone_clock="2026-01-15T09:30:00", model_cache=cache,
            agents=[AgentConfig(agent="mllm", args={"base_url": server.base_url, "model": "gpt-4o",
                                                    "api_key_env": "none", "max_side": 720})])
        first = only_log(run_benchmark(config).logs)
        sent = len(server.chat_requests())
        # a new run folder, the same cache; the server keeps counting
        second = only_log(run_benchmark(config).logs)
        assert len(server.chat_requests()) == sent == 3  # the rerun sent nothing
    # and offline: the server is gone, and replay-only would fail any request not in the cache
    offline = only_log(run_benchmark(config.model_copy(update={"model_cache_replay": True})).logs)
    assert offline.termination == "done"
    assert [s.action for s in offline.steps] == [s.action for s in first.steps]
    assert first.run_id != second.run_id != offline.run_id
    # a prompt that differs (a smaller image) is not in the cache: in replay-only mode, a recorded error
    changed = config.model_copy(update={"model_cache_replay": True, "agents": [AgentConfig(
        agent="mllm", args={**config.agents[0].args, "max_side": 640})]})
    miss = only_log(run_benchmark(changed).logs)
    assert miss.termination == "agent_error" and miss.steps[0].action is None
    assert "no reply in the model cache" in miss.errors[0].message

    assert first.termination == second.termination == "done"
    assert [s.action for s in second.steps] == [s.action for s in first.steps]
    assert [s.action.type for s in first.steps if s.action] == ["tap", "tap", "finish"]
    assert [s.agent_output for s in second.steps] == [s.agent_output for s in first.steps]
    assert [v.success for v in second.verdicts] == [v.success for v in first.verdicts] == [True]
    # the same screens, thanks to the frozen clock
    shots = [[(results_dir / log.run_id / "episodes" / log.episode_id / s.observation.screenshot).read_bytes()
              for s in log.steps if s.observation.screenshot] for log in (first, second)]
    assert shots[0] == shots[1] and len(shots[0]) == 3
    # tokens and cost as recorded, and every call marked as answered from the cache
    assert second.usage.prompt_tokens == first.usage.prompt_tokens == 1200 + 1300 + 1400
    assert second.usage.cost_usd == pytest.approx(first.usage.cost_usd)
    assert (first.usage.calls, first.usage.cached_calls) == (3, 0)
    assert (second.usage.calls, second.usage.cached_calls) == (3, 3)
    assert [s.usage.cached_calls for s in second.steps] == [1, 1, 1]
    assert len(list(cache.rglob("*.json"))) == 3


def test_a_cache_on_virtual_phones_without_a_frozen_clock_is_warned_about(
        tmp_path: Path, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch) -> None:
    from spa_bench.runner.run import _model_cache

    agents = [AgentConfig(agent="noop")]
    with caplog.at_level("WARNING", logger="spa_bench.runner"):
        _model_cache(RunConfig(agents=agents, model_cache=tmp_path / "a", phone_clock="2026-01-15T09:30"))
        _model_cache(RunConfig(agents=agents, model_cache=tmp_path / "b", devices=["emulator-5554"]))
        monkeypatch.setenv("SPA_BENCH_PHONE_CLOCK", "2026-01-15T09:30")  # frozen for every phone started
        _model_cache(RunConfig(agents=agents, model_cache=tmp_path / "d"))
        assert not caplog.records
        monkeypatch.delenv("SPA_BENCH_PHONE_CLOCK")
        cache = _model_cache(RunConfig(agents=agents, model_cache=tmp_path / "c"))
    assert cache is not None and cache.root == tmp_path / "c" and cache.root.is_dir()
    assert "--phone-clock" in caplog.text


def test_a_frozen_phone_clock_stands_still_and_a_bad_one_is_refused() -> None:
    from datetime import datetime, timedelta

    from pydantic import ValidationError

    from spa_bench.phone.system.clock import PhoneClock, parse_clock

    when = parse_clock("2026-01-15T10:30:00+01:00")  # converted to the phone's UTC
    assert when == datetime(2026, 1, 15, 9, 30)
    clock = PhoneClock.frozen(when)
    assert clock.now() == clock.now() == when and clock.status_time(True) == "09:30"
    clock.set_now(when + timedelta(days=1))  # tasks may still set the date
    assert clock.now() == datetime(2026, 1, 16, 9, 30)
    with pytest.raises(ValidationError, match="phone_clock: invalid clock 'tomorrow'"):
        RunConfig(agents=[AgentConfig(agent="noop")], phone_clock="tomorrow")
    with pytest.raises(ValidationError, match="model_cache_replay needs model_cache"):
        RunConfig(agents=[AgentConfig(agent="noop")], model_cache_replay=True)


def test_cli_errors_name_the_option(capsys: pytest.CaptureFixture[str]) -> None:
    from cli_helpers import run_cli

    replay = run_cli(capsys, "run", "--agent", "noop", "--model-cache-replay")
    assert replay.code == 2 and "model_cache_replay needs model_cache (--model-cache DIR)" in replay.err
    clock = run_cli(capsys, "run", "--agent", "noop", "--phone-clock", "tomorrow")
    assert clock.code == 2 and "phone_clock: invalid clock 'tomorrow'" in clock.err
