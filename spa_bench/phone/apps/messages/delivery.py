"""An SMS arriving from the network, the one path every inbound message takes (the console's
`sms send` today). Whatever else must happen when a message arrives, such as a notification, hooks in
here."""

from __future__ import annotations

from typing import TYPE_CHECKING

from spa_bench.phone.apps.messages.store import INBOX
from spa_bench.phone.system.clock import epoch_ms

if TYPE_CHECKING:
    from spa_bench.phone.apps.messages import MessagesApp


def deliver_incoming_sms(app: MessagesApp, sender: str, body: str) -> int:
    """Store an inbound SMS as the telephony provider does (type 1 inbox, unread, unseen) in the
    sender's thread; returns its `_id` in content://sms. `date_sent` is the service centre's time
    stamp, which has whole seconds."""
    now = epoch_ms(app.ctx.clock.now())
    thread = app.sms.thread_for(sender)
    row = app.sms.db.run(
        "INSERT INTO sms (thread_id, address, date, date_sent, read, seen, status, type, body) "
        "VALUES (?, ?, ?, ?, 0, 0, -1, ?, ?)",
        thread, sender, now, now - now % 1000, INBOX, body,
    )
    app.sms.db.run("UPDATE threads SET date = ? WHERE _id = ?", now, thread)
    app.notify_received(thread, sender, body)  # the heads-up and the shade entry
    app.ctx.invalidate()
    return row
