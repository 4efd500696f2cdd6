"""One archive of a run (`spa-bench bundle RUN_DIR`): its manifest, summary and episode folders, the
provenance record, and - when asked - the model-reply cache, in a gzip'd tar.

    bundle.json                     BundleIndex: provenance, options, sha256 of every other member (last)
    run/manifest.json, run/summary.json
    run/episodes/<episode-id>/...   episode.json, hierarchy/, agent/, screenshots/ (full, downscaled or none)
    cache/<xx>/<key>.json           --with-cache: the model replies, for an offline replay

The report and metrics of the run folder are left out: they are made from the logs. Every text member
is scrubbed of secret values (registered ones, those in the environment, key shapes) on the way in,
although the run wrote them scrubbed already: a bundle leaves the machine. Members are written one at a
time in a stable order (the index last, with their hashes), with fixed times and modes.
"""

from __future__ import annotations

import gzip
import io
import itertools
import tarfile
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path, PurePosixPath
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from spa_bench.bundle.provenance import Provenance, make_provenance, sha256_bytes
from spa_bench.errors import ResultsError
from spa_bench.results.layout import EPISODES, MANIFEST, SCREENSHOTS, SUMMARY, RunLayout
from spa_bench.secrets import scrub_text

BUNDLE_FORMAT: Literal[1] = 1
INDEX = "bundle.json"
RUN, CACHE = "run", "cache"
Screenshots = Literal["full", "downscaled", "none"]
DOWNSCALED_SIDE = 480  # px, the longer side of a downscaled screenshot: enough to see what happened
_TEXT = (".json", ".xml", ".txt", ".log", ".yaml", ".md", ".csv")


class BundleIndex(BaseModel):
    """What a bundle holds and what it was made with."""

    model_config = ConfigDict(extra="forbid")

    format: Literal[1] = BUNDLE_FORMAT
    run_id: str
    created_at: datetime
    screenshots: Screenshots
    with_cache: bool
    provenance: Provenance
    episodes: int = Field(ge=0)
    members: dict[str, str] = Field(description="member path -> sha256 of its bytes (bundle.json aside)")


@dataclass(frozen=True)
class BundleWritten:
    path: Path
    index: BundleIndex
    bytes: int


def _member_bytes(path: Path, screenshots: Screenshots) -> bytes:
    """A file as it goes into the bundle: a screenshot downscaled by a whole factor (a box filter, the
    quickest way to a small picture that still shows what happened), anything else as it is."""
    if screenshots != "downscaled" or path.suffix != ".png" or path.parent.name != SCREENSHOTS:
        return path.read_bytes()
    from PIL import Image

    with Image.open(path) as image:
        factor = -(-max(image.size) // DOWNSCALED_SIDE)  # ceiling: the longer side at most DOWNSCALED_SIDE
        small = image.reduce(factor) if factor > 1 else image.copy()
    out = io.BytesIO()
    small.save(out, format="PNG")
    return out.getvalue()


def _run_members(layout: RunLayout, screenshots: Screenshots) -> Iterator[tuple[str, bytes]]:
    for name in (MANIFEST, SUMMARY):
        path = layout.root / name
        if path.is_file():
            yield f"{RUN}/{name}", path.read_bytes()
    # decoding and encoding PNGs let other threads run: two at a time, in order
    with ThreadPoolExecutor(max_workers=2, thread_name_prefix="bundle") as pool:
        for episode in layout.episode_ids():
            folder = layout.episode_dir(episode)
            paths = [p for p in sorted(folder.rglob("*")) if p.is_file()
                     and not (screenshots == "none" and p.relative_to(folder).parts[0] == SCREENSHOTS)]
            for path, data in zip(paths, pool.map(lambda p: _member_bytes(p, screenshots), paths),
                                  strict=True):
                yield f"{RUN}/{EPISODES}/{episode}/{path.relative_to(folder).as_posix()}", data


def _cache_members(cache_dir: Path) -> Iterator[tuple[str, bytes]]:
    for path in sorted(cache_dir.glob("*/*.json")):
        yield f"{CACHE}/{path.parent.name}/{path.name}", path.read_bytes()


def _scrubbed(name: str, data: bytes) -> bytes:
    if not name.endswith(_TEXT):
        return data
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return data
    return scrub_text(text).encode("utf-8")


def _add(tar: tarfile.TarFile, name: str, data: bytes) -> None:
    info = tarfile.TarInfo(name)
    info.size, info.mtime, info.mode = len(data), 0, 0o644
    tar.addfile(info, io.BytesIO(data))


def write_bundle(run_dir: Path, out: Path, *, screenshots: Screenshots = "full",
                 cache_dir: Path | None = None) -> BundleWritten:
    """Pack a finished run into `out` (a .tar.gz). `cache_dir`: the model-reply cache to put in."""
    layout = RunLayout(run_dir)
    manifest = layout.read_manifest()
    logs = [log for log in layout.episodes() if log.task is not None]
    if not logs:
        raise ResultsError(f"{run_dir}: no finished episode to bundle")
    if cache_dir is not None and not cache_dir.is_dir():
        raise ResultsError(f"--with-cache {cache_dir}: no such folder")
    sources = itertools.chain(_run_members(layout, screenshots),
                              _cache_members(cache_dir) if cache_dir is not None else ())
    hashes: dict[str, str] = {}
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = out.with_name(f".{out.name}.tmp")
    try:  # one member in memory at a time; the index, which lists their hashes, goes last
        with open(tmp, "wb") as raw, gzip.GzipFile(fileobj=raw, mode="wb", mtime=0) as zipped, \
                tarfile.open(fileobj=zipped, mode="w") as tar:
            for name, data in sources:
                data = _scrubbed(name, data)
                hashes[name] = sha256_bytes(data)
                _add(tar, name, data)
            index = BundleIndex(run_id=manifest.run_id, created_at=datetime.now(UTC), screenshots=screenshots,
                                with_cache=cache_dir is not None,
                                provenance=make_provenance(manifest, logs), episodes=len(logs),
                                members=hashes)
            _add(tar, INDEX, scrub_text(index.model_dump_json(indent=1)).encode("utf-8"))
        tmp.replace(out)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    return BundleWritten(out, index, out.stat().st_size)


@dataclass(frozen=True)
class OpenedBundle:
    """A bundle unpacked into a folder: its index, the run folder and the cache folder (if any), and
    the members whose bytes differ from the index's hashes (or that it does not list)."""

    index: BundleIndex
    run_dir: Path
    cache_dir: Path | None
    altered: list[str]


def open_bundle(path: Path, into: Path) -> OpenedBundle:
    """Unpack `path` into the folder `into` (nothing outside it, no links or devices)."""
    if not path.is_file():
        raise ResultsError(f"{path}: no such bundle")
    try:
        with tarfile.open(path, mode="r:gz") as tar:
            names = tar.getnames()
            bad = [n for n in names if PurePosixPath(n).is_absolute() or ".." in PurePosixPath(n).parts]
            if bad:
                raise ResultsError(f"{path}: member {bad[0]!r} points outside the bundle")
            tar.extractall(into, filter="data")
    except (tarfile.TarError, OSError, EOFError) as exc:
        raise ResultsError(f"{path}: not a readable bundle: {exc}") from None
    try:
        index = BundleIndex.model_validate_json((into / INDEX).read_bytes())
    except FileNotFoundError:
        raise ResultsError(f"{path}: no {INDEX}: not a spa-bench bundle") from None
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        raise ResultsError(f"{path}: {INDEX}: field '{where}': {first['msg']}") from None
    present = {n for n in names if (into / n).is_file() and n != INDEX}
    altered = sorted(n for n in present if sha256_bytes((into / n).read_bytes()) != index.members.get(n))
    altered += sorted(f"{n} (missing)" for n in set(index.members) - present)
    cache = into / CACHE
    return OpenedBundle(index, into / RUN, cache if index.with_cache and cache.is_dir() else None, altered)
