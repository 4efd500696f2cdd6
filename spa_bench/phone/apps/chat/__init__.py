"""Chat (com.spa.chat): a messenger in the style of WeChat/WhatsApp - chats, contacts, a
conversation screen to send text, and the share target for Shop products. State lives in
`databases/chat.db` (tables documented in `store.py`)."""

from __future__ import annotations

from pathlib import Path

from spa_bench.phone.apps.base import App, AppContext
from spa_bench.phone.apps.chat.screens import ConversationActivity, MainActivity
from spa_bench.phone.apps.chat.share import ShareActivity
from spa_bench.phone.apps.chat.store import ChatStore
from spa_bench.phone.apps.chat.strings import STRINGS
from spa_bench.phone.apps.shop import glyphs as _glyphs  # noqa: F401  (the chat glyphs live there)


class ChatApp(App):
    package = "com.spa.chat"
    label_en = "Chat"
    label_zh = "聊天"
    launcher_activity = MainActivity.name
    apk_path = "/data/app/com.spa.chat-1/base.apk"
    icon = "chat"
    hue = "green"
    strings = STRINGS
    activities = (MainActivity, ConversationActivity, ShareActivity)
    exported_activities = frozenset({ShareActivity.name})  # the SEND target of the share sheet

    def __init__(self, ctx: AppContext) -> None:
        super().__init__(ctx)
        self.store = ChatStore(self._db_path)
        self.store.ensure()

    def _db_path(self) -> Path:
        return self.ctx.data_dir() / "databases" / "chat.db"

    def on_data_cleared(self) -> None:
        self.store.ensure()


__all__ = ["ChatApp"]
