"""A Gymnasium environment over one phone (`SpaBenchEnv`), and its vector form (`make_vector_env`).

Gymnasium is an optional dependency (`pip install 'spa-bench[env]'`); it is imported only here.
"""

from spa_bench.env.core import REWARD_MODES, SpaBenchEnv
from spa_bench.env.spaces import AnyText
from spa_bench.env.vector import make_vector_env

__all__ = ["REWARD_MODES", "AnyText", "SpaBenchEnv", "make_vector_env"]
