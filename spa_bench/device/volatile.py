"""Which parts of the phone's state change by merely using it: the digest compares everything else.

An infeasible task passes only with the phone's state untouched (spa_bench.device.state_digest reads every
package's data, the settings and /sdcard). `VOLATILE` lists the parts an app or the system rewrites when
the phone is only used - opened, browsed, scrolled, left - with a one-line reason each. They are still
read and hashed (the log shows them), but never compared: a difference there says nothing about what the
agent did. A declaration names a part by a glob over part names (`PKG/<path>#<table>` for a database
table, `PKG/<path>` for a file, `settings:<namespace>`, `sdcard/<path>`) and, optionally, one column of
that table (or one key of a settings namespace, a glob): then only that column is left out of the rows
before hashing. A whole file declared volatile is not read at all.

They were found by running the noop agent and a "open every screen and go back" pass on each of the 20
apps of the virtual phone and diffing the digests (README, "Infeasible means untouched"), and since the
digest reads every app, by the oracle and a look-around agent that opens other apps than the task's.
Recents, the launcher's state and usage stats, which opening any app changes, live outside what is read
(the virtual phone keeps them in memory; Android in /data/system*), so they need no entry here; what
history-like data apps keep in their own databases is declared below.
An entry here weakens the check for every infeasible task: add one only with a reason a reviewer can verify.
"""

from __future__ import annotations

import fnmatch
from dataclasses import dataclass


@dataclass(frozen=True)
class Volatile:
    """A part (or one column / settings key of it) that changes without the agent changing anything."""

    part: str  # glob over part names
    why: str
    column: str | None = None  # None: the whole part; else a column of the table, or a settings key (glob)

    def matches(self, part: str) -> bool:
        return fnmatch.fnmatchcase(part, self.part)


VOLATILE: tuple[Volatile, ...] = (
    # every app: what Android itself keeps in an app's folders
    Volatile("*/cache/*", "an app's cache folder: rebuilt at will, never user state"),
    Volatile("*/code_cache/*", "compiled code and runtime caches"),
    Volatile("*-journal", "SQLite's rollback journal: the tables are read instead"),
    Volatile("*-wal", "SQLite's write-ahead log: the tables are read instead"),
    Volatile("*-shm", "SQLite's shared-memory index: the tables are read instead"),
    # the system
    Volatile("com.android.providers.settings/databases/settings.db", "the settings provider's own "
             "database: read through `settings list` (settings:*), where its volatile keys are declared"),
    Volatile("settings:secure", "typing switches the keyboard to ADBKeyboard (the audit's gui_input "
             "`ime set`)", "default_input_method"),
    Volatile("settings:secure", "typing enables ADBKeyboard (the audit's gui_input `ime enable`)",
             "enabled_input_methods"),
    # history, recents and read marks that opening and browsing write
    Volatile("com.android.browser/databases/browser.db#history", "every page opened is added to the history"),
    Volatile("com.android.calculator2/databases/history.db#history",
             "every result computed is kept in the calculator's history"),
    Volatile("com.spa.chat/databases/chat.db#conversations", "opening a chat marks it read", "unread"),
    Volatile("com.android.providers.contacts/databases/calllog.db#calls",
             "showing the call log marks missed calls seen", "new"),
    Volatile("com.android.providers.contacts/databases/calllog.db#calls",
             "showing the call log marks missed calls read", "is_read"),
    Volatile("com.android.email/databases/email.db#messages", "opening a thread marks its messages read",
             "read"),
    Volatile("com.android.providers.telephony/databases/mmssms.db#sms",
             "opening a conversation marks its messages read", "read"),
    Volatile("com.android.providers.telephony/databases/mmssms.db#sms",
             "opening a conversation marks its messages seen", "seen"),
    Volatile("com.spa.maps/databases/maps.db#searches", "every search is kept in the search history"),
    Volatile("com.spa.maps/databases/maps.db#routes", "every route shown is kept in the directions history"),
    Volatile("com.spa.video/databases/video.db#history", "opening a video adds it to the watch history"),
    Volatile("com.spa.video/databases/video.db#player", "opening a video loads it into the player", "vid"),
    Volatile("com.spa.video/databases/video.db#player", "an opened video plays or pauses", "state"),
    Volatile("com.spa.video/databases/video.db#player", "an opened video's position moves", "position_ms"),
    Volatile("com.spa.video/databases/video.db#player", "the time of the player's last change", "updated_at"),
)
"""The volatile parts of all apps and of the system, in one table (see the module docstring)."""


def whole_part_volatile(part: str) -> Volatile | None:
    """The declaration that makes this whole part volatile, if any."""
    return next((v for v in VOLATILE if v.column is None and v.matches(part)), None)


def volatile_columns(part: str) -> list[Volatile]:
    """The declarations that leave columns (or settings keys) of this part out."""
    return [v for v in VOLATILE if v.column is not None and v.matches(part)]
