"""The Messages app (com.android.messaging) over the telephony provider's SMS database (mmssms.db),
served to `content query` as content://sms, content://sms/inbox and content://sms/sent."""

from __future__ import annotations

from spa_bench.phone.api import Component
from spa_bench.phone.apps.base import App, AppContext
from spa_bench.phone.apps.contacts.store import ContactsStore
from spa_bench.phone.apps.messages.screens import Conversation, ConversationList, NewConversation
from spa_bench.phone.apps.messages.store import SmsStore
from spa_bench.phone.apps.messages.strings import STRINGS
from spa_bench.phone.system.notifications import IMPORTANCE_HIGH
from spa_bench.phone.system.providers import ContentProvider


class MessagesApp(App):
    package = "com.android.messaging"
    label_en = "Messages"
    label_zh = "信息"
    launcher_activity = "com.android.messaging.ui.conversationlist.ConversationListActivity"
    apk_path = "/product/app/PrebuiltBugle/PrebuiltBugle.apk"
    icon = "message"
    hue = "blue"
    strings = STRINGS
    activities = (ConversationList, Conversation, NewConversation)
    # sms:/smsto: VIEW and SENDTO reach the conversation through the exported LaunchConversationActivity
    # trampoline (spa_bench.phone.shell.commands.intents); the conversation screens are not exported.
    services = (Component("service", "com.android.messaging.datamodel.action.ActionServiceImpl", True,
                          "android.permission.BIND_JOB_SERVICE"),
                Component("service", "com.android.messaging.datamodel.NoConfirmationSmsSendService", True,
                          "android.permission.SEND_RESPOND_VIA_MESSAGE"))
    receivers = (Component("receiver", "com.android.messaging.receiver.SmsDeliverReceiver", True,
                           "android.permission.BROADCAST_SMS"),
                 Component("receiver", "com.android.messaging.receiver.SendStatusReceiver", False),
                 Component("receiver", "com.android.messaging.receiver.BootAndPackageReplacedReceiver", True))

    def __init__(self, ctx: AppContext) -> None:
        super().__init__(ctx)
        self.sms = SmsStore(ctx)
        self.contacts = ContactsStore(ctx)
        self.sms.db.ensure()  # seed at boot, so the data is in the runner's base snapshots

    def providers(self) -> dict[str, ContentProvider]:
        return {"sms": self.sms.provider()}

    def on_data_cleared(self) -> None:
        self.sms.db.ensure()

    def notify_received(self, thread_id: int, address: str, body: str) -> None:
        """What the app does on SMS_DELIVER: a heads-up notification per conversation that opens it."""
        self.ctx.notify(
            thread_id,
            self.contacts.name_for_number(address) or address,
            body,
            activity=Conversation.name,
            extras={"thread_id": thread_id},
            importance=IMPORTANCE_HIGH,
            channel="incoming_messages",
        )


__all__ = ["MessagesApp"]
