"""The Contacts app (com.android.contacts) over the contacts provider's database (contacts2.db),
served to `content query` as content://com.android.contacts/{contacts,data,data/phones,data/emails}."""

from __future__ import annotations

from spa_bench.phone.apps.base import App, AppContext
from spa_bench.phone.apps.contacts.screens import Editor, People, QuickContact
from spa_bench.phone.apps.contacts.store import AUTHORITY, ContactsStore
from spa_bench.phone.apps.contacts.strings import STRINGS
from spa_bench.phone.system.providers import ContentProvider


class ContactsApp(App):
    package = "com.android.contacts"
    label_en = "Contacts"
    label_zh = "通讯录"
    launcher_activity = "com.android.contacts.activities.PeopleActivity"
    apk_path = "/product/app/GoogleContacts/GoogleContacts.apk"
    icon = "person"
    hue = "blue"
    strings = STRINGS
    activities = (People, QuickContact, Editor)
    exported_activities = frozenset({QuickContact.name, Editor.name})  # QUICK_CONTACT, INSERT / EDIT

    def __init__(self, ctx: AppContext) -> None:
        super().__init__(ctx)
        self.store = ContactsStore(ctx)
        self.store.db.ensure()  # seed at boot, so the data is in the runner's base snapshots

    def providers(self) -> dict[str, ContentProvider]:
        return {AUTHORITY: self.store.provider()}

    def on_data_cleared(self) -> None:
        self.store.db.ensure()


__all__ = ["ContactsApp"]
