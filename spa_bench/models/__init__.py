"""Calling OpenAI-compatible chat models: shared by the MLLM agents and the MLLM judge.

    from spa_bench.models import ModelClient, ModelConfig
    client = ModelClient(ModelConfig(model="gpt-4o", image={"max_side": 1344, "detail": "high"}))
    reply = client.chat([client.user_message("What app is open?", screenshot)])
    reply.text, reply.usage.cost_usd

A request already answered can be replayed from a folder instead of sent (`ModelCache`, `use_cache`;
`spa-bench run --model-cache DIR`).

Importing this package is light: openai and Pillow load on first use.
"""

from spa_bench.models.cache import ModelCache, use_cache
from spa_bench.models.client import ModelClient, ModelReply
from spa_bench.models.config import AzureSettings, Backoff, ImageSettings, ModelConfig
from spa_bench.models.messages import (
    assistant_message,
    encode_image,
    image_part,
    system_message,
    text_part,
    user_message,
)
from spa_bench.models.prices import BUILTIN_PRICES, Price, PriceTable

__all__ = [
    "BUILTIN_PRICES",
    "AzureSettings",
    "Backoff",
    "ImageSettings",
    "ModelCache",
    "ModelClient",
    "ModelConfig",
    "ModelReply",
    "Price",
    "PriceTable",
    "assistant_message",
    "encode_image",
    "image_part",
    "system_message",
    "text_part",
    "use_cache",
    "user_message",
]
