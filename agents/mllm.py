"""`mllm`: the multimodal baseline (M3A-like): a Set-of-Mark screenshot + the element list -> one action.

Each step sends one chat request to an OpenAI-compatible endpoint:
- system: the role, the action format (JSON of spa_bench.actions, elements by number) and the answer
  format `Reason: ... / Action: {...}` - in Chinese for Chinese tasks;
- user: the task instruction, the step number and limit, the foreground app, the agent's last
  `history` steps (action, reason, and a note when an answer was invalid), a note when the previous
  answer could not be used, the numbered element list (`[N] Class 'text' desc=... id=... flags
  bounds=[l,t][r,b]`), and then the screenshot with a numbered box on every listed element (data URL,
  PNG or JPEG, resized so its longer side is at most `max_side`, with the `detail` hint).
The reply's action is read leniently (prose, code fences, trailing commas, single quotes, AndroidWorld
names); coordinates are scaled back from the image the model saw to the screen. An unusable reply is
recorded as an invalid step with its raw text, and the next request says why it was rejected.

Arguments (`--agent-arg key=value`; the same for `text` and `reflection`):
- model (gpt-4o): model name sent to the endpoint; also the key of the price table.
- base_url (OpenAI): e.g. http://127.0.0.1:8000/v1 for vLLM, http://127.0.0.1:11434/v1 for Ollama.
- api_key_env (OPENAI_API_KEY): the environment variable holding the key; `none` for keyless local
  servers. The key itself is never an argument, and is never written anywhere.
- temperature (0.0), max_tokens (1024), timeout_s (120, per HTTP attempt), max_retries (5, on 429 /
  5xx / timeouts, with backoff and Retry-After), concurrency (none: calls in flight per endpoint+model).
- max_side (1344): longest side of the image sent, in pixels (`null` = full size); detail (high |
  low | auto); image_format (png | jpeg).
- history (8): how many earlier steps are repeated in the prompt.
- prompt_language (auto): en | zh | auto (the task's language).
- price_in / price_out: USD per million tokens, for models the built-in price table does not know
  (else their cost is recorded as unknown, not 0).
- save_marks (false): also write each marked screenshot to the episode's agent/ folder.
"""

from __future__ import annotations

from spa_bench.agent.chat import MarkedScreenAgent


class MLLMAgent(MarkedScreenAgent):
    """One call per step: the Set-of-Mark screenshot and the element list (see the module docstring)."""
