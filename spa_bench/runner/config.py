"""What a run is asked to do: agents x tasks x repeats on a device pool, with limits."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Literal

import yaml
from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    SecretStr,
    ValidationError,
    field_validator,
    model_validator,
)

from spa_bench.errors import ConfigError
from spa_bench.models.config import ModelConfig
from spa_bench.tasks.repository import TaskFilter


class AgentConfig(BaseModel):
    """One agent of a run: `agent` is a registry name or path/to/file.py:Class; `name` labels it."""

    model_config = ConfigDict(extra="forbid")

    agent: str = Field(min_length=1)
    name: str | None = None
    args: dict[str, Any] = Field(default_factory=dict)

    @property
    def label(self) -> str:
        if self.name:
            return self.name
        return self.agent.rpartition(":")[2] if ":" in self.agent else self.agent


class RunConfig(BaseModel):
    model_config = ConfigDict(extra="forbid")

    tasks_dir: Path | None = None
    filter: TaskFilter = Field(default_factory=TaskFilter)
    agents: list[AgentConfig] = Field(min_length=1)
    repeats: int = Field(1, ge=1)
    seed: int = 0
    phones: int = Field(1, ge=0, description="virtual phones to start (ignored when devices are given)")
    devices: list[str] = Field(default_factory=list)
    console_ports: dict[str, int] = Field(default_factory=dict, description="emulator console port per "
                                          "device serial (from --farm), for snapshot resets")
    skip_missing_apps: bool = Field(False, description="leave out tasks whose apps a device lacks, "
                                                       "instead of refusing the run")
    phone_size: str = "1080x2400"
    vary: str | None = Field(None, description="--vary DIMS[:SEED]: each episode on a device varied from its "
                             "default (spa_bench.runner.vary)")
    phone_clock: str | None = Field(None, description="freeze the virtual phones' clocks at this ISO 8601 "
                                                      "time, so reruns see the same screens")
    executor: Literal["local", "ray"] = Field("local", description="where episodes run: threads of this "
                                              "process, or device actors of a Ray cluster")
    ray_address: str | None = Field(None, description="the Ray cluster's head, HOST:PORT (executor ray)")
    phones_per_node: int | None = Field(None, ge=1, description="executor ray: virtual phones to start on "
                                        "each worker node (at most the phones its `spa-bench worker` offers)")
    artifact_dir: Path | None = Field(None, description="executor ray: a folder every host sees (shared "
                                      "file system) where device actors leave episode files for the driver "
                                      "to copy, instead of sending them through Ray")
    out: Path = Path("results")
    run_id: str | None = None
    max_steps: int | None = Field(None, ge=1)
    step_timeout_s: float = Field(300.0, gt=0)
    episode_timeout_s: float = Field(3600.0, gt=0)
    settle_s: float = Field(0.0, ge=0)
    max_retries: int = Field(2, ge=0, description="retries of an episode after device failures")
    evaluate: bool = Field(True, description="score tasks without state checks after each episode (key "
                                             "components, and the judge when `judge` is set); state "
                                             "checks are always scored, from the captured state")
    judge: ModelConfig | None = Field(None, description="the MLLM judge's model for tasks without checks")
    budget_usd: float | None = Field(None, ge=0, description="start no new episode once the agent cost of "
                                                             "finished episodes exceeds this")
    secret_env: list[str] = Field(default_factory=list, description="environment variables whose values "
                                                                   "are scrubbed from everything written")
    model_cache: Path | None = Field(None, description="folder of model replies keyed by request content: "
                                                       "a request already answered is not sent again")
    model_cache_replay: bool = Field(False, description="with model_cache: a request not in the cache is "
                                                        "an error, never sent (offline replay)")
    instance_seed: SecretStr | None = Field(
        None, exclude=True, description="--instance-seed: a secret that draws every parameterised task's "
        "instances instead of `seed`; never written (the manifest holds its commitment only)")

    @property
    def instance_run_seed(self) -> int:
        """The seed task instances are drawn from: the secret's when one is given, else `seed`."""
        if self.instance_seed is None:
            return self.seed
        from spa_bench.tasks.params import secret_run_seed

        return secret_run_seed(self.instance_seed.get_secret_value())

    @property
    def instance_seed_commitment(self) -> str | None:
        if self.instance_seed is None:
            return None
        from spa_bench.tasks.params import seed_commitment

        return seed_commitment(self.instance_seed.get_secret_value())

    @field_validator("instance_seed", mode="after")
    @classmethod
    def _long_enough(cls, value: SecretStr | None) -> SecretStr | None:
        if value is None:
            return None
        from spa_bench.tasks.params import check_instance_seed

        return SecretStr(check_instance_seed(value.get_secret_value()))

    @model_validator(mode="after")
    def _unique_labels(self) -> RunConfig:
        if self.phone_clock is not None:
            from spa_bench.errors import PhoneError
            from spa_bench.phone.system.clock import parse_clock

            try:
                parse_clock(self.phone_clock)
            except PhoneError as exc:
                raise ValueError(f"phone_clock: {exc}") from None
        if self.model_cache_replay and self.model_cache is None:
            raise ValueError("model_cache_replay needs model_cache (--model-cache DIR)")
        if self.vary is not None:
            from spa_bench.errors import ConfigError
            from spa_bench.runner.vary import parse_vary

            try:
                parse_vary(self.vary)
            except ConfigError as exc:
                raise ValueError(str(exc)) from None
        if self.executor == "ray":
            if not self.ray_address:
                raise ValueError("executor ray needs the cluster's address (--ray-address HOST:PORT)")
            if self.devices:
                raise ValueError("with the Ray executor, devices are listed on their hosts "
                                 "(spa-bench worker --device SERIAL), not given to the driver")
        elif self.ray_address or self.phones_per_node or self.artifact_dir:
            raise ValueError("--ray-address, --phones-per-node and --artifact-dir need --executor ray")
        labels = [a.label for a in self.agents]
        dupes = sorted({x for x in labels if labels.count(x) > 1})
        if dupes:
            raise ValueError(f"agent label {dupes[0]!r} is used twice; give each a distinct name")
        return self


def parse_arg_value(text: str) -> Any:
    """`--agent-arg key=value` values: YAML scalars (numbers, booleans, null), else the string."""
    try:
        value = yaml.safe_load(text)
    except yaml.YAMLError:
        return text
    return value if isinstance(value, str | int | float | bool) or value is None else text


def parse_agent_args(pairs: list[str]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise ConfigError(f"--agent-arg {pair!r}: expected key=value")
        out[key.strip()] = parse_arg_value(value)
    return out


def load_agent_config_file(path: Path) -> list[AgentConfig]:
    """A YAML list of {agent, name?, args?} (or a mapping with key `agents`)."""
    try:
        raw = yaml.safe_load(path.read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError) as exc:
        raise ConfigError(f"{path}: cannot read agent config: {exc}") from None
    if isinstance(raw, dict):
        raw = raw.get("agents")
    if not isinstance(raw, list):
        raise ConfigError(f"{path}: expected a list of agents ({{agent: NAME, name: LABEL, args: {{...}}}})")
    out = []
    for i, item in enumerate(raw):
        try:
            out.append(AgentConfig.model_validate(item))
        except ValidationError as exc:
            err = exc.errors()[0]
            where = ".".join(str(p) for p in err["loc"])
            raise ConfigError(f"{path}: agent {i}: field '{where}': {err['msg']}") from None
    return out
