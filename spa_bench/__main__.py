"""`python -m spa_bench` = `spa-bench`."""

from spa_bench.cli import main

main()
