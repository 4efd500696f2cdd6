"""Android's `content query` tool (frameworks/base cmds/content): the command line and its output.

One place for both readers of the content providers: the state checks (spa_bench.evaluation) and the
seeding of a device (spa_bench.device.seeding). The output is `Row: N col=value, col=value` per row
(or "No result found."), and a provider error is printed with exit status 0.
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Sequence

_ROW = re.compile(r"^Row: \d+ (.*)$", re.M)
_KEY = re.compile(r"(?:^|, )([A-Za-z_][A-Za-z0-9_]*)=")
_PROVIDER_ERROR = ("Error while accessing provider", "Unknown URI", "java.lang.")


class ContentQueryFailed(Exception):
    """`content query` printed the provider's error instead of rows (it exits 0 all the same)."""


def parse_content_rows(output: str) -> list[dict[str, str]]:
    """`content query` output ("Row: 0 _id=1, name=x") as dicts of text values ("NULL" for null,
    "" for an empty string, as the device prints them). "No result found." is no rows; a provider
    error (printed with exit status 0) raises ContentQueryFailed instead of passing for "no rows"."""
    if not _ROW.search(output):
        failed = next((ln for ln in output.splitlines() if any(m in ln for m in _PROVIDER_ERROR)), None)
        if failed is not None:
            raise ContentQueryFailed(failed.strip()[:300])
    rows = []
    for line in output.splitlines():
        match = _ROW.match(line.strip())
        if not match:
            continue
        body = match.group(1)
        keys = list(_KEY.finditer(body))
        row = {}
        for i, key in enumerate(keys):
            end = keys[i + 1].start() if i + 1 < len(keys) else len(body)
            row[key.group(1)] = body[key.end():end]
        rows.append(row)
    return rows


def content_query_command(uri: str, projection: Sequence[str] | None, where: str | None = None,
                          sort: str | None = None) -> str:
    """`content query` with its arguments quoted for the device's shell (the projection joined with ':',
    as Android's tool expects)."""
    command = f"content query --uri {shlex.quote(uri)}"
    if projection:
        command += f" --projection {shlex.quote(':'.join(projection))}"
    if where:
        command += f" --where {shlex.quote(where)}"
    if sort:
        command += f" --sort {shlex.quote(sort)}"
    return command
