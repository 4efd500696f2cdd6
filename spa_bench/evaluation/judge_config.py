"""The judge's model defaults, identity and spec, apart from the judge itself so that the CLI and the
runner can build its settings without importing the plug-in."""

from __future__ import annotations

import hashlib
from typing import Any
from urllib.parse import urlsplit, urlunsplit

from spa_bench.models import ImageSettings, ModelConfig

SPEC_MODEL_FIELDS = ("model", "base_url", "api_key_env", "temperature", "max_tokens", "max_tokens_param",
                     "image", "extra_body", "azure")
"""What of the judge's model changes its replies, and so its verdicts; timeouts, retries, concurrency,
prices and headers (which may carry credentials) do not."""

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


def url_without_credentials(url: str | None) -> str | None:
    """base_url with any user:password@ removed (a secret never goes into a verdict's spec)."""
    if not url:
        return url
    parts = urlsplit(url)
    if not (parts.username or parts.password):
        return url
    host = parts.hostname or ""
    netloc = f"{host}:{parts.port}" if parts.port else host
    return urlunsplit(parts._replace(netloc=netloc))


def model_spec(config: ModelConfig) -> dict[str, Any]:
    """The judge model's verdict-changing settings as JSON data (ModelConfig.redacted hides secret-named
    body fields), base_url without credentials."""
    data = config.redacted()
    spec = {name: data[name] for name in SPEC_MODEL_FIELDS if name in data}
    spec["base_url"] = url_without_credentials(config.base_url)
    return spec


def prompt_sha256(*texts: str) -> str:
    """A short fingerprint of the prompts a judge sends, recorded with its verdicts."""
    digest = hashlib.sha256()
    for text in texts:
        digest.update(text.encode("utf-8") + b"\0")
    return digest.hexdigest()[:16]
