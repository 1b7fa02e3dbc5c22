"""An event with rounds, from its first pairing to its final standings.

Teams are made when it starts; each round's matches get a table from the core (with
their two deadlines armed); a result, a no-show, a round's time limit or a withdrawal is
recorded in the event (the pure format layer), and a finished round is followed by the
next until the event is over. Every method runs inside one change (the lock held) and
leaves saving to the caller; what it shows goes through :class:`~bot.tournaments.pages.Pages`.
"""

from __future__ import annotations

from collections.abc import Callable

from bot.ops.clock import Clock
from bot.refused import Refused
from bot.tournaments.deadlines import Deadlines
from bot.tournaments.elimination import Elimination
from bot.tournaments.event import Event
from bot.tournaments.formats import make_event
from bot.tournaments.model import SEAT_SECONDS, Format, Match, NoPairing, Numbers, Outcome
from bot.tournaments.outbox import Outbox
from bot.tournaments.pages import Pages
from bot.tournaments.registry import Registry
from bot.tournaments.store import Player, TableSlot, Tournament
from bot.tournaments.tables import TableRequest

MakeEvent = Callable[[Format, int, Numbers, dict[int, float]], Event]


def make_teams(t: Tournament, players: list[Player]) -> None:
    """Teams of two made now and kept to the end: the highest rated with the lowest,
    so teams come out even; entrants numbered from the highest rated team down. A
    rotating table of four has one entrant per player."""
    n = len(players)
    if t.numbers.rotate_partners:
        if n != 4:
            raise Refused("tour-err-rotate-four", count=n)
    elif n % 2:
        raise Refused("tour-err-players-even", count=n)
    elif n < 4:
        raise Refused("tour-err-players-few", name=t.name, needed=4, count=n)
    ordered = sorted(players, key=lambda p: (-p.rating, p.joined_at, p.user_id))
    if t.numbers.rotate_partners:
        groups = [[p] for p in ordered]
    else:
        groups = [[ordered[i], ordered[n - 1 - i]] for i in range(n // 2)]
        groups.sort(key=lambda g: (-(g[0].rating + g[1].rating), g[0].joined_at))
    t.teams = {}
    for e, group in enumerate(groups, start=1):
        t.teams[e] = [p.user_id for p in group]
        for p in group:
            p.entrant = e


def retire_team(t: Tournament, entrant: int, now: float, reason: str) -> None:
    """The partners still in leave with their team (`partner-out`, `partner-left`)."""
    for u in t.teams.get(entrant, []):
        p = t.players[u]
        if p.status == "in":
            p.status, p.reason, p.left_at = "withdrawn", reason, now


class Progression:
    def __init__(
        self,
        registry: Registry,
        deadlines: Deadlines,
        outbox: Outbox,
        pages: Pages,
        clock: Clock,
        make_event: MakeEvent = make_event,
    ) -> None:
        self._registry = registry
        self._deadlines = deadlines
        self._outbox = outbox
        self._pages = pages
        self._clock = clock
        self._make_event = make_event

    # ------------------------------------------------------------------ starting

    def begin(self, t: Tournament, players: list[Player]) -> None:
        """Make the teams and the schedule (round 1 is paired by `advance`); refused,
        nothing changes."""
        make_teams(t, players)
        ratings = {
            e: sum(t.players[u].rating for u in users) / len(users) for e, users in t.teams.items()
        }
        try:
            t.event = self._make_event(t.format, len(t.teams), t.numbers, ratings)
        except ValueError as exc:
            t.teams = {}
            for p in players:
                p.entrant = None
            raise Refused("tour-err-setup", name=t.name, reason=str(exc)) from exc
        t.status = "running"

    def announce_teams(self, t: Tournament) -> None:
        if not t.numbers.rotate_partners:
            self._pages.teams(t)

    def resume(self, t: Tournament) -> None:
        """After a restart: ask again for the tables still in play (the same key gives the
        same table)."""
        assert t.event is not None
        live = {m.id: m for m in t.event.pending()}
        for slot in t.tables.values():
            if not slot.done and slot.match_id in live:
                self._outbox.open_table(self._request(t, live[slot.match_id], slot))

    # ------------------------------------------------------------------ the round loop

    async def advance(self, t: Tournament) -> None:
        """Open what must be played; follow a finished round with the next; end the event
        when it is over."""
        ev = t.event
        assert ev is not None
        while True:
            self._close_decided_tables(t)
            self._open_tables(t, ev)
            if ev.finished or ev.is_over():
                await self._finish(t)
                return
            if ev.round and not ev.round_complete():
                return
            try:
                plan = ev.start_round()
            except NoPairing as exc:
                self._pages.no_pairing(t, ev.round + 1, exc.kind)
                await self._finish(t)
                return
            self._pages.round_started(t, plan, ev.round_matches(plan.round))

    def _open_tables(self, t: Tournament, ev: Event) -> None:
        now = self._clock.now()
        for m in ev.pending():
            if m.id in t.tables:
                continue
            slot = TableSlot(
                m.id, None, now, now + SEAT_SECONDS, now + t.numbers.round_minutes * 60.0
            )
            t.tables[m.id] = slot
            request = self._request(t, m, slot)
            slot.table_ref = request.key
            self._registry.index(t, slot)
            self._outbox.open_table(request)
            self._deadlines.arm(t, "seat", slot.seat_due, m.id)
            self._deadlines.arm(t, "round", slot.round_due, m.id)

    def _request(self, t: Tournament, m: Match, slot: TableSlot) -> TableRequest:
        return TableRequest(
            key=f"t{t.id}m{m.id}",
            tournament_id=t.id,
            match_id=m.id,
            round=m.round,
            channel=t.channel,
            ruleset=t.ruleset,
            title=f"{t.name}, round {m.round}, match {m.id}",
            team_a=tuple(t.users_of(m.a)),
            team_b=tuple(t.users_of(m.b)),
            seat_deadline=slot.seat_due,
            round_deadline=slot.round_due,
        )

    def _close_decided_tables(self, t: Tournament) -> None:
        """Close the tables of matches decided without them (no-show, withdrawal, time)."""
        ev = t.event
        assert ev is not None
        for slot in t.tables.values():
            if slot.done:
                continue
            try:
                m: Match | None = ev.match(slot.match_id)
            except KeyError:  # a game dropped by a correction
                m = None
            if m is None or m.decided:
                self._table_done(t, slot)
                if slot.table_ref is not None:
                    self._outbox.close_table(slot.table_ref, "decided")

    def _table_done(self, t: Tournament, slot: TableSlot) -> None:
        slot.done = True
        self._deadlines.disarm(t, "seat", slot.match_id)
        self._deadlines.disarm(t, "round", slot.match_id)

    async def _finish(self, t: Tournament) -> None:
        ev = t.event
        t.status = "over"
        self._deadlines.disarm_all(t)
        if ev is not None and not ev.finished:
            ev.finish(ev.end_reason or "over")
        t.end_reason = ev.end_reason if ev is not None else "over"
        table = ev.standings() if ev is not None else []
        no_champion = isinstance(ev, Elimination) and not ev.champion
        self._pages.over(t, table[0].entrant if table and not no_champion else None)
        await self._pages.post_standings(t)

    # ------------------------------------------------------------------ from the tables

    def seated(self, t: Tournament, slot: TableSlot, m: Match, user_id: str) -> bool:
        """A player of this match took their seat; False when it changes nothing."""
        players = t.users_of((*m.a, *m.b))
        if slot.done or m.decided or user_id not in players:
            return False
        slot.seated.add(user_id)
        if all(u in slot.seated for u in players):
            self._deadlines.disarm(t, "seat", m.id)
        return True

    async def played(
        self, t: Tournament, slot: TableSlot, m: Match, winner: int | None, a: int, b: int
    ) -> None:
        """The table's match is over: `winner` 0 (team a), 1 (team b) or None."""
        outcome = Outcome.DRAW if winner is None else (Outcome.A if winner == 0 else Outcome.B)
        assert t.event is not None
        t.event.record(m.id, outcome, a, b)
        self._table_done(t, slot)
        await self.advance(t)

    # ------------------------------------------------------------------ deadlines

    async def seat_missed(self, t: Tournament, match_id: int) -> None:
        """3 minutes after the table opened: whoever has not sat down is out of the
        tournament; their team loses the match (both teams, if neither turned up)."""
        ev = t.event
        slot = t.tables.get(match_id)
        if ev is None or slot is None or slot.done or t.status != "running":
            return
        m = ev.match(match_id)
        if m.decided:
            return
        missing = [u for u in t.users_of((*m.a, *m.b)) if u not in slot.seated]
        if not missing:
            return
        now = self._clock.now()
        names = []
        for u in missing:
            p = t.players[u]
            p.status, p.reason, p.left_at = "out", "no-show", now
            names.append(p.name)
        gone = sorted({e for u in missing if (e := t.players[u].entrant) is not None})
        for e in gone:
            retire_team(t, e, now, "partner-out")
        ev.withdraw(*gone)
        self._pages.no_show(t, match_id, names)
        await self.advance(t)

    async def time_up(self, t: Tournament, match_id: int) -> None:
        """The round's time limit: an undecided match is lost by both sides."""
        ev = t.event
        if ev is None or t.status != "running":
            return
        try:
            m = ev.match(match_id)
        except KeyError:
            return
        if m.decided:
            return
        ev.record(m.id, Outcome.BOTH_LOSE, forfeit=False)
        self._pages.time_up(t, m.id)
        await self.advance(t)

    # ------------------------------------------------------------------ by hand

    async def leave(self, t: Tournament, p: Player, status: str, reason: str) -> None:
        """Withdraw or drop a player: they keep what they scored and are not paired again.
        Before the start they simply leave the list."""
        now = self._clock.now()
        if t.status == "open":
            del t.players[p.user_id]
            return
        p.status, p.reason, p.left_at = status, reason, now
        if t.is_ladder or t.event is None or p.entrant is None:
            return
        retire_team(t, p.entrant, now, "partner-left")
        t.event.withdraw(p.entrant)
        self._pages.withdrew(t, p)
        await self.advance(t)

    async def set_result(self, t: Tournament, m: Match, outcome: Outcome, a: int, b: int) -> None:
        """The organiser records or corrects a result; a corrected final re-opens an
        elimination, a correction after the end posts the final table again."""
        ev = t.event
        assert ev is not None
        try:
            if m.decided:
                ev.correct(m.id, outcome, a, b)
            else:
                ev.record(m.id, outcome, a, b)
        except ValueError as exc:
            raise Refused("tour-err-correct", reason=str(exc)) from exc
        if ev.finished and t.status == "over" and not ev.is_over():
            t.status = "running"
        if t.status == "running":
            await self.advance(t)
        elif t.status == "over":
            await self._pages.post_standings(t)
