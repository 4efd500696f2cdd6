"""Built-in evaluators and validators, installed as `spa_bench.evaluators`.

Each evaluator follows the one protocol of spa_bench/evaluation/base.py and declares its role:
`state` (state.py, ground truth: the task's checks scored from the captured device state),
`key_components` (key_components.py, a gate: OCR of the screenshots), `judge` (judge.py, an MLLM
judge). A package adds its own through the entry-point group `spa_bench.evaluators`; validators
(validators.py) are the Python success checks that task files name.
"""
