"""What the app shows: the table message, private hands, pictures.

Posts are delivered through the platform; pictures are drawn by ``bot.show.render`` (when it
is present) in a worker thread, so drawing never stalls the other tables.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import Any

from bot.ops import metrics
from bot.platform import Button, Channel, Post
from bot.play.table import Table
from bot.show import render, texts
from bot.show.i18n import _, has_text

log = logging.getLogger(__name__)


class Posting:
    """Building and delivering posts."""

    def _loc(self, t: Table) -> str:
        """The channel's language: the host's."""
        for s in t.seats:
            if s is not None and s.user_id == t.host:
                return s.locale
        return "en"

    async def _post(
        self,
        t: Table,
        key: str,
        text: str,
        *,
        to_user: str | None = None,
        image: bytes | None = None,
        image_name: str = "table.png",
        buttons: tuple[tuple[Button, ...], ...] = (),
        lines: texts.Lines | None = None,
        moment: str | None = None,
    ) -> None:
        post = Post(
            channel=Channel(t.channel),
            key=key,
            text=text,
            image=image,
            image_name=image_name,
            buttons=buttons,
            to_user=to_user,
            lines=tuple(lines or ()),
            moment=self._moment(t) if moment is None else moment,
        )
        await self._deliver(post)

    @staticmethod
    def _moment(t: Table) -> str:
        """``m3-deal02-045``: the match, deal and log position a post shows."""
        run = t.run
        if run is None:
            return ""
        deal = run.match.k + 1 if run.match is not None else 0
        return f"m{run.id}-deal{deal:02d}-{run.seq:03d}"

    async def _deliver(self, post: Post) -> None:
        try:
            await self.platform.deliver(post)
        except Exception:
            log.exception("could not deliver post %s", post.key)

    @metrics.timed_picture
    async def _picture(self, draw: Callable[..., bytes], *args: Any, **kwargs: Any) -> bytes | None:
        """A picture drawn in a worker thread (Pillow), so the tables keep moving."""
        try:
            return await asyncio.to_thread(draw, *args, **kwargs)
        except Exception:
            log.exception("a picture could not be drawn")
            return None

    async def _post_table(self, t: Table) -> None:
        loc = self._loc(t)
        lines = texts.table_lines(t, loc, self.clock.now())
        run = t.run
        image = await self._table_picture(t, loc)
        buttons: tuple[tuple[Button, ...], ...] = ()
        if t.status == "open":
            # everyone sees the same buttons; the core checks who may use them (Add bot and
            # Start: the host or an admin)
            row = [Button(_("label-join", loc), self._code(t, "join"))]
            if t.free_seats() and t.ref is None:
                row.append(Button(_("label-addbot", loc), self._code(t, "addbot")))
            if not t.free_seats():
                row.append(Button(_("label-start", loc), self._code(t, "start"), style="primary"))
            buttons = (tuple(row),)
        elif run is not None and run.match is not None and not run.over:
            buttons = ((Button(_("label-hand", loc), self._code(t, "hand")),),)
        await self._post(
            t, f"table:{t.id}", texts.join(lines), image=image, buttons=buttons, lines=lines
        )

    async def _table_picture(self, t: Table, loc: str) -> bytes | None:
        """The table's picture during (and at the end of) a match; None in the lobby."""
        run = t.run
        if self._render is None or run is None or run.match is None:
            return None
        mover = run.to_move
        left = None
        if mover is not None and not run.is_auto(mover) and run.timer > 0:
            left = max(0.0, run.last_at + run.timer - self.clock.now())
        return await self._picture(
            self._render.render_table,
            run.match.view(None),
            table_id=t.tid,
            names=[texts.seat_name(s, loc) for s in run.seats],
            time_left=left,
            show_last_trick=not run.match.current_trick,
            tr=self._render.tr(loc),
        )

    async def _post_final_hands(self, t: Table) -> None:
        """The match is over: each person's private hand becomes its result, with the
        final table picture and no buttons, so nothing there is left to press."""
        run = t.run
        if run is None or not run.over or run.match is None:
            return
        for seat, s in enumerate(run.seats):
            if s.is_bot or s.user_id is None:
                continue
            lines = texts.final_hand_lines(run, seat, s.locale)
            await self._post(
                t,
                f"hand:{t.id}:{s.user_id}",
                texts.join(lines),
                lines=lines,
                to_user=s.user_id,
                image=await self._table_picture(t, s.locale),
                image_name="hand.png",
            )

    async def _hand_post(self, t: Table, seat: int) -> Post:
        run = t.run
        assert run is not None and run.match is not None
        s = run.seats[seat]
        loc = s.locale
        lines = texts.hand_lines(run, seat, loc)
        buttons: list[tuple[Button, ...]] = []
        if run.to_move == seat and not run.is_auto(seat):
            buttons += self._choice_buttons(t, seat, loc)
        elif run.replaced[seat]:
            buttons.append((Button(_("label-back", loc), self._code(t, "back")),))
        image = None
        if self._render is not None:
            image = await self._picture(
                self._render.render_hand,
                run.match.view(seat),
                table_id=t.tid,
                seat_name=s.name,
                tr=self._render.tr(loc),
            )
        return Post(
            channel=Channel(t.channel),
            key=f"hand:{t.id}:{s.user_id}",
            text=texts.join(lines),
            image=image,
            image_name="hand.png",
            buttons=tuple(buttons),
            to_user=s.user_id,
            lines=tuple(lines),
            moment=self._moment(t),
        )

    def _choice_buttons(self, t: Table, seat: int, loc: str) -> list[tuple[Button, ...]]:
        """Every card of the hand (or every bid of this round), the illegal ones disabled.

        A player sees their whole hand as buttons, in the picture's order; a disabled
        button still carries its action, which the core refuses if it is pressed anyway.
        A card button plays the card's usual variant (melds declared, belote when it was
        said before); the belote announcement gets its own button next to the cards.
        """
        run = t.run
        assert run is not None and run.match is not None
        view = run.match.view(seat)
        legal = list(view.legal)
        rows: list[tuple[Button, ...]] = []
        if view.contract is None or any(a.kind != "play" for a in legal):
            choices = [(a, a in legal) for a in texts.bid_universe(view, legal)]
            rows += _rows(
                [
                    Button(
                        texts.action_label(a, loc),
                        self._code(t, a.text, seat),
                        enabled=ok,
                        style="primary" if ok and a.kind != "pass" else "secondary",
                    )
                    for a, ok in choices
                ]
            )
            return rows
        intent = run.belote_intent[seat]
        cards: list[Button] = []
        extras: list[Button] = []
        for card in texts.hand_order(view):
            variants = [a for a in legal if a.kind == "play" and a.card == card]
            if not variants:
                cards.append(
                    Button(
                        texts.card_text(card),
                        self._code(t, f"play {texts.card_text(card)}", seat),
                        enabled=False,
                    )
                )
                continue
            default = texts.default_play(variants, belote=intent)
            cards.append(
                Button(texts.card_text(card), self._code(t, default.text, seat), style="primary")
            )
            if not default.belote:
                announce = [a for a in variants if a.belote and a.melds == default.melds]
                if announce:
                    label = _("label-play-belote", loc, card=texts.card_text(card))
                    extras.append(Button(label, self._code(t, announce[0].text, seat)))
        return _rows(cards) + _rows(extras)

    async def _post_announcements(self, t: Table, events: list[Any]) -> None:
        """Melds shown, belote announced, a deal dealt again: one line to the table each,
        as it happens (the totals alone would tell it only after the deal)."""
        run = t.run
        if run is None or run.match is None:
            return
        lines = texts.announcement_lines(run, events, self._loc(t))
        if lines:
            key = f"announce:{t.id}:{run.id}:{run.seq}"
            await self._post(t, key, texts.join(lines), lines=lines)

    async def _post_deal_results(self, t: Table, events: list[Any]) -> None:
        """Each deal that just ended: its result, as text and as a picture, to the table."""
        await self._post_announcements(t, events)
        run = t.run
        if run is None or run.match is None:
            return
        loc = self._loc(t)
        for e in events:
            if getattr(e, "kind", None) != "deal_end":
                continue
            k = e.data["k"]
            record = next((d for d in run.match.deals if d.k == k), None)
            if record is None or record.result is None:
                continue
            lines = texts.result_lines(run, record, loc)
            image = None
            if self._render is not None:
                image = await self._picture(
                    self._render.render_deal_result,
                    record.result,
                    [texts.seat_name(s, loc) for s in run.seats],
                    record=record,
                    target=run.target or run.match.target,
                    table_id=t.tid,
                    ruleset=run.ruleset,
                    tr=self._render.tr(loc),
                )
            await self._post(
                t,
                f"result:{run.id}:{k}",
                texts.join(lines),
                lines=lines,
                image=image,
                image_name="result.png",
                moment=f"m{run.id}-deal{k + 1:02d}",
            )

    async def _post_hands(self, t: Table, seats: list[int]) -> None:
        run = t.run
        if run is None or run.match is None:
            return
        for seat in seats:
            s = run.seats[seat]
            if s.is_bot or s.user_id is None or run.left[seat]:
                continue
            await self._deliver(await self._hand_post(t, seat))


def _rows(buttons: list[Button], width: int = 5) -> list[tuple[Button, ...]]:
    """Buttons in rows of ``width`` (Discord's most per row; Telegram shows them alike)."""
    return [tuple(buttons[i : i + width]) for i in range(0, len(buttons), width)]


class Renderer:
    """The pictures of ``bot/show/render``, their texts translated through the one catalog."""

    render_table = staticmethod(render.render_table)
    render_hand = staticmethod(render.render_hand)
    render_replay = staticmethod(render.render_replay)
    render_deal_result = staticmethod(render.render_deal_result)

    @staticmethod
    def tr(locale: str) -> Any:
        """The renderer's by-English-text translation for ``locale``."""
        return render.translator(
            lambda key: _(key, locale) if has_text(key, locale) or has_text(key) else key
        )
