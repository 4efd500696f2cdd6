"""One generic registry for every kind of plug-in (agents, evaluators, validators, device backends).

Entries come from three places, resolved lazily so that listing never imports heavy code:
1. a decorator, `@REGISTRY.register("name")`, for code that is already imported;
2. lazy built-ins, `"module:Attribute"` strings, imported on first use;
3. the entry-point group of the kind (e.g. `spa_bench.agents`) for outside packages;
and, at lookup time, a reference `path/to/file.py:Name` loads a user's file directly.
"""

from __future__ import annotations

import difflib
import importlib
import importlib.util
import sys
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from importlib.metadata import entry_points
from pathlib import Path
from types import ModuleType
from typing import Generic, TypeVar

from spa_bench.errors import RegistryError

T = TypeVar("T")


@dataclass(frozen=True)
class RegistryEntry:
    """A name and where its object comes from, known without importing it."""

    name: str
    source: str  # "builtin", "decorator", "entry-point" or "file"
    target: str  # "module:Attribute" or "path.py:Name"; "" for decorated objects


def load_module(location: str, reference: str | None = None) -> ModuleType:
    """Import a module by name, or load `path/to/file.py` (once per file: loading it again gives the same
    module, so its decorators run once). `reference`: what the user wrote, for error messages."""
    said = repr(reference or location)
    if location.endswith(".py"):
        path = Path(location).expanduser().resolve()
        if not path.is_file():
            raise RegistryError(f"{said}: file {path} does not exist")
        module_name = f"spa_bench_user_{abs(hash(str(path)))}"
        module = sys.modules.get(module_name)
        if module is None:
            spec = importlib.util.spec_from_file_location(module_name, path)
            if spec is None or spec.loader is None:
                raise RegistryError(f"{said}: cannot load {path} as a Python module")
            module = importlib.util.module_from_spec(spec)
            sys.modules[module_name] = module
            try:
                spec.loader.exec_module(module)
            except Exception as exc:
                del sys.modules[module_name]
                raise RegistryError(f"{said}: loading {path} failed: {exc!r}") from exc
        return module
    try:
        return importlib.import_module(location)
    except ImportError as exc:
        raise RegistryError(f"{said}: cannot import module {location!r}: {exc}") from exc


def import_plugins(locations: list[str]) -> None:
    """Load the user's files or modules (`--import`) so that their decorators register what they hold,
    e.g. `@register_agent("mine")` classes become agent names."""
    for location in locations:
        load_module(location)


def load_object(reference: str) -> object:
    """Import `module:Attribute` or load `path/to/file.py:Attribute` and return the attribute."""
    location, sep, attribute = reference.rpartition(":")
    if not sep or not location or not attribute:
        raise RegistryError(f"invalid reference {reference!r}: expected 'module:Name' or 'file.py:Name'")
    module = load_module(location, reference)
    try:
        return getattr(module, attribute)
    except AttributeError:
        raise RegistryError(f"{reference!r}: {location} has no attribute {attribute!r}") from None


def _same_definition(a: object, b: object) -> bool:
    """The same object, or the same definition loaded twice: one file imported by path and by module name
    (a `file.py:Name` and the built-in or entry point that names the same file), or an unchanged copy of
    a file (the example adapter copied to start one's own)."""
    import inspect

    if a is b:
        return True
    if getattr(a, "__qualname__", None) != getattr(b, "__qualname__", 0):
        return False
    try:
        return inspect.getsource(a) == inspect.getsource(b)  # type: ignore[arg-type]
    except (TypeError, OSError):
        return False


class Registry(Generic[T]):
    """Named plug-ins of one kind. `kind` appears in error messages ("unknown agent 'x'")."""

    def __init__(self, kind: str, entry_point_group: str | None = None) -> None:
        self.kind = kind
        self.entry_point_group = entry_point_group
        self._objects: dict[str, T] = {}
        self._lazy: dict[str, RegistryEntry] = {}
        self._entry_points_loaded = False
        # lookups happen from many threads at once (phones starting, episodes running): the first use of a
        # lazy entry imports it exactly once
        self._lock = threading.RLock()

    def register(self, name: str) -> Callable[[T], T]:
        """Decorator: `@registry.register("name")` above a class or function."""

        def decorate(obj: T) -> T:
            self.add(name, obj)
            return obj

        return decorate

    def add(self, name: str, obj: T) -> None:
        with self._lock:
            if name in self._objects and not _same_definition(self._objects[name], obj):
                raise RegistryError(f"{self.kind} {name!r} is registered twice")
            self._objects[name] = obj
            self._lazy.pop(name, None)

    def add_lazy(self, name: str, target: str, source: str = "builtin") -> None:
        """Register `module:Attribute`, imported only when first looked up."""
        if name not in self._objects:
            self._lazy[name] = RegistryEntry(name, source, target)

    def _load_entry_points(self) -> None:
        with self._lock:
            if self._entry_points_loaded or not self.entry_point_group:
                return
            self._entry_points_loaded = True
            for ep in entry_points(group=self.entry_point_group):
                if ep.name not in self._objects and ep.name not in self._lazy:
                    self._lazy[ep.name] = RegistryEntry(ep.name, "entry-point", ep.value)

    def entries(self) -> list[RegistryEntry]:
        """All known names with their origin, sorted, without importing anything."""
        self._load_entry_points()
        found = {n: RegistryEntry(n, "decorator", "") for n in self._objects}
        found.update(self._lazy)
        return [found[n] for n in sorted(found)]

    def names(self) -> list[str]:
        return [e.name for e in self.entries()]

    def __contains__(self, name: object) -> bool:
        self._load_entry_points()
        return name in self._objects or name in self._lazy

    def __iter__(self) -> Iterator[str]:
        return iter(self.names())

    def get(self, name: str) -> T:
        """Look up a name, or load a `file.py:Name` / `module:Name` reference directly."""
        with self._lock:
            self._load_entry_points()
            if name in self._objects:
                return self._objects[name]
            if name in self._lazy:
                obj: T = load_object(self._lazy[name].target)  # type: ignore[assignment]
                self._objects[name] = obj
                del self._lazy[name]
                return obj
        if ":" in name:
            return load_object(name)  # type: ignore[return-value]
        known = self.names()
        close = difflib.get_close_matches(name, known, n=1)
        hint = f"; did you mean {close[0]!r}?" if close else ""
        listing = ", ".join(known) if known else "none"
        raise RegistryError(f"unknown {self.kind} {name!r}{hint} (known: {listing}; a name a decorator "
                            f"registers in a file of yours is known once `spa-bench run --import FILE.py` "
                            f"loads it)")
