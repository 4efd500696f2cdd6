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
    max_connections: int = typer.Option(1024, "--max-connections", min=1, help="Connections open at "
                                        "once; past it the oldest idle or half-open one is dropped for the "
                                        "new one."),
    header_timeout: float = typer.Option(10.0, "--header-timeout", min=0.1, help="Seconds a connection has "
                                         "to send a complete request head (after opening, or after its "
                                         "previous answer); the body has as long again."),
) -> None:
    """Serve reset / step / state over HTTP and WebSocket (/ws), one virtual phone per session (see the
    README)."""
    from datetime import UTC, datetime

    try:
        from spa_bench.env.core import SpaBenchEnv
    except ModuleNotFoundError as exc:
        raise ConfigError(f"serve-env needs {exc.name}: pip install 'spa-bench[env]'") from None
    from spa_bench.env.server import EnvService, Limits, Sessions, make_server
    from spa_bench.tasks.repository import TaskRepository, default_tasks_root

    tasks = list(task) or None
    TaskRepository(tasks_dir or default_tasks_root()).index()  # a bad folder fails here, not in a session
    frozen = datetime.now(UTC).strftime("%Y-%m-%dT%H:%M") if clock == "start" else clock

    def factory() -> SpaBenchEnv:
        return SpaBenchEnv(tasks, tasks_dir=tasks_dir, size=size, clock=frozen, max_steps=max_steps,
                           timings_in_info=False, pixels=False)  # it sends the PNG, never the array

    _open_files(max_connections + 4 * max_sessions + 256)  # sockets, and each phone's pipe and ports
    sessions = Sessions(factory, max_sessions=max_sessions, idle_timeout_s=idle_timeout)
    limits = Limits(header_timeout_s=header_timeout, body_timeout_s=header_timeout,
                    max_connections=max_connections, backlog=min(max_connections, 4096))
    try:
        server = make_server(EnvService(sessions), port, limits)
    except OSError as exc:
        sessions.close_all()
        raise ConfigError(f"--port {port}: cannot listen on 127.0.0.1:{port}: "
                          f"{exc.strerror or exc}") from None
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


def _open_files(wanted: int) -> None:
    """Raise this process's soft limit on open files towards `wanted` (up to the hard limit): at the
    limit, accepting a connection fails and the server stops accepting for a while."""
    import resource

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
    if soft != resource.RLIM_INFINITY and soft < target:
        resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
