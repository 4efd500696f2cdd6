"""The judge's model defaults and identity, apart from the judge itself so that the CLI and the runner
can build its settings without importing the plug-in."""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

from spa_bench.models import ImageSettings, ModelConfig

DEFAULT_JUDGE_MODEL = "gpt-4o"


def default_judge_config(model: str = DEFAULT_JUDGE_MODEL, **fields: Any) -> ModelConfig:
    """The judge's model: temperature 0 and high-detail images, as SPA-Bench calls GPT-4o."""
    fields.setdefault("image", ImageSettings(detail="high"))
    return ModelConfig(model=model, temperature=0.0, **fields)


def judge_identity(config: ModelConfig) -> str:
    """'judge:<model>@<host>[:port]': re-evaluations with other models or endpoints sit side by side."""
    if not config.base_url:
        return f"judge:{config.model}@api.openai.com"
    parts = urlsplit(config.base_url)
    port = f":{parts.port}" if parts.port else ""
    return f"judge:{config.model}@{parts.hostname or config.base_url}{port}"
