"""Posted notifications: what NotificationManagerService keeps, what the shade lists and what
`dumpsys notification` prints.

A notification is identified as on Android by (package, tag, id); posting the same triple again updates
it in place. Its `key` is AOSP's `StatusBarNotification.getKey()`: `userId|pkg|id|tag|uid`. A tap opens
the notification's content intent (an activity of its package, with extras) and cancels it (AUTO_CANCEL).
"""

from __future__ import annotations

import zlib
from dataclasses import asdict, dataclass, field, replace
from typing import Any

from spa_bench.phone.system.access import package_uid

# NotificationManager importance levels, and the flags the dump prints (Notification.FLAG_*).
IMPORTANCE_DEFAULT, IMPORTANCE_HIGH = 3, 4
FLAG_AUTO_CANCEL = 0x10
HEADS_UP_SECONDS = 5.0  # SystemUI's heads_up_notification_decay (5000 ms)
SHELL_PACKAGE, SHELL_NOTIFICATION_ID, SHELL_CHANNEL = "com.android.shell", 1138, "shellcmd"


def app_uid(package: str) -> int:
    """A stable uid for a package, as `dumpsys notification` shows it (one formula with pm's dump)."""
    return package_uid(package)


@dataclass(frozen=True)
class Notification:
    """One posted notification. `target` is the content intent: (package, activity, extras)."""

    package: str
    id: int
    tag: str | None
    title: str
    text: str
    when_ms: int
    channel: str = "miscellaneous"
    importance: int = IMPORTANCE_DEFAULT
    flags: int = FLAG_AUTO_CANCEL
    app_label: str = ""
    target_activity: str | None = None
    target_package: str | None = None  # the content intent's package when it is not the poster's
    target_extras: dict[str, Any] = field(default_factory=dict)
    seen: bool = False

    @property
    def uid(self) -> int:
        return app_uid(self.package)

    @property
    def key(self) -> str:
        return f"0|{self.package}|{self.id}|{self.tag if self.tag is not None else 'null'}|{self.uid}"

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Notification:
        names = cls.__dataclass_fields__.keys()
        return cls(**{k: v for k, v in data.items() if k in names})


class NotificationCenter:
    """The posted notifications, newest first, and which one is showing as a heads-up until when."""

    def __init__(self) -> None:
        self.posted: list[Notification] = []
        self.heads_up_key: str | None = None
        self.heads_up_until = 0.0

    def post(self, n: Notification, now: float, peek: bool = True) -> None:
        """Post or update; a high-importance notification pops up as a heads-up for 5 s unless `peek` is
        off (Do Not Disturb hides heads-ups: its default policy suppresses the "peek" visual effect)."""
        self.posted = [p for p in self.posted if p.key != n.key]
        self.posted.insert(0, n)
        if n.importance >= IMPORTANCE_HIGH and peek:
            self.heads_up_key = n.key
            self.heads_up_until = now + HEADS_UP_SECONDS

    def get(self, key: str) -> Notification | None:
        return next((n for n in self.posted if n.key == key), None)

    def cancel(self, key: str) -> bool:
        before = len(self.posted)
        self.posted = [n for n in self.posted if n.key != key]
        if self.heads_up_key == key:
            self.heads_up_key = None
        return len(self.posted) != before

    def clear_all(self) -> None:
        self.posted = []
        self.heads_up_key = None

    def heads_up(self, now: float) -> Notification | None:
        if self.heads_up_key is None or now >= self.heads_up_until:
            return None
        return self.get(self.heads_up_key)

    def mark_seen(self) -> None:
        """Opening the shade marks every notification seen (NotificationRecord.stats.hasSeen)."""
        self.posted = [replace(n, seen=True) for n in self.posted]

    def to_json(self) -> dict[str, Any]:
        return {"posted": [n.to_json() for n in self.posted]}

    def load_json(self, data: object) -> None:
        """Restore from a snapshot; a heads-up is transient and is not restored."""
        self.clear_all()
        if isinstance(data, dict):
            self.posted = [Notification.from_json(n) for n in data.get("posted") or [] if isinstance(n, dict)]


# -- dumpsys notification -------------------------------------------------------------------------------
def _identity(n: Notification) -> str:
    return f"{zlib.crc32(('nr' + n.key).encode('utf-8')):08x}"


def _redacted(value: str, redact: bool) -> str:
    return f"String [length={len(value)}]" if redact else f"String ({value})"


def notification_to_string(n: Notification) -> str:
    """Notification.toString() as AOSP builds it."""
    return (
        f"Notification(channel={n.channel} shortcut=null contentView=null vibrate=null sound=null "
        f"defaults=0x0 flags=0x{n.flags:x} color=0x00000000 vis=PRIVATE)"
    )


def record_to_string(n: Notification) -> str:
    """NotificationRecord.toString(): `NotificationRecord(0x%08x: pkg=%s user=%s id=%d tag=%s ...`."""
    tag = n.tag if n.tag is not None else "null"
    return (
        f"NotificationRecord(0x{_identity(n)}: pkg={n.package} user=UserHandle{{0}} id={n.id} tag={tag} "
        f"importance={n.importance} key={n.key}: {notification_to_string(n)})"
    )


_IMPORTANCE_NAMES = {0: "NONE", 1: "MIN", 2: "LOW", 3: "DEFAULT", 4: "HIGH", 5: "MAX"}


def dump_record(n: Notification, prefix: str, redact: bool) -> list[str]:
    """The leading lines of NotificationRecord.dump() (identity, flags, key, notification fields, extras)."""
    inner = prefix + "  "
    deep = inner + inner
    intent = (
        f"PendingIntent{{{_identity(n)[:7]}: PendingIntentRecord{{{_identity(n)[1:8]} {n.package} "
        "startActivity}}"
        if n.target_activity
        else "null"
    )
    lines = [
        prefix + record_to_string(n),
        f"{inner}uid={n.uid} userId=0",
        f"{inner}opPkg={n.package}",
        f"{inner}icon=Icon(typ=RESOURCE pkg={n.package} id=0x7f080000)",
        f"{inner}flags=0x{n.flags:x}",
        f"{inner}originalFlags=0x{n.flags:x}",
        f"{inner}pri=0",
        f"{inner}key={n.key}",
        f"{inner}seen={'true' if n.seen else 'false'}",
        f"{inner}groupKey=0|{n.package}|g:{n.channel}",
        f"{inner}notification=",
        f"{deep}fullscreenIntent=null",
        f"{deep}contentIntent={intent}",
        f"{deep}deleteIntent=null",
        f"{deep}number=0",
        f"{deep}groupAlertBehavior=0",
        f"{deep}when={n.when_ms}",
        f"{deep}tickerText=null",
        f"{deep}vis=0",
        f"{deep}contentView=null",
        f"{deep}bigContentView=null",
        f"{deep}headsUpContentView=null",
        f"{deep}color=0x00000000",
        f"{deep}timeout=0",
        f"{deep}extras={{",
        f"{deep}    android.title=" + (_redacted(n.title, redact) if n.title else "null"),
        f"{deep}    android.text={_redacted(n.text, redact)}",
        f"{deep}}}",
        f"{inner}publicNotification=",
        f"{deep}None",
        f"{inner}mImportance={_IMPORTANCE_NAMES.get(n.importance, 'UNSPECIFIED')}",
        f"{inner}effectiveNotificationChannel=NotificationChannel{{mId='{n.channel}', "
        f"mImportance={n.importance}}}",
    ]
    return lines


_ZEN_MODES = ("ZEN_MODE_OFF", "ZEN_MODE_IMPORTANT_INTERRUPTIONS", "ZEN_MODE_NO_INTERRUPTIONS",
              "ZEN_MODE_ALARMS")


def dump_notifications(
    posted: list[Notification], redact: bool = True, package: str | None = None, zen_mode: int = 0
) -> str:
    """`dumpsys notification [--noredact] [p PKG]`, the parts of NotificationManagerService.dumpImpl
    that describe this phone: the notification list (header while any is posted, records matching the
    filter), the effect flags, and the zen mode (Settings.Global.zen_mode; interruption filter 1 + mode)."""
    header = "Current Notification Manager state"
    lines = [header + (f" (filtered to '{package}')" if package else "") + ":"]
    if posted:
        lines.append("  Notification List:")
        for n in posted:
            if package is None or n.package == package:
                lines.extend(dump_record(n, "    ", redact))
        lines.append("  ")
    if package is None:
        lines += ["  mUseAttentionLight=true", "  mNotificationPulseEnabled=false",
                  "  mSoundNotificationKey=null", "  mVibrateNotificationKey=null",
                  "  mDisableNotificationEffects=null", "  mCallState=CALL_STATE_IDLE", "  mSystemReady=true",
                  "", "  Zen Mode:", f"    mInterruptionFilter={zen_mode + 1}",
                  f"    mZenMode={_ZEN_MODES[zen_mode] if 0 <= zen_mode < 4 else zen_mode}"]
    return "\n".join(lines) + "\n"
