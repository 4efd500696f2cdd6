"""Infeasible means untouched, on the virtual phone: agents that act through the GUI (taps on the screen,
no adb shell) on an infeasible task and then declare it infeasible fail, with the change named; one that
only browses passes; noop, which never declares, fails. Scored again from the logs alone, the same."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest
from pim_runs import on_shared_phones

from spa_bench.evaluation.policy import UNTOUCHED, decide_success
from spa_bench.results.schema import EpisodeLog
from spa_bench.runner.config import AgentConfig, RunConfig
from spa_bench.runner.run import run_benchmark
from spa_bench.tasks.repository import TaskFilter

pytestmark = pytest.mark.usefixtures("adb_env")
TASK = "social_dm_infeasible_en"  # its checks count comments and posts only: a like passed them before

AGENTS = textwrap.dedent('''
    from spa_bench.agent import BaseAgent

    def element(observation, resource_id):
        return next(e.index for e in observation.elements if e.resource_id.endswith(resource_id))

    class Scripted(BaseAgent):
        """Replays `plan`: an element id to tap, an action dict, or "finish" (declares infeasible)."""
        plan = ()
        def reset(self, context):
            super().reset(context)
            self.n = 0
        def step(self, observation):
            self.n += 1
            move = self.plan[self.n - 1] if self.n <= len(self.plan) else "finish"
            if move == "finish":
                return {"type": "finish", "status": "infeasible"}
            if isinstance(move, str):
                return {"type": "tap", "element": element(observation, move)}
            return move

    class Liker(Scripted):
        """Likes the first post of the feed, then says the task cannot be done."""
        plan = ("like_button", "finish")

    class Saver(Scripted):
        """Opens a post, saves it among the bookmarks, goes back, says the task cannot be done."""
        plan = ("post_card", "save_button", {"type": "key", "key": "back"}, "finish")

    class Browser(Scripted):
        """Opens a post, scrolls, goes back, opens search and the profile, says the task cannot be done."""
        plan = ("post_card", {"type": "scroll", "direction": "down"}, {"type": "key", "key": "back"},
                "nav_search", {"type": "key", "key": "back"}, "nav_me", {"type": "key", "key": "back"},
                {"type": "scroll", "direction": "down"}, "finish")
''')


def test_acting_then_declaring_infeasible_fails_browsing_passes(results_dir: Path, tmp_path: Path) -> None:
    agents = tmp_path / "gui_agents.py"
    agents.write_text(AGENTS)
    gui = [AgentConfig(agent=f"{agents}:{name}") for name in ("Liker", "Saver", "Browser")]
    config = RunConfig(filter=TaskFilter(ids=[TASK]), out=results_dir, seed=3, **on_shared_phones(1),
                       agents=[*gui, AgentConfig(agent="noop")])
    logs = {log.agent.name: log for log in run_benchmark(config).logs}
    for log in logs.values():
        assert log.shell_audit is not None and not log.shell_audit.tampered  # the GUI only
        assert log.digest_start is not None and log.digest_end is not None
        assert log.digest_start.round_trips == 3
        assert log.termination == ("done" if log.agent.name == "noop" else "infeasible"), log.agent.name

    liked, saved = decide_success(logs["Liker"]), decide_success(logs["Saver"])
    assert liked.success is False and liked.source == UNTOUCHED
    assert "com.spa.social/databases/social.db#likes: 1 row added" in liked.reason
    assert "social.db#posts: 1 row changed" in liked.reason and "like_count: 158 -> 159" in liked.reason
    assert saved.success is False and "social.db#bookmarks: 1 row added" in saved.reason
    assert logs["Liker"].verdicts[0].success is True  # the task's own checks alone still pass it

    browsed = decide_success(logs["Browser"])
    assert browsed.success is True, browsed.reason
    assert browsed.source == "state+untouched" and "the state is untouched" in browsed.reason
    assert logs["Browser"].digest_end is not None and logs["Browser"].digest_end.changes == []
    assert decide_success(logs["noop"]).success is False

    # scored again from the log files alone (no device): the same decisions
    for name, log in logs.items():
        path = results_dir / log.run_id / "episodes" / log.episode_id / "episode.json"
        again = EpisodeLog.model_validate_json(path.read_text())
        assert decide_success(again) == decide_success(log), name
