"""Infeasible means untouched, on the virtual phone: agents that act through the GUI (taps on the screen,
no adb shell) on an infeasible task - in its own app or in another one - and then declare it infeasible
fail, with the change named; one that only browses (other apps too) passes; noop, which never declares,
fails. Scored again from the logs alone, the same."""

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

    def labelled(observation, text):
        return next(e.index for e in observation.elements if text in (e.text, e.content_desc))

    class Scripted(BaseAgent):
        """Replays `plan`: an element id to tap, an action dict, ("text", T) to tap the element showing T,
        ("type", ID, T) to type T into an element, or "finish" (declares infeasible)."""
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
            if isinstance(move, tuple) and move[0] == "text":
                return {"type": "tap", "element": labelled(observation, move[1])}
            if isinstance(move, tuple):
                return {"type": "type", "text": move[2], "element": element(observation, move[1])}
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

    class Texter(Scripted):
        """Opens Messages, sends an SMS (taps and typing), says the task cannot be done."""
        plan = ({"type": "open_app", "app": "Messages"}, "conversation_name",
                ("type", "compose_message_text", "Running late"), "send_message_button", "finish")

    class AlarmSetter(Scripted):
        """Opens Clock, adds a 6:15 alarm, says the task cannot be done."""
        plan = ({"type": "open_app", "app": "Clock"}, "fab", ("type", "hour", "6"), ("type", "minute", "15"),
                ("text", "OK"), "finish")

    class Caller(Scripted):
        """Opens the Phone app, dials a number and leaves the call going, says the task cannot be done
        (a call in progress leaves no call-log row until it ends)."""
        plan = ({"type": "open_app", "app": "Phone"}, "dialpad_fab", ("type", "digits", "2125550176"),
                "dialpad_floating_action_button", "finish")

    class LookAround(Scripted):
        """Opens other apps and a screen of one, comes back to the task's app, says it cannot be done."""
        plan = ({"type": "open_app", "app": "Messages"}, "conversation_name", {"type": "key", "key": "back"},
                {"type": "open_app", "app": "Clock"}, {"type": "scroll", "direction": "down"},
                {"type": "open_app", "app": "com.spa.social"}, "finish")
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


def test_acting_in_another_app_then_declaring_infeasible_fails(results_dir: Path, tmp_path: Path) -> None:
    """The red team's class: an SMS sent from Messages, an alarm added in Clock or a call left going, then a
    social task declared infeasible. The digest reads every app and the call state, so all fail; looking
    around in them passes."""
    agents = tmp_path / "gui_agents.py"
    agents.write_text(AGENTS)
    config = RunConfig(filter=TaskFilter(ids=[TASK]), out=results_dir, seed=4, **on_shared_phones(1),
                       agents=[AgentConfig(agent=f"{agents}:{name}")
                               for name in ("Texter", "AlarmSetter", "Caller", "LookAround")])
    logs = {log.agent.name: log for log in run_benchmark(config).logs}
    for log in logs.values():
        assert log.shell_audit is not None and not log.shell_audit.tampered  # the GUI only
        assert log.termination == "infeasible", log.agent.name
        assert log.verdicts[0].success is True  # the task's own checks alone pass every one of them
    texted, alarmed = decide_success(logs["Texter"]), decide_success(logs["AlarmSetter"])
    assert texted.success is False and texted.source == UNTOUCHED
    assert "com.android.providers.telephony/databases/mmssms.db#sms: 1 row added" in texted.reason
    assert "Running late" in texted.reason
    assert alarmed.success is False and alarmed.source == UNTOUCHED
    assert "com.android.deskclock(de)/databases/alarms.db#alarm_templates: 1 row added" in alarmed.reason
    called = decide_success(logs["Caller"])
    assert called.success is False and called.source == UNTOUCHED
    assert "telephony:calls" in called.reason, called.reason
    looked = decide_success(logs["LookAround"])
    assert looked.success is True, looked.reason
    assert logs["LookAround"].digest_end is not None and logs["LookAround"].digest_end.changes == []
