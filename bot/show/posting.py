"""The presenter: a table's state as posts (the table message, private hands, results).

It only builds: every method returns the posts (or the one post) to show, and the room
that holds the table's lock hands them to :class:`bot.show.dispatch.Dispatch`. Pictures
are drawn by ``bot.show.render`` in a worker thread, so drawing never stalls the other
tables. Each post is stamped with a version (the order the presenter made it in), so an
adapter knows which of two versions of one key is the newer.
"""

from __future__ import annotations

import asyncio
import itertools
import logging
from collections.abc import Callable
from typing import Any

from bot.ops import metrics
from bot.ops.clock import Clock
from bot.platform import Button, Channel, Post
from bot.play.table import Table
from bot.show import alt, render, texts
from bot.show.i18n import _, has_text
from engine import Action, ContractMade, DealEnded, Dealt, Event, Redealt
from engine.contract import BID_WORDS

log = logging.getLogger(__name__)

Rows = tuple[tuple[Button, ...], ...]

#: Engine events after which every hand at the table changed (not only the mover's).
WHOLE_HAND_EVENTS = (Dealt, ContractMade, Redealt, DealEnded)


def button_code(t: Table, code: str, seat: int | None = None) -> str:
    """A button's action: table, log position (stale presses), seat (whose hand), what."""
    seq = t.run.seq if t.run is not None else 0
    return f"t{t.id}:{seq}:{'-' if seat is None else seat}:{code}"


def table_locale(t: Table) -> str:
    """The channel's language: the host's."""
    for s in t.seats:
        if s is not None and s.user_id == t.host:
            return s.locale
    return "en"


class Presenter:
    """State to posts. ``renderer``: the pictures (None: text only); ``web``: the bot
    serves the web table (the table message offers it beside "Show my hand")."""

    def __init__(self, clock: Clock, renderer: Renderer | None, *, web: bool = False) -> None:
        self._clock = clock
        self._render = renderer
        self._web = web
        self._versions = itertools.count(1)

    @property
    def draws(self) -> bool:
        return self._render is not None

    def post(
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
        image_alt: str = "",
    ) -> Post:
        """One post about table ``t`` (``to_user``: private to that user); ``image_alt``:
        what the picture shows, in words (bot.show.alt)."""
        return Post(
            channel=Channel(t.channel),
            key=key,
            text=text,
            image=image,
            image_name=image_name,
            buttons=buttons,
            to_user=to_user,
            image_alt=image_alt if image is not None else "",
            lines=tuple(lines or ()),
            moment=self._moment(t) if moment is None else moment,
            version=next(self._versions),
        )

    @staticmethod
    def _moment(t: Table) -> str:
        """``m3-deal02-045``: the match, deal and log position a post shows."""
        run = t.run
        if run is None:
            return ""
        deal = run.match.k + 1 if run.match is not None else 0
        return f"m{run.id}-deal{deal:02d}-{run.seq:03d}"

    @metrics.timed_picture
    async def picture(self, draw: Callable[..., bytes], *args: Any, **kwargs: Any) -> bytes | None:
        """A picture drawn in a worker thread (Pillow), so the tables keep moving."""
        try:
            return await asyncio.to_thread(draw, *args, **kwargs)
        except Exception:
            log.exception("a picture could not be drawn")
            return None

    async def replay_picture(self, record: Any, names: list[str], locale: str) -> bytes | None:
        """The animated picture of one played deal (``/replay``); None without pictures."""
        if self._render is None:
            return None
        return await self.picture(
            self._render.render_replay, record, names, tr=self._render.tr(locale)
        )

    async def table(self, t: Table) -> Post:
        """The table message: seats, the match, its buttons."""
        loc = table_locale(t)
        lines = texts.table_lines(t, loc, self._clock.now())
        run = t.run
        image = await self.table_picture(t, loc)
        buttons: tuple[tuple[Button, ...], ...] = ()
        if t.status == "open":
            # everyone sees the same buttons; the core checks who may use them (Add bot and
            # Start: the host or an admin)
            row = [Button(_("label-join", loc), button_code(t, "join"))]
            if t.free_seats() and t.ref is None:
                row.append(Button(_("label-addbot", loc), button_code(t, "addbot")))
            if not t.free_seats():
                row.append(Button(_("label-start", loc), button_code(t, "start"), style="primary"))
            buttons = (tuple(row),)
        elif run is not None and run.match is not None and not run.over:
            row = [Button(_("label-hand", loc), button_code(t, "hand"))]
            if self._web:
                row.append(Button(_("label-web", loc), button_code(t, "web")))
            buttons = (tuple(row),)
        return self.post(
            t,
            f"table:{t.id}",
            texts.join(lines),
            image=image,
            buttons=buttons,
            lines=lines,
            image_alt=self.table_alt(t, loc),
        )

    @staticmethod
    def table_alt(t: Table, loc: str) -> str:
        """The table picture in words (see :mod:`bot.show.alt`)."""
        run = t.run
        if run is None or run.match is None:
            return ""
        view = run.match.view(None)
        contract = ""
        if view.contract is not None:
            contract = _(
                "contract-line",
                loc,
                contract=texts.contract_text(view.contract, loc),
                taker=texts.seat_name(run.seats[view.contract.taker], loc),
            )
        names = [texts.seat_name(s, loc) for s in run.seats]
        return alt.table_alt(view, names, t.tid, loc, contract=contract)

    async def table_picture(self, t: Table, loc: str) -> bytes | None:
        """The table's picture during (and at the end of) a match; None in the lobby."""
        run = t.run
        if self._render is None or run is None or run.match is None:
            return None
        mover = run.to_move
        left = None
        if mover is not None and not run.is_auto(mover) and run.timer > 0:
            left = max(0.0, run.last_at + run.timer - self._clock.now())
        return await self.picture(
            self._render.render_table,
            run.match.view(None),
            table_id=t.tid,
            names=[texts.seat_name(s, loc) for s in run.seats],
            time_left=left,
            show_last_trick=not run.match.current_trick,
            tr=self._render.tr(loc),
        )

    async def final_hands(self, t: Table) -> list[Post]:
        """The match is over: each person's private hand becomes its result, with the
        final table picture and no buttons, so nothing there is left to press."""
        run = t.run
        posts: list[Post] = []
        if run is None or not run.over or run.match is None:
            return posts
        for seat, s in enumerate(run.seats):
            if s.is_bot or s.user_id is None:
                continue
            lines = texts.final_hand_lines(run, seat, s.locale)
            posts.append(
                self.post(
                    t,
                    f"hand:{t.id}:{s.user_id}",
                    texts.join(lines),
                    lines=lines,
                    to_user=s.user_id,
                    image=await self.table_picture(t, s.locale),
                    image_name="hand.png",
                    image_alt=self.table_alt(t, s.locale),
                )
            )
        return posts

    async def hand(self, t: Table, seat: int) -> Post:
        """A player's private hand, with the choices they have now as buttons."""
        run = t.run
        assert run is not None and run.match is not None
        s = run.seats[seat]
        loc = s.locale
        lines = texts.hand_lines(run, seat, loc)
        buttons: list[tuple[Button, ...]] = []
        if run.to_move == seat and not run.is_auto(seat):
            buttons += self._choice_buttons(t, seat, loc)
        elif run.replaced[seat]:
            buttons.append((Button(_("label-back", loc), button_code(t, "back")),))
        image = None
        if self._render is not None:
            image = await self.picture(
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
            image_alt=""
            if image is None
            else alt.hand_alt(
                run.match.view(seat),
                texts.hand_order(run.match.view(seat)),
                t.tid,
                loc,
                moving=run.to_move == seat and not run.is_auto(seat),
            ),
            buttons=tuple(buttons),
            to_user=s.user_id,
            lines=tuple(lines),
            moment=self._moment(t),
            version=next(self._versions),
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
        if view.contract is None and run.match.rules.auction == "coinche":
            return self._coinche_buttons(t, seat, legal, loc)
        if view.contract is None or any(a.kind != "play" for a in legal):
            choices = [(a, a in legal) for a in texts.bid_universe(view, legal)]
            rows += _rows(
                [
                    Button(
                        texts.action_label(a, loc),
                        button_code(t, a.text, seat),
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
                        button_code(t, f"play {texts.card_text(card)}", seat),
                        enabled=False,
                    )
                )
                continue
            default = texts.default_play(variants, belote=intent)
            cards.append(
                Button(texts.card_text(card), button_code(t, default.text, seat), style="primary")
            )
            if not default.belote:
                announce = [a for a in variants if a.belote and a.melds == default.melds]
                if announce:
                    label = _("label-play-belote", loc, card=texts.card_text(card))
                    extras.append(Button(label, button_code(t, announce[0].text, seat)))
        return _rows(cards) + _rows(extras)

    def _coinche_buttons(
        self, t: Table, seat: int, legal: list[Action], loc: str
    ) -> list[tuple[Button, ...]]:
        """Coinche's auction in two steps, as up to 66 bids fit no keyboard: first the
        values still open (``80`` ... ``Capot``), then, for the value picked, one button a
        contract (``90 ♥``) and a way back to the values. Pass and Coinche! or Surcoinche!
        are on both. Only legal choices are shown: a value button's answer is the same
        hand with that value's contracts (see ``Turns.pick_value``)."""
        run = t.run
        assert run is not None
        values = bid_values(legal)
        picked = run.drafted_value(seat)
        calls = [
            Button(
                texts.action_label(a, loc),
                button_code(t, a.text, seat),
                style="danger" if a.kind != "pass" else "secondary",
            )
            for a in legal
            if a.kind != "bid"
        ]
        if picked is not None and picked in values:
            bids = [
                Button(texts.action_label(a, loc), button_code(t, a.text, seat), style="primary")
                for a in legal
                if a.kind == "bid" and a.value == picked
            ]
            back = Button(_("label-bid-values", loc), button_code(t, "values", seat))
            return _rows(bids, 4) + _rows([back, *calls])
        steps = [
            Button(
                texts.value_label(v, loc),
                button_code(t, f"value {BID_WORDS.get(v, v)}", seat),
                style="primary",
            )
            for v in values
        ]
        return _rows(steps) + _rows(calls)

    def announcements(self, t: Table, events: list[Event]) -> list[Post]:
        """Melds shown, belote announced, a deal dealt again: one line to the table each,
        as it happens (the totals alone would tell it only after the deal)."""
        run = t.run
        if run is None or run.match is None:
            return []
        lines = texts.announcement_lines(run, events, table_locale(t))
        if not lines:
            return []
        key = f"announce:{t.id}:{run.id}:{run.seq}"
        return [self.post(t, key, texts.join(lines), lines=lines)]

    async def deal_results(self, t: Table, events: list[Event]) -> list[Post]:
        """The announcements the events made, then each deal that just ended: its
        result, as text and as a picture, to the table."""
        run = t.run
        posts = self.announcements(t, events)
        if run is None or run.match is None:
            return posts
        loc = table_locale(t)
        for e in events:
            if not isinstance(e, DealEnded):
                continue
            k = e.result.k
            record = next((d for d in run.match.deals if d.k == k), None)
            if record is None or record.result is None:
                continue
            lines = texts.result_lines(run, record, loc)
            image = None
            if self._render is not None:
                image = await self.picture(
                    self._render.render_deal_result,
                    record.result,
                    [texts.seat_name(s, loc) for s in run.seats],
                    record=record,
                    target=run.target or run.match.target,
                    table_id=t.tid,
                    ruleset=run.ruleset,
                    tr=self._render.tr(loc),
                )
            posts.append(
                self.post(
                    t,
                    f"result:{run.id}:{k}",
                    texts.join(lines),
                    lines=lines,
                    image=image,
                    image_name="result.png",
                    moment=f"m{run.id}-deal{k + 1:02d}",
                    # the picture's table of points; not the last trick (text only)
                    image_alt=alt.result_alt(
                        k + 1, [text for kind, text in lines if kind != "trick-won"], loc
                    ),
                )
            )
        return posts

    async def hands(self, t: Table, seats: list[int]) -> list[Post]:
        """The private hands of these seats (people only, not those who left)."""
        run = t.run
        posts: list[Post] = []
        if run is None or run.match is None:
            return posts
        for seat in seats:
            s = run.seats[seat]
            if s.is_bot or s.user_id is None or run.left[seat]:
                continue
            posts.append(await self.hand(t, seat))
        return posts

    async def changed(self, t: Table, events: list[Event], actor: int | None) -> list[Post]:
        """What a change of the match shows while it goes on: the deals it ended, the
        table, the hands it changed (the actor's and the next mover's; everyone's when a
        deal began or ended), and a notice to whoever's turn timed out."""
        run = t.run
        assert run is not None
        posts = await self.deal_results(t, events)
        posts.append(await self.table(t))
        if run.match is None:
            return posts
        whole_hand = any(isinstance(e, WHOLE_HAND_EVENTS) for e in events)
        who = list(range(4)) if whole_hand or actor is None else [actor, run.to_move]
        posts += await self.hands(t, [s for s in dict.fromkeys(who) if s is not None])
        last = run.last_action
        if actor is not None and last is not None and last[2] == "timeout":
            notice = self.timeout_notice(t, actor)
            if notice is not None:
                posts.append(notice)
        return posts

    def timeout_notice(self, t: Table, seat: int) -> Post | None:
        """Told to a person whose timer ran out: what the AI played for them."""
        run = t.run
        assert run is not None and run.last_action is not None
        s = run.seats[seat]
        if s.user_id is None:
            return None
        key = "timeout-replaced" if run.replaced[seat] else "timeout-played"
        action = texts.action_command(Action.parse(run.last_action[1]))
        return self.post(
            t, f"notice:{t.id}:{s.user_id}", _(key, s.locale, action=action), to_user=s.user_id
        )

    def busy_notice(self, t: Table, user_id: str, locale: str) -> Post:
        """Told to a player whose move waits for the database (another program holds its
        lock): the move is kept, its usual answer comes once it is stored."""
        return self.post(
            t, f"notice:{t.id}:{user_id}", _("notice-table-busy", locale), to_user=user_id
        )

    def reveal(self, t: Table) -> Post:
        """The server seed, shown once the match is over (public from this post on)."""
        run = t.run
        assert run is not None
        return self.post(
            t,
            f"reveal:{run.id}",
            _(
                # closed before its first deal: nothing to /verify, so no invitation to
                "reveal-post" if run.match is not None else "reveal-post-undealt",
                table_locale(t),
                match=f"m{run.id}",
                seed=run.server_seed.hex(),
                commitment=run.commitment,
            ),
        )

    async def ended(self, t: Table) -> list[Post]:
        """The match is over: the reveal first (the table and the hands show the seed
        from then on), the table, each person's final hand."""
        return [self.reveal(t), await self.table(t), *await self.final_hands(t)]


def bid_values(legal: list[Action]) -> list[int]:
    """The values of Coinche's legal bids, lowest first, each once."""
    return list(dict.fromkeys(a.value for a in legal if a.kind == "bid" and a.value is not None))


def _rows(buttons: list[Button], width: int = 5) -> list[tuple[Button, ...]]:
    """Buttons in rows of ``width`` (Discord's most per row; Telegram shows them alike)."""
    return [tuple(buttons[i : i + width]) for i in range(0, len(buttons), width)]


class Renderer:
    """The pictures of ``bot/show/render``, their texts translated through the one catalog."""

    # Reached through the package at each call, not bound here: Pillow and the drawing code
    # load with the first picture, never for a table that draws none (the terminal's).
    @staticmethod
    def render_table(*args: Any, **kwargs: Any) -> bytes:
        return render.render_table(*args, **kwargs)

    @staticmethod
    def render_hand(*args: Any, **kwargs: Any) -> bytes:
        return render.render_hand(*args, **kwargs)

    @staticmethod
    def render_replay(*args: Any, **kwargs: Any) -> bytes:
        return render.render_replay(*args, **kwargs)

    @staticmethod
    def render_deal_result(*args: Any, **kwargs: Any) -> bytes:
        return render.render_deal_result(*args, **kwargs)

    @staticmethod
    def tr(locale: str) -> Any:
        """The renderer's by-English-text translation for ``locale``."""
        return render.translator(
            lambda key: _(key, locale) if has_text(key, locale) or has_text(key) else key
        )
