"""The Gymnasium env scores an infeasible task as the policy does: declaring it infeasible earns the reward
only with the apps' state untouched, and a recorded episode keeps both state digests."""

from __future__ import annotations

from pathlib import Path

import pytest

from spa_bench.env import SpaBenchEnv
from spa_bench.evaluation.policy import UNTOUCHED, decide_success
from spa_bench.results.layout import RunLayout

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
