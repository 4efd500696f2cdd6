"""How to reach one model: endpoint, credentials (by name only), limits, retries and image encoding.

A ModelConfig is recorded in run manifests as it is, so it never holds the API key itself: only the
name of the environment variable that does. Its repr also hides secret-looking extra headers.
"""

from __future__ import annotations

from typing import Any, Literal
from urllib.parse import urlsplit

from pydantic import BaseModel, ConfigDict, Field, model_validator

from spa_bench.secrets import redact_mapping

# The key used for endpoints that need none (vLLM, Ollama, LM Studio): the openai package insists on one.
NO_KEY = "not-needed"
_OPENAI_HOSTS = {"api.openai.com"}
# Free-form mappings where a user might put a credential (an Authorization header, a vendor's token).
_FREE_MAPPINGS = ("extra_headers", "extra_body")


class _Frozen(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Backoff(_Frozen):
    """Waits between retries: base_s * 2**retry with jitter, capped at max_s; Retry-After wins when given."""

    base_s: float = Field(1.0, ge=0, description="wait before the first retry (before jitter)")
    max_s: float = Field(60.0, ge=0, description="cap of the exponential wait")
    jitter: float = Field(0.5, ge=0, le=1, description="fraction of each wait that is randomised")
    retry_after_max_s: float = Field(300.0, ge=0, description="cap on a server's Retry-After")


class ImageSettings(_Frozen):
    """How screenshots are put into messages: format, size and the detail hint for vision models."""

    format: Literal["png", "jpeg"] = "png"
    jpeg_quality: int = Field(85, ge=1, le=100)
    max_side: int | None = Field(None, ge=16, description="resize so the longer side is at most this")
    detail: Literal["low", "high", "auto"] = "auto"


class AzureSettings(_Frozen):
    """An Azure OpenAI deployment: base_url is then the resource endpoint (https://NAME.openai.azure.com)."""

    api_version: str
    deployment: str


class ModelConfig(_Frozen):
    """One model endpoint as agents and the judge use it. The API key is read from `api_key_env`."""

    model: str = Field(min_length=1, description="model name sent in the request")
    base_url: str | None = Field(None, description="None = OpenAI; e.g. http://127.0.0.1:8000/v1 for vLLM")
    api_key_env: str | None = Field("OPENAI_API_KEY",
                                    description="environment variable holding the key; None = no key")
    temperature: float | None = Field(0.0, ge=0, le=2, description="None = not sent (server default)")
    max_tokens: int | None = Field(None, ge=1, description="None = not sent (server default)")
    max_tokens_param: Literal["max_tokens", "max_completion_tokens"] = Field(
        "max_tokens", description="newer OpenAI models (o-series, gpt-5) only take max_completion_tokens")
    timeout_s: float = Field(120.0, gt=0, description="per HTTP attempt")
    max_retries: int = Field(5, ge=0, description="retries after the first attempt")
    backoff: Backoff = Field(default_factory=Backoff)
    concurrency: int | None = Field(
        None, ge=1, description="calls in flight per (base_url, model) in this process; None = unlimited")
    image: ImageSettings = Field(default_factory=ImageSettings)
    extra_headers: dict[str, str] = Field(default_factory=dict)
    extra_body: dict[str, Any] = Field(default_factory=dict,
                                       description="extra request fields, e.g. top_k for vLLM")
    azure: AzureSettings | None = None
    price_in: float | None = Field(None, ge=0, description="USD per million input tokens (overrides table)")
    price_out: float | None = Field(None, ge=0, description="USD per million output tokens")

    @model_validator(mode="after")
    def _check(self) -> ModelConfig:
        if (self.price_in is None) != (self.price_out is None):
            raise ValueError("give both price_in and price_out, or neither")
        if self.azure is not None and not self.base_url:
            raise ValueError("azure needs base_url: the resource endpoint, e.g. https://NAME.openai.azure.com")
        return self

    def __repr_args__(self) -> Any:
        for name, value in super().__repr_args__():
            yield name, (redact_mapping(value) if name in _FREE_MAPPINGS else value)

    def redacted(self) -> dict[str, Any]:
        """The config as JSON-ready data for run manifests, secret-looking headers and body fields hidden.
        (The key itself is never here; api_key_env only names its variable.)"""
        data = self.model_dump(mode="json")
        for name in _FREE_MAPPINGS:
            data[name] = redact_mapping(data[name])
        return data

    @property
    def limit_key(self) -> tuple[str, str]:
        """Calls sharing this key share one concurrency limit."""
        return (self.base_url or "https://api.openai.com/v1", self.model)

    @property
    def label(self) -> str:
        """Model and endpoint, for messages and logs (no credentials: base_url userinfo is dropped)."""
        return f"{self.model} at {safe_url(self.base_url) if self.base_url else 'OpenAI'}"

    def needs_key(self) -> bool:
        """OpenAI itself and Azure need a real key; other endpoints (local servers) may have none."""
        if self.azure is not None:
            return True
        if self.base_url is None:
            return True
        return (urlsplit(self.base_url).hostname or "") in _OPENAI_HOSTS


def safe_url(url: str) -> str:
    """The URL without user:password@ and query (a key may hide there)."""
    parts = urlsplit(url)
    host = parts.hostname or ""
    if parts.port:
        host = f"{host}:{parts.port}"
    return f"{parts.scheme}://{host}{parts.path}" if parts.scheme else url.split("?", 1)[0]
