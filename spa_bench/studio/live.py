"""Watch a benchmark: one local page over run folders being written (`spa-bench run --live`,
`spa-bench studio --run RUN_DIR [--run RUN_DIR ...]`).

    GET /                               the page (assets/live.html: plain HTML, CSS and JavaScript)
    GET /api/state                      every run as spa_bench.studio.live_state reads it, with an ETag:
                                        If-None-Match -> 304 while nothing changed, which is how the page
                                        polls once a second without re-sending the state
    GET /shot/{run}/{episode}/{name}    a screenshot of an episode of run number `run` (the phones'
                                        screens); nothing else of a run folder is served

The page needs nothing but the run folders, so an old finished run shows its final state, and a run on
another machine can be watched through a shared folder. Reading a folder (small files, parsed only when
they change) happens in one worker thread, off the server's loop. aiohttp, as the studio and serve-env.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import re
import threading
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime
from importlib import resources
from pathlib import Path

from aiohttp import web

from spa_bench.studio.background import BackgroundServer, loopback_host_only
from spa_bench.studio.live_state import RunWatcher

POLL_MS = 1000  # the page's poll interval, told to it with the state
_SHOT_NAME = re.compile(r"^(\d{1,6}|final)\.(png|jpe?g)$")
_CONTENT_TYPES = {".png": "image/png", ".jpg": "image/jpeg", ".jpeg": "image/jpeg"}


class LiveRuns:
    """The watched run folders and the state they make together, with a version that changes exactly
    when the state does. One reader at a time: the watchers cache what they parsed."""

    def __init__(self, roots: list[Path]) -> None:
        if not roots:
            raise ValueError("no run folder to watch")
        self.watchers = [RunWatcher(root) for root in roots]
        self._lock = threading.Lock()

    def state(self) -> tuple[str, bytes]:
        """(etag, JSON body) of every run's state; the body also carries the server's clock (`now`), which
        the page needs for running episodes' elapsed time but which is left out of the etag."""
        with self._lock:
            runs = [watcher.read().model_dump(mode="json") for watcher in self.watchers]
        etag = hashlib.sha256(json.dumps(runs, sort_keys=True).encode("utf-8")).hexdigest()[:32]
        body = {"runs": runs, "poll_ms": POLL_MS, "now": datetime.now(UTC).isoformat()}
        return etag, json.dumps(body, ensure_ascii=False).encode("utf-8")

    def screenshot(self, run: int, episode: str, name: str) -> Path | None:
        if not 0 <= run < len(self.watchers) or not _SHOT_NAME.match(name):
            return None
        with self._lock:
            return self.watchers[run].screen_path(episode, name)


def _page() -> bytes:
    return resources.files("spa_bench.studio").joinpath("assets/live.html").read_bytes()




def make_live_app(runs: LiveRuns) -> web.Application:
    app = web.Application(client_max_size=1024, middlewares=[loopback_host_only])  # GETs only
    worker = ThreadPoolExecutor(max_workers=1, thread_name_prefix="studio-live")
    page = _page()

    async def index(_: web.Request) -> web.Response:
        return web.Response(body=page, content_type="text/html", charset="utf-8",
                            headers={"Cache-Control": "no-store"})

    async def state(request: web.Request) -> web.Response:
        etag, body = await asyncio.get_running_loop().run_in_executor(worker, runs.state)
        headers = {"ETag": f'"{etag}"', "Cache-Control": "no-store"}
        if request.headers.get("If-None-Match") == f'"{etag}"':
            return web.Response(status=304, headers=headers)
        return web.Response(body=body, content_type="application/json", charset="utf-8", headers=headers)

    async def shot(request: web.Request) -> web.Response:
        try:
            run = int(request.match_info["run"])
        except ValueError:
            raise web.HTTPNotFound(text="no such run") from None
        episode, name = request.match_info["episode"], request.match_info["name"]
        path = await asyncio.get_running_loop().run_in_executor(worker, runs.screenshot, run, episode, name)
        if path is None:
            raise web.HTTPNotFound(text=f"no complete screenshot {name!r} of {episode!r} in run {run}")
        data = await asyncio.get_running_loop().run_in_executor(worker, path.read_bytes)
        # the page asks with ?v=<mtime>: a retried episode writes the same names again
        return web.Response(body=data, content_type=_CONTENT_TYPES[path.suffix.lower()],
                            headers={"Cache-Control": "private, max-age=3600"})

    async def stop_worker(_: web.Application) -> None:
        worker.shutdown(wait=False, cancel_futures=True)

    app.router.add_get("/", index)
    app.router.add_get("/api/state", state)
    app.router.add_get("/shot/{run}/{episode}/{name}", shot)
    app.on_cleanup.append(stop_worker)
    return app


class LiveServer(BackgroundServer):
    """The live page over `roots` on 127.0.0.1:`port` (0: a free one), in a thread of its own."""

    def __init__(self, roots: list[Path], port: int = 0) -> None:
        self.runs = LiveRuns(roots)
        super().__init__(lambda: make_live_app(self.runs), port, name="studio-live")


@contextlib.contextmanager
def serving_live(roots: list[Path], port: int, announce: Callable[[str], None]) -> Iterator[LiveServer]:
    """The live page over `roots` for the length of a block (a run), its URL given to `announce`."""
    server = LiveServer(roots, port)
    server.start()
    announce(f"live: {server.url} (watching {', '.join(str(r) for r in roots)})")
    try:
        yield server
    finally:
        server.stop()
