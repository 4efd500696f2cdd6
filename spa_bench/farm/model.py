"""farm.json: the emulators of a generated farm, as `spa-bench run --farm` reads them."""

from __future__ import annotations

import json
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from spa_bench.errors import ConfigError

FARM_SCHEMA_VERSION = 1
# adb's own scan range for local emulators: the farm's host ports stay out of it so that the host's adb
# server does not also list them as emulator-NNNN (and so they never collide with local emulators).
ADB_EMULATOR_PORTS = range(5554, 5586)


class FarmEmulator(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str = Field(min_length=1, description="compose service / container name")
    host: str = Field("127.0.0.1", description="address the ports are published on")
    adb_port: int = Field(ge=1024, le=65535, description="host port of the emulator's adbd")
    console_port: int = Field(ge=1024, le=65535, description="host port of the emulator console "
                                                             "(snapshot resets)")

    @property
    def serial(self) -> str:
        return f"{self.host}:{self.adb_port}"

    @model_validator(mode="after")
    def _outside_emulator_range(self) -> FarmEmulator:
        for port in (self.adb_port, self.console_port):
            if port in ADB_EMULATOR_PORTS:
                raise ValueError(f"port {port} is in adb's emulator range 5554-5585")
        if self.adb_port == self.console_port:
            raise ValueError("adb_port and console_port are the same")
        return self


class Farm(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    schema_version: int = Field(FARM_SCHEMA_VERSION)
    image: str = Field(min_length=1)
    emulators: list[FarmEmulator] = Field(min_length=1)

    @model_validator(mode="after")
    def _distinct(self) -> Farm:
        if self.schema_version != FARM_SCHEMA_VERSION:
            raise ValueError(f"schema_version {self.schema_version} is not supported "
                             f"(this spa-bench reads {FARM_SCHEMA_VERSION})")
        ports = [p for e in self.emulators for p in (e.adb_port, e.console_port)]
        dupes = sorted({p for p in ports if ports.count(p) > 1})
        if dupes:
            raise ValueError(f"ports used twice: {', '.join(map(str, dupes))}")
        names = [e.name for e in self.emulators]
        if len(set(names)) != len(names):
            raise ValueError("emulator names are not unique")
        return self

    def console_ports(self) -> dict[str, int]:
        return {e.serial: e.console_port for e in self.emulators}


def load_farm(path: Path) -> Farm:
    """Read and validate farm.json; any problem is a ConfigError naming the file and the field."""
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise ConfigError(f"{path}: cannot read farm file: {exc.strerror or exc}") from None
    try:
        raw = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ConfigError(f"{path}: not JSON: {exc.msg} at line {exc.lineno} column {exc.colno}") from None
    try:
        return Farm.model_validate(raw)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"]) or "(top level)"
        message = str(first["msg"]).removeprefix("Value error, ")
        raise ConfigError(f"{path}: field {where}: {message}") from None
