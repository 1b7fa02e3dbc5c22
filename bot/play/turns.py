"""Moves: a player's bid or card, a bot's decision, a deadline firing, timeouts.

One move takes one way through: checked against the engine under the table's lock,
committed by the journal (whose entry the engine applies), shown by the presenter, the
posts handed to the dispatch, all before the lock is released. A bot thinks between two
holds of the lock, so the players' commands at its table are answered meanwhile.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any

from bot.commands.inputs import Ctx
from bot.ops import metrics
from bot.platform import Reply
from bot.play.ceremony import Ceremony
from bot.play.entries import ActionTaken, BeloteIntent, By, CameBack, Entry
from bot.play.journal import Journal
from bot.play.pacing import Closed, TakeTurns
from bot.play.registry import TableRegistry
from bot.play.stats import Stats
from bot.play.table import MatchRun, Table, ai_seed
from bot.play.tournament_tables import MatchResults
from bot.refused import Refused
from bot.show import texts
from bot.show.dispatch import Dispatch
from bot.show.i18n import _, has_text
from bot.show.posting import Presenter, table_locale
from bot.store import TableDeadline
from engine import Action, EngineError, Event, IllegalAction

log = logging.getLogger(__name__)

#: Seconds a player's move may wait for the database before they are told it is kept.
BUSY_NOTICE = 3.0

#: How a bot decides: (its view of the match, its level, a seed) -> the action.
Think = Callable[[Any, str, int], Awaitable[Action]]

#: The moves of tables where no person sits that may be under way at once
#: (``bot.play.pacing``). A bot's move past that waits its turn asleep, the longest due
#: first, so a process short of CPU (a busy machine, a noisy neighbour) slows its all-bot
#: tables down rather than every answer: a person's command, a bot's move at a person's
#: table and a turn timer never wait here. On a machine with CPU to spare the moves under
#: way stay below it (1,000 tables at a move a second: about 4 at once), and a slow disk's
#: group commits carry that many.
BOT_MOVES_AT_ONCE = 16
#: ... while the process waits for the CPU (``crowded``): each move under way makes every
#: other one wait for its share, so fewer at once answer sooner.
BOT_MOVES_WHEN_CROWDED = 4
#: ... while the tables of a dead process are rebuilt (besides their own first moves).
BOT_MOVES_WHILE_REBUILDING = 2


class Turns:
    """Whose move it is, and making it.

    ``think``: the AI (``bot.play.thinking.think``: in a process pool for the strong
    levels); ``results``: told after the lock when a match ends; ``stats``: what is
    measured."""

    def __init__(
        self,
        registry: TableRegistry,
        journal: Journal,
        presenter: Presenter,
        dispatch: Dispatch,
        ceremony: Ceremony,
        results: MatchResults,
        think: Think,
        stats: Stats,
        bot_moves_at_once: int = BOT_MOVES_AT_ONCE,
    ) -> None:
        self._registry = registry
        self._journal = journal
        self._presenter = presenter
        self._dispatch = dispatch
        self._ceremony = ceremony
        self._results = results
        self._think = think
        self._stats = stats
        self._bots_turn = TakeTurns(
            bot_moves_at_once,
            while_busy=BOT_MOVES_WHILE_REBUILDING,
            when_crowded=BOT_MOVES_WHEN_CROWDED,
        )
        self._taken_over: set[int] = set()  # tables whose first move here comes first

    # --- a player's move ---------------------------------------------------------------

    async def player_action(self, ctx: Ctx, t: Table, action: Action) -> list[Reply]:
        """A typed move (``/bid``, ``/pass``, ``/play``)."""
        async with self._registry.lock(t):
            run = t.run
            seat = t.seat_of(ctx.user.id)
            if run is None or run.over or seat is None:
                raise Refused("err-no-match")
            if run.phase != "play" or run.match is None:
                raise Refused("err-not-dealt")
            if run.to_move != seat:
                raise Refused("err-not-your-turn", name=self.mover_name(t))
            self.check_legal(ctx, run, seat, action)
            await self.apply(t, seat, action, By.PLAYER, ctx)
        return []

    async def pressed(self, ctx: Ctx, t: Table, seq: int, seat: int | None, act: Action) -> None:
        """A move's button: ``seq`` is the log position it was offered at, ``seat`` the
        hand it was on. A button from before (stale, pressed twice) is refused."""
        my_seat = t.seat_of(ctx.user.id)
        if seat is not None and my_seat != seat:
            raise Refused("err-not-your-hand")
        async with self._registry.lock(t):
            run = t.run
            if run is not None and run.over and seq <= run.seq and my_seat is not None:
                raise Refused("err-match-over", match=f"m{run.id}")  # a hand from before
            if run is None or run.over or run.match is None or my_seat is None:
                raise Refused("err-stale-button")
            if seq != run.seq:
                before = run.entry_at(seq)
                if before is not None and before.seat == my_seat and before.action == act.text:
                    raise Refused("err-double-press")
                raise Refused("err-stale-button")
            if run.to_move != my_seat:
                raise Refused("err-not-your-turn", name=self.mover_name(t))
            self.check_legal(ctx, run, my_seat, act, pressed=True)
            await self.apply(t, my_seat, act, By.PLAYER, ctx)

    async def pick_value(
        self, ctx: Ctx, t: Table, seq: int, seat: int | None, value: int | None
    ) -> None:
        """Coinche's bid, first step: the player picked a value (``None``: back to the
        values); their hand is shown again with that value's contracts. Nothing of the
        match changes and nothing is logged. Refused as a move's button would be (someone
        else's hand, a button from before, not their turn, a value no longer open)."""
        my_seat = t.seat_of(ctx.user.id)
        if seat is not None and my_seat != seat:
            raise Refused("err-not-your-hand")
        async with self._registry.lock(t):
            run = t.run
            if run is None or run.over or run.match is None or my_seat is None:
                raise Refused("err-stale-button")
            if seq != run.seq:
                raise Refused("err-stale-button")
            if run.to_move != my_seat:
                raise Refused("err-not-your-turn", name=self.mover_name(t))
            if value is not None:
                legal = run.match.legal_actions(my_seat)
                bids = [a for a in legal if a.kind == "bid" and a.value == value]
                if not bids:  # the value's first contract says why (bid higher, coinched)
                    contract = run.match.table_rules.rules.contracts[0]
                    self.check_legal(ctx, run, my_seat, Action.bid(contract, value), pressed=True)
                run.bid_draft[my_seat] = (run.seq, value)
            else:
                run.bid_draft.pop(my_seat, None)
            await self._dispatch.send(await self._presenter.hands(t, [my_seat]), ctx)

    def check_legal(
        self, ctx: Ctx, run: MatchRun, seat: int, action: Action, *, pressed: bool = False
    ) -> None:
        """Refuse an action that is not legal now, with the rule that forbids it (the
        engine's reason, in the player's language). ``pressed``: it came from a button (a
        disabled one pressed anyway): a short answer, fit for a notice under the button."""
        assert run.match is not None
        legal = run.match.legal_actions(seat)
        if action in legal:
            return
        loc = ctx.locale
        card = action.card
        if action.kind != "play":
            self._refuse_call(run, seat, action, legal, loc, pressed)
        rule = self._rule(run, seat, card, loc)
        if pressed and card is not None and card in run.match.hand(seat):
            if not any(a.card == card for a in legal):
                if rule is not None:
                    raise Refused(rule)
                raise Refused("err-card-not-now", card=texts.card_text(card))
        elif pressed and action.kind != "play":
            raise Refused("err-bid-not-now", bid=texts.action_label(action, loc))
        choices = ", ".join(texts.choices(legal, belote=run.belote_intent[seat]))
        if card is not None:
            if card not in run.match.hand(seat):
                raise Refused("err-card-not-held", card=texts.card_text(card))
            if any(a.card == card for a in legal):
                raise Refused("err-flag-not-allowed", choices=choices)
            if rule is not None:
                raise Refused("err-rule-choices", rule=_(rule, loc), choices=choices)
            raise Refused("err-card-illegal", card=texts.card_text(card), choices=choices)
        raise Refused("err-action-illegal", choices=choices)

    def _refuse_call(
        self, run: MatchRun, seat: int, action: Action, legal: list[Action], loc: str, pressed: bool
    ) -> None:
        """Refuse a bid, pass or call that is not legal now: with the auction's rule when
        the engine names one (Coinche: ``A bid must be higher than the standing bid (90
        ♥).``), else with what may be said. Always raises."""
        assert run.match is not None
        why = run.match.refusal(seat, action)
        key = None
        if isinstance(why, IllegalAction) and why.reason is not None:
            key = f"err-rule-{why.reason}"
            if not (has_text(key, loc) or has_text(key)):
                key = None
        values = {"bid": texts.action_label(action, loc), "standing": _standing(run, loc)}
        if pressed:
            raise Refused(key or "err-bid-not-now", **values)
        choices = ", ".join(texts.choices(legal, belote=run.belote_intent[seat]))
        if key is not None:
            raise Refused("err-rule-choices", rule=_(key, loc, **values), choices=choices)
        raise Refused("err-action-illegal", choices=choices)

    @staticmethod
    def _rule(run: MatchRun, seat: int, card: int | None, loc: str) -> str | None:
        """The catalog id of the rule the engine names for refusing a card, if any."""
        if card is None:
            return None
        assert run.match is not None
        why = run.match.refusal(seat, Action.play(card))
        if not isinstance(why, IllegalAction) or why.reason is None:
            return None
        key = f"err-rule-{why.reason}"
        return key if has_text(key, loc) or has_text(key) else None

    async def play_card(self, ctx: Ctx, t: Table, card: int, flags: set[str]) -> list[Reply]:
        """``/play CARD [belote] [melds|nomelds]``: the variant of the card meant."""
        seat = t.seat_of(ctx.user.id)
        intent = t.run is not None and seat is not None and t.run.belote_intent[seat]
        action = choose_variant(
            t,
            seat,
            card,
            "belote" in flags or intent,
            "nomelds" not in flags,
            strict="belote" in flags,
        )
        return await self.player_action(ctx, t, action)

    async def belote(self, ctx: Ctx) -> list[Reply]:
        """``/belote``: play the belote card now, or note the intent for later."""
        t = self._registry.pick(ctx)
        run = t.run
        seat = t.seat_of(ctx.user.id)
        if run is None or run.match is None or run.over or seat is None:
            raise Refused("err-no-match")
        v = run.match.view(seat)
        can = [a for a in v.legal if a.kind == "play" and a.belote]
        holds = v.contract is not None and any(
            texts.card_text(c)[1] == v.contract.trump and texts.card_text(c)[0] in "KQ"
            for c in v.hand
        )
        if can and len({a.card for a in can}) == 1:
            return await self.player_action(ctx, t, can[0])
        if not can and not holds:
            raise Refused("err-no-belote")
        async with self._registry.lock(t):
            if t.run is run and not run.over and not run.belote_intent[seat]:
                # an input like any other: logged, so a restart keeps it
                await self._journal.record(t, [BeloteIntent(seat, True)])
                # its buttons now carry the new position
                await self._dispatch.send(await self._presenter.hands(t, [seat]), ctx)
        return [Reply(_("ok-belote-noted", ctx.locale))]

    async def back(self, ctx: Ctx) -> list[Reply]:
        """``/back``: a player the AI stood in for takes their seat again."""
        t = self._registry.pick(ctx)
        async with self._registry.lock(t):
            run = t.run
            seat = t.seat_of(ctx.user.id)
            if run is None or run.over or seat is None:
                raise Refused("err-no-match")
            if not run.replaced[seat] and run.timeouts[seat] == 0:
                raise Refused("err-not-away")
            await self._journal.record(t, [CameBack(seat)])
            posts = [await self._presenter.table(t), *await self._presenter.hands(t, [seat])]
            await self._dispatch.send(posts, ctx)
        return [Reply(_("ok-back", ctx.locale))]

    # --- every move ----------------------------------------------------------------------

    async def apply(
        self, t: Table, seat: int, action: Action, by: By, ctx: Ctx | None = None
    ) -> None:
        """Commit one action, then show it; the caller holds the table's lock."""
        t0 = time.perf_counter()
        events = await self._record_telling(t, [ActionTaken(seat, action.text, by)], ctx)
        await self.changed(t, events, seat, ctx)
        self._stats.actions_applied += 1
        took = time.perf_counter() - t0
        metrics.action(t.channel, t.settings.ruleset, str(by), took)
        if self._stats.record:
            self._stats.latencies.append(took)

    async def _record_telling(self, t: Table, entries: list[Entry], ctx: Ctx | None) -> list[Event]:
        """Commit ``entries``; a player whose move waits longer than :data:`BUSY_NOTICE`
        for the database (another program holds its lock: the store tries again until it
        goes) is told at once that the table is busy and the move is kept. Their usual
        answer follows once it is stored."""
        record = asyncio.ensure_future(self._journal.record(t, entries))
        if ctx is None:
            return await record
        done, _ = await asyncio.wait({record}, timeout=BUSY_NOTICE)
        if not done:
            await self._dispatch.send([self._presenter.busy_notice(t, ctx.user.id, ctx.locale)])
        return await record

    async def changed(
        self, t: Table, events: list[Event], actor: int | None = None, ctx: Ctx | None = None
    ) -> None:
        """Show a committed change of the match; at its end, the reveal and the result
        (told to the tournaments after the lock). The caller holds the table's lock."""
        run = t.run
        assert run is not None
        if not run.over:
            await self._dispatch.send(await self._presenter.changed(t, events, actor), ctx)
            return
        # the seed first: the table message and the hands show it too from now on
        posts = await self._presenter.deal_results(t, events)
        posts += self._ceremony.reveal(t)
        posts += [await self._presenter.table(t), *await self._presenter.final_hands(t)]
        await self._dispatch.send(posts, ctx)
        self._registry.update_idle()
        self._results.ended(t, run)
        if t.status == "closed" and t.ref is not None:
            self._registry.forget(t)  # a tournament table plays one match

    # --- deadlines -----------------------------------------------------------------------

    async def on_deadline(self, dl: TableDeadline) -> None:
        """A table's timer fired: close the seed window, give up on drand, or make the
        move of a bot (or of the AI for a person whose timer ran out). A bot's move at a
        table where nobody waits for it takes its turn (``BOT_MOVES_AT_ONCE``)."""
        t = self._registry.get(dl.table_id)
        if t is None:
            return
        run = t.run
        urgent = t.id in self._taken_over  # its first deadline here: the table's first move
        self._taken_over.discard(t.id)
        if dl.kind != "bot" or run is None or run.human_seats():
            await self._on_deadline(t, dl)
            return
        t0 = time.perf_counter()
        try:
            async with self._bots_turn.turn(dl.due, urgent):
                if self._stats.record:
                    self._stats.bot_waits.append(time.perf_counter() - t0)
                await self._on_deadline(t, dl)
        except Closed:
            return  # stopping: the move is made by whoever runs the table next

    def rebuilding(self, linger: float = 0.0) -> contextlib.AbstractContextManager[None]:
        """While tables taken over are rebuilt (and ``linger`` seconds after, until the
        next batch), fewer all-bot moves run at once, except the first of those tables."""
        return self._bots_turn.narrowed(linger)

    def crowded(self, crowded: bool) -> None:
        """The process waits for the CPU (or no longer): fewer all-bot moves at once."""
        self._bots_turn.crowded = crowded

    def taken_over(self, ids: set[int]) -> None:
        """These tables were taken over: their next bot move goes before the others'."""
        self._taken_over |= ids

    def forget(self, ids: set[int]) -> None:
        self._taken_over -= ids

    def stop_bots(self) -> None:
        """The process stops: the bots' moves still waiting for their turn are not made."""
        self._bots_turn.close()

    async def _on_deadline(self, t: Table, dl: TableDeadline) -> None:
        async with self._registry.lock(t):
            run = t.run
            if run is None or run.over or t.status != "playing":
                return
            if dl.kind == "seeds" and run.phase == "seeds":
                await self._ceremony.close_seeds(t)
                return
            if dl.kind == "drand" and run.phase == "drand":
                await self._ceremony.drand_timeout(t)
                return
            if dl.kind not in ("bot", "turn") or run.phase != "play" or run.seq != dl.nonce:
                return
            seat = run.to_move
            if seat is None or (dl.kind == "bot" and not run.is_auto(seat)):
                return
            by = (
                By.TIMEOUT
                if dl.kind == "turn"
                else By.BOT
                if run.seats[seat].is_bot
                else By.STANDIN
            )
            assert run.match is not None
            view = run.match.view(seat)
            level = run.level_for(seat)
            seed = ai_seed(run.ai_root, run.seq)
        # The AI thinks (an expert for a second or more) without holding the table, so the
        # players' commands at this table are answered meanwhile.
        t0 = time.perf_counter()
        action = await self._think(view, level, seed)
        if self._stats.record:
            self._stats.think_times.append((level, time.perf_counter() - t0))
        async with self._registry.lock(t):
            if t.run is not run or run.over or t.status != "playing" or run.seq != dl.nonce:
                return  # someone acted first (a player beating their timer): theirs stands
            if not self._registry.is_current(t):
                return  # dropped meanwhile (another process holds it, or it was re-read)
            await self.apply(t, seat, action, by)

    def mover_name(self, t: Table) -> str:
        run = t.run
        if run is None or run.to_move is None:
            return "-"
        return texts.seat_name(run.seats[run.to_move], table_locale(t))


def _standing(run: MatchRun, loc: str) -> str:
    """The standing bid of the auction as the table shows it (``90 ♥``); ``-`` before
    any."""
    assert run.match is not None
    for _seat, bid in reversed(run.match.view(None).bids):
        if bid.startswith("bid "):
            return texts.action_label(Action.parse(bid), loc)
    return "-"


def choose_variant(
    t: Table, seat: int | None, card: int, belote: bool, melds: bool, strict: bool = True
) -> Action:
    """``/play KH``: the legal variant of that card the player means (melds declared by
    default, belote when asked). Falls back to the plain card so the legality check can
    explain what is wrong. ``strict``: belote was written with this card, so a card that
    cannot carry it is refused (an earlier ``/belote`` only applies where it can)."""
    run = t.run
    plain = Action.play(card)
    if run is None or run.match is None or seat is None:
        return plain
    variants = [a for a in run.match.legal_actions(seat) if a.kind == "play" and a.card == card]
    if not variants:
        return Action.play(card, belote=belote)
    best: tuple[int, Action] | None = None
    for a in variants:
        score = (a.belote == belote) * 2 + (a.melds == melds)
        if best is None or score > best[0]:
            best = (score, a)
    assert best is not None
    if belote and strict and not best[1].belote:
        return Action.play(card, belote=True)  # refused below with a clear message
    return best[1]


__all__ = ["EngineError", "Think", "Turns", "choose_variant"]
