"""`spa-bench agents ...`: what agents are available, and what a native adapter sends."""

from __future__ import annotations

import json
import re
from typing import Any

import typer
from rich.table import Table

from spa_bench.cli.common import console

app = typer.Typer(help="Agent adapters.", no_args_is_help=True)

_DATA_URL = re.compile(r"data:image/(\w+);base64,([A-Za-z0-9+/=]+)")


WIDE_AGENTS = 140  # terminal columns from which `agents list` shows where formats and code come from


@app.command("list")
def list_agents(
    import_: list[str] = typer.Option([], "--import", help="Python file or module to load first, as for "
                                                           "`spa-bench run`: its @register_agent classes "
                                                           "are listed too (repeatable)."),
) -> None:
    """List registered agents: built-ins, those installed through the `spa_bench.agents` entry point and
    those `@register_agent` registers in --import files, with each native adapter's model family,
    coordinate frame, model calls per step and format source. Any class can also be used directly with
    --agent path/to/file.py:ClassName."""
    from spa_bench.agent import AGENTS
    from spa_bench.errors import SpaBenchError
    from spa_bench.registry import import_plugins

    import_plugins(import_)

    headers = ("name", "registered", "family", "frame", "calls/step", "format defined in", "code")
    left_out = ("format defined in", "code") if console.width < WIDE_AGENTS else ()
    caption = (f"left out at this width: {', '.join(left_out)} (a wider terminal shows them; "
               "`spa-bench agents show NAME` the format)") if left_out else None
    table = Table(title="agents", title_justify="left", caption=caption, caption_justify="left")
    shown = [i for i, col in enumerate(headers) if col not in left_out]
    for i in shown:
        table.add_column(headers[i], no_wrap=headers[i] in ("name", "registered", "calls/step"),
                         overflow="fold")
    for entry in AGENTS.entries():
        family = frame = calls = source = "-"
        try:
            adapter = _native(entry.name, {})
        except SpaBenchError as exc:
            family = f"(cannot load: {exc})"
            adapter = None
        if adapter is not None:
            family, frame = adapter.info.family, adapter.frame_spec.describe()
            calls, source = str(adapter.info.calls_per_step), adapter.info.format_source
        elif not family.startswith("(cannot"):
            family = _summary(entry.name)
        row = (entry.name, entry.source, family, frame, calls, source, entry.target or "(registered in code)")
        table.add_row(*(row[i] for i in shown))
    console.print(table)


@app.command("show")
def show_agent(
    name: str = typer.Argument(..., help="a registered native adapter, e.g. ui-tars"),
    agent_arg: list[str] = typer.Option([], "--agent-arg", help="key=value, as for `spa-bench run`."),
    language: str = typer.Option("en", help="task language of the sample request: en or zh"),
) -> None:
    """Print the adapter's arguments and the exact first request it sends for a 1080x2400 screenshot
    of the virtual phone (images elided). Nothing is sent anywhere."""
    import tempfile
    from pathlib import Path

    from spa_bench.agent import TaskContext
    from spa_bench.errors import ConfigError
    from spa_bench.runner.config import parse_agent_args
    from spa_bench.tasks.repository import TaskRepository, default_tasks_root
    from spa_bench.testing.native_model import sample_observation

    if language not in ("en", "zh"):
        raise ConfigError(f"--language must be en or zh, not {language!r}")
    args = parse_agent_args(agent_arg)
    args.setdefault("model", "MODEL")
    args.setdefault("base_url", "http://127.0.0.1:8000/v1")
    adapter = _native(name, args)
    if adapter is None:
        raise ConfigError(f"{name!r} is not a native adapter: `agents show` describes native adapters "
                          "(see `spa-bench agents list`)")
    task = TaskRepository(default_tasks_root()).get(
        "settings_wifi_off_en" if language == "en" else "settings_bluetooth_on_zh")
    with tempfile.TemporaryDirectory() as tmp:
        observation = sample_observation(Path(tmp))
        context = TaskContext.for_task(task, max_steps=task.step_limit, instance_seed=0,
                                       serial="emulator-5554", screen_width=observation.width,
                                       screen_height=observation.height, workdir=Path(tmp))
        adapter.reset(context)
        screen = adapter.screen(observation)
        messages = adapter.messages(observation, screen)
    adapter.close()
    body: dict[str, Any] = {"model": adapter.config.model, "messages": messages}
    if adapter.config.temperature is not None:
        body["temperature"] = adapter.config.temperature
    if adapter.config.max_tokens is not None:
        body[adapter.config.max_tokens_param] = adapter.config.max_tokens
    body.update(adapter.config.extra_body)
    body.update(adapter.sampling)
    console.print(f"[bold]{name}[/bold]: {adapter.info.family}; format: {adapter.info.format_source}")
    console.print(f"asks the user: {adapter.info.asks}")
    frame = screen.frame
    console.print(f"frame: {frame.spec.describe()}, {frame.extent_x:g}x{frame.extent_y:g} for the "
                  f"{observation.width}x{observation.height} screen sent at "
                  f"{screen.image_size[0]}x{screen.image_size[1]}")
    console.print_json(json.dumps(adapter.describe_arguments(), ensure_ascii=False))
    console.print(f"POST {adapter.config.base_url}/chat/completions (task {task.id}):")
    typer.echo(_elide(json.dumps(body, ensure_ascii=False, indent=1)))  # not rich: no wrapping inside JSON


def _native(name: str, args: dict[str, Any]) -> Any:
    """The native adapter `name` made with `args` (a dummy endpoint by default), or None if `name` is
    another kind of agent."""
    from spa_bench.agent import AGENTS
    from spa_bench.agent.native_agent import NativeAgent

    factory = AGENTS.get(name)
    if not (isinstance(factory, type) and issubclass(factory, NativeAgent)):
        return None
    made = {"model": "MODEL", "base_url": "http://127.0.0.1:8000/v1", "api_key_env": "none", **args}
    return factory(**made)


def _summary(name: str) -> str:
    """The first line of a non-native agent's module docstring (what it is), without its name."""
    import sys

    from spa_bench.agent import AGENTS

    module = sys.modules.get(getattr(AGENTS.get(name), "__module__", ""))
    first = ((module.__doc__ if module else None) or "-").strip().splitlines()[0]
    return re.sub(r"^`[^`]+`:\s*", "", first)


def _elide(text: str) -> str:
    def short(match: re.Match[str]) -> str:
        return f"data:image/{match[1]};base64,<{len(match[2])} characters elided>"

    return _DATA_URL.sub(short, text)
