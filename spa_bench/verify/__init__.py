"""`spa-bench tasks verify`: every task's checks attacked on virtual phones (spa_bench.verify.run), the
outcome per task and probe (spa_bench.verify.outcome)."""
