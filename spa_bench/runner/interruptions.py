"""How each kind of interruption (spa_bench.tasks.interruptions) reaches a device, during an episode.

Through the channels a real device has, so that the same task interrupts an emulator the same way:
the emulator console rings a call, `cmd notification post` posts as the shell user, `dumpsys battery`
fakes the battery as BatteryService's shell command does. The app dialog is the virtual phone's own
broadcast (spa_bench.phone); no stock app answers it. These are the harness's commands: the device
audit (spa_bench.device.audit) does not count them as the agent's.
"""

from __future__ import annotations

import shlex

from spa_bench.device.device import Device
from spa_bench.tasks.interruptions import (
    AppDialog,
    IncomingCall,
    Interruption,
    LowBattery,
    PostedNotification,
)

APP_DIALOG_ACTION = "spa_bench.intent.action.APP_DIALOG"


def interruption_commands(interruption: Interruption) -> list[tuple[str, str]]:
    """(channel, command) pairs, in order; the channel is `console` or `shell`."""
    if isinstance(interruption, IncomingCall):
        return [("console", f"gsm call {interruption.number}")]
    if isinstance(interruption, PostedNotification):
        title, text = shlex.quote(interruption.title), shlex.quote(interruption.text)
        return [("shell", f"cmd notification post -S bigtext -t {title} {interruption.tag} {text}")]
    if isinstance(interruption, LowBattery):
        return [("shell", "dumpsys battery unplug"),
                ("shell", f"dumpsys battery set level {interruption.level}")]
    if isinstance(interruption, AppDialog):
        return [("shell", f"am broadcast -a {APP_DIALOG_ACTION} --es dialog {interruption.dialog}")]
    raise AssertionError(f"unknown interruption {interruption!r}")  # pragma: no cover - the union is closed


def fire(device: Device, interruption: Interruption) -> None:
    """Make it happen on the device now. DeviceCommandFailed when the device refuses a command."""
    for channel, command in interruption_commands(interruption):
        if channel == "console":
            device.console_command(command, f"an interruption ({interruption.kind})")
            continue
        device.check(command, doing=f"interruption {interruption.kind}:", refused=("Error",))


def fire_due(device: Device, interruptions: list[Interruption], steps_done: int) -> list[int]:
    """Fire those of `interruptions` due once the agent has taken `steps_done` steps; their indexes."""
    fired = [i for i, x in enumerate(interruptions) if x.after_step == steps_done]
    for i in fired:
        fire(device, interruptions[i])
    return fired
