"""The in-call screen (`com.android.incallui.InCallActivity`, the InCallService UI of AOSP's Dialer): a
ringing call offers Answer and Decline; an active one shows its talk time (from the phone's monotonic
clock) with Mute, Keypad, Speaker and End. Hanging up makes Telecom write the call-log row."""

from __future__ import annotations

from functools import partial

from spa_bench.phone.apps.contacts.pim import Avatar
from spa_bench.phone.apps.dialer.base import RID, DialerActivity, dialable
from spa_bench.phone.apps.dialer.main import KEYS
from spa_bench.phone.system.telecom import PLACE_REQUEST
from spa_bench.phone.system.telephony import Call, TelephonyError
from spa_bench.phone.ui import FRAME, LINEAR, Callback, ImageView, Rect, TextView, View

GREEN, RED = (30, 142, 62), (217, 48, 37)


class InCallActivity(DialerActivity):
    name = "com.android.incallui.InCallActivity"

    @property
    def number(self) -> str:
        return dialable(str(self.record.args.get("number", "")))

    def call(self) -> Call | None:
        return next((c for c in self.ctx.telecom.calls() if c.number == self.number), None)

    def on_back(self) -> bool:
        if self.ui("keypad"):
            self.set_ui("keypad", None)
            return True
        return False

    def _place_if_asked(self) -> None:
        """A CALL intent (`am start -a android.intent.action.CALL -d tel:...`) places the call once, when
        the in-call screen first comes up (Telecom places it asynchronously after the intent on Android
        too; activities here have no onCreate, so the first build stands in for it)."""
        if self.record.args.get(PLACE_REQUEST) and not self.ui("placed"):
            self.record.ui["placed"] = 1
            try:
                self.ctx.telecom.place_call(self.number)
            except TelephonyError:
                pass

    def build(self, area: Rect) -> View:
        self._place_if_asked()
        kit = self.kit
        root = View(area, class_name=FRAME, rid=RID + "incall_screen", bg=(32, 33, 36))
        fg, dim = (255, 255, 255), (189, 193, 198)
        call = self.call()
        name = self.app.contacts.name_for_number(self.number)
        y = area.top + kit.dp(64)
        if call is None:
            status = self.t("call_ended")
        elif call.state in ("incoming", "waiting"):
            status = self.t("incoming_call")
        elif call.answered_at is not None:
            secs = int(self.ctx.clock.monotonic() - call.answered_at)
            status = f"{secs // 60:02d}:{secs % 60:02d}"
        else:
            status = self.t("calling")
        root.add(
            TextView(
                Rect(area.left, y, area.right, y + kit.dp(24)),
                status,
                kit.body_medium,
                dim,
                align="center",
                rid=RID + "contactgrid_status_text",
            )
        )
        y += kit.dp(32)
        root.add(
            TextView(
                Rect(area.left + kit.dp(16), y, area.right - kit.dp(16), y + kit.dp(48)),
                name or self.number,
                kit.dp(32),
                fg,
                align="center",
                rid=RID + "contactgrid_contact_name",
            )
        )
        y += kit.dp(52)
        if name:
            root.add(
                TextView(
                    Rect(area.left, y, area.right, y + kit.dp(24)),
                    self.number,
                    kit.body_medium,
                    dim,
                    align="center",
                    rid=RID + "contactgrid_bottom_text",
                )
            )
        s = kit.dp(120)
        cx = area.center[0]
        root.add(Avatar(kit, Rect(cx - s // 2, y + kit.dp(48), cx + s // 2, y + kit.dp(48) + s), name or "#"))
        if call is None:
            return root
        if call.state in ("incoming", "waiting"):
            root.add(self._round(area, 0.25, GREEN, "call", self.t("answer"), self._answer, "answer_button"))
            root.add(
                self._round(area, 0.75, RED, "call_end", self.t("decline"), self._decline, "decline_button")
            )
            return root
        if self.ui("keypad"):
            root.add(self._keypad(area))
        else:
            toggles = (
                ("mute", "mic", "incall_mute_button"),
                ("keypad", "dialpad", "incall_dialpad_button"),
                ("speaker", "speaker", "incall_speaker_button"),
            )
            top = area.bottom - kit.dp(300)
            w = area.width // 3
            for i, (key, glyph, rid) in enumerate(toggles):
                on = bool(self.ui(key))
                left = area.left + i * w
                cell = View(
                    Rect(left, top, left + w, top + kit.dp(100)),
                    class_name=LINEAR,
                    rid=RID + rid,
                    desc=self.t(key),
                    on_click=partial(self.set_ui, key, None if on else 1),
                    checkable=key != "keypad",
                    checked=on,
                )
                b = kit.dp(64)
                c = left + w // 2
                cell.add(
                    ImageView(
                        Rect(c - b // 2, top, c + b // 2, top + b),
                        glyph,
                        (32, 33, 36) if on else fg,
                        circle=fg if on else (60, 64, 67),
                        scale=0.45,
                    )
                )
                cell.add(
                    TextView(
                        Rect(left, top + kit.dp(70), left + w, top + kit.dp(94)),
                        self.t(key),
                        kit.body_medium,
                        fg,
                        align="center",
                    )
                )
                root.add(cell)
        root.add(self._round(area, 0.5, RED, "call_end", self.t("end_call"), self._end, "incall_end_call"))
        return root

    def _round(
        self, area: Rect, x: float, color: tuple[int, int, int], glyph: str, desc: str, cb: Callback, rid: str
    ) -> View:
        kit = self.kit
        s = kit.dp(72)
        cx = area.left + round(area.width * x)
        cy = area.bottom - kit.dp(96)
        button = View(
            Rect(cx - s // 2, cy - s // 2, cx + s // 2, cy + s // 2),
            rid=RID + rid,
            desc=desc,
            on_click=cb,
            bg=color,
            radius=s // 2,
            class_name="android.widget.ImageButton",
        )
        button.add(ImageView(button.bounds.inset(kit.dp(20), kit.dp(20)), glyph, (255, 255, 255)))
        return button

    def _keypad(self, area: Rect) -> View:
        kit = self.kit
        fg = (255, 255, 255)
        key_h = kit.dp(60)
        top = area.bottom - kit.dp(160) - 4 * key_h - kit.dp(40)
        panel = View(
            Rect(area.left, top, area.right, top + 4 * key_h + kit.dp(40)),
            class_name=LINEAR,
            rid=RID + "incall_dialpad",
        )
        panel.add(
            TextView(
                Rect(area.left, top, area.right, top + kit.dp(36)),
                str(self.ui("tones", "")),
                kit.dp(24),
                fg,
                align="center",
                rid=RID + "dtmf_digits",
            )
        )
        w = area.width // 3
        for i, (char, rid, _letters) in enumerate(KEYS):
            left = area.left + (i % 3) * w
            y = top + kit.dp(40) + (i // 3) * key_h
            panel.add(
                TextView(
                    Rect(left, y, left + w, y + key_h),
                    char,
                    kit.dp(28),
                    fg,
                    align="center",
                    rid=RID + rid,
                    desc=char,
                    on_click=partial(self.set_ui, "tones", str(self.ui("tones", "")) + char),
                )
            )
        return panel

    def _answer(self) -> None:
        self.ctx.telecom.answer(self.number)

    def _decline(self) -> None:
        self.ctx.telecom.end(self.number, self.app.contacts.name_for_number(self.number), rejected=True)
        self._leave()

    def _end(self) -> None:
        self.ctx.telecom.end(self.number, self.app.contacts.name_for_number(self.number))
        self._leave()

    def _leave(self) -> None:
        """Close the in-call UI; an incoming call that rang over another app returns to it."""
        back = str(self.record.args.get("return_to") or "")
        self.ctx.finish()
        if back:
            self.ctx.launch(back)
