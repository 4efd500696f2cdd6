"""An aiohttp app served on 127.0.0.1 from a thread of its own, beside a program that goes on working (a
run that `spa-bench run --live` watches) or waits for Ctrl-C (`spa-bench studio --run`).

Connections are bounded as serve-env's are (spa_bench/env/server.py): an idle keep-alive connection is
closed after `KEEPALIVE_S`, and shutdown waits at most `SHUTDOWN_S` for requests in flight.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable

from aiohttp import web
from aiohttp.typedefs import Handler

from spa_bench.errors import ConfigError

LOOPBACK_NAMES = frozenset({"127.0.0.1", "localhost", "[::1]"})
KEEPALIVE_S = 15.0
SHUTDOWN_S = 5.0


@web.middleware
async def loopback_host_only(request: web.Request, handler: Handler) -> web.StreamResponse:
    """Answer only requests addressed to the loopback by name: a web page the user opens elsewhere could
    otherwise rebind its own host name to 127.0.0.1 and reach the phone and the runs through the user's
    browser (DNS rebinding)."""
    host = request.host or ""
    name = host if host.endswith("]") else host.rsplit(":", 1)[0]  # without the port
    if name.lower() not in LOOPBACK_NAMES:
        raise web.HTTPForbidden(text=f"Host {host!r}: this page answers to 127.0.0.1 or localhost only")
    return await handler(request)


class BackgroundServer:
    """`make_app()` on 127.0.0.1:`port` (0: a free one); `url` is right once `start` has returned."""

    def __init__(self, make_app: Callable[[], web.Application], port: int = 0,
                 name: str = "studio-server") -> None:
        self.make_app = make_app
        self.port = port
        self.name = name
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/"

    def start(self) -> None:
        """Listen, then return; a port in use is a ConfigError raised here, in the caller's thread."""
        ready = threading.Event()
        failure: list[BaseException] = []

        def serve() -> None:
            loop = asyncio.new_event_loop()
            self._loop = loop
            runner = web.AppRunner(self.make_app(), access_log=None, handle_signals=False,
                                   keepalive_timeout=KEEPALIVE_S, shutdown_timeout=SHUTDOWN_S)
            try:
                loop.run_until_complete(runner.setup())
                site = web.TCPSite(runner, "127.0.0.1", self.port)
                loop.run_until_complete(site.start())
                self.port = runner.addresses[0][1]
            except BaseException as exc:  # handed to the thread that called start()
                failure.append(exc)
                loop.run_until_complete(runner.cleanup())
                loop.close()
                ready.set()
                return
            ready.set()
            loop.run_forever()
            loop.run_until_complete(runner.cleanup())
            loop.close()

        self._thread = threading.Thread(target=serve, name=self.name, daemon=True)
        self._thread.start()
        ready.wait()
        if failure:
            self._thread.join()
            if isinstance(failure[0], OSError):  # the port is taken: a setup error, said in one line
                raise ConfigError(f"cannot listen on 127.0.0.1:{self.port}: "
                                  f"{failure[0].strerror or failure[0]}") from None
            raise failure[0]

    def stop(self) -> None:
        if self._loop is not None and self._thread is not None and self._thread.is_alive():
            self._loop.call_soon_threadsafe(self._loop.stop)
        if self._thread is not None:
            self._thread.join(timeout=SHUTDOWN_S + 5)
