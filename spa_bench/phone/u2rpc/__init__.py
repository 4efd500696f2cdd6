"""uiautomator2's device server, served in-process on the phone's `tcp:9008`.

uiautomator2 3.7.1 checks `toybox md5sum /data/local/tmp/u2.jar` (and pushes the jar when it differs),
then asks `GET /ping` over a fresh `tcp:9008` stream for every request. Because this server answers
`pong` from the start, the client never needs to launch `app_process`; the pushed jar is just a file.
Routes: GET /ping, GET /info, GET /version, POST /jsonrpc/0.
"""

from __future__ import annotations

import json
import logging
from typing import Any

from spa_bench.phone.adb.stream import Stream
from spa_bench.phone.api import PhoneSystem
from spa_bench.phone.u2rpc.http import Request, Response, serve_http
from spa_bench.phone.u2rpc.methods import RpcError, U2Methods
from spa_bench.phone.u2rpc.selector import UiNode, parse_hierarchy, select

U2_PORT = 9008
SERVER_VERSION = "3.7.1-spa"
log = logging.getLogger(__name__)

__all__ = ["U2_PORT", "RpcError", "U2Methods", "U2Server", "UiNode", "parse_hierarchy", "select"]


def _json(status: int, payload: object) -> Response:
    return Response(status, json.dumps(payload, ensure_ascii=False).encode("utf-8"))


class U2Server:
    """Routes HTTP requests to the JSON-RPC methods; `handle_stream` is the `tcp:9008` ADB handler."""

    def __init__(self, system: PhoneSystem) -> None:
        self.system = system
        self.methods = U2Methods(system)

    def handle_stream(self, stream: Stream) -> None:
        serve_http(stream, self.handle)

    def handle(self, request: Request) -> Response:
        path = request.path.split("?", 1)[0]
        if path == "/ping" and request.method == "GET":
            return Response(200, b"pong", "text/plain; charset=utf-8")
        if path == "/version" and request.method == "GET":
            return Response(200, SERVER_VERSION.encode(), "text/plain; charset=utf-8")
        if path == "/info" and request.method == "GET":
            return _json(200, self.methods.deviceInfo())
        if path.startswith("/jsonrpc/"):
            if request.method != "POST":
                return Response(405, b"use POST", "text/plain")
            return _json(200, self.rpc(request.body))
        return Response(404, f"no route for {request.method} {path}".encode(), "text/plain")

    def rpc(self, body: bytes) -> dict[str, Any]:
        """One JSON-RPC 2.0 call; errors come back as {code, message, data}, never as HTTP errors."""
        ident: object = None
        try:
            call = json.loads(body.decode("utf-8"))
            if not isinstance(call, dict) or not isinstance(call.get("method"), str):
                raise RpcError(-32600, "Invalid Request")
            ident = call.get("id")
            # No phone-wide lock here: waitForExists may poll for seconds while other streams act.
            result = self.methods.call(call["method"], call.get("params"))
            return {"jsonrpc": "2.0", "id": ident, "result": result}
        except (UnicodeDecodeError, json.JSONDecodeError) as exc:
            error = RpcError(-32700, f"Parse error: {exc}")
        except RpcError as exc:
            error = exc
        except Exception as exc:
            log.exception("u2 rpc failed")
            error = RpcError(-32001, f"java.lang.RuntimeException: {type(exc).__name__}: {exc}")
        return {"jsonrpc": "2.0", "id": ident, "error": error.to_json()}
