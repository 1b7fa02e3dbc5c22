"""Swiss: a set number of rounds, each pairing entrants on equal or the closest points,
never the same opponents twice, the lowest-placed who has not sat out sitting out.

The pairing itself (its order of criteria and why it is exact) is in swiss_pairing.py;
`belote tournament simulate` and the live runner both reach it through Swiss._plan.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Mapping

from bot.tournaments.event import Event
from bot.tournaments.model import Format, NoPairing, Numbers, RoundPlan, Standing
from bot.tournaments.swiss_pairing import SwissPairing, pair_swiss

__all__ = ["Pairing", "Swiss", "SwissPairing", "pair_swiss"]

# (standings order, points, whom each has met, who has sat out) -> one round's pairing
Pairing = Callable[
    [list[int], Mapping[int, int], Mapping[int, Collection[int]], Iterable[int]], SwissPairing
]


class Swiss(Event):
    format = Format.SWISS
    _pairing: Pairing | None = None  # None: `pair_swiss`; also for an event loaded back

    def __init__(
        self,
        entrants: int,
        numbers: Numbers | None = None,
        ratings: dict[int, float] | None = None,
        *,
        pairing: Pairing | None = None,
    ) -> None:
        """`pairing` replaces `pair_swiss` (a test's pairing that fails on purpose)."""
        super().__init__(entrants, numbers, ratings)
        self._pairing = pairing
        if self.numbers.rounds < 1:
            raise ValueError("a Swiss needs at least one round")
        if self.numbers.rounds >= entrants + (entrants % 2):
            raise ValueError(
                f"{entrants} entrants can play at most {entrants - 1 + entrants % 2} Swiss"
                " rounds without a rematch"
            )

    def is_over(self) -> bool:
        if self.finished:
            return True
        if self.round and not self.round_complete():
            return False
        return self.round >= self.numbers.rounds or len(self.active()) < 2

    def opponents(self) -> dict[int, set[int]]:
        met: dict[int, set[int]] = {e: set() for e in self.entrants}
        for m in self.matches:
            for x in m.a:
                met[x].update(m.b)
            for y in m.b:
                met[y].update(m.a)
        return met

    def _plan(self, r: int) -> RoundPlan:
        active = set(self.active())
        order = [s.entrant for s in self.standings() if s.entrant in active]
        if len(order) < 2:
            raise NoPairing("fewer than two entrants are left", "few")
        had = {e for sitting in self.byes.values() for e in sitting}
        pair = self._pairing or pair_swiss
        result = pair(order, self.points(), self.opponents(), had)
        return RoundPlan(
            round=r,
            pairings=[((a,), (b,)) for a, b in result.pairs],
            byes=[result.bye] if result.bye is not None else [],
        )

    def standings(self) -> list[Standing]:
        """Points, then the opponents' points (byes add none), then the rating."""
        pts = self.points()
        opp = dict.fromkeys(self.entrants, 0)
        for m in self.matches:
            for x in m.a:
                opp[x] += sum(pts[y] for y in m.b)
            for y in m.b:
                opp[y] += sum(pts[x] for x in m.a)
        rows = []
        for e in self.entrants:
            rating = self.ratings.get(e, 0.0)
            rows.append(((-pts[e], -opp[e], -rating, e), e, pts[e], (opp[e], rating)))
        return self._placed(rows)
