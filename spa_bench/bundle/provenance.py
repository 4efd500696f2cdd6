"""What a bundled run was made with, as hashes a reader can compare with the harness they installed.

Five parts, each compared on its own by `spa-bench bundle verify` (spa_bench.bundle.verify):
- harness: spa-bench's version and a hash of its Python sources (the phone, the adapters and the task
  data are hashed apart, so a change there names its own part);
- tasks: each task's file sha256, and the task set's (a hash of the sorted id -> sha256 lines);
- phone: the virtual phone's image, a hash of every file under spa_bench/phone (app code, system code,
  seed data, fonts), which changes when any app's code or seed data does; every device's kind, model
  and build fingerprint (getprop ro.build.fingerprint: an emulator image's or a phone's system);
- agents: per agent its adapter (registry name, version, sha256 of its module and of the prompt modules
  it imports), the model, the endpoint's kind (never its URL or key) and the sampling parameters;
- instances: the run seed or, for a secret-seed run, only the commitment; the `--vary` spec.

Nothing here is read from the environment or the agents' live objects: a secret cannot get in.
"""

from __future__ import annotations

import ast
import hashlib
import importlib.util
import inspect
import ipaddress
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any, Literal
from urllib.parse import urlsplit

from pydantic import BaseModel, ConfigDict, Field

import spa_bench
from spa_bench import __version__
from spa_bench.errors import RegistryError
from spa_bench.results.schema import AgentSpec, EpisodeLog, RunManifest
from spa_bench.secrets import REDACTED

EndpointKind = Literal["openai", "azure", "local", "remote", "none"]
# parts of the spa_bench package that are hashed as their own provenance part, not as the harness
_OWN_PARTS = ("phone", "agents", "suites")
# agent arguments that change what the model answers (beside the model itself)
SAMPLING_ARGS = ("temperature", "max_tokens", "top_p", "top_k", "seed", "history", "max_side", "detail",
                 "image_format", "prompt_language", "resize_image", "frame")


class _Frozen(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class HarnessPart(_Frozen):
    version: str
    source_sha256: str = Field(description="spa_bench's .py files, the phone, adapters and tasks left out")
    git_revision: str | None = None


class TasksPart(_Frozen):
    files: dict[str, str] = Field(description="task file, relative to the tasks root -> sha256")
    by_task: dict[str, str] = Field(description="task id -> its file (a key of files)")
    set_sha256: str = Field(description="sha256 of the sorted 'id sha256' lines of the tasks run")

    def task_sha256(self, task_id: str) -> str:
        return self.files.get(self.by_task.get(task_id, ""), "missing")


class PhonePart(_Frozen):
    image_sha256: str | None = Field(description="the virtual phone's files; None when no virtual phone ran")
    image_files: int = 0
    devices: list[str] = Field(default_factory=list, description="kind and model of every device, e.g. "
                                                                 "'virtual spa-bench phone (Android 14)'")
    fingerprints: list[str] = Field(default_factory=list, description="the devices' build fingerprints "
                                    "(getprop ro.build.fingerprint), which name an emulator image or a "
                                    "phone's system")


class ModelPart(_Frozen):
    name: str | None
    endpoint: EndpointKind
    sampling: dict[str, Any] = Field(default_factory=dict)


class AgentPart(_Frozen):
    name: str = Field(description="the agent's label in the run")
    adapter: str = Field(description="registry name or path/to/file.py:Class")
    reference: bool = False
    version: str
    module: str | None = None
    modules: dict[str, str] = Field(default_factory=dict, description="module of the adapter's class and "
                                    "of its base classes -> sha256")
    module_sha256: str | None = Field(None, description="one hash of the contents of `modules`")
    prompt_sha256: dict[str, str] = Field(default_factory=dict, description="prompt module -> sha256")
    model: ModelPart


class InstancesPart(_Frozen):
    seed: int | None = Field(description="the public run seed; None when a secret seed drew the instances")
    seed_commitment: str | None = Field(None, description="sha256 commitment to the secret --instance-seed")
    repeats: int = 1
    vary: str | None = None
    draws: dict[str, str] = Field(default_factory=dict, description="--vary: episode id -> the device "
                                  "variation drawn for it (e.g. 'dark+font1.3+720x1280')")
    phone_clock: str | None = None


class Provenance(_Frozen):
    harness: HarnessPart
    tasks: TasksPart
    phone: PhonePart
    agents: list[AgentPart]
    instances: InstancesPart


def sha256_bytes(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def tree_sha256(root: Path, files: Iterable[Path]) -> tuple[str, int]:
    """One hash of many files: sha256 over sorted 'relative-path sha256' lines (and the file count)."""
    lines = sorted(f"{p.relative_to(root).as_posix()} {sha256_bytes(p.read_bytes())}" for p in files)
    return sha256_bytes("\n".join(lines).encode("utf-8")), len(lines)


def _source_files(root: Path) -> Iterable[Path]:
    return (p for p in root.rglob("*") if p.is_file() and "__pycache__" not in p.parts
            and p.suffix not in (".pyc", ".pyo"))


def package_root() -> Path:
    return Path(spa_bench.__file__).resolve().parent


def harness_source_sha256() -> str:
    root = package_root()
    files = [p for p in root.rglob("*.py") if "__pycache__" not in p.parts
             and p.relative_to(root).parts[0] not in _OWN_PARTS]
    return tree_sha256(root, files)[0]


def phone_image_sha256() -> tuple[str, int]:
    """Every file of the virtual phone (code, seed data, fonts, images): a change to any app shows."""
    root = package_root() / "phone"
    return tree_sha256(root, _source_files(root))


def task_set_sha256(files: Mapping[str, str], by_task: Mapping[str, str]) -> str:
    lines = (f"{task} {files.get(by_task[task], 'missing')}" for task in sorted(by_task))
    return sha256_bytes("\n".join(lines).encode("utf-8"))


def tasks_part(manifest: RunManifest, logs: Iterable[EpisodeLog]) -> TasksPart:
    by_task = {log.full_task.id: log.task_file or "" for log in logs}
    files = dict(manifest.task_files)
    return TasksPart(files=files, by_task=by_task, set_sha256=task_set_sha256(files, by_task))


def endpoint_kind(base_url: object) -> EndpointKind:
    """What kind of endpoint answered, without its address: a private URL says who runs what where."""
    if not isinstance(base_url, str) or not base_url:
        return "openai"
    host = (urlsplit(base_url).hostname or "").lower()
    if host in ("api.openai.com",):
        return "openai"
    if host.endswith(".openai.azure.com"):
        return "azure"
    if host == "localhost":
        return "local"
    try:
        return "local" if ipaddress.ip_address(host).is_loopback else "remote"
    except ValueError:
        return "remote"


def _module_sha256(name: str) -> tuple[str, str] | None:
    """(source path, sha256) of an importable module's .py file, None for a builtin or missing one."""
    try:
        spec = importlib.util.find_spec(name)
    except (ImportError, ValueError):
        return None
    if spec is None or not spec.origin or not spec.origin.endswith(".py"):
        return None
    return spec.origin, sha256_bytes(Path(spec.origin).read_bytes())


def adapter_modules(factory: Any) -> dict[str, str]:
    """module -> sha256 of the adapter's code: the module of its class and of every base class but
    spa_bench's protocol (BaseAgent's module, `object`), since MLLMAgent's prompting lives in its bases."""
    classes = inspect.getmro(factory) if isinstance(factory, type) else (factory,)
    out: dict[str, str] = {}
    for cls in classes:
        name = getattr(cls, "__module__", None)
        if not name or name in ("builtins", "spa_bench.agent", "typing", "abc") or name in out:
            continue
        file = inspect.getsourcefile(cls) if inspect.isclass(cls) or inspect.isfunction(cls) else None
        if file and file.endswith(".py"):
            out[name] = sha256_bytes(Path(file).read_bytes())
    return out


def _imported_prompt_modules(modules: Iterable[tuple[str, str]]) -> dict[str, str]:
    """sha256 of each module the adapter's modules (name, file) import whose name speaks of prompts:
    the templates (`from .aw_prompts import ...` as well as absolute imports)."""
    names: set[str] = set()
    for module_name, module_file in modules:
        tree = ast.parse(Path(module_file).read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    package = module_name.rsplit(".", node.level)[0]
                    base = f"{package}.{base}" if base else package
                names.add(base)
                names.update(f"{base}.{a.name}" for a in node.names)
            elif isinstance(node, ast.Import):
                names.update(a.name for a in node.names)
    out = {}
    for name in sorted(n for n in names if "prompt" in n.rpartition(".")[2]):
        found = _module_sha256(name)
        if found is not None:
            out[name] = found[1]
    return out


def resolve_adapter(agent: str, adapter_dir: Path | None) -> str:
    """An adapter given as `path/to/file.py:Class` on the machine that ran the run, as found here: at
    its recorded path, else by its file name in `adapter_dir` (where a keeper puts submitted adapters).
    Registry names are kept."""
    location, sep, name = agent.rpartition(":")
    if not sep or not location.endswith(".py") or Path(location).is_file() or adapter_dir is None:
        return agent
    candidate = adapter_dir / Path(location).name
    return f"{candidate}:{name}" if candidate.is_file() else agent


def agent_part(spec: AgentSpec) -> AgentPart:
    """The adapter's code and model of one agent, read from its class (never from a live agent)."""
    from spa_bench.agent import AGENTS

    try:
        factory: Any = AGENTS.get(spec.agent)
    except RegistryError:
        factory = None
    modules = adapter_modules(factory) if factory is not None else {}
    files = [(name, found[0]) for name in modules if (found := _module_sha256(name)) is not None]
    defaults: dict[str, Any] = {}
    if factory is not None:
        params: Iterable[inspect.Parameter]
        try:
            params = inspect.signature(factory).parameters.values()
        except (TypeError, ValueError):
            params = ()
        defaults = {p.name: p.default for p in params if p.default is not inspect.Parameter.empty}
    given = {**defaults, **spec.args}
    sampling = {k: given[k] for k in SAMPLING_ARGS if k in given and _plain(given[k])}
    sampling.update({k: v for k, v in (getattr(factory, "sampling", None) or {}).items() if _plain(v)})
    model = given.get("model")
    # of the files' contents in class order, not of module names: a file adapter's module is named after
    # where it was loaded from, which differs between the machine that ran and the one that verifies
    combined = sha256_bytes("\n".join(modules.values()).encode())
    return AgentPart(
        name=spec.name, adapter=spec.agent, reference=spec.reference,
        version=str(getattr(factory, "version", None) or __version__),
        module=getattr(factory, "__module__", None), modules=modules,
        module_sha256=combined if modules else None, prompt_sha256=_imported_prompt_modules(files),
        model=ModelPart(name=str(model) if isinstance(model, str) and REDACTED not in model else None,
                        endpoint=endpoint_kind(given.get("base_url")) if model else "none",
                        sampling=sampling))


def _plain(value: object) -> bool:
    """A JSON scalar that is no redacted secret."""
    return (value is None or isinstance(value, bool | int | float)
            or (isinstance(value, str) and REDACTED not in value))


def _device_label(log: EpisodeLog) -> str:
    device = log.device
    release = f" (Android {device.android_release})" if device.android_release else ""
    return f"{device.kind} {device.model or 'unknown model'}{release}"


def make_provenance(manifest: RunManifest, logs: list[EpisodeLog]) -> Provenance:
    """The run's provenance: the hashes its manifest recorded when it ran; a run older than those
    records gets the installed harness's, which is only right when it is the one that ran it."""
    config = manifest.settings.get("config", {})
    config = config if isinstance(config, dict) else {}
    virtual = any(log.device.kind == "virtual" for log in logs)
    image, count = phone_image_sha256() if virtual else (None, 0)
    if virtual and manifest.phone_image_sha256:
        image = manifest.phone_image_sha256
    commitment = manifest.instance_seed_commitment
    return Provenance(
        harness=HarnessPart(version=manifest.spa_bench_version,
                            source_sha256=manifest.source_sha256 or harness_source_sha256(),
                            git_revision=manifest.git_revision),
        tasks=tasks_part(manifest, logs),
        phone=PhonePart(image_sha256=image, image_files=count,
                        devices=sorted({_device_label(log) for log in logs}),
                        fingerprints=sorted({f for f in manifest.device_fingerprints.values() if f})),
        agents=[agent_part(spec) for spec in manifest.agents],
        instances=InstancesPart(seed=None if commitment else manifest.seed, seed_commitment=commitment,
                                repeats=manifest.repeats, vary=config.get("vary"),
                                draws={log.episode_id: log.variation.name for log in logs
                                       if log.variation is not None},
                                phone_clock=config.get("phone_clock")))


def installed_provenance(bundled: Provenance, tasks_root: Path,
                         adapter_dir: Path | None = None) -> Provenance:
    """The same parts as the installed harness makes them: what `bundle verify` compares with
    (`adapter_dir`: where the run's file adapters are found here, see resolve_adapter)."""
    files = {}
    for rel in bundled.tasks.files:
        path = tasks_root / rel
        files[rel] = sha256_bytes(path.read_bytes()) if path.is_file() else "missing"
    by_task = dict(bundled.tasks.by_task)
    image, count = phone_image_sha256() if bundled.phone.image_sha256 else (None, 0)
    agents = []
    for agent in bundled.agents:
        spec = AgentSpec(name=agent.name, agent=resolve_adapter(agent.adapter, adapter_dir),
                         reference=agent.reference)
        agents.append(agent_part(spec).model_copy(update={"model": agent.model}))
    return Provenance(
        harness=HarnessPart(version=__version__, source_sha256=harness_source_sha256()),
        tasks=TasksPart(files=files, by_task=by_task, set_sha256=task_set_sha256(files, by_task)),
        phone=PhonePart(image_sha256=image, image_files=count, devices=bundled.phone.devices,
                        fingerprints=bundled.phone.fingerprints),
        agents=agents, instances=bundled.instances)

