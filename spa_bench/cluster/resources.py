"""The Ray resources a worker host offers, and the device slots the driver reads back from them.

A host joined by `spa-bench worker` advertises one resource per real device, `spa_device:<serial>`
(amount 1: one actor at a time may hold the device), `spa_phone` (how many virtual phones actors may
start there) and `spa_device` (the host's number of devices of both kinds, for `ray status`). A device
given with its emulator console (`--device 127.0.0.1:5557=5556`, for snapshot resets) also gets
`spa_console:<serial>` whose amount is the console's port: nothing asks for that resource, it only tells
the driver, which has no other channel from the worker. The driver
reads the resources of every live node (`ray.nodes()`) and makes one slot per device: a slot is a
place for one long-lived device actor, pinned to its node.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from spa_bench.device.console import parse_device
from spa_bench.errors import ConfigError

DEVICE_PREFIX = "spa_device:"
CONSOLE_PREFIX = "spa_console:"
PHONE = "spa_phone"
DEVICES = "spa_device"
# Ray takes most characters in resource names; adb serials are host:port, emulator-N, or hex ids.
_SERIAL = re.compile(r"^[A-Za-z0-9._:@\-\[\]]+$")


def worker_resources(devices: Sequence[str], phones: int) -> dict[str, float]:
    """The `--resources` of `ray start` for a host with these devices (`SERIAL[=CONSOLE_PORT]`) and
    virtual phones."""
    if phones < 0:
        raise ConfigError(f"--phones {phones}: must be 0 or more")
    out: dict[str, float] = {}
    for text in devices:
        serial, console = parse_device(text)
        if console is not None:
            out[CONSOLE_PREFIX + serial] = float(console)
        if not _SERIAL.match(serial):
            raise ConfigError(f"--device {serial!r}: not an adb serial (letters, digits and ._:@-[] only)")
        if DEVICE_PREFIX + serial in out:
            raise ConfigError(f"--device {serial!r} is given twice")
        out[DEVICE_PREFIX + serial] = 1.0
    if phones:
        out[PHONE] = float(phones)
    if not out:
        raise ConfigError("a worker needs devices: --device SERIAL (repeatable) and/or --phones N")
    out[DEVICES] = float(len(devices) + phones)
    return out


@dataclass(frozen=True)
class Slot:
    """A place for one device actor: a real device (`serial`) or the n-th virtual phone of a node."""

    node_id: str
    node_ip: str
    serial: str | None = None  # None: a virtual phone that the actor starts
    index: int = 0
    console_port: int | None = None  # a real device's emulator console, when its worker gave one

    @property
    def resource(self) -> str:
        return PHONE if self.serial is None else DEVICE_PREFIX + self.serial

    @property
    def label(self) -> str:
        """How events and the results name the device: host, then the serial or phone number."""
        return f"{self.node_ip}/{self.serial if self.serial is not None else f'phone-{self.index}'}"


def node_slots(node: Mapping[str, Any], phones_per_node: int | None) -> list[Slot]:
    """The device slots of one entry of `ray.nodes()` (none when the node is dead). Virtual phones:
    as many as the node offers, at most `phones_per_node` when given."""
    if not node.get("Alive"):
        return []
    resources: Mapping[str, float] = node.get("Resources") or {}
    node_id, node_ip = str(node["NodeID"]), str(node.get("NodeManagerAddress", "?"))
    slots = []
    for name in sorted(resources):
        if name.startswith(DEVICE_PREFIX):
            serial = name[len(DEVICE_PREFIX):]
            console = resources.get(CONSOLE_PREFIX + serial)
            slots.append(Slot(node_id, node_ip, serial=serial,
                              console_port=int(console) if console is not None else None))
    phones = int(resources.get(PHONE, 0))
    if phones_per_node is not None:
        phones = min(phones, phones_per_node)
    slots += [Slot(node_id, node_ip, index=i) for i in range(phones)]
    return slots
