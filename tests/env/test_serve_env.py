"""`serve-env`: environments over HTTP, driven by a client that uses only the standard library (urllib,
json) - the golden script of a task sent as JSON actions gives reward 1, finishing at once gives 0, two
sessions run at once on phones of their own, bad requests get a JSON error naming the field, and idle
sessions are reaped with their phones stopped."""

from __future__ import annotations

import base64
import json
import threading
import urllib.error
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest
from pim_runs import shared_devices

pytest.importorskip("gymnasium")

from spa_bench.env.core import SpaBenchEnv
from spa_bench.env.server import EnvService, Sessions, make_server
from spa_bench.tasks.repository import TaskRepository, default_tasks_root

pytestmark = pytest.mark.usefixtures("adb_env")
TASK = "settings_wifi_off_en"


@pytest.fixture
def server() -> Iterator[tuple[str, Sessions]]:
    """A server whose sessions take the test process's two shared phones, one each."""
    free = [d.serial for d in shared_devices(2)]
    lock = threading.Lock()

    def factory() -> SpaBenchEnv:
        with lock:
            serial = free.pop()
        return SpaBenchEnv([TASK], serial=serial, timings_in_info=False)

    sessions = Sessions(factory, max_sessions=2, idle_timeout_s=3600)
    http = make_server(EnvService(sessions))
    thread = threading.Thread(target=http.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{http.server_address[1]}", sessions
    finally:
        http.shutdown()
        http.server_close()
        sessions.close_all()
        for device in shared_devices(2):  # a closed env disconnects its phone; the next test wants it
            device.connect()


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
