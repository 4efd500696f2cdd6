"""Keeping secrets out of logs, manifests and reports.

Agent arguments and command lines are recorded for reproducibility; any value whose key looks like a
credential is replaced by REDACTED before it is written, and known secret values (API keys read from
the environment) are scrubbed from free text.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

REDACTED = "***REDACTED***"
# "api_key", "--api-key", "access_token", "auth", "password"... but not "max_tokens".
_SECRET_KEY = re.compile(
    r"(api[_-]?key|secret|passw(or)?d|credential|bearer|authorization|token$|^-*auth$)", re.I)
# Typical provider key shapes, scrubbed from free text even when we did not see them being set.
_SECRET_VALUE = re.compile(r"\b(sk-[A-Za-z0-9_-]{16,}|sk-ant-[A-Za-z0-9_-]{16,}|AIza[0-9A-Za-z_-]{30,})\b")


# ...but the *name* of a variable or file that holds a secret is not one: api_key_env, token_file.
_REFERENCE_SUFFIX = re.compile(r"[_-](env|env_var|var|file|path)$", re.I)


def is_secret_key(key: str) -> bool:
    return bool(_SECRET_KEY.search(key)) and not _REFERENCE_SUFFIX.search(key)


def redact_mapping(values: Mapping[str, Any]) -> dict[str, Any]:
    """A copy with credential-like keys redacted, recursively."""
    out: dict[str, Any] = {}
    for key, value in values.items():
        if is_secret_key(str(key)) and value not in (None, ""):
            out[key] = REDACTED
        elif isinstance(value, Mapping):
            out[key] = redact_mapping(value)
        else:
            out[key] = scrub_text(value) if isinstance(value, str) else value
    return out


def header_secrets(headers: Mapping[str, str]) -> tuple[str, ...]:
    """Values of credential-like headers, and the token of `Authorization: Bearer TOKEN`."""
    out: list[str] = []
    for name, value in headers.items():
        if is_secret_key(name) and value:
            out.append(value)
            token = value.split()[-1]
            if token != value:
                out.append(token)
    return tuple(out)


def scrub_text(text: str, known_secrets: Iterable[str] = ()) -> str:
    """Remove known secret values and key-shaped strings from free text."""
    for secret in known_secrets:
        if secret and len(secret) >= 8:
            text = text.replace(secret, REDACTED)
    return _SECRET_VALUE.sub(REDACTED, text)


def redact_argv(argv: list[str]) -> list[str]:
    """Command line with values of secret-looking options and key=value pairs redacted."""
    out: list[str] = []
    hide_next = False
    for arg in argv:
        if hide_next:
            out.append(REDACTED)
            hide_next = False
            continue
        if arg.startswith("-") and is_secret_key(arg):
            if "=" in arg:
                out.append(arg.split("=", 1)[0] + "=" + REDACTED)
            else:
                out.append(arg)
                hide_next = True
            continue
        key, sep, _value = arg.partition("=")
        if sep and is_secret_key(key):
            out.append(f"{key}={REDACTED}")
        else:
            out.append(scrub_text(arg))
    return out
