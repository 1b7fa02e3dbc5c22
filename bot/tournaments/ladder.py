"""Ladders: a window of days in which every rated lobby match of a server and ruleset
counts, points per result, and standings at the close.

A ladder is created with its window's two deadlines (opening, when it opens later, and
closing). Counting a match is claimed in the database with the ladder's save, so when
several processes hear of the same match it counts once: the others take the saved state.
"""

from __future__ import annotations

from bot.ops.clock import Clock
from bot.tournaments.deadlines import Deadlines
from bot.tournaments.pages import Pages
from bot.tournaments.registry import Registry
from bot.tournaments.store import AlreadyDone, Tournament, TournamentDB, scope_of

DAY = 86_400.0

Team = list[tuple[str, str]]  # (user id, name) per player


class Ladder:
    def __init__(
        self,
        db: TournamentDB,
        registry: Registry,
        deadlines: Deadlines,
        pages: Pages,
        clock: Clock,
    ) -> None:
        self._db = db
        self._registry = registry
        self._deadlines = deadlines
        self._pages = pages
        self._clock = clock

    def schedule(self, t: Tournament, opens_in: float) -> None:
        """A new ladder's window: open now or in `opens_in` seconds, for its days."""
        now = self._clock.now()
        t.opens_at = now + max(0.0, opens_in)
        t.closes_at = t.opens_at + t.numbers.days * DAY
        t.status = "scheduled" if opens_in > 0 else "running"
        if t.status == "scheduled":
            self._deadlines.arm(t, "ladder-open", t.opens_at)
        self._deadlines.arm(t, "ladder-close", t.closes_at)

    def open(self, t: Tournament) -> None:
        t.status = "running"
        self._pages.ladder_opened(t)

    async def close(self, t: Tournament) -> None:
        t.status = "over"
        t.end_reason = "closed"
        self._deadlines.disarm_all(t)
        self._pages.ladder_closed(t)
        await self._pages.post_standings(t)

    async def count(
        self,
        match_ref: str,
        channel: str,
        ruleset: str,
        team_a: Team,
        team_b: Team,
        winner: int | None,
        left: tuple[str, ...],
    ) -> None:
        """A rated lobby match is over: every open ladder of its server and ruleset counts
        it once for the players who had joined (leaving a match counts as a loss)."""
        now = self._clock.now()
        for t in list(self._registry.tournaments.values()):  # a reload may replace one
            if not t.is_ladder or t.status != "running" or t.ruleset != ruleset:
                continue
            if scope_of(channel) != t.scope():
                continue
            assert t.opens_at is not None and t.closes_at is not None
            if not t.opens_at <= now < t.closes_at or await self._db.counted(t.id, match_ref):
                continue
            changed = False
            for side, team in enumerate((team_a, team_b)):
                for user_id, _name in team:
                    p = t.players.get(user_id)
                    if p is None or p.status != "in" or p.joined_at > now:
                        continue
                    won = None if winner is None else side == winner
                    if user_id in left:
                        won = False
                    p.points += t.numbers.points(won)
                    p.wins += won is True
                    p.draws += won is None
                    p.losses += won is False
                    changed = True
            if changed:
                try:
                    await self._db.save(t, counted=match_ref)
                except AlreadyDone:  # another process counted it first
                    await self._registry.reload(t.id)
