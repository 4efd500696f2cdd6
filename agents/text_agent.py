"""`text`: the accessibility-tree baseline (T3A-like): the numbered element list only, no image.

Each step sends the same request as `mllm` (see agents/mllm.py: the system prompt with the JSON action
format, the task, the history, the element list `[N] Class 'text' desc=... id=... flags
bounds=[l,t][r,b]`) but without a screenshot, so it also works with text-only models and costs far
fewer tokens. Coordinates in its answers are screen pixels (the bounds it was shown).

Arguments: as `mllm` (model, base_url, api_key_env, temperature, max_tokens, timeout_s, max_retries,
concurrency, history, prompt_language, price_in, price_out); the image arguments are ignored.
"""

from __future__ import annotations

from typing import ClassVar

from spa_bench.agent.chat import ChatAgent


class TextAgent(ChatAgent):
    with_image: ClassVar[bool] = False
