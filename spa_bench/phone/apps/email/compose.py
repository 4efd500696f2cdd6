"""Writing mail (`com.android.email.ComposeActivity`): a new mail, a reply, a reply to all, a
forward, an edited draft, or a mail another app shares files to (Gallery's Share > Email).

Attach file opens the Files app's document picker (`com.android.documentsui.picker.PickActivity` in
`open` mode); the picked file comes back through `on_result`, as `onActivityResult` would. Leaving the
screen with something written keeps it in Drafts.

Screen state (`record.ui`): the fields `text:to`, `text:cc`, `text:subject`, `text:body`, the
`attachments` (name, path, size), `quote` (the forwarded or replied-to text, sent below the body),
`thread_id` and `draft_id`, `ready` once they were filled from the arguments and `initial`, what they
held then (backing out of an unchanged screen keeps no draft).
"""

from __future__ import annotations

import posixpath
from functools import partial
from typing import Any

from spa_bench.phone.apps.email.base import RID, EmailActivity
from spa_bench.phone.apps.email.store import Attachment, Draft, addresses
from spa_bench.phone.apps.files.listing import format_size
from spa_bench.phone.apps.shop.widgets import icon_button
from spa_bench.phone.ui import LINEAR, ImageView, Rect, TextView, View
from spa_bench.phone.vfs import VfsError

PICKER = ("com.android.documentsui", "com.android.documentsui.picker.PickActivity")
FIELDS = ("to", "cc", "subject", "body")


def _prefixed(prefix: str, subject: str) -> str:
    return subject if subject.casefold().startswith(prefix.casefold()) else f"{prefix} {subject}"


class ComposeActivity(EmailActivity):
    name = "com.android.email.ComposeActivity"

    # -- filling the fields once from the intent ----------------------------------------------------------
    def _prepare(self) -> None:
        ui = self.record.ui
        if ui.get("ready"):
            return
        ui["ready"] = True
        args = self.record.args
        store = self.app.store
        attachments: list[dict[str, Any]] = []
        if "draft_id" in args:
            draft = store.message(int(args["draft_id"]))
            if draft is not None:
                ui.update(
                    {
                        "text:to": draft.to,
                        "text:cc": draft.cc,
                        "text:subject": draft.subject,
                        "text:body": draft.body,
                        "draft_id": draft.id,
                    }
                )
                attachments = [vars(a) for a in draft.attachments]
        elif "source" in args:
            source = store.message(int(args["source"]))
            mode = str(args.get("mode", "reply"))
            if source is not None:
                mine = source.from_addr == self.account
                header = f"{self.long_date(source.timestamp)}, {source.from_name} <{source.from_addr}>"
                if mode == "forward":
                    ui["text:subject"] = _prefixed("Fwd:", source.subject)
                    ui["quote"] = (
                        f"{self.t('fwd_header')}\n{header}\n{self.t('subject')}: {source.subject}"
                        f"\n\n{source.body}"
                    )
                    attachments = [vars(a) for a in source.attachments]
                else:
                    first = addresses(source.to) if mine else [source.from_addr]
                    to = list(first)
                    cc: list[str] = []
                    if mode == "reply_all":
                        to += [a for a in addresses(source.to) if a != self.account and a not in to]
                        cc = [a for a in addresses(source.cc) if a != self.account and a not in to]
                    ui.update(
                        {
                            "text:to": ", ".join(to),
                            "text:cc": ", ".join(cc),
                            "text:subject": _prefixed("Re:", source.subject),
                            "thread_id": source.thread_id,
                            "quote": f"{header}:\n> " + source.body.replace("\n", "\n> "),
                        }
                    )
        else:
            ui["text:to"] = str(args.get("to", ""))
            ui["text:subject"] = str(args.get("subject", ""))
            for path in args.get("attachments", []):
                attachments.extend(self._file(str(path)))
        ui["attachments"] = attachments
        ui["initial"] = self._fingerprint()
        ui.setdefault("focus", "to" if not ui.get("text:to") else "body")

    def _fingerprint(self) -> list[Any]:
        """What the fields hold: leaving unchanged keeps no draft (a reply opened and closed, a share
        backed out of)."""
        ui = self.record.ui
        return [str(ui.get(f"text:{k}", "")).strip() for k in FIELDS] + [
            [str(a["path"]) + "|" + str(a["name"]) for a in ui.get("attachments", [])]
        ]

    def _file(self, path: str) -> list[dict[str, Any]]:
        try:
            size = self.app.fs.stat(path).size
        except VfsError:
            return []
        return [{"name": posixpath.basename(path), "path": path, "size": size}]

    def on_result(self, result: dict[str, Any]) -> None:
        """The document picker's answer: attach the picked file."""
        self._prepare()
        picked = self._file(str(result.get("path", "")))
        current = list(self.record.ui.get("attachments", []))
        if picked and all(a["path"] != picked[0]["path"] for a in current):
            self.record.ui["attachments"] = [*current, *picked]

    # -- actions -----------------------------------------------------------------------------------------
    def draft(self) -> Draft:
        self._prepare()  # an action may come before the first frame was built
        ui = self.record.ui
        body = str(ui.get("text:body", ""))
        quote = str(ui.get("quote", ""))
        return Draft(
            str(ui.get("text:to", "")).strip(),
            str(ui.get("text:cc", "")).strip(),
            str(ui.get("text:subject", "")).strip(),
            f"{body}\n\n{quote}" if quote else body,
            tuple(
                Attachment(str(a["name"]), str(a["path"]), int(a["size"])) for a in ui.get("attachments", [])
            ),
            int(ui["thread_id"]) if ui.get("thread_id") is not None else None,
        )

    def _leave(self) -> None:
        self.ctx.finish()
        caller = str(self.record.args.get("caller", ""))
        if caller:
            self.ctx.launch(caller)

    def send(self) -> None:
        draft = self.draft()
        if not addresses(draft.to):
            self.ctx.toast(self.t("need_recipient"))
            return
        draft_id = self.ui("draft_id")
        self.app.store.save(
            self.account,
            self.me[0],
            draft,
            self.now_ms(),
            "sent",
            int(draft_id) if draft_id is not None else None,
        )
        self._leave()
        self.ctx.toast(self.t("sent_toast"))

    def close(self) -> None:
        """Back: what was written stays in Drafts."""
        self._prepare()
        ui = self.record.ui
        changed = self._fingerprint() != ui.get("initial")
        draft_id = ui.get("draft_id")
        if changed:
            self.app.store.save(
                self.account,
                self.me[0],
                self.draft(),
                self.now_ms(),
                "drafts",
                int(draft_id) if draft_id is not None else None,
            )
            self._leave()
            self.ctx.toast(self.t("draft_saved"))
        else:
            self._leave()

    def discard(self) -> None:
        draft_id = self.ui("draft_id")
        if draft_id is not None:
            self.app.store.discard_draft(int(draft_id))
        self._leave()
        self.ctx.toast(self.t("discarded"))

    def on_back(self) -> bool:
        if super().on_back():
            return True
        self.close()
        return True

    def attach(self) -> None:
        self.ctx.start_activity(PICKER[1], {"mode": "open", "caller": self.ctx.package}, package=PICKER[0])

    def remove(self, path: str, name: str) -> None:
        kept = [a for a in self.ui("attachments", []) if (a["path"], a["name"]) != (path, name)]
        self.set_ui("attachments", kept)

    def _next(self, key: str) -> None:
        order = list(FIELDS)
        self.set_ui("focus", order[min(order.index(key) + 1, len(order) - 1)])

    # -- screen ------------------------------------------------------------------------------------------
    def build(self, area: Rect) -> View:
        self._prepare()
        kit = self.kit
        p = kit.palette
        root = View(area, class_name=LINEAR, rid=RID + "compose")
        bar, bar_h = kit.app_bar(area, self.t("compose"), self.close, package="com.android.email")
        bar.children[0].desc = self.t("navigate_up")
        s = kit.dp(48)
        top = area.top + kit.dp(8)
        x = area.right - kit.dp(4)
        for key, glyph, desc, action in (
            ("send", "send", self.t("send"), self.send),
            ("discard", "delete", self.t("discard"), self.discard),
            ("action_attach", "attach", self.t("attach"), self.attach),
        ):
            bar.add(
                icon_button(
                    kit,
                    Rect(x - s, top, x, top + s),
                    glyph,
                    desc,
                    action,
                    rid=RID + key,
                    color=p.primary if key == "send" else None,
                )
            )
            x -= s
        root.add(bar)
        rows: list[View] = []
        y = area.top + bar_h
        left = area.left + kit.dp(16)
        right = area.right - kit.dp(16)
        label_w = kit.dp(72)
        rows.append(
            TextView(
                Rect(left, y, left + label_w, y + kit.dp(52)),
                self.t("from"),
                kit.body_medium,
                p.on_surface_variant,
            )
        )
        rows.append(
            TextView(
                Rect(left + label_w, y, right, y + kit.dp(52)),
                self.account,
                kit.body_large,
                p.on_surface,
                rid=RID + "from",
            )
        )
        y += kit.dp(52)
        for key in ("to", "cc", "subject"):
            rows.append(View(Rect(left, y, right, y + 1), bg=p.divider))
            if key != "subject":
                rows.append(
                    TextView(
                        Rect(left, y, left + label_w, y + kit.dp(56)),
                        self.t(key),
                        kit.body_medium,
                        p.on_surface_variant,
                    )
                )
                field_left = left + label_w
            else:
                field_left = left
            rows.append(
                self.text_field(
                    Rect(field_left, y + kit.dp(4), right, y + kit.dp(52)),
                    key,
                    self.t(key) if key == "subject" else "",
                    rid=RID + key,
                    on_submit=partial(self._next, key),
                )
            )
            y += kit.dp(56)
        rows.append(View(Rect(left, y, right, y + 1), bg=p.divider))
        y += kit.dp(8)
        rows.append(
            self.text_field(
                Rect(left, y, right, y + kit.dp(96)), "body", self.t("body_hint"), rid=RID + "body",
                multi_line=True,
            )
        )
        y += kit.dp(104)
        for a in self.ui("attachments", []):
            card = View(
                Rect(left, y, right, y + kit.dp(56)),
                class_name=LINEAR,
                bg=p.surface_high,
                radius=kit.dp(8),
                rid=RID + "attachment",
                desc=str(a["name"]),
            )
            cy = y + kit.dp(28)
            g = kit.dp(28)
            card.add(
                ImageView(
                    Rect(left + kit.dp(12), cy - g // 2, left + kit.dp(12) + g, cy + g // 2),
                    "image" if str(a["name"]).lower().endswith((".jpg", ".png")) else "file",
                    p.primary,
                )
            )
            card.add(
                TextView(
                    Rect(left + kit.dp(52), y + kit.dp(6), right - kit.dp(56), y + kit.dp(30)),
                    str(a["name"]),
                    kit.body_medium,
                    p.on_surface,
                    rid=RID + "attachment_name",
                )
            )
            card.add(
                TextView(
                    Rect(left + kit.dp(52), y + kit.dp(30), right - kit.dp(56), y + kit.dp(50)),
                    format_size(int(a["size"])),
                    kit.label,
                    p.on_surface_variant,
                )
            )
            card.add(
                icon_button(
                    kit,
                    Rect(right - kit.dp(48), cy - kit.dp(20), right - kit.dp(8), cy + kit.dp(20)),
                    "close",
                    self.t("remove_attachment"),
                    partial(self.remove, str(a["path"]), str(a["name"])),
                    rid=RID + "remove_attachment",
                )
            )
            rows.append(card)
            y += kit.dp(64)
        quote = str(self.ui("quote", ""))
        if quote:
            width = right - left
            for para in quote.split("\n"):
                h = TextView.wrapped_height(para or " ", kit.body_medium, width, 6)
                rows.append(
                    TextView(
                        Rect(left, y, right, y + h),
                        para,
                        kit.body_medium,
                        p.on_surface_variant,
                        max_lines=6,
                        rid=RID + "quoted_text",
                    )
                )
                y += h
        root.add(
            self.scroll_list(
                Rect(area.left, area.top + bar_h, area.right, area.bottom),
                rows,
                rid=RID + "compose_scroll",
                padding_bottom=kit.dp(24),
            )
        )
        return root


__all__ = ["ComposeActivity"]
