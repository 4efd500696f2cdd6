"""Before any device starts: every agent of a run is built once with its arguments, then closed.

Without this, an argument the agent does not take or a class that cannot be constructed failed in every
episode as an `agent_error` (after each episode's reset and setup), and the run ended with exit 0 and
"errors N" in its table. Built here, the first such failure is one line naming the agent, its arguments
and the cause, before any phone starts or any run folder is made. Episodes still get an agent object of
their own (spa_bench.agent: one per episode); this one is only built and closed.
On the Ray executor agents are built on the cluster's hosts, which may have what this host lacks: there
only the arguments are checked against the factory's signature.
"""

from __future__ import annotations

import inspect
from collections.abc import Mapping
from typing import Any

from spa_bench.agent import AgentFactory
from spa_bench.errors import ConfigError
from spa_bench.runner.config import AgentConfig


def _described(agent: AgentConfig, shown_args: Mapping[str, Any]) -> str:
    source = f" ({agent.agent})" if agent.agent != agent.label else ""
    args = ", ".join(f"{k}={v!r}" for k, v in shown_args.items()) or "no arguments"
    return f"agent {agent.label!r}{source} with {args}"


def _cause(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    first = text[0] if text else ""
    return f"{type(exc).__name__}: {first}" if first else type(exc).__name__


def check_signature(factory: AgentFactory, args: Mapping[str, Any]) -> str | None:
    """Why `factory(**args)` cannot be called (an argument it does not take, one it needs), else None."""
    try:
        signature = inspect.signature(factory)
    except (TypeError, ValueError):  # a builtin or C callable: nothing to read, the build will tell
        return None
    try:
        signature.bind(**args)
    except TypeError as exc:
        params = [p.name for p in signature.parameters.values()
                  if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)]
        takes = f"; it takes {', '.join(params)}" if params else "; it takes no arguments"
        return f"{exc}{takes}"
    return None


def build_agents(agents: list[AgentConfig], factories: Mapping[str, AgentFactory],
                 shown_args: Mapping[str, Mapping[str, Any]], construct: bool = True) -> None:
    """Build each agent once (or, with construct=False, check its arguments only) and close it. Raises
    ConfigError naming the agent, its arguments (`shown_args`: redacted) and the cause."""
    for agent in agents:
        factory = factories[agent.label]
        what = _described(agent, shown_args.get(agent.label, {}))
        problem = check_signature(factory, agent.args)
        if problem is not None:
            raise ConfigError(f"{what}: cannot be built: {problem}")
        if not construct:
            continue
        try:
            built = factory(**agent.args)
        except Exception as exc:
            raise ConfigError(f"{what}: cannot be built: {_cause(exc)}") from None
        close = getattr(built, "close", None)
        if callable(close):
            try:
                close()
            except Exception as exc:
                raise ConfigError(f"{what}: built, but its close() raised {_cause(exc)}") from None
