"""`spa-bench serve-env`: virtual phones as environments over HTTP and WebSocket (spa_bench.env.server)."""

from __future__ import annotations

from pathlib import Path

import typer

from spa_bench.cli.common import console
from spa_bench.errors import ConfigError


def serve_env(
    task: list[str] = typer.Option([], "--task", help="Task id a reset may draw (repeatable; default: "
                                                      "every task)."),
    tasks_dir: Path | None = typer.Option(None, "--tasks-dir", "-t", help="Task tree (default: the shipped "
                                                                          "tasks)."),
    port: int = typer.Option(8000, "--port", min=0, max=65535, help="Port on 127.0.0.1 (0: a free one)."),
    max_sessions: int = typer.Option(64, "--max-sessions", min=1, help="Sessions (phones) open at once."),
    idle_timeout: float = typer.Option(300.0, "--idle-timeout", min=1.0, help="Seconds after which an idle "
                                                                             "HTTP session is closed "
                                                                             "(a WebSocket session lasts "
                                                                             "as long as its connection)."),
    size: str = typer.Option("1080x2400", "--size", help="The phones' screen size."),
    max_steps: int | None = typer.Option(None, "--max-steps", min=1, help="Step limit (default: the "
                                                                          "task's)."),
    clock: str = typer.Option("start", "--phone-clock", help="Freeze the phones' clocks at this ISO time "
                                                             "(default: the minute the server starts)."),
) -> None:
    """Serve reset / step / state over HTTP and WebSocket (/ws), one virtual phone per session (see the
    README)."""
    from datetime import UTC, datetime

    try:
        from spa_bench.env.core import SpaBenchEnv
    except ModuleNotFoundError as exc:
        raise ConfigError(f"serve-env needs {exc.name}: pip install 'spa-bench[env]'") from None
    from spa_bench.env.server import EnvService, Sessions, make_server
    from spa_bench.tasks.repository import TaskRepository, default_tasks_root

    tasks = list(task) or None
    TaskRepository(tasks_dir or default_tasks_root()).index()  # a bad folder fails here, not in a session
    frozen = datetime.now(UTC).strftime("%Y-%m-%dT%H:%M") if clock == "start" else clock

    def factory() -> SpaBenchEnv:
        return SpaBenchEnv(tasks, tasks_dir=tasks_dir, size=size, clock=frozen, max_steps=max_steps,
                           timings_in_info=False, pixels=False)  # it sends the PNG, never the array

    sessions = Sessions(factory, max_sessions=max_sessions, idle_timeout_s=idle_timeout)
    server = make_server(EnvService(sessions), port)
    bound = server.server_address[1]
    # one line whatever the terminal's width, so that a script that starts the server with --port 0 can
    # read the port from it (benchmarks/serve_env_soak.py does)
    console.print(f"serving environments on http://127.0.0.1:{bound} and ws://127.0.0.1:{bound}/ws (up to "
                  f"{max_sessions} sessions; idle HTTP ones closed after {idle_timeout:g} s, WebSocket ones "
                  f"when their connection ends)", highlight=False, soft_wrap=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
        sessions.close_all()
