"""The task data shipped with spa-bench (YAML files, one folder per suite), installed as spa_bench.suites."""
