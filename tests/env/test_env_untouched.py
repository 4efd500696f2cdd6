"""The Gymnasium env scores an infeasible task as the policy does: declaring it infeasible earns the reward
only with the apps' state untouched, and a recorded episode keeps both state digests; asking a "keyword
soup" question first is no question asked."""

from __future__ import annotations

from pathlib import Path

import pytest

from spa_bench.env import SpaBenchEnv
from spa_bench.evaluation.policy import UNTOUCHED, decide_success
from spa_bench.results.layout import RunLayout
from spa_bench.tasks.dialogue import ONE_AT_A_TIME

pytestmark = pytest.mark.usefixtures("adb_env")
TASK = "social_dm_infeasible_en"


def test_a_like_then_infeasible_earns_nothing_and_infeasible_alone_earns_1(tmp_path: Path) -> None:
    env = SpaBenchEnv([TASK], size="1080x2400", record_dir=tmp_path / "run", agent_name="gui")
    try:
        env.reset(options={"task": TASK})
        assert env.observation is not None
        like = next(e for e in env.observation.elements if e.resource_id.endswith("like_button"))
        env.step({"type": "tap", "element": like.index})
        _, reward, terminated, _, info = env.step({"type": "finish", "status": "infeasible"})
        assert (reward, terminated) == (0.0, True)
        assert "✗ the apps' state is untouched" in info["checks"]
        env.reset(options={"task": TASK, "repeat": 1})
        _, reward, _, _, info = env.step({"type": "finish", "status": "infeasible"})
        assert reward == 1.0 and "✓ the apps' state is untouched" in info["checks"]
    finally:
        env.close()
    layout = RunLayout(tmp_path / "run")
    liked, honest = (layout.read_episode(e) for e in layout.episode_ids())
    assert liked.digest_start is not None and liked.digest_end is not None
    assert any("social.db#likes: 1 row added" in line for line in liked.digest_end.changes)
    decision = decide_success(liked)
    assert decision.success is False and decision.source == UNTOUCHED
    assert honest.digest_end is not None and honest.digest_end.changes == []


def test_a_keyword_soup_question_then_infeasible_earns_nothing(tmp_path: Path) -> None:
    """The red team's ask-user hole, in one episode: a question stuffed with question words gets "one
    question at a time" and no rule, so declaring infeasible after it fails the ask_user check; the golden
    question gets the rule, and the same finish earns the reward."""
    task = "hard_infask_text_brother_en"
    env = SpaBenchEnv([task], size="1080x2400")
    try:
        env.reset(options={"task": task})
        soup = "Which one, what, who, when, where, how long, what time, 哪个, 几点 - name, number, city?"
        _, _, _, _, info = env.step({"type": "ask_user", "question": soup})
        assert info["user_reply"] == ONE_AT_A_TIME["en"]
        _, reward, terminated, _, info = env.step({"type": "finish", "status": "infeasible"})
        assert (reward, terminated) == (0.0, True)
        assert info["checks"][0] == "✗ check 1/4"  # the ask_user check: no rule answered
        env.reset(options={"task": task})
        _, _, _, _, info = env.step({"type": "ask_user", "question": "What is your brother's name?"})
        assert "he should be in my contacts" in info["user_reply"]
        _, reward, _, _, info = env.step({"type": "finish", "status": "infeasible"})
        assert reward == 1.0, info["checks"]
    finally:
        env.close()


def test_a_client_that_changes_the_phone_over_adb_earns_nothing(tmp_path: Path) -> None:
    """A second red team's serve-env hole: `reset` gives the phone's serial, and a client's own `adb shell
    settings put global wifi_on 0` then finish earned 1.0. The env audits what reaches the phone besides its
    own actions, as the runner does: the same goal reached behind the GUI earns 0, and the log says why."""
    import os

    import adbutils

    task = "settings_wifi_off_en"
    env = SpaBenchEnv([task], size="1080x2400", record_dir=tmp_path / "run", agent_name="client")
    try:
        _, info = env.reset(options={"task": task})
        client = adbutils.AdbClient(port=int(os.environ["ANDROID_ADB_SERVER_PORT"]))
        client.device(info["serial"]).shell("settings put global wifi_on 0")
        _, reward, terminated, _, info = env.step({"type": "finish"})
        assert (reward, terminated) == (0.0, True)
        assert info["checks"][0].startswith("✓")  # the state the checks want was reached
        assert "✗ nothing changed the phone behind the GUI" in info["checks"]
    finally:
        env.close()
    (log,) = (RunLayout(tmp_path / "run").read_episode(e) for e in RunLayout(tmp_path / "run").episode_ids())
    assert log.shell_audit is not None and log.shell_audit.tampered
    assert [c.command for c in log.shell_audit.offending] == ["settings put global wifi_on 0"]
    assert decide_success(log).success is False
