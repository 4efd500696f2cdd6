"""The studio's web server: one page and a small JSON API over a `StudioPhone`, on loopback.

    GET  /                the page (assets/studio.html: plain HTML, CSS and JavaScript, no build step)
    GET  /api/screen      the screenshot (PNG) with an ETag; If-None-Match -> 304 while it is unchanged,
                          which is how the page watches the screen change without re-sending it
    GET  /api/ui          the dump: every node with bounds, ids, text, flags and its proposed selector
    POST /api/act         an action of the agents' action space ({"type": "tap", "x": .., "y": ..}, ...)

The stack is aiohttp, as serve-env's (spa_bench/env/server.py): one well-kept server for both, with its
parser's limits; the device calls, which block, run in one worker thread.
"""

from __future__ import annotations

import asyncio
import json
from concurrent.futures import ThreadPoolExecutor
from importlib import resources
from typing import Any

from aiohttp import web
from pydantic import ValidationError

from spa_bench.device.gesture import InvalidAction
from spa_bench.errors import DeviceError
from spa_bench.studio.phone import StudioPhone

MAX_BODY = 64 * 1024


def _json(value: object) -> str:
    return json.dumps(value, ensure_ascii=False)


def _page() -> bytes:
    return resources.files("spa_bench.studio").joinpath("assets/studio.html").read_bytes()


def make_app(phone: StudioPhone) -> web.Application:
    app = web.Application(client_max_size=MAX_BODY)
    worker = ThreadPoolExecutor(max_workers=1, thread_name_prefix="studio-device")
    page = _page()

    async def blocking(fn: Any, *args: Any) -> Any:
        return await asyncio.get_running_loop().run_in_executor(worker, fn, *args)

    async def index(_: web.Request) -> web.Response:
        return web.Response(body=page, content_type="text/html", charset="utf-8")

    async def screen(request: web.Request) -> web.StreamResponse:
        shot = await blocking(phone.screen)
        headers = {"ETag": f'"{shot.etag}"', "Cache-Control": "no-store"}
        if request.headers.get("If-None-Match") == f'"{shot.etag}"':
            return web.Response(status=304, headers=headers)
        return web.Response(body=shot.png, content_type="image/png", headers=headers)

    async def ui(_: web.Request) -> web.Response:
        return web.json_response(await blocking(phone.inspect), dumps=_json)

    async def act(request: web.Request) -> web.Response:
        try:
            payload = await request.json()
        except json.JSONDecodeError as exc:
            return web.json_response({"error": f"the body is not JSON: {exc}"}, status=400)
        try:
            done = await blocking(phone.act, payload)
        except ValidationError as exc:
            first = exc.errors()[0]
            where = ".".join(str(p) for p in first["loc"])
            return web.json_response({"error": f"not an action: {where}: {first['msg']}"}, status=400)
        except InvalidAction as exc:
            return web.json_response({"error": str(exc)}, status=400)
        except DeviceError as exc:
            return web.json_response({"error": f"the device failed: {exc}"}, status=502)
        return web.json_response(done)

    async def stop_worker(_: web.Application) -> None:
        worker.shutdown(wait=False, cancel_futures=True)

    app.router.add_get("/", index)
    app.router.add_get("/api/screen", screen)
    app.router.add_get("/api/ui", ui)
    app.router.add_post("/api/act", act)
    app.on_cleanup.append(stop_worker)
    return app


class StudioServer:
    """The app on 127.0.0.1:`port` (0: a free one) in a thread of its own; `url` once started."""

    def __init__(self, phone: StudioPhone, port: int = 0) -> None:
        self.phone = phone
        self.port = port
        self._loop: asyncio.AbstractEventLoop | None = None
        self._runner: web.AppRunner | None = None
        self._thread: Any = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/"

    def start(self) -> None:
        import threading

        ready = threading.Event()
        failure: list[BaseException] = []

        def serve() -> None:
            loop = asyncio.new_event_loop()
            self._loop = loop
            try:
                self._runner = web.AppRunner(make_app(self.phone), access_log=None)
                loop.run_until_complete(self._runner.setup())
                site = web.TCPSite(self._runner, "127.0.0.1", self.port)
                loop.run_until_complete(site.start())
                self.port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
            except BaseException as exc:  # handed to the thread that called start()
                failure.append(exc)
                ready.set()
                return
            ready.set()
            loop.run_forever()
            loop.run_until_complete(self._runner.cleanup())
            loop.close()

        self._thread = threading.Thread(target=serve, name="studio-server", daemon=True)
        self._thread.start()
        ready.wait()
        if failure:
            raise failure[0]

    def stop(self) -> None:
        if self._loop is not None:
            self._loop.call_soon_threadsafe(self._loop.stop)
        if self._thread is not None:
            self._thread.join(timeout=10)
