"""What model calls cost: a small built-in price table, overridable by a file or per model config.

An unknown model has an unknown cost (None), never 0: a leaderboard must not show a paid model as free.
Local models priced at zero must say so explicitly (a price file entry or price_in=0/price_out=0).
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from spa_bench.errors import ConfigError


class Price(BaseModel):
    """USD per million tokens."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    input: float = Field(ge=0)
    output: float = Field(ge=0)

    def cost(self, prompt_tokens: int, completion_tokens: int) -> float:
        return (prompt_tokens * self.input + completion_tokens * self.output) / 1_000_000


# List prices in USD per million tokens (input, output), standard tier, no cached-input or batch
# discount. Figures from the providers' public pricing pages (openai.com/api/pricing,
# anthropic.com/pricing, ai.google.dev/pricing) as remembered at mid-2025: they MAY BE OUT OF DATE.
# Check them, and override with a price file (--prices FILE) or ModelConfig.price_in/price_out.
# Cached input tokens are billed here at the full input price, so costs are an upper bound.
BUILTIN_PRICES: dict[str, tuple[float, float]] = {
    # OpenAI
    "gpt-5": (1.25, 10.00),
    "gpt-5-mini": (0.25, 2.00),
    "gpt-5-nano": (0.05, 0.40),
    "gpt-4.1": (2.00, 8.00),
    "gpt-4.1-mini": (0.40, 1.60),
    "gpt-4.1-nano": (0.10, 0.40),
    "gpt-4o": (2.50, 10.00),
    "gpt-4o-2024-05-13": (5.00, 15.00),
    "gpt-4o-mini": (0.15, 0.60),
    "gpt-4-turbo": (10.00, 30.00),
    "gpt-4-1106-preview": (10.00, 30.00),
    "gpt-4-0125-preview": (10.00, 30.00),
    "gpt-4-vision-preview": (10.00, 30.00),
    "gpt-4": (30.00, 60.00),
    "gpt-3.5-turbo": (0.50, 1.50),
    "o1": (15.00, 60.00),
    "o3": (2.00, 8.00),
    "o3-mini": (1.10, 4.40),
    "o4-mini": (1.10, 4.40),
    # Anthropic (through an OpenAI-compatible gateway)
    "claude-3-5-sonnet": (3.00, 15.00),
    "claude-3-7-sonnet": (3.00, 15.00),
    "claude-sonnet-4": (3.00, 15.00),
    "claude-3-5-haiku": (0.80, 4.00),
    "claude-3-opus": (15.00, 75.00),
    # Google (prompts up to 128k/200k tokens)
    "gemini-1.5-pro": (1.25, 5.00),
    "gemini-1.5-flash": (0.075, 0.30),
    "gemini-2.0-flash": (0.10, 0.40),
    "gemini-2.5-pro": (1.25, 10.00),
    "gemini-2.5-flash": (0.30, 2.50),
}

# Dated snapshots and version tags priced like their family: gpt-4o-2024-08-06, claude-3-5-sonnet-20241022,
# gemini-1.5-pro-002, claude-3-5-sonnet@20240620, gpt-4-turbo-preview, ...-latest.
_SUFFIX = re.compile(r"([-@](\d{4}-\d{2}-\d{2}|\d{8}|\d{4}|\d{3}|latest|preview|exp))+$")


class PriceTable:
    """Prices by model name, looked up exactly, then without a provider prefix and a date suffix."""

    def __init__(self, prices: Mapping[str, Price]) -> None:
        self._prices = {name.lower(): price for name, price in prices.items()}

    @classmethod
    def builtin(cls) -> PriceTable:
        return cls({name: Price(input=i, output=o) for name, (i, o) in BUILTIN_PRICES.items()})

    @classmethod
    def from_file(cls, path: Path, base: PriceTable | None = None) -> PriceTable:
        """Read a YAML or JSON mapping `model: {input: USD/M, output: USD/M}`, layered over `base`
        (the built-in table by default, so a file only lists what it adds or corrects)."""
        try:
            text = path.read_text(encoding="utf-8")
        except OSError as exc:
            raise ConfigError(f"cannot read price file {path}: {exc.strerror or exc}") from None
        if path.suffix.lower() == ".json":
            try:
                data = json.loads(text)
            except ValueError as exc:
                raise ConfigError(f"price file {path} is not valid JSON: {exc}") from None
        else:
            import yaml

            try:
                data = yaml.safe_load(text)
            except yaml.YAMLError as exc:
                raise ConfigError(f"price file {path} is not valid YAML: {exc}") from None
        if not isinstance(data, dict):
            raise ConfigError(f"price file {path}: expected a mapping of model name to "
                              "{input: USD per million tokens, output: ...}")
        prices: dict[str, Price] = {}
        for name, entry in data.items():
            try:
                prices[str(name)] = Price.model_validate(entry)
            except ValidationError as exc:
                first = exc.errors()[0]
                where = ".".join(str(p) for p in first["loc"]) or "entry"
                raise ConfigError(f"price file {path}: model {name!r}: {where}: {first['msg']}") from None
        return (base if base is not None else cls.builtin()).merged(prices)

    def merged(self, prices: Mapping[str, Price]) -> PriceTable:
        return PriceTable({**self._prices, **{k.lower(): v for k, v in prices.items()}})

    def lookup(self, model: str) -> Price | None:
        name = model.strip().lower()
        candidates = [name]
        if "/" in name:  # "openai/gpt-4o", "anthropic/claude-3-5-sonnet"
            candidates.append(name.rsplit("/", 1)[1])
        candidates += [_SUFFIX.sub("", c) for c in list(candidates)]
        for candidate in candidates:
            if candidate in self._prices:
                return self._prices[candidate]
        return None

    def cost(self, model: str, prompt_tokens: int, completion_tokens: int) -> float | None:
        price = self.lookup(model)
        return None if price is None else price.cost(prompt_tokens, completion_tokens)

    def __contains__(self, model: object) -> bool:
        return isinstance(model, str) and self.lookup(model) is not None

    def __len__(self) -> int:
        return len(self._prices)
