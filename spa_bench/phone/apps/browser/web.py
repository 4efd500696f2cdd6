"""The offline web the Browser shows: pages as data (blocks of text, links, facts, products and form
fields), looked up by URL, and the search engine that ranks them.

Pages live in `sites_en.py` and `sites_zh.py`; the search results page and a form's confirmation page
are built here from the query and the stored submission. A host no page lives on is "not resolved" (the
browser shows its offline error page, as Chrome does for ERR_NAME_NOT_RESOLVED); a path no page lives
on, on a known host, is a 404.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache
from typing import Literal
from urllib.parse import parse_qs, quote_plus, urlsplit

BlockKind = Literal["h", "p", "meta", "link", "fact", "item", "field", "choice", "submit", "result"]
SEARCH_HOST = "searchly.com"
HOME_URL = f"https://{SEARCH_HOST}/"


@dataclass(frozen=True)
class Block:
    """One piece of a page. `name` is a form field's name; `value` a fact's value or an item's price;
    `url` a link's target; `options` a choice field's values."""

    kind: BlockKind
    text: str
    url: str = ""
    value: str = ""
    name: str = ""
    options: tuple[str, ...] = ()
    required: bool = False


@dataclass(frozen=True)
class Page:
    url: str
    title: str
    blocks: tuple[Block, ...]
    keywords: str = ""  # what the search engine matches besides the title and the text
    form: str = ""  # the form's name when the page holds one (stored with each submission)
    confirm: str = ""  # the confirmation text, "{field}" filled from the submission, "{ref}" its number


@dataclass(frozen=True)
class Resolved:
    """What loading a URL gives: a page, or an error (`unresolved` host, `not_found` path)."""

    url: str
    page: Page | None
    error: Literal["", "unresolved", "not_found"] = ""
    host: str = ""


# -- builders the site modules use ------------------------------------------------------------------
def h(text: str) -> Block:
    return Block("h", text)


def p(text: str) -> Block:
    return Block("p", text)


def meta(text: str) -> Block:
    return Block("meta", text)


def link(text: str, url: str) -> Block:
    return Block("link", text, url=url)


def fact(label: str, value: str) -> Block:
    return Block("fact", label, value=value)


def item(name: str, price: str, detail: str = "") -> Block:
    return Block("item", name, value=price, url=detail)


def text_field(name: str, label: str, required: bool = True) -> Block:
    return Block("field", label, name=name, required=required)


def choice(name: str, label: str, options: tuple[str, ...]) -> Block:
    return Block("choice", label, name=name, options=options, required=True)


def submit(label: str) -> Block:
    return Block("submit", label)


@dataclass(frozen=True)
class SearchHit:
    page: Page
    snippet: str
    score: int = field(default=0, compare=False)


# -- the web ----------------------------------------------------------------------------------------
@cache
def pages() -> dict[str, Page]:
    from spa_bench.phone.apps.browser import sites_en, sites_zh

    return {normalise(page.url): page for page in (*sites_en.PAGES, *sites_zh.PAGES)}


@cache
def hosts() -> frozenset[str]:
    return frozenset({urlsplit(u).hostname or "" for u in pages()} | {SEARCH_HOST})


def normalise(url: str) -> str:
    """A URL as the address bar keeps it: a scheme (https by default), a lower-case host, a path."""
    text = url.strip()
    if "://" not in text:
        text = "https://" + text
    parts = urlsplit(text)
    path = parts.path or "/"
    query = f"?{parts.query}" if parts.query else ""
    return f"{parts.scheme.lower()}://{(parts.hostname or '').lower()}{path}{query}"


def looks_like_url(text: str) -> bool:
    """Whether the address bar's text is a URL (Chrome's rule of thumb: a scheme, or one word with a dot
    in it) rather than a search."""
    t = text.strip()
    if "://" in t:
        return True
    return " " not in t and "." in t.split("/", 1)[0] and not t.endswith(".")


def search_url(query: str) -> str:
    return f"https://{SEARCH_HOST}/search?q={quote_plus(query.strip())}"


def ref_of(url: str) -> str:
    """A form's confirmation URL carries the submission's reference (`?ref=LG-1001`)."""
    return parse_qs(urlsplit(url).query).get("ref", [""])[0]


def query_of(url: str) -> str:
    parts = urlsplit(url)
    if parts.hostname != SEARCH_HOST or parts.path != "/search":
        return ""
    return parse_qs(parts.query).get("q", [""])[0]


def resolve(url: str) -> Resolved:
    norm = normalise(url)
    host = urlsplit(norm).hostname or ""
    if host == SEARCH_HOST and urlsplit(norm).path in ("/", "/search"):
        return Resolved(norm, None, host=host)  # home and results pages, built by the screen
    bare = norm.split("?", 1)[0]  # a form page keeps its query (?ref=...) for the confirmation
    page = pages().get(bare) or pages().get(bare.rstrip("/")) or pages().get(bare + "/")
    if page is not None:
        return Resolved(norm, page, host=host)
    if host not in hosts():
        return Resolved(norm, None, "unresolved", host)
    return Resolved(norm, None, "not_found", host)


def _text(page: Page) -> str:
    return " ".join(b.text + " " + b.value for b in page.blocks)


def _terms(query: str) -> list[str]:
    q = query.casefold().strip()
    if not q:
        return []
    words = q.split()
    return words if len(words) > 1 or q.isascii() else [q]


def search(query: str) -> list[SearchHit]:
    """Pages matching every term of `query` (title, keywords or text), best first: title hits weigh most."""
    terms = _terms(query)
    if not terms:
        return []
    hits = []
    for page in pages().values():
        if urlsplit(page.url).hostname == SEARCH_HOST:
            continue
        title, keys, body = page.title.casefold(), page.keywords.casefold(), _text(page).casefold()
        if not all(t in title or t in keys or t in body for t in terms):
            continue
        score = sum(3 * (t in title) + 2 * (t in keys) + (t in body) for t in terms)
        para = next((b.text for b in page.blocks if b.kind == "p"), "")
        hits.append(SearchHit(page, para, score))
    hits.sort(key=lambda hit: (-hit.score, hit.page.title))
    return hits


def display_url(url: str) -> str:
    """The URL as a results page shows it (host and path, no scheme)."""
    parts = urlsplit(url)
    return (parts.hostname or "") + (parts.path if parts.path != "/" else "")


__all__ = [
    "HOME_URL",
    "SEARCH_HOST",
    "Block",
    "Page",
    "Resolved",
    "SearchHit",
    "display_url",
    "looks_like_url",
    "normalise",
    "pages",
    "query_of",
    "resolve",
    "search",
    "search_url",
]
