"""Built-in evaluators and validators, installed as `spa_bench.evaluators`."""
