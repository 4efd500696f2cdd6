"""The studio's web server: one page and a small JSON API over a phone, on loopback.

    GET  /                    the page (assets/studio.html: plain HTML, CSS and JavaScript, no build step)
    GET  /api/screen          the screenshot (PNG) with an ETag; If-None-Match -> 304 while it is unchanged,
                              which is how the page watches the screen change without re-sending it
    GET  /api/ui              the dump: every node with bounds, ids, text, flags and its proposed selector
    POST /api/act             an action of the agents' action space ({"type": "tap", "x": .., "y": ..}, ...);
                              while recording, also a golden step (its step is returned)
    GET  /api/tasks           the tasks one may record from or play
    POST /api/record/start    {"language": "en"} or {"task": ID}: reset the phone, start a recording
    POST /api/record/ask      {"question", "reply"}: an ask_user step and the simulated user's answer
    POST /api/record/finish   {"answer"?, "status"?}: the finish step; the checks proposed from the change
    POST /api/record/save     {"id", "instruction", "checks"}: validate and write the task YAML
    POST /api/record/verify   run `spa-bench tasks verify` on the saved task; GET it for its progress
    POST /api/play/start      {"task": ID}: play it as the agent `human` (a run folder of its own)
    GET  /api/play            the play's state; /api/play/screen and /api/play/ui: what the person sees
    POST /api/play/act        the person's next action (any action, ask_user and finish included)
    POST /api/play/stop       give the play up (the episode ends interrupted: undecided)

The stack is aiohttp, as serve-env's (spa_bench/env/server.py): one well-kept server for both, with its
parser's limits; the device calls, which block, run in one worker thread.
"""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
import threading
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

from aiohttp import web
from aiohttp.typedefs import Handler as AiohttpHandler
from pydantic import ValidationError

from spa_bench.actions import ACTION_ADAPTER, AskUser, Finish
from spa_bench.device.gesture import InvalidAction
from spa_bench.errors import DeviceError, SpaBenchError
from spa_bench.studio.background import BackgroundServer, loopback_host_only
from spa_bench.studio.phone import StudioPhone
from spa_bench.studio.play import Play
from spa_bench.studio.record import Recording, save_task, task_yaml, validate_task

MAX_BODY = 256 * 1024


def _json(value: object) -> str:
    return json.dumps(value, ensure_ascii=False)


def _page() -> bytes:
    return resources.files("spa_bench.studio").joinpath("assets/studio.html").read_bytes()


class BadRequest(Exception):
    """A request the studio cannot act on: 400 with this message."""


@dataclass
class Verification:
    """`spa-bench tasks verify` of a recorded task, run as a user would run it (its own phone)."""

    task_id: str
    command: list[str]
    output: str = ""
    exit_code: int | None = None

    def run(self) -> None:
        env = {**os.environ, "PYTHONUNBUFFERED": "1"}
        done = subprocess.run(self.command, capture_output=True, text=True, env=env, check=False)
        self.output = (done.stdout + done.stderr)[-20_000:]
        self.exit_code = done.returncode


@dataclass
class Studio:
    """What the page works on: the phone, where recorded tasks and played runs go, the current recording,
    play and verification."""

    phone: StudioPhone
    tasks_dir: Path | None = None  # tasks to record from and play (None: the shipped ones)
    record_dir: Path = Path("studio-tasks")
    runs_dir: Path = Path("studio-runs")
    seed: int = 0
    recording: Recording | None = None
    last_task: dict[str, Any] | None = None
    play: Play | None = None
    verification: Verification | None = None
    lock: threading.Lock = field(default_factory=threading.Lock)

    def task_list(self) -> list[dict[str, Any]]:
        from spa_bench.tasks.repository import TaskRepository, default_tasks_root

        records = TaskRepository(self.tasks_dir or default_tasks_root()).index()
        recorded = TaskRepository(self.record_dir).index() if self.record_dir.is_dir() else []
        return [{"id": r.id, "language": r.language, "suite": r.suite, "difficulty": r.difficulty,
                 "category": r.category, "recorded": r in recorded} for r in [*records, *recorded]]

    def act(self, payload: Any) -> dict[str, Any]:
        action, obs = self.phone.act(payload)
        out: dict[str, Any] = {"action": action.model_dump(exclude_none=True)}
        if self.recording is not None:
            out["step"] = self.recording.add(action, obs)
            out["steps"] = self.recording.steps
        return out

    def record_start(self, payload: dict[str, Any]) -> dict[str, Any]:
        from spa_bench.phone.apps.labels import LabelTranslator

        if self.play is not None and not self.play.done:
            raise BadRequest("a play is going on: finish it first")
        language = str(payload.get("language") or "en")
        if language not in ("en", "zh"):
            raise BadRequest(f"language must be en or zh, not {language!r}")
        recording = Recording(self.phone.device, language, LabelTranslator,
                              start_task=payload.get("task") or None)
        recording.begin(self.tasks_dir)
        self.recording, self.last_task = recording, None
        return {"recording": True, "language": recording.language, "setup": recording.setup_shell}

    def record_ask(self, payload: dict[str, Any]) -> dict[str, Any]:
        recording = self._recording()
        question, reply = str(payload.get("question", "")).strip(), str(payload.get("reply", "")).strip()
        if not question or not reply:
            raise BadRequest("an ask_user step needs the question and the user's reply")
        obs = self.phone.device.observe()
        step = recording.add(AskUser(question=question), obs, reply=reply)
        return {"step": step, "steps": recording.steps, "replies": recording.replies}

    def record_finish(self, payload: dict[str, Any]) -> dict[str, Any]:
        recording = self._recording()
        finish = Finish(status="infeasible" if payload.get("status") == "infeasible" else "done",
                        answer=str(payload["answer"]).strip() or None if payload.get("answer") else None)
        recording.add(finish, self.phone.device.observe())
        import yaml

        checks = recording.end()
        return {"steps": recording.steps, "checks": checks, "apps": recording.packages,
                "checks_yaml": yaml.safe_dump(checks, allow_unicode=True, sort_keys=False, width=100)
                if checks else "[]\n"}

    def record_save(self, payload: dict[str, Any]) -> dict[str, Any]:
        import yaml

        from spa_bench.phone.apps.labels import app_names

        recording = self._recording()
        if recording.after is None:
            raise BadRequest("finish the recording first")
        checks = payload.get("checks")
        if isinstance(checks, str):
            try:
                checks = yaml.safe_load(checks) or []
            except yaml.YAMLError as exc:
                raise BadRequest(f"checks: not YAML: {exc}") from None
        if not isinstance(checks, list):
            raise BadRequest("checks: a list of checks")
        try:
            task = recording.task(str(payload.get("id", "")), str(payload.get("instruction", "")).strip(),
                                  checks, app_names(recording.packages))
        except ValueError as exc:
            raise BadRequest(str(exc)) from None
        problems = validate_task(task)
        if problems:
            return {"saved": False, "problems": problems, "yaml": task_yaml(task)}
        path = save_task(task, self.record_dir)
        self.last_task = task
        return {"saved": True, "path": str(path), "yaml": path.read_text("utf-8"), "problems": []}

    def record_verify(self, payload: dict[str, Any]) -> dict[str, Any]:
        if self.last_task is None:
            raise BadRequest("save a recorded task first")
        if self.verification is not None and self.verification.exit_code is None:
            raise BadRequest("a verification is running")
        task_id = str(self.last_task["id"])
        command = [sys.executable, "-m", "spa_bench", "tasks", "verify", "--tasks-dir", str(self.record_dir),
                   "--task", task_id, "--seeds", "1", "--phones", "1", "--all",
                   "-o", str(self.runs_dir / f"verify-{task_id}")]
        probes = payload.get("probes")  # default: every probe
        if probes:
            command += ["--probes", ",".join(str(p) for p in probes)]
        self.verification = Verification(task_id, command)
        threading.Thread(target=self.verification.run, name="studio-verify", daemon=True).start()
        return self.verify_status()

    def verify_status(self) -> dict[str, Any]:
        v = self.verification
        if v is None:
            return {"running": False, "output": "", "exit_code": None}
        shown = " ".join(v.command[1:]).replace("-m spa_bench", "spa-bench")
        return {"task": v.task_id, "running": v.exit_code is None, "output": v.output,
                "exit_code": v.exit_code, "command": shown}

    def _recording(self) -> Recording:
        if self.recording is None:
            raise BadRequest("no recording: start one first")
        return self.recording

    def play_start(self, payload: dict[str, Any]) -> dict[str, Any]:
        if self.play is not None and not self.play.done:
            raise BadRequest("a play is going on")
        task_id = str(payload.get("task", ""))
        if not task_id:
            raise BadRequest("which task? {\"task\": ID}")
        self.recording = None
        device = self.phone.device
        tasks_dir = self.tasks_dir
        if task_id not in {t["id"] for t in self.task_list() if not t["recorded"]}:
            tasks_dir = self.record_dir  # a task recorded here
        self.play = Play(task_id, device.serial, device.console_port, self.runs_dir, tasks_dir, self.seed)
        self.play.start()
        return self.play.status()

    def _play(self) -> Play:
        if self.play is None:
            raise BadRequest("no play: start one first")
        return self.play

    def play_act(self, payload: Any) -> dict[str, Any]:
        play = self._play()
        ACTION_ADAPTER.validate_python(payload)  # a clear error now, not an invalid step later
        play.desk.submit(payload)
        return play.status()

    def play_stop(self) -> dict[str, Any]:
        play = self._play()
        play.abandon()
        play.wait(60)
        return play.status()

    def play_ui(self) -> dict[str, Any]:
        obs = self._play().desk.observation
        if obs is None:
            raise BadRequest("the play has not shown a screen yet")
        return self.phone.describe(obs)

    def play_screen(self) -> bytes:
        obs = self._play().desk.observation
        if obs is None:
            raise BadRequest("the play has not shown a screen yet")
        return obs.screenshot_png


Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


@web.middleware
async def json_posts_only(request: web.Request, handler: AiohttpHandler) -> web.StreamResponse:
    """A POST must say it is JSON: a page elsewhere can make the user's browser send a plain form to the
    loopback, never a JSON body without a CORS preflight, which this server does not answer."""
    if request.method == "POST" and request.content_type != "application/json":
        return web.json_response({"error": "POST bodies are JSON (Content-Type: application/json)"},
                                 status=415)
    return await handler(request)


def make_app(studio: Studio) -> web.Application:
    app = web.Application(client_max_size=MAX_BODY, middlewares=[loopback_host_only, json_posts_only])
    worker = ThreadPoolExecutor(max_workers=1, thread_name_prefix="studio-device")
    page = _page()

    async def blocking(fn: Callable[..., Any], *args: Any) -> Any:
        return await asyncio.get_running_loop().run_in_executor(worker, fn, *args)

    async def body(request: web.Request) -> Any:
        try:
            return await request.json()
        except json.JSONDecodeError as exc:
            raise BadRequest(f"the body is not JSON: {exc}") from None

    def api(fn: Callable[..., Any], with_body: bool = True) -> Handler:
        async def handle(request: web.Request) -> web.StreamResponse:
            try:
                payload = [await body(request)] if with_body else []
                if with_body and fn is not studio.act and fn is not studio.play_act and \
                        not isinstance(payload[0], dict):
                    raise BadRequest("the body must be a JSON object")
                return web.json_response(await blocking(fn, *payload), dumps=_json)
            except ValidationError as exc:
                first = exc.errors()[0]
                where = ".".join(str(p) for p in first["loc"])
                return web.json_response({"error": f"not an action: {where}: {first['msg']}"}, status=400)
            except (BadRequest, InvalidAction) as exc:
                return web.json_response({"error": str(exc)}, status=400)
            except DeviceError as exc:
                return web.json_response({"error": f"the device failed: {exc}"}, status=502)
            except SpaBenchError as exc:
                return web.json_response({"error": str(exc)}, status=400)
        return handle

    async def index(_: web.Request) -> web.Response:
        return web.Response(body=page, content_type="text/html", charset="utf-8")

    def png_response(request: web.Request, png: bytes) -> web.Response:
        import hashlib

        etag = '"' + hashlib.sha1(png, usedforsecurity=False).hexdigest() + '"'
        headers = {"ETag": etag, "Cache-Control": "no-store"}
        if request.headers.get("If-None-Match") == etag:
            return web.Response(status=304, headers=headers)
        return web.Response(body=png, content_type="image/png", headers=headers)

    async def screen(request: web.Request) -> web.Response:
        return png_response(request, await blocking(studio.phone.screen))

    async def play_screen(request: web.Request) -> web.Response:
        try:
            return png_response(request, studio.play_screen())
        except BadRequest as exc:
            return web.json_response({"error": str(exc)}, status=400)

    async def stop_worker(_: web.Application) -> None:
        worker.shutdown(wait=False, cancel_futures=True)

    app.router.add_get("/", index)
    app.router.add_get("/api/screen", screen)
    app.router.add_get("/api/ui", api(studio.phone.inspect, with_body=False))
    app.router.add_post("/api/act", api(studio.act))
    app.router.add_get("/api/tasks", api(studio.task_list, with_body=False))
    app.router.add_post("/api/record/start", api(studio.record_start))
    app.router.add_post("/api/record/ask", api(studio.record_ask))
    app.router.add_post("/api/record/finish", api(studio.record_finish))
    app.router.add_post("/api/record/save", api(studio.record_save))
    app.router.add_post("/api/record/verify", api(studio.record_verify))
    app.router.add_get("/api/record/verify", api(studio.verify_status, with_body=False))
    app.router.add_post("/api/play/start", api(studio.play_start))
    app.router.add_get("/api/play", api(lambda: studio._play().status(), with_body=False))
    app.router.add_get("/api/play/ui", api(studio.play_ui, with_body=False))
    app.router.add_post("/api/play/stop", api(studio.play_stop, with_body=False))
    app.router.add_get("/api/play/screen", play_screen)
    # the person's action waits for nothing on the device: it goes to the play's queue at once
    app.router.add_post("/api/play/act", api(studio.play_act))
    app.on_cleanup.append(stop_worker)
    return app


class StudioServer(BackgroundServer):
    """The studio's app on 127.0.0.1:`port` (0: a free one) in a thread of its own; `url` once started."""

    def __init__(self, studio: Studio | StudioPhone, port: int = 0) -> None:
        self.studio = studio if isinstance(studio, Studio) else Studio(studio)
        super().__init__(lambda: make_app(self.studio), port, name="studio-server")
