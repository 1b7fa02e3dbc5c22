"""The tournament service: the entry points of the tournaments, and their lifecycle.

Everything that changes an event goes through one lock, is saved whole (one transaction)
and only then shown (:mod:`bot.tournaments.outbox`). Deadlines live in the database and
are re-armed on the shared scheduler at start, so a restart in the middle of a round
carries on where it stopped: a deadline that passed while the bot was down fires at once.

The service is built from small parts, each naming in its constructor what it touches:
the registry (the tournaments held), the deadlines, the progression of an event with
rounds, the ladder, and the pages (texts and pictures to posts). The core plays the
matches: it implements `TableHost` and calls `TournamentCalls` (`bot.tournaments.tables`).
"""

from __future__ import annotations

from typing import Protocol, runtime_checkable

from bot.ops.clock import Clock
from bot.ops.scheduler import Scheduler
from bot.platform import Platform
from bot.refused import Refused
from bot.tournaments.deadlines import Deadlines
from bot.tournaments.formats import make_event
from bot.tournaments.ladder import Ladder, Team
from bot.tournaments.model import Format, Match, Numbers, Outcome
from bot.tournaments.outbox import Outbox
from bot.tournaments.pages import DrawStandings, Pages, render_picture
from bot.tournaments.progression import MakeEvent, Progression
from bot.tournaments.ratings import Ratings
from bot.tournaments.registry import Registry
from bot.tournaments.store import AlreadyDone, Deadline, Player, Tournament, TournamentDB
from bot.tournaments.tables import TableHost, TableRequest, TournamentCalls

__all__ = ["TableHost", "TableRequest", "TournamentCalls", "TournamentService"]


@runtime_checkable
class Shard(Protocol):
    """A platform that is one shard of several: it serves some servers' channels only."""

    def serves(self, channel: str) -> bool: ...


class TournamentService:
    def __init__(
        self,
        db: TournamentDB,
        scheduler: Scheduler,
        clock: Clock,
        platform: Platform,
        host: TableHost,
        ratings: Ratings | None = None,
        make_event: MakeEvent = make_event,
        draw_standings: DrawStandings = render_picture,
    ) -> None:
        """`make_event` builds an event's format (a test's Swiss that cannot pair);
        `draw_standings` draws the standings picture, in a worker thread."""
        self.db = db
        self.ratings = ratings or Ratings(db.sql)
        self._clock = clock
        self._outbox = Outbox(platform, host)
        self._deadlines = Deadlines(scheduler, self._fire)
        serves = platform.serves if isinstance(platform, Shard) else None
        self._registry = Registry(db, self._deadlines, serves)
        self.pages = Pages(self.ratings, self._outbox, draw_standings)
        self._rounds = Progression(
            self._registry, self._deadlines, self._outbox, self.pages, clock, make_event
        )
        self._ladder = Ladder(db, self._registry, self._deadlines, self.pages, clock)

    @property
    def tournaments(self) -> dict[int, Tournament]:
        return self._registry.tournaments

    # ------------------------------------------------------------------ lifecycle

    async def start(self) -> None:
        """Load every tournament (of the servers this process serves, when it is one
        shard of several), re-arm its deadlines, and carry on any round that was
        interrupted (tables not yet opened, a finished round not yet followed)."""
        async with self._outbox.change():
            for t in await self._registry.load_all():
                if not t.is_ladder and t.status == "running" and t.event is not None:
                    self._rounds.resume(t)
                    await self._rounds.advance(t)
                    await self.db.save(t)

    def cancel_deadlines(self) -> None:
        """Take this service's jobs off the scheduler (the stored deadlines stay)."""
        for t in self.tournaments.values():
            self._deadlines.cancel(t)

    async def stop(self) -> None:
        """Stop cleanly: no more deadlines, the change under way finished and shown, the
        database closed. Everything is already saved; the next `start` carries on."""
        async with self._outbox.quiet():
            self.cancel_deadlines()
        await self.db.close()

    # ------------------------------------------------------------------ looking up

    def get(self, tid: int) -> Tournament:
        return self._registry.get(tid)

    def in_channel(self, channel: str, *, ladder: bool | None = None) -> list[Tournament]:
        return self._registry.in_channel(channel, ladder=ladder)

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
        async with self._outbox.change():
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
                created_at=self._clock.now(),
                locale=locale,
            )
            if t.is_ladder:
                self._ladder.schedule(t, opens_in)
            self._registry.add(t)
            await self.db.save(t)
            self.pages.created(t)
        return t

    async def join(self, tid: int, user_id: str, name: str) -> Tournament:
        async with self._outbox.change():
            t = self.get(tid)
            open_now = t.status in ("scheduled", "running") if t.is_ladder else t.status == "open"
            if not open_now:
                raise Refused("tour-err-not-open", name=t.name)
            p = t.players.get(user_id)
            if p is not None:
                raise Refused(
                    "tour-err-already-in" if p.status == "in" else "tour-err-left", name=t.name
                )
            rating = await self.ratings.get(user_id, t.ruleset, name)
            t.players[user_id] = Player(user_id, name, self._clock.now(), rating.display)
            await self.db.save(t)
            return t

    async def start_event(self, tid: int, user_id: str, is_admin: bool) -> Tournament:
        async with self._outbox.change():
            t = self.get(tid)
            if t.is_ladder:
                raise Refused("tour-err-ladder")
            if not t.run_by(user_id, is_admin):
                raise Refused("tour-err-organiser", name=t.name)
            if t.status != "open":
                raise Refused("tour-err-started", name=t.name)
            players = [p for p in t.players.values() if p.status == "in"]
            for p in players:  # seed on the ratings of today
                p.rating = (await self.ratings.get(p.user_id, t.ruleset, p.name)).display
            self._rounds.begin(t, players)
            await self.db.save(t)  # the teams and the schedule, before anything is shown
            self._rounds.announce_teams(t)
            await self._rounds.advance(t)
            await self.db.save(t)
            return t

    # ------------------------------------------------------------------ leaving, dropping

    async def withdraw(self, tid: int, user_id: str) -> Tournament:
        async with self._outbox.change():
            t = self.get(tid)
            p = t.players.get(user_id)
            if p is None or p.status != "in" or t.status == "over":
                raise Refused("tour-err-not-in", name=t.name)
            await self._rounds.leave(t, p, "withdrawn", "withdrew")
            await self.db.save(t)
            return t

    async def drop(self, tid: int, by_user: str, is_admin: bool, who: str) -> Player:
        async with self._outbox.change():
            t = self.get(tid)
            if not t.run_by(by_user, is_admin):
                raise Refused("tour-err-organiser", name=t.name)
            p = t.find_player(who)
            if p is None or p.status != "in" or t.status == "over":
                raise Refused("tour-err-player", who=who[:40], name=t.name)
            await self._rounds.leave(t, p, "out", "dropped")
            audit = (self._clock.now(), by_user, "drop", {"player": p.user_id})
            await self.db.save(t, audit=audit)
            return p

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
        async with self._outbox.change():
            t = self.get(tid)
            if not t.run_by(by_user, is_admin):
                raise Refused("tour-err-organiser", name=t.name)
            ev = t.event
            if ev is None:
                raise Refused("tour-err-not-started", name=t.name)
            try:
                m = ev.match(match_id)
            except KeyError:
                raise Refused("tour-err-match", match=match_id, name=t.name) from None
            before = m.to_json()
            await self._rounds.set_result(t, m, outcome, score_a, score_b)
            after = ev.match(m.id).to_json() if any(g.id == m.id for g in ev.matches) else None
            audit = (self._clock.now(), by_user, "result", {"before": before, "after": after})
            await self.db.save(t, audit=audit)
            return m

    # ------------------------------------------------------------------ from the core

    async def on_seated(self, table_ref: str, user_id: str) -> None:
        async with self._outbox.change():
            found = self._registry.slot(table_ref)
            if found is not None and self._rounds.seated(*found, user_id):
                await self.db.save(found[0])

    async def on_match_end(
        self, table_ref: str, winner: int | None, score_a: int = 0, score_b: int = 0
    ) -> bool:
        """A tournament table's match is over: `winner` 0 (team a), 1 (team b) or None
        (nobody won). False when the match was already decided (time limit, organiser)."""
        async with self._outbox.change():
            found = self._registry.slot(table_ref)
            if found is None or found[2].decided:
                return False
            t, slot, m = found
            await self._rounds.played(t, slot, m, winner, score_a, score_b)
            await self.db.save(t)
            return True

    async def on_rated_match(
        self,
        match_ref: str,
        channel: str,
        ruleset: str,
        team_a: Team,
        team_b: Team,
        winner: int | None,
        left: tuple[str, ...] = (),
        from_lobby: bool = True,
    ) -> None:
        """Any rated match is over ((user id, name) per player; `winner` 0, 1 or None;
        `left`: who left the match). Updates the ratings, then every ladder of the
        server and ruleset that is open (lobby matches only)."""
        async with self._outbox.change():
            now = self._clock.now()
            await self.ratings.record_match(match_ref, ruleset, team_a, team_b, winner, now)
            if from_lobby:
                await self._ladder.count(match_ref, channel, ruleset, team_a, team_b, winner, left)

    # ------------------------------------------------------------------ deadlines

    async def _fire(self, tid: int, key: str) -> None:
        """A deadline's job. Every process that loaded the tournament has it armed; the
        first to save its effect claims it, and the others take that saved state."""
        async with self._outbox.change():
            t = self.tournaments.get(tid)
            d = t.deadlines.get(key) if t is not None else None
            if t is None or d is None:
                return  # stale: already handled
            try:
                await self._run_deadline(t, d)
            except AlreadyDone:
                self._outbox.discard()  # another process ran it and showed it
                await self._registry.reload(tid)

    async def _run_deadline(self, t: Tournament, d: Deadline) -> None:
        t.deadlines.pop(d.key, None)
        if d.kind == "seat" and d.match_id is not None:
            await self._rounds.seat_missed(t, d.match_id)
        elif d.kind == "round" and d.match_id is not None:
            await self._rounds.time_up(t, d.match_id)
        elif d.kind == "ladder-open":
            self._ladder.open(t)
        elif d.kind == "ladder-close":
            await self._ladder.close(t)
        await self.db.save(t, job=(f"{d.key}@{d.due!r}", self._clock.now()))
