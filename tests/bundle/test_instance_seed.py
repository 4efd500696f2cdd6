"""--instance-seed (issue 37, req. 4): the secret stands in for the run seed, is never dumped with the
run's configuration, and is asked back - and checked against its commitment - by resume and verify."""

from __future__ import annotations

import pytest

from spa_bench.errors import ConfigError
from spa_bench.runner.config import AgentConfig, RunConfig
from spa_bench.runner.run import given_instance_seed
from spa_bench.tasks.params import secret_run_seed, seed_commitment
from spa_bench.tasks.repository import TaskRepository, default_tasks_root

SECRET = "0123456789abcdef-private-split"


def test_the_secret_draws_the_instances_and_stays_out_of_the_recorded_configuration() -> None:
    config = RunConfig(agents=[AgentConfig(agent="noop")], seed=3, instance_seed=SECRET)
    assert config.instance_run_seed == secret_run_seed(SECRET) != 3
    assert config.instance_seed_commitment == seed_commitment(SECRET)
    dumped = config.model_dump_json()
    assert SECRET not in dumped and "instance_seed" not in dumped
    # the commitment is not the run seed's hash: publishing it gives nothing away
    assert seed_commitment(SECRET) != f"{secret_run_seed(SECRET):x}"
    task = TaskRepository(default_tasks_root()).get("clock_alarm_new_en")
    assert task.instantiate(config.instance_run_seed, 0) == task.instantiate(secret_run_seed(SECRET), 0)
    assert RunConfig(agents=[AgentConfig(agent="noop")], seed=3).instance_run_seed == 3


def test_resume_and_verify_ask_for_the_seed_and_check_it() -> None:
    commitment = seed_commitment(SECRET)
    assert given_instance_seed(commitment, SECRET, "the run").get_secret_value() == SECRET  # type: ignore[union-attr]
    assert given_instance_seed(None, None, "the run") is None
    with pytest.raises(ConfigError, match="drew its task instances from a secret seed: give it"):
        given_instance_seed(commitment, None, "the run")
    with pytest.raises(ConfigError, match="not the seed of the run"):
        given_instance_seed(commitment, SECRET + "x", "the run")
    with pytest.raises(ConfigError, match="drawn from its public --seed"):
        given_instance_seed(None, SECRET, "the run")
    with pytest.raises(ConfigError, match="at least 16 characters, not 5"):
        given_instance_seed(commitment, "short", "the run")
