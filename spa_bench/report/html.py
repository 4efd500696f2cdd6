"""Assembling the page: one HTML file with its CSS, script and data inline, and nothing fetched.

Data goes in as JSON inside <script type="application/json">; every `<`, `>` and `&` in it is written
as a \\u escape, so no task or agent text can close the script element or open a comment (`</script>`,
`<!--`). A Content-Security-Policy admits only this page's own script and style (by hash) and no
connections at all: even a slip in escaping could not run injected code or reach the network. Scripts
that page script adds itself (the episode-detail files next to the report) are admitted by
'strict-dynamic'.
"""

from __future__ import annotations

import base64
import hashlib
import html
import json
import re
from functools import cache
from importlib.resources import files
from typing import Any

_SUBSTITUTION = re.compile(r"__(CSP|TITLE|CSS|DATA|CHUNKS|JS)__")
_JSON_ESCAPES = {"<": "\\u003c", ">": "\\u003e", "&": "\\u0026", "\u2028": "\\u2028", "\u2029": "\\u2029"}
_JSON_UNSAFE = re.compile("[<>&\u2028\u2029]")


@cache
def asset(name: str) -> str:
    return (files("spa_bench.report") / "assets" / name).read_text(encoding="utf-8")


def script_json(value: Any) -> str:
    """JSON that is safe inside a <script> element: no `<`, `>` or `&` appear literally."""
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    return _JSON_UNSAFE.sub(lambda m: _JSON_ESCAPES[m.group()], text)


def _hash(text: str) -> str:
    return "'sha256-" + base64.b64encode(hashlib.sha256(text.encode("utf-8")).digest()).decode() + "'"


def content_security_policy(js: str, css: str) -> str:
    return ("default-src 'none'; "
            f"script-src {_hash(js)} 'strict-dynamic'; style-src {_hash(css)}; "
            "img-src 'self' data: file:; base-uri 'none'; form-action 'none'")


def render_page(document: dict[str, Any], chunks: list[str], title: str) -> str:
    js, css = asset("report.js") + "\n" + asset("views.js"), asset("report.css")
    chunk_tags = "\n".join(f'<script type="text/plain" id="spa-chunk-{i}">{chunk}</script>'
                           for i, chunk in enumerate(chunks))
    values = {"CSP": content_security_policy(js, css), "TITLE": html.escape(title), "CSS": css,
              "DATA": script_json(document), "CHUNKS": chunk_tags, "JS": js}
    return _SUBSTITUTION.sub(lambda m: values[m.group(1)], asset("template.html"))
