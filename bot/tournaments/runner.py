"""The tournament runner: drives events from what happens at the tables and from deadlines.

Everything that changes an event goes through one lock, is saved whole (one transaction)
and only then shown. Deadlines (3 minutes to take a seat, the round's time limit, a
ladder's opening and closing) live in the database and are re-armed on the shared
scheduler at start, so a restart in the middle of a round carries on where it stopped:
a deadline that passed while the bot was down fires at once.

The core plays the matches. It implements `TableHost` (open a tournament table with the
two teams seated in the right places, close one) and tells the runner when a player
sits down (`on_seated`), when a tournament match ends (`on_match_end`) and when any rated
match ends (`on_rated_match`: ratings and ladders).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, Protocol

from bot.ops.clock import Clock
from bot.ops.scheduler import Scheduler
from bot.platform import Button, Buttons, Channel, Platform, Post
from bot.tournaments.formats import make_event
from bot.tournaments.model import SEAT_SECONDS, Format, Match, NoPairing, Numbers, Outcome
from bot.tournaments.ratings import Ratings
from bot.tournaments.store import (
    AlreadyDone,
    Deadline,
    Player,
    TableSlot,
    Tournament,
    TournamentDB,
    scope_of,
)
from bot.tournaments.texts import tt

log = logging.getLogger(__name__)

DAY = 86_400.0


class Refusal(Exception):
    """Bad input or a move that is not allowed: the text goes back, nothing changes."""

    def __init__(self, key: str, **kwargs: Any) -> None:
        super().__init__(key)
        self.key = key
        self.kwargs = kwargs


@dataclass(frozen=True)
class TableRequest:
    """What the core needs to open a tournament table. Team a sits in seats 0 and 2,
    team b in seats 1 and 3. `key` names the table in every call between the runner and
    the core (`on_seated`, `on_match_end`, `close_tournament_table`); it is the same for
    the same match, also after a restart: opening twice with one key is one table."""

    key: str
    tournament_id: int
    match_id: int
    round: int
    channel: str
    ruleset: str
    title: str
    team_a: tuple[str, ...]
    team_b: tuple[str, ...]
    seat_deadline: float
    round_deadline: float
    rated: bool = True  # tournament matches update the ratings (not the ladders)


class TableHost(Protocol):
    async def open_tournament_table(self, request: TableRequest) -> None: ...

    async def close_tournament_table(self, table_ref: str, reason: str) -> None: ...


def is_organiser(t: Tournament, user_id: str, is_admin: bool) -> bool:
    return is_admin or user_id == t.creator


def day_text(ts: float) -> str:
    return datetime.fromtimestamp(ts, UTC).strftime("%Y-%m-%d %H:%M UTC")


class TournamentService:
    def __init__(
        self,
        db: TournamentDB,
        scheduler: Scheduler,
        clock: Clock,
        platform: Platform,
        host: TableHost,
        ratings: Ratings | None = None,
    ) -> None:
        self.db = db
        self.scheduler = scheduler
        self.clock = clock
        self.platform = platform
        self.host = host
        self.ratings = ratings or Ratings(db.sql)
        self.tournaments: dict[int, Tournament] = {}
        self._refs: dict[str, tuple[int, int]] = {}  # table ref -> (tournament, match)
        self._lock = asyncio.Lock()
        self._outbox: list[Callable[[], Awaitable[None]]] = []

    @asynccontextmanager
    async def _changing(self) -> AsyncIterator[None]:
        """One change at a time; what it shows or asks of the core (posts, opening and
        closing tables) happens after the lock is released, so the core may call back."""
        try:
            async with self._lock:
                yield
        finally:
            await self._flush()

    async def _flush(self) -> None:
        while self._outbox:
            effect = self._outbox.pop(0)
            try:
                await effect()
            except Exception:
                log.exception("a tournament effect failed")

    # ------------------------------------------------------------------ lifecycle

    async def start(self) -> None:
        """Load every tournament (of the servers this process serves, when it is one
        shard of several), re-arm its deadlines, and carry on any round that was
        interrupted (tables not yet opened, a finished round not yet followed)."""
        serves = getattr(self.platform, "serves", None)  # a shard: its servers' events only
        async with self._changing():
            for t in await self.db.load_all():
                if serves is not None and not serves(t.channel):
                    continue
                self.tournaments[t.id] = t
                for slot in t.tables.values():
                    if slot.table_ref is not None:
                        self._refs[slot.table_ref] = (t.id, slot.match_id)
            for t in self.tournaments.values():
                if t.status in ("over", "open"):
                    continue
                for d in t.deadlines.values():
                    self._schedule(t, d)
                if not t.is_ladder and t.status == "running" and t.event is not None:
                    live = {m.id: m for m in t.event.pending()}
                    for slot in t.tables.values():  # the same key gives the same table
                        if not slot.done and slot.match_id in live:
                            self._ask_open(self._request(t, live[slot.match_id], slot))
                    await self._progress(t)
                    await self.db.save(t)

    def cancel_deadlines(self) -> None:
        """Take this service's jobs off the scheduler (the stored deadlines stay)."""
        for t in self.tournaments.values():
            for key in t.deadlines:
                self.scheduler.cancel(key)

    async def stop(self) -> None:
        """Stop cleanly: no more deadlines, what is queued delivered, the database closed.
        Everything is already saved; the next `start` carries on from there."""
        async with self._lock:
            self.cancel_deadlines()
        await self._flush()
        await self.db.close()

    # ------------------------------------------------------------------ looking up

    def get(self, tid: int) -> Tournament:
        t = self.tournaments.get(tid)
        if t is None:
            raise Refusal("tour-err-unknown", tid=tid)
        return t

    def in_channel(self, channel: str, *, ladder: bool | None = None) -> list[Tournament]:
        """Tournaments of this channel, newest first (ladders: of this server)."""
        out = []
        for t in self.tournaments.values():
            if ladder is not None and t.is_ladder != ladder:
                continue
            here = scope_of(t.channel) == scope_of(channel) if t.is_ladder else t.channel == channel
            if here:
                out.append(t)
        return sorted(out, key=lambda t: (t.status == "over", -t.id))

    def users_of(self, t: Tournament, side: tuple[int, ...]) -> list[str]:
        return [u for e in side for u in t.teams.get(e, [])]

    def entrant_name(self, t: Tournament, entrant: int) -> str:
        return " & ".join(
            t.players[u].name if u in t.players else u for u in t.teams.get(entrant, [])
        )

    def side_name(self, t: Tournament, side: tuple[int, ...]) -> str:
        return " & ".join(self.entrant_name(t, e) for e in side)

    # ------------------------------------------------------------------ creating, joining

    async def create(
        self,
        creator: str,
        channel: str,
        fmt: Format,
        name: str,
        ruleset: str,
        numbers: Numbers,
        opens_in: float = 0.0,
        locale: str = "en",
    ) -> Tournament:
        async with self._changing():
            now = self.clock.now()
            tid = await self.db.next_id()
            t = Tournament(
                id=tid,
                channel=channel,
                name=name or f"#{tid}",
                format=fmt,
                ruleset=ruleset,
                numbers=numbers,
                creator=creator,
                status="open",
                created_at=now,
                locale=locale,
            )
            if t.is_ladder:
                t.opens_at = now + max(0.0, opens_in)
                t.closes_at = t.opens_at + numbers.days * DAY
                t.status = "scheduled" if opens_in > 0 else "running"
                if t.status == "scheduled":
                    self._arm(t, "ladder-open", t.opens_at)
                self._arm(t, "ladder-close", t.closes_at)
            self.tournaments[tid] = t
            await self.db.save(t)
            key = "tour-post-ladder-open" if t.status == "running" else "tour-post-created"
            await self._post(
                t, "info", self._headline(t, key), buttons=self.page_buttons(t, t.locale)
            )
        return t

    async def join(self, tid: int, user_id: str, name: str) -> Tournament:
        async with self._changing():
            t = self.get(tid)
            open_now = t.status in ("scheduled", "running") if t.is_ladder else t.status == "open"
            if not open_now:
                raise Refusal("tour-err-not-open", name=t.name)
            p = t.players.get(user_id)
            if p is not None:
                raise Refusal(
                    "tour-err-already-in" if p.status == "in" else "tour-err-left", name=t.name
                )
            rating = await self.ratings.get(user_id, t.ruleset, name)
            t.players[user_id] = Player(user_id, name, self.clock.now(), rating.display)
            await self.db.save(t)
            return t

    # ------------------------------------------------------------------ starting

    async def start_event(self, tid: int, user_id: str, is_admin: bool) -> Tournament:
        async with self._changing():
            t = self.get(tid)
            if t.is_ladder:
                raise Refusal("tour-err-ladder")
            if not is_organiser(t, user_id, is_admin):
                raise Refusal("tour-err-organiser", name=t.name)
            if t.status != "open":
                raise Refusal("tour-err-started", name=t.name)
            players = [p for p in t.players.values() if p.status == "in"]
            for p in players:  # seed on the ratings of today
                p.rating = (await self.ratings.get(p.user_id, t.ruleset, p.name)).display
            self._make_teams(t, players)
            ratings = {
                e: sum(t.players[u].rating for u in users) / len(users)
                for e, users in t.teams.items()
            }
            try:
                t.event = make_event(t.format, len(t.teams), t.numbers, ratings)
            except ValueError as exc:
                t.teams = {}
                for p in players:
                    p.entrant = None
                raise Refusal("tour-err-setup", name=t.name, reason=str(exc)) from exc
            t.status = "running"
            await self.db.save(t)  # the teams and the schedule, before anything is shown
            if not t.numbers.rotate_partners:
                teams = "\n".join(f"{e}. {self.entrant_name(t, e)}" for e in sorted(t.teams))
                await self._post(
                    t, "teams", tt("tour-post-teams", t.locale, name=t.name, teams=teams)
                )
            await self._progress(t)
            await self.db.save(t)
            return t

    def _make_teams(self, t: Tournament, players: list[Player]) -> None:
        """Teams of two made now and kept to the end: the highest rated with the lowest,
        so teams come out even; entrants numbered from the highest rated team down. A
        rotating table of four has one entrant per player."""
        n = len(players)
        if t.numbers.rotate_partners:
            if n != 4:
                raise Refusal("tour-err-rotate-four", count=n)
        elif n % 2:
            raise Refusal("tour-err-players-even", count=n)
        elif n < 4:
            raise Refusal("tour-err-players-few", name=t.name, needed=4, count=n)
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

    # ------------------------------------------------------------------ the round loop

    async def _progress(self, t: Tournament) -> None:
        """Open what must be played; follow a finished round with the next; end the event
        when it is over. Called with the lock held; the caller saves."""
        ev = t.event
        assert ev is not None
        while True:
            await self._sync_tables(t)
            await self._open_tables(t)
            if ev.finished or ev.is_over():
                await self._finish(t)
                return
            if ev.round and not ev.round_complete():
                return
            try:
                plan = ev.start_round()
            except NoPairing as exc:
                await self._finish(t, no_pairing=(ev.round + 1, exc.kind))
                return
            lines = [
                tt(
                    "tour-post-pairing",
                    t.locale,
                    match=m.id,
                    a=self.side_name(t, m.a),
                    b=self.side_name(t, m.b),
                )
                for m in ev.round_matches(plan.round)
                if not m.decided
            ]
            lines += [tt("tour-post-bye", t.locale, who=self.entrant_name(t, e)) for e in plan.byes]
            lines.append(tt("tour-post-seat", t.locale, minutes=t.numbers.round_minutes))
            text = tt(
                "tour-post-round", t.locale, name=t.name, round=plan.round, lines="\n".join(lines)
            )
            await self._post(t, f"round:{plan.round}", text)

    async def _open_tables(self, t: Tournament) -> None:
        ev = t.event
        assert ev is not None
        now = self.clock.now()
        for m in ev.pending():
            if m.id in t.tables:
                continue
            slot = TableSlot(
                m.id, None, now, now + SEAT_SECONDS, now + t.numbers.round_minutes * 60.0
            )
            t.tables[m.id] = slot
            request = self._request(t, m, slot)
            slot.table_ref = request.key
            self._refs[slot.table_ref] = (t.id, m.id)
            self._ask_open(request)
            self._arm(t, "seat", slot.seat_due, m.id)
            self._arm(t, "round", slot.round_due, m.id)

    def _request(self, t: Tournament, m: Match, slot: TableSlot) -> TableRequest:
        return TableRequest(
            key=f"t{t.id}m{m.id}",
            tournament_id=t.id,
            match_id=m.id,
            round=m.round,
            channel=t.channel,
            ruleset=t.ruleset,
            title=f"{t.name}, round {m.round}, match {m.id}",
            team_a=tuple(self.users_of(t, m.a)),
            team_b=tuple(self.users_of(t, m.b)),
            seat_deadline=slot.seat_due,
            round_deadline=slot.round_due,
        )

    def _ask_open(self, request: TableRequest) -> None:
        self._outbox.append(lambda: self.host.open_tournament_table(request))

    def _ask_close(self, table_ref: str) -> None:
        self._outbox.append(lambda: self.host.close_tournament_table(table_ref, "decided"))

    async def _sync_tables(self, t: Tournament) -> None:
        """Close the tables of matches decided without them (no-show, withdrawal, time)."""
        ev = t.event
        assert ev is not None
        for slot in t.tables.values():
            if slot.done:
                continue
            try:
                m = ev.match(slot.match_id)
            except KeyError:  # a game dropped by a correction
                m = None
            if m is None or m.decided:
                slot.done = True
                self._disarm(t, self._key(t, "seat", slot.match_id))
                self._disarm(t, self._key(t, "round", slot.match_id))
                if slot.table_ref is not None:
                    ref = slot.table_ref
                    self._outbox.append(
                        lambda r=ref: self.host.close_tournament_table(r, "decided")
                    )

    async def _finish(self, t: Tournament, *, no_pairing: tuple[int, str] | None = None) -> None:
        ev = t.event
        t.status = "over"
        for key in list(t.deadlines):
            self._disarm(t, key)
        if ev is not None and not ev.finished:
            ev.finish(ev.end_reason or "over")
        t.end_reason = ev.end_reason if ev is not None else "over"
        if no_pairing is not None:
            r, kind = no_pairing
            key = "tour-post-no-pairing-bye" if kind == "bye" else "tour-post-no-pairing"
            text = tt(key, t.locale, name=t.name, round=r)
            await self._post(t, "no-pairing", text)
            await self._post(t, "no-pairing", text, to_user=t.creator)
        winner = ""
        table = ev.standings() if ev is not None else []
        if table and not (ev is not None and ev.format is Format.ELIMINATION and not ev.champion):
            winner = tt("tour-post-winner", t.locale, who=self.entrant_name(t, table[0].entrant))
        await self._post(t, "over", tt("tour-post-over", t.locale, name=t.name, winner=winner))
        await self.post_standings(t)

    # ------------------------------------------------------------------ from the tables

    async def on_seated(self, table_ref: str, user_id: str) -> None:
        async with self._changing():
            found = self._slot(table_ref)
            if found is None:
                return
            t, slot, m = found
            if slot.done or m.decided:
                return
            players = self.users_of(t, (*m.a, *m.b))
            if user_id not in players:
                return
            slot.seated.add(user_id)
            if all(u in slot.seated for u in players):
                self._disarm(t, self._key(t, "seat", m.id))
            await self.db.save(t)

    async def on_match_end(
        self, table_ref: str, winner: int | None, score_a: int = 0, score_b: int = 0
    ) -> bool:
        """A tournament table's match is over: `winner` 0 (team a), 1 (team b) or None
        (nobody won). False when the match was already decided (time limit, organiser)."""
        async with self._changing():
            found = self._slot(table_ref)
            if found is None:
                return False
            t, slot, m = found
            if m.decided:
                return False
            outcome = Outcome.DRAW if winner is None else (Outcome.A if winner == 0 else Outcome.B)
            assert t.event is not None
            t.event.record(m.id, outcome, score_a, score_b)
            slot.done = True
            self._disarm(t, self._key(t, "seat", m.id))
            self._disarm(t, self._key(t, "round", m.id))
            await self._progress(t)
            await self.db.save(t)
            return True

    def _slot(self, table_ref: str) -> tuple[Tournament, TableSlot, Match] | None:
        ids = self._refs.get(table_ref)
        if ids is None:
            return None
        t = self.tournaments.get(ids[0])
        if t is None or t.event is None or t.status != "running":
            return None
        try:
            return t, t.tables[ids[1]], t.event.match(ids[1])
        except KeyError:
            return None

    # ------------------------------------------------------------------ deadlines

    @staticmethod
    def _key(t: Tournament, kind: str, match_id: int | None = None) -> str:
        return f"tournament:{t.id}:{kind}:{match_id if match_id is not None else ''}"

    def _arm(self, t: Tournament, kind: str, due: float, match_id: int | None = None) -> None:
        d = Deadline(self._key(t, kind, match_id), kind, due, match_id)
        t.deadlines[d.key] = d
        self._schedule(t, d)

    def _schedule(self, t: Tournament, d: Deadline) -> None:
        tid, key = t.id, d.key

        async def fire() -> None:
            await self._fire(tid, key)

        self.scheduler.schedule(key, d.due, fire)

    def _disarm(self, t: Tournament, key: str) -> None:
        if t.deadlines.pop(key, None) is not None:
            self.scheduler.cancel(key)

    async def _fire(self, tid: int, key: str) -> None:
        """A deadline's job. Every process that loaded the tournament has it armed; the
        first to save its effect claims it, and the others take that saved state."""
        async with self._changing():
            t = self.tournaments.get(tid)
            d = t.deadlines.get(key) if t is not None else None
            if t is None or d is None:
                return  # stale: already handled
            mark = len(self._outbox)
            try:
                await self._run_deadline(t, d)
            except AlreadyDone:
                del self._outbox[mark:]  # another process ran it and showed it
                await self._reload(tid)

    async def _reload(self, tid: int) -> None:
        """Take the tournament as another process last saved it (its deadlines too)."""
        old = self.tournaments.get(tid)
        if old is not None:
            for k in old.deadlines:
                self.scheduler.cancel(k)
        t = await self.db.load(tid)
        if t is None:
            self.tournaments.pop(tid, None)
            return
        self.tournaments[tid] = t
        for slot in t.tables.values():
            if slot.table_ref is not None:
                self._refs[slot.table_ref] = (t.id, slot.match_id)
        if t.status not in ("over", "open"):
            for d in t.deadlines.values():
                self._schedule(t, d)

    async def _run_deadline(self, t: Tournament, d: Deadline) -> None:
        t.deadlines.pop(d.key, None)
        if d.kind == "seat" and d.match_id is not None:
            await self._seat_deadline(t, d.match_id)
        elif d.kind == "round" and d.match_id is not None:
            await self._round_deadline(t, d.match_id)
        elif d.kind == "ladder-open":
            t.status = "running"
            text = self._headline(t, "tour-post-ladder-open")
            await self._post(t, "info", text, buttons=self.page_buttons(t, t.locale))
        elif d.kind == "ladder-close":
            await self._close_ladder(t)
        await self.db.save(t, job=(f"{d.key}@{d.due!r}", self.clock.now()))

    async def _seat_deadline(self, t: Tournament, match_id: int) -> None:
        """3 minutes after the table opened: whoever has not sat down is out of the
        tournament; their team loses the match (both teams, if neither turned up)."""
        ev = t.event
        slot = t.tables.get(match_id)
        if ev is None or slot is None or slot.done or t.status != "running":
            return
        m = ev.match(match_id)
        if m.decided:
            return
        missing = [u for u in self.users_of(t, (*m.a, *m.b)) if u not in slot.seated]
        if not missing:
            return
        now = self.clock.now()
        names = []
        for u in missing:
            p = t.players[u]
            p.status, p.reason, p.left_at = "out", "no-show", now
            names.append(p.name)
        gone = sorted({e for u in missing if (e := t.players[u].entrant) is not None})
        for e in gone:
            self._retire_team(t, e, now, "partner-out")
        ev.withdraw(*gone)
        await self._post(
            t,
            f"no-show:{match_id}",
            tt("tour-post-no-show", t.locale, name=t.name, who=", ".join(names)),
        )
        await self._progress(t)

    async def _round_deadline(self, t: Tournament, match_id: int) -> None:
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
        text = tt(
            "tour-post-time",
            t.locale,
            name=t.name,
            match=m.id,
            loser=tt("tour-post-time-both", t.locale),
        )
        await self._post(t, f"time:{match_id}", text)
        await self._progress(t)

    def _retire_team(self, t: Tournament, entrant: int, now: float, reason: str) -> None:
        for u in t.teams.get(entrant, []):
            p = t.players[u]
            if p.status == "in":
                p.status, p.reason, p.left_at = "withdrawn", reason, now

    # ------------------------------------------------------------------ leaving, dropping

    async def withdraw(self, tid: int, user_id: str) -> Tournament:
        async with self._changing():
            t = self.get(tid)
            p = t.players.get(user_id)
            if p is None or p.status != "in" or t.status == "over":
                raise Refusal("tour-err-not-in", name=t.name)
            await self._remove(t, p, "withdrawn", "withdrew")
            await self.db.save(t)
            return t

    async def drop(self, tid: int, by_user: str, is_admin: bool, who: str) -> Player:
        async with self._changing():
            t = self.get(tid)
            if not is_organiser(t, by_user, is_admin):
                raise Refusal("tour-err-organiser", name=t.name)
            p = self._find_player(t, who)
            if p is None or p.status != "in" or t.status == "over":
                raise Refusal("tour-err-player", who=who[:40], name=t.name)
            await self._remove(t, p, "out", "dropped")
            audit = (self.clock.now(), by_user, "drop", {"player": p.user_id})
            await self.db.save(t, audit=audit)
            return p

    def _find_player(self, t: Tournament, who: str) -> Player | None:
        who = who.strip().lstrip("@")
        if who in t.players:
            return t.players[who]
        matches = [p for p in t.players.values() if p.name.casefold() == who.casefold()]
        return matches[0] if len(matches) == 1 else None

    async def _remove(self, t: Tournament, p: Player, status: str, reason: str) -> None:
        """Withdraw or drop a player: they keep what they scored and are not paired again.
        Before the start they simply leave the list."""
        now = self.clock.now()
        if t.status == "open":
            del t.players[p.user_id]
            return
        p.status, p.reason, p.left_at = status, reason, now
        if t.is_ladder or t.event is None or p.entrant is None:
            return
        self._retire_team(t, p.entrant, now, "partner-left")
        t.event.withdraw(p.entrant)
        await self._post(
            t, f"left:{p.user_id}", tt("tour-post-withdrew", t.locale, name=t.name, who=p.name)
        )
        await self._progress(t)

    # ------------------------------------------------------------------ results by hand

    async def set_result(
        self,
        tid: int,
        by_user: str,
        is_admin: bool,
        match_id: int,
        outcome: Outcome,
        score_a: int = 0,
        score_b: int = 0,
    ) -> Match:
        """The organiser records or corrects a result; the audit keeps the before/after."""
        async with self._changing():
            t = self.get(tid)
            if not is_organiser(t, by_user, is_admin):
                raise Refusal("tour-err-organiser", name=t.name)
            ev = t.event
            if ev is None:
                raise Refusal("tour-err-not-started", name=t.name)
            try:
                m = ev.match(match_id)
            except KeyError:
                raise Refusal("tour-err-match", match=match_id, name=t.name) from None
            before = m.to_json()
            try:
                if m.decided:
                    ev.correct(m.id, outcome, score_a, score_b)
                else:
                    ev.record(m.id, outcome, score_a, score_b)
            except ValueError as exc:
                raise Refusal("tour-err-correct", reason=str(exc)) from exc
            if ev.finished and t.status == "over" and not ev.is_over():
                t.status = "running"  # a corrected final re-opens the elimination
            if t.status == "running":
                await self._progress(t)
            elif t.status == "over":
                await self.post_standings(t)  # the final table, corrected
            after = ev.match(m.id).to_json() if any(g.id == m.id for g in ev.matches) else None
            audit = (self.clock.now(), by_user, "result", {"before": before, "after": after})
            await self.db.save(t, audit=audit)
            return m

    # ------------------------------------------------------------------ ladders, ratings

    async def on_rated_match(
        self,
        match_ref: str,
        channel: str,
        ruleset: str,
        team_a: list[tuple[str, str]],
        team_b: list[tuple[str, str]],
        winner: int | None,
        left: tuple[str, ...] = (),
        from_lobby: bool = True,
    ) -> None:
        """Any rated match is over ((user id, name) per player; `winner` 0, 1 or None;
        `left`: who left the match). Updates the ratings, then every ladder of the
        server and ruleset that is open (lobby matches only)."""
        async with self._changing():
            now = self.clock.now()
            await self.ratings.record_match(match_ref, ruleset, team_a, team_b, winner, now)
            if not from_lobby:
                return
            for t in list(self.tournaments.values()):  # a reload may replace one
                if not t.is_ladder or t.status != "running" or t.ruleset != ruleset:
                    continue
                if scope_of(channel) != t.scope():
                    continue
                assert t.opens_at is not None and t.closes_at is not None
                if not t.opens_at <= now < t.closes_at or await self.db.counted(t.id, match_ref):
                    continue
                changed = False
                for side, team in enumerate((team_a, team_b)):
                    for user_id, _name in team:
                        p = t.players.get(user_id)
                        if p is None or p.status != "in" or p.joined_at > now:
                            continue
                        won = None if winner is None else side == winner
                        if user_id in left:
                            won = False  # leaving a match counts as a loss
                        p.points += t.numbers.points(won)
                        p.wins += won is True
                        p.draws += won is None
                        p.losses += won is False
                        changed = True
                if changed:
                    try:
                        await self.db.save(t, counted=match_ref)
                    except AlreadyDone:  # another process counted it first
                        await self._reload(t.id)

    async def _close_ladder(self, t: Tournament) -> None:
        t.status = "over"
        t.end_reason = "closed"
        for key in list(t.deadlines):
            self._disarm(t, key)
        await self._post(t, "over", tt("tour-post-ladder-closed", t.locale, name=t.name))
        await self.post_standings(t)

    # ------------------------------------------------------------------ tables and pages

    async def standings_rows(self, t: Tournament) -> list[dict[str, Any]]:
        """Rows for the standings picture or text: place, name, points, tie-breaks."""
        if t.is_ladder:
            people = [p for p in t.players.values() if p.status != "out" or p.points]
            rated = {}
            for p in people:
                rated[p.user_id] = (await self.ratings.get(p.user_id, t.ruleset)).display
            people.sort(key=lambda p: (-p.points, -rated[p.user_id], p.joined_at))
            return [
                {
                    "place": i + 1,
                    "name": p.name + (f" {tt('tour-withdrawn-mark')}" if p.status != "in" else ""),
                    "points": p.points,
                    "tie_breaks": [rated[p.user_id]],
                    "played": p.wins + p.draws + p.losses,
                }
                for i, p in enumerate(people)
            ]
        if t.event is None:
            return []
        return [
            {
                "place": s.place,
                "name": self.entrant_name(t, s.entrant)
                + (f" {tt('tour-withdrawn-mark')}" if s.withdrawn else ""),
                "points": s.points,
                "tie_breaks": [_shown(v) for v in s.tiebreaks],
                "played": s.played,
            }
            for s in t.event.standings()
        ]

    def tie_break_names(self, t: Tournament, locale: str = "en") -> list[str]:
        keys = {
            Format.ROUNDROBIN: ["tour-tb-h2h", "tour-tb-diff"],
            Format.SWISS: ["tour-tb-opp", "tour-tb-rating"],
            Format.ELIMINATION: ["tour-tb-reached"],
            Format.LADDER: ["tour-tb-rating"],
        }[t.format]
        return [tt(k, locale) for k in keys]

    async def standings_post(self, t: Tournament, locale: str = "en") -> tuple[str, bytes | None]:
        rows = await self.standings_rows(t)
        names = self.tie_break_names(t, locale)
        title = tt("tour-standings-title", locale, name=t.name)
        lines = [title]
        for r in rows:
            tbs = ", ".join(f"{n} {v}" for n, v in zip(names, r["tie_breaks"], strict=False))
            lines.append(
                tt(
                    "tour-standings-line",
                    locale,
                    place=r["place"],
                    who=r["name"],
                    points=r["points"],
                    tiebreaks=f"({tbs})" if tbs else "",
                ).rstrip()
            )
        return "\n".join(lines), render_picture(title, rows, names)

    async def post_standings(self, t: Tournament) -> None:
        text, image = await self.standings_post(t)
        await self._post(t, "standings", text, image=image)

    def page_buttons(self, t: Tournament, locale: str = "en") -> Buttons:
        """The tournament page's buttons: its format (press it to see the numbers), join,
        standings. Actions are `tn:<what>:<id>`, for `handle_tournament_press`."""
        return (
            (
                Button(tt(f"tour-format-{t.format.value}", locale), f"tn:numbers:{t.id}"),
                Button(tt("tour-btn-join", locale), f"tn:join:{t.id}", style="primary"),
                Button(tt("tour-btn-standings", locale), f"tn:standings:{t.id}"),
            ),
        )

    def _headline(self, t: Tournament, key: str) -> str:
        return tt(
            key,
            t.locale,
            name=t.name,
            tid=t.id,
            format=tt(f"tour-format-{t.format.value}", t.locale),
            ruleset=t.ruleset,
            closes=day_text(t.closes_at) if t.closes_at else "",
        )

    def numbers_text(self, t: Tournament, locale: str = "en") -> str:
        n = t.numbers
        lines = [tt("tour-info-points", locale, win=n.win, draw=n.draw, loss=n.loss)]
        if t.is_ladder:
            lines.append(
                tt(
                    "tour-info-ladder",
                    locale,
                    opens=day_text(t.opens_at or 0),
                    closes=day_text(t.closes_at or 0),
                    days=n.days,
                )
            )
            return "\n".join(lines)
        lines.append(tt("tour-info-rounds", locale, minutes=n.round_minutes))
        if t.format is Format.SWISS:
            lines.append(tt("tour-info-swiss", locale, rounds=n.rounds))
        if t.format is Format.ELIMINATION:
            lines.append(tt("tour-info-best-of", locale, best_of=n.best_of))
        if n.rotate_partners:
            lines.append(tt("tour-info-rotate", locale))
        return "\n".join(lines)

    async def _post(
        self,
        t: Tournament,
        what: str,
        text: str,
        *,
        image: bytes | None = None,
        to_user: str | None = None,
        buttons: Buttons = (),
    ) -> None:
        post = Post(
            channel=Channel(t.channel),
            key=f"tournament:{t.id}:{what}" + (f":{to_user}" if to_user else ""),
            text=text,
            image=image,
            image_name="standings.png",
            to_user=to_user,
            buttons=buttons,
        )
        self._outbox.append(lambda p=post: self.platform.deliver(p))


def _shown(value: float) -> float | int:
    """A tie-break as people read it: whole numbers without a decimal point."""
    return round(value) if abs(value - round(value)) < 0.05 else round(value, 1)


def render_picture(title: str, rows: list[dict[str, Any]], names: list[str]) -> bytes | None:
    """The standings as a picture when bot/show/render can draw it; None means: text only."""
    try:
        from bot.show.render import render_standings
    except ImportError:
        return None
    try:
        return render_standings(title, rows, tie_break_names=names)
    except Exception:
        log.exception("could not draw the standings")
        return None
