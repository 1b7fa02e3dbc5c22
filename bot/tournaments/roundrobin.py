"""Round-robin: everyone plays everyone else once, on a schedule drawn before round 1.

The circle method fixes one entrant and turns the others one place each round; with an
odd count an empty place is added and whoever faces it sits out (scored as a win). A
single table of four may rotate partners instead: three rounds, each player partners
each other once and plays against them twice.
"""

from __future__ import annotations

from typing import Any

from bot.tournaments.event import Event
from bot.tournaments.model import Format, Match, Numbers, RoundPlan, Standing

Pairing = tuple[tuple[int, ...], tuple[int, ...]]


def circle_schedule(entrants: list[int]) -> list[tuple[list[tuple[int, int]], int | None]]:
    """Every round of a round-robin: (pairings, who sits out). The higher placed (smaller
    number) is listed first in each pairing."""
    places: list[int | None] = list(entrants)
    if len(places) % 2:
        places.append(None)
    n = len(places)
    rounds = []
    for _ in range(n - 1):
        pairs: list[tuple[int, int]] = []
        sits: int | None = None
        for i in range(n // 2):
            x, y = places[i], places[n - 1 - i]
            if x is None:
                sits = y
            elif y is None:
                sits = x
            else:
                pairs.append((min(x, y), max(x, y)))
        rounds.append((sorted(pairs), sits))
        places = [places[0], places[-1], *places[1:-1]]
    return rounds


ROTATION: tuple[Pairing, ...] = (((1, 2), (3, 4)), ((1, 3), (2, 4)), ((1, 4), (2, 3)))


class RoundRobin(Event):
    format = Format.ROUNDROBIN

    def __init__(
        self, entrants: int, numbers: Numbers | None = None, ratings: dict[int, float] | None = None
    ) -> None:
        super().__init__(entrants, numbers, ratings)
        if self.numbers.rotate_partners and entrants != 4:
            raise ValueError("rotating partners needs exactly one table of four")
        self.schedule: list[dict[str, Any]] = self._draw()

    @property
    def rotating(self) -> bool:
        return self.numbers.rotate_partners

    def _draw(self) -> list[dict[str, Any]]:
        """The whole schedule, fixed now and never changed."""
        if self.rotating:
            return [{"pairings": [[list(a), list(b)]], "bye": None} for a, b in ROTATION]
        return [
            {"pairings": [[[x], [y]] for x, y in pairs], "bye": sits}
            for pairs, sits in circle_schedule(self.entrants)
        ]

    def is_over(self) -> bool:
        return self.finished or (self.round == len(self.schedule) and self.round_complete())

    def _plan(self, r: int) -> RoundPlan:
        if r > len(self.schedule):
            raise RuntimeError("the schedule has no more rounds")
        drawn = self.schedule[r - 1]
        byes = [drawn["bye"]] if drawn["bye"] is not None else []
        byes = [e for e in byes if e not in self.withdrawn]
        return RoundPlan(
            round=r,
            pairings=[(tuple(a), tuple(b)) for a, b in drawn["pairings"]],
            byes=byes,
        )

    def standings(self) -> list[Standing]:
        """Points, then the matches between those level on points, then points scored
        minus points conceded; the higher rated last of all."""
        pts = self.points()
        diff = dict.fromkeys(self.entrants, 0)
        for m in self.matches:
            if m.decided and not m.forfeit:
                for e in (*m.a, *m.b):
                    scored, conceded = m.scored(e)
                    diff[e] += scored - conceded
        level: dict[int, set[int]] = {}
        for e, p in pts.items():
            level.setdefault(p, set()).add(e)
        rows = []
        for e in self.entrants:
            group = level[pts[e]]
            h2h = head_to_head(self.matches, e, group, self.numbers) if len(group) > 1 else 0
            key = (-pts[e], -h2h, -diff[e], -self.ratings.get(e, 0.0), e)
            rows.append((key, e, pts[e], (h2h, diff[e])))
        return self._placed(rows)

    def _extra_json(self) -> dict[str, Any]:
        return {"schedule": self.schedule}

    def _load_extra(self, data: dict[str, Any]) -> None:
        self.schedule = data["schedule"]


def head_to_head(matches: list[Match], entrant: int, group: set[int], numbers: Numbers) -> int:
    """Points `entrant` took from matches against the others of its level group."""
    total = 0
    for m in matches:
        if not m.decided:
            continue
        if entrant in m.a or entrant in m.b:
            rivals = set(m.opponents(entrant)) & group
            if rivals:
                total += numbers.points(m.won_by(entrant))
    return total
