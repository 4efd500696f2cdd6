"""What a run records about a device (serialised into the run manifest and every episode log)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict

DeviceKind = Literal["virtual", "emulator", "physical", "unknown"]


class DeviceInfo(BaseModel):
    model_config = ConfigDict(extra="forbid")

    serial: str
    kind: DeviceKind = "unknown"
    model: str | None = None
    android_release: str | None = None
    sdk: int | None = None
    screen_width: int | None = None
    screen_height: int | None = None
    locale: str | None = None
    host: str | None = None  # the cluster node it is attached to (the Ray executor); None: this machine
