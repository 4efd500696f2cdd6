"""`serve-env`: environments over HTTP, driven by a client that uses only the standard library (urllib,
json) - the golden script of a task sent as JSON actions gives reward 1, finishing at once gives 0, two
sessions run at once on phones of their own, bad requests get a JSON error naming the field, and idle
sessions are reaped with their phones stopped. Over WebSocket (/ws, the same port): the golden script
again, OpenEnv's error codes, and a session that ends with its connection - a client killed with SIGKILL
leaves no session and no phone process behind, and a session whose phone died is closed."""

from __future__ import annotations

import base64
import json
import os
import signal
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from pim_runs import shared_devices
from websockets.exceptions import ConnectionClosedOK
from websockets.sync.client import ClientConnection, connect

pytest.importorskip("gymnasium")

from spa_bench.env.core import SpaBenchEnv
from spa_bench.env.server import EnvService, Sessions, make_server
from spa_bench.phone.process import PhoneProcess, ProcessPhonePool
from spa_bench.tasks.repository import TaskRepository, default_tasks_root

pytestmark = pytest.mark.usefixtures("adb_env")
TASK = "settings_wifi_off_en"


@contextmanager
def serving(sessions: Sessions) -> Iterator[str]:
    http = make_server(EnvService(sessions))
    thread = threading.Thread(target=http.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{http.server_address[1]}"
    finally:
        http.shutdown()
        http.server_close()
        sessions.close_all()


@pytest.fixture
def server() -> Iterator[tuple[str, Sessions]]:
    """A server whose sessions take the test process's two shared phones, one each."""
    free = [d.serial for d in shared_devices(2)]
    lock = threading.Lock()

    def factory() -> SpaBenchEnv:
        with lock:
            serial = free.pop()
        return SpaBenchEnv([TASK], serial=serial, timings_in_info=False, pixels=False)  # as serve-env does

    sessions = Sessions(factory, max_sessions=2, idle_timeout_s=3600)
    try:
        with serving(sessions) as base:
            yield base, sessions
    finally:
        for device in shared_devices(2):  # a closed env disconnects its phone; the next test wants it
            device.connect()


@pytest.fixture
def own_phones_server() -> Iterator[tuple[str, Sessions]]:
    """A server whose sessions start phone processes of their own (small screens: only resets and a
    tap run on them), as `serve-env` does."""
    sessions = Sessions(lambda: SpaBenchEnv([TASK], size="540x1200", timings_in_info=False), max_sessions=2,
                        idle_timeout_s=3600)
    with serving(sessions) as base:
        yield base, sessions


def call(base: str, path: str, body: dict[str, Any] | None = None) -> tuple[int, dict[str, Any]]:
    request = urllib.request.Request(base + path, data=None if body is None else json.dumps(body).encode(),
                                     headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=120) as reply:
            return reply.status, json.loads(reply.read())
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read())


def golden_actions() -> list[dict[str, Any]]:
    record = next(r for r in TaskRepository(default_tasks_root()).index() if r.id == TASK)
    task = TaskRepository(default_tasks_root()).load([record])[0]
    assert task.golden_script
    return [a.model_dump(mode="json", exclude_none=True) for a in task.golden_script]


def test_golden_script_over_http_gets_reward_1_and_finishing_at_once_0(server: tuple[str, Sessions]) -> None:
    base, sessions = server
    status, first = call(base, "/reset", {"task": TASK})
    assert status == 200 and first["done"] is False and first["reward"] == 0.0
    sid = first["session_id"]
    png = base64.b64decode(first["observation"]["screenshot_png"])
    assert png.startswith(b"\x89PNG\r\n\x1a\n") and first["observation"]["elements"]
    assert "Wi-Fi" in first["observation"]["instruction"]
    view = first["info"]["task_view"]  # the client gets the task's view, never the task
    assert view["id"] == TASK and view["instruction"] == first["observation"]["instruction"]
    assert not {"checks", "golden_script", "near_misses", "user", "parameters", "setup"} & set(view)
    reply: dict[str, Any] = {}
    script = golden_actions()
    for action in script if script[-1]["type"] == "finish" else [*script, {"type": "finish"}]:
        status, reply = call(base, "/step", {"session_id": sid, "action": action})
        assert status == 200 and reply["info"]["valid"], (action, reply)
    assert reply["done"] and reply["terminated"] and reply["reward"] == 1.0
    status, state = call(base, f"/state?session_id={sid}")
    assert status == 200 and state["done"] and state["task"] == TASK
    assert call(base, "/step", {"session_id": sid, "action": {"type": "finish"}})[0] == 409
    # a second session at the same time, on a phone of its own; the first one starts over
    status, other = call(base, "/reset", {"task": TASK})
    assert status == 200 and other["session_id"] != sid and len(sessions) == 2
    assert call(base, "/reset", {})[0] == 503  # both phones are taken
    assert call(base, "/reset", {"session_id": sid})[0] == 200
    status, quick = call(base, "/step", {"session_id": other["session_id"], "action": '{"type": "finish"}'})
    assert status == 200 and quick["done"] and quick["reward"] == 0.0
    assert call(base, "/close", {"session_id": other["session_id"]}) == (200, {"closed": True})
    assert call(base, "/health")[1] == {"status": "ok", "sessions": 1}


def test_bad_requests_name_the_field(server: tuple[str, Sessions]) -> None:
    base, _ = server
    status, error = call(base, "/step", {"action": {"type": "tap"}})
    assert status == 400 and error["error"].startswith("session_id:")
    assert call(base, "/step", {"session_id": "nope", "action": {"type": "finish"}})[0] == 404
    status, error = call(base, "/reset", {"task": TASK, "repeat": -1})
    assert status == 400 and error["error"].startswith("repeat:")
    assert call(base, "/state")[0] == 400
    assert call(base, "/nowhere")[0] == 404


def test_idle_sessions_are_reaped_with_their_phones(server: tuple[str, Sessions]) -> None:
    base, sessions = server
    status, first = call(base, "/reset", {"task": TASK})
    assert status == 200
    env = sessions.get(first["session_id"]).env
    sessions.idle_timeout_s = 0.0
    assert sessions.reap() == [first["session_id"]]
    assert call(base, f"/state?session_id={first['session_id']}")[0] == 404
    assert env.pool.devices == []  # closed: its device let go


# -- WebSocket ------------------------------------------------------------------------------------------
def ws_url(base: str) -> str:
    return base.replace("http://", "ws://") + "/ws"


def ask(ws: ClientConnection, message: dict[str, Any] | list[str] | str) -> dict[str, Any]:
    ws.send(message if isinstance(message, str) else json.dumps(message))
    reply: dict[str, Any] = json.loads(ws.recv(timeout=120))
    return reply


def wait_for(condition: Callable[[], bool], what: str, timeout_s: float = 60.0) -> None:
    """Poll a condition another thread or process makes true; fail after a generous deadline."""
    deadline = time.monotonic() + timeout_s
    while not condition():
        assert time.monotonic() < deadline, f"still not {what} after {timeout_s:g} s"
        time.sleep(0.05)


def phone_processes(sessions: Sessions, session_id: str) -> list[PhoneProcess]:
    phones = sessions.get(session_id).env.pool.phones
    assert isinstance(phones, ProcessPhonePool), phones
    return phones.phones


def process_gone(pid: int) -> bool:
    """No process `pid`, or only its zombie (dead, not yet waited for)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except (FileNotFoundError, ProcessLookupError):
        return True
    return stat.rsplit(")", 1)[1].split()[0] in ("Z", "X")


def test_golden_script_over_websocket_and_the_session_ends_with_the_connection(
        server: tuple[str, Sessions]) -> None:
    base, sessions = server
    with connect(ws_url(base), max_size=None) as ws:
        first = ask(ws, {"type": "reset", "data": {"task": TASK}})
        assert first["type"] == "observation" and first["data"]["done"] is False, first
        assert base64.b64decode(first["data"]["observation"]["screenshot_png"]).startswith(b"\x89PNG")
        assert "Wi-Fi" in first["data"]["observation"]["instruction"]
        sid = first["data"]["session_id"]
        reply: dict[str, Any] = {}
        script = golden_actions()
        actions = script if script[-1]["type"] == "finish" else [*script, {"type": "finish"}]
        for action in actions:
            reply = ask(ws, {"type": "step", "data": action})
            assert reply["type"] == "observation" and reply["data"]["info"]["valid"], (action, reply)
        assert reply["data"]["done"] and reply["data"]["terminated"] and reply["data"]["reward"] == 1.0
        state = ask(ws, {"type": "state"})
        assert state["type"] == "state" and state["data"]["done"] and state["data"]["task"] == TASK
        assert state["data"]["session_id"] == sid and state["data"]["step_count"] == len(actions)
        assert ask(ws, {"type": "step", "data": {"type": "finish"}})["data"]["code"] == "SESSION_ERROR"
        # both phones taken (this session and an HTTP one): a second connection's reset is refused, and that
        # connection stays usable
        status, http_session = call(base, "/reset", {"task": TASK})
        assert status == 200
        with connect(ws_url(base), max_size=None) as other:
            assert ask(other, {"type": "reset", "data": {}})["data"]["code"] == "CAPACITY_REACHED"
            assert ask(other, {"type": "state"})["data"]["code"] == "SESSION_ERROR"
        assert len(sessions) == 2
        sessions.idle_timeout_s = 0.0  # the WebSocket session is never reaped for idleness: its connection
        assert sessions.reap() == [http_session["session_id"]]  # is its life
        ws.send(json.dumps({"type": "close"}))
        with pytest.raises(ConnectionClosedOK):
            ws.recv(timeout=60)
    assert call(base, "/health")[1]["sessions"] == 0  # closed before the connection was


def test_bad_websocket_messages_get_openenv_error_codes() -> None:
    def factory() -> SpaBenchEnv:
        raise AssertionError("no message here may open a session")

    sessions = Sessions(factory, max_sessions=1, idle_timeout_s=3600)
    with serving(sessions) as base, connect(ws_url(base), max_size=None) as ws:
        bad: list[tuple[dict[str, Any] | list[str] | str, str, str]] = [
            ("{not json", "INVALID_JSON", "not JSON"),
            ({"type": "jump"}, "UNKNOWN_TYPE", "type 'jump'"),
            (["reset"], "UNKNOWN_TYPE", "type None"),
            ({"type": "reset", "data": {"repeat": -1}}, "VALIDATION_ERROR", "data.repeat:"),
            ({"type": "reset", "data": {"tsk": TASK}}, "VALIDATION_ERROR", "data.tsk:"),
            ({"type": "step"}, "VALIDATION_ERROR", "data:"),
            ({"type": "step", "data": {"type": "finish"}}, "SESSION_ERROR", "no session"),
            ({"type": "state"}, "SESSION_ERROR", "no session")]
        for message, code, start in bad:
            reply = ask(ws, message)
            assert reply["type"] == "error" and reply["data"]["code"] == code, (message, reply)
            assert reply["data"]["message"].startswith(start), (message, reply)
        with pytest.raises(urllib.error.HTTPError) as refused:  # /ws without an upgrade: websockets says so
            urllib.request.urlopen(base + "/ws", timeout=60)
        assert refused.value.code == 426


KILLED_CLIENT = """
import json, sys
from websockets.sync.client import connect
with connect(sys.argv[1], max_size=None) as ws:
    ws.send(json.dumps({"type": "reset", "data": {"task": sys.argv[2]}}))
    print(json.loads(ws.recv())["data"]["session_id"], flush=True)
    sys.stdin.read()  # hold the session until killed
"""


def test_killed_websocket_client_leaves_no_session_and_no_phone(
        own_phones_server: tuple[str, Sessions]) -> None:
    base, sessions = own_phones_server
    client = subprocess.Popen([sys.executable, "-c", KILLED_CLIENT, ws_url(base), TASK],
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        assert client.stdout is not None
        sid = client.stdout.readline().strip()
        assert sid, "the client got no session"
        pids = [p.process.pid for p in phone_processes(sessions, sid)]
        assert call(base, "/health")[1]["sessions"] == 1 and not any(process_gone(p) for p in pids)
        client.send_signal(signal.SIGKILL)
    finally:
        client.kill()
        client.wait()
    wait_for(lambda: call(base, "/health")[1]["sessions"] == 0, "0 sessions")
    wait_for(lambda: all(process_gone(p) for p in pids), "the phone process gone")


def test_session_whose_phone_died_is_closed(own_phones_server: tuple[str, Sessions]) -> None:
    base, sessions = own_phones_server
    with connect(ws_url(base), max_size=None) as ws:
        sid = ask(ws, {"type": "reset", "data": {"task": TASK}})["data"]["session_id"]
        phone = phone_processes(sessions, sid)[0]
        os.kill(phone.process.pid, signal.SIGKILL)
        wait_for(lambda: not phone.alive, "the phone dead")
        reply = ask(ws, {"type": "step", "data": {"type": "tap", "x": 10, "y": 10}})
        assert reply["data"]["code"] == "SESSION_ERROR" and "phone died" in reply["data"]["message"], reply
        assert call(base, "/health")[1]["sessions"] == 0
        assert ask(ws, {"type": "state"})["data"]["code"] == "SESSION_ERROR"
