"""Agent adapters, installed as `spa_bench.agents`: built-in agents in their own modules, and
`example_agent.py` to copy when adding your own. The protocol and registry are in `spa_bench.agent`."""
