"""Keeping secrets out of logs, manifests, captured program output and reports.

Two mechanisms, because a secret shows up in two ways:
- By name. Agent arguments and command lines are recorded for reproducibility; a value whose key or
  option name looks like a credential (api_key, --openai_api_key, token, password, secret, *_key,
  authorization...) is replaced by REDACTED before it is written (redact_mapping, redact_argv).
- By value. The same key may reappear anywhere: inside `cmd="python run.py --openai_api_key KEY"`, in a
  program's stdout, in an error message. The runner collects the values it was given
  (secrets_in_args: secret-named arguments, secret-named options inside string arguments, and the
  variables that `*_env` arguments such as api_key_env name) and registers them (register_secrets);
  scrub_text then removes every registered value, the values of secret-named environment variables
  (OPENAI_API_KEY, ...) and provider-key shapes (sk-..., AIza...) from any text. Every JSON and HTML
  file of a run goes through spa_bench.results.layout.write_json_atomic, which scrubs; captured
  output of agent programs is scrubbed line by line as it is written.

Values shorter than MIN_SECRET characters are not scrubbed by value (they would redact ordinary words);
they are still redacted by name.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import threading
from collections.abc import Iterable, Mapping
from typing import Any

REDACTED = "***REDACTED***"
MIN_SECRET = 8
# "api_key", "--api-key", "--openai_api_key", "access_token", "auth", "password", "OPENAI_KEY",
# "secret_key"... but not "max_tokens" or "keyboard".
_SECRET_KEY = re.compile(
    r"(api[_-]?key|secret|passw(or)?d|credential|bearer|authorization|token$|^-*auth$|(^|[_-])key$)", re.I)
# Typical provider key shapes, scrubbed from free text even when we did not see them being set.
_SECRET_VALUE = re.compile(r"\b(sk-[A-Za-z0-9_-]{16,}|sk-ant-[A-Za-z0-9_-]{16,}|AIza[0-9A-Za-z_-]{30,})\b")


# ...but the *name* of a variable or file that holds a secret is not one: api_key_env, token_file.
_REFERENCE_SUFFIX = re.compile(r"[_-](env|env_var|var|file|path)$", re.I)
_ENV_SUFFIX = re.compile(r"[_-](env|env_var|var)$", re.I)

_NAME = re.compile(r"[A-Za-z_][\w.-]*")  # the key of a key=value argument (not a URL's text)
_URL_PASSWORD = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*://[^/@\s:]*:([^/@\s]+)@")
_URL_QUERY = re.compile(r"[?&]([^=&\s#]+)=([^&\s#]+)")

_registered: set[str] = set()
_registered_lock = threading.Lock()


def is_secret_key(key: str) -> bool:
    return bool(_SECRET_KEY.search(key)) and not _REFERENCE_SUFFIX.search(key)


def register_secrets(values: Iterable[str]) -> None:
    """Secret values that scrub_text removes from now on, in this process."""
    with _registered_lock:
        _registered.update(v for v in values if isinstance(v, str) and len(v) >= MIN_SECRET)


def environment_secrets(environ: Mapping[str, str] | None = None) -> set[str]:
    """Values of environment variables whose names look secret (OPENAI_API_KEY, HF_TOKEN, ...)."""
    env = os.environ if environ is None else environ
    return {v for k, v in env.items() if is_secret_key(k) and len(v) >= MIN_SECRET}


def all_secrets() -> set[str]:
    """The registered values and the environment's secret values."""
    with _registered_lock:
        registered = set(_registered)
    return registered | environment_secrets()


def secrets_in_args(args: Mapping[str, Any], environ: Mapping[str, str] | None = None) -> set[str]:
    """Secret values among agent arguments: secret-named ones, secret-named options inside strings
    (a `cmd`), and the values of environment variables named by secret `*_env` arguments."""
    env = os.environ if environ is None else environ
    out: set[str] = set()
    for key, value in args.items():
        name = str(key)
        if isinstance(value, Mapping):
            out |= secrets_in_args(value, env)
        elif not isinstance(value, str) or not value:
            continue
        elif is_secret_key(name):
            out.add(value)
        elif _ENV_SUFFIX.search(name) and _SECRET_KEY.search(_ENV_SUFFIX.sub("", name)):
            for variable in re.split(r"[,\s]+", value):
                if env.get(variable):
                    out.add(env[variable])
        else:
            out |= argv_secrets(_split(value)) | url_secrets(value)
    return {v for v in out if len(v) >= MIN_SECRET}


def url_secrets(text: str) -> set[str]:
    """Passwords in URLs (`https://user:PASSWORD@host`) and secret-named query parameters (`?key=...`)."""
    found = {m.group(1) for m in _URL_PASSWORD.finditer(text)}
    found |= {m.group(2) for m in _URL_QUERY.finditer(text) if is_secret_key(m.group(1))}
    return found


def argv_secrets(argv: Iterable[str]) -> set[str]:
    """Values of secret-named options in a command line: `--api-key X`, `--api-key=X`, `api_key=X`."""
    out: set[str] = set()
    take_next = False
    for arg in argv:
        if take_next:
            out.add(arg)
            take_next = False
            continue
        if arg.startswith("-") and is_secret_key(arg.split("=", 1)[0]):
            if "=" in arg:
                out.add(arg.split("=", 1)[1])
            else:
                take_next = True
            continue
        key, sep, value = arg.partition("=")
        if sep and _NAME.fullmatch(key) and is_secret_key(key):
            out.add(value)
    return {v for v in out if v}


def redact_mapping(values: Mapping[str, Any]) -> dict[str, Any]:
    """A copy with credential-like keys redacted, recursively; other strings scrubbed."""
    out: dict[str, Any] = {}
    for key, value in values.items():
        if is_secret_key(str(key)) and value not in (None, ""):
            out[key] = REDACTED
        elif isinstance(value, Mapping):
            out[key] = redact_mapping(value)
        else:
            out[key] = scrub_text(value) if isinstance(value, str) else value
    return out


def scrub_text(text: str, known_secrets: Iterable[str] = ()) -> str:
    """Remove the given secret values, the registered and environment ones, and key-shaped strings."""
    secrets = {s for s in known_secrets if s and len(s) >= MIN_SECRET} | all_secrets()
    return _SECRET_VALUE.sub(REDACTED, _replace(text, secrets))


def scrub_values(text: str) -> str:
    """Remove the registered and environment secret values only (no key-shape matching: safe on
    documents that carry base64 data, such as a report page)."""
    return _replace(text, all_secrets())


class ByteScrubber:
    """Scrubs many pieces of bytes of unknown encoding (a program's output, line by line) with the
    secrets known when it is made plus `extra`: their UTF-8 forms and key shapes are replaced, every
    other byte is kept."""

    _SHAPE = re.compile(_SECRET_VALUE.pattern.encode("ascii"))
    _MARK = REDACTED.encode("ascii")

    def __init__(self, extra: Iterable[str] = ()) -> None:
        values = {s for s in extra if s and len(s) >= MIN_SECRET} | all_secrets()
        self._secrets = [s.encode("utf-8") for s in sorted(values, key=len, reverse=True)]

    def __call__(self, data: bytes) -> bytes:
        for secret in self._secrets:
            if secret in data:
                data = data.replace(secret, self._MARK)
        return self._SHAPE.sub(self._MARK, data)


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


def redact_argv(argv: list[str]) -> list[str]:
    """Command line with values of secret-looking options and key=value pairs redacted."""
    out: list[str] = []
    hide_next = False
    for arg in argv:
        if hide_next:
            out.append(REDACTED)
            hide_next = False
            continue
        if arg.startswith("-") and is_secret_key(arg.split("=", 1)[0]):
            if "=" in arg:
                out.append(arg.split("=", 1)[0] + "=" + REDACTED)
            else:
                out.append(arg)
                hide_next = True
            continue
        key, sep, value = arg.partition("=")
        if sep and _NAME.fullmatch(key) and is_secret_key(key):
            out.append(f"{key}={REDACTED}")
        else:
            # `cmd=python run.py --openai_api_key KEY`: the option inside the value is a secret too
            out.append(scrub_text(arg, (argv_secrets(_split(value)) if sep else set()) | url_secrets(arg)))
    return out


def _replace(text: str, secrets: Iterable[str]) -> str:
    for secret in sorted(secrets, key=len, reverse=True):  # longest first: one may contain another
        if secret in text:
            text = text.replace(secret, REDACTED)
        escaped = json.dumps(secret, ensure_ascii=False)[1:-1]  # as it appears inside a JSON string
        if escaped != secret and escaped in text:
            text = text.replace(escaped, REDACTED)
    return text


def _split(text: str) -> list[str]:
    try:
        return shlex.split(text)
    except ValueError:  # unbalanced quotes: not a command line, but its words may still be options
        return text.split()
