"""Swiss: a set number of rounds, each pairing entrants on equal or the closest points,
never the same opponents twice, the lowest-placed who has not sat out sitting out.

Pairing is a greedy pass (score groups top-down, top half against bottom half, the odd
one floating down) followed, only when the greedy pass leaves someone unpaired, by an
exact maximum-weight matching (networkx) over a tail of the field that doubles until it
succeeds. A blossom matching over the whole field is O(n^3); the greedy pass keeps big
fields fast and the repair keeps the answer exact: if a pairing without a rematch and
without a second bye exists, it is found; if not, NoPairing says so.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass

import networkx as nx

from bot.tournaments.event import Event
from bot.tournaments.model import Format, NoPairing, Numbers, RoundPlan, Standing

_BYE = 0  # the empty seat of an odd field in the matching graph (entrants start at 1)


@dataclass(frozen=True)
class SwissPairing:
    pairs: list[tuple[int, int]]  # higher placed first
    bye: int | None


def pair_swiss(
    order: list[int],
    points: Mapping[int, int],
    met: Mapping[int, Collection[int]],
    had_bye: Iterable[int] = (),
) -> SwissPairing:
    """Pair one round. `order` is the current standings order (best first); `met` says
    whom each has met (sets, for fast look-ups)."""
    met_sets = _MetView(met)
    had = set(had_bye)
    rank = {e: i for i, e in enumerate(order)}
    bye: int | None = None
    field = order
    if len(order) % 2:
        bye = next((e for e in reversed(order) if e not in had), None)
        if bye is None:
            raise NoPairing("everyone has sat out once already: nobody may sit out twice", "bye")
        field = [e for e in order if e != bye]
    pairs, left = _greedy(field, points, met_sets)
    if not left:
        return SwissPairing(sorted(pairs, key=lambda p: rank[p[0]]), bye)
    return _repair(order, pairs, left, bye, points, met_sets, had, rank)


def _greedy(
    field: list[int], points: Mapping[int, int], met: Mapping[int, Collection[int]]
) -> tuple[list[tuple[int, int]], list[int]]:
    """Score groups top-down; in each, the top half meets the bottom half, skipping
    rematches; whoever is left floats down into the next group."""
    pairs: list[tuple[int, int]] = []
    floaters: list[int] = []
    i = 0
    while i < len(field):
        j = i
        while j < len(field) and points[field[j]] == points[field[i]]:
            j += 1
        group = floaters + field[i:j]
        floaters = _fold(group, met, pairs)
        i = j
    return pairs, floaters


def _fold(
    group: list[int], met: Mapping[int, Collection[int]], pairs: list[tuple[int, int]]
) -> list[int]:
    n = len(group)
    half = n // 2
    taken = [False] * n
    for i in range(n):
        if taken[i]:
            continue
        x = group[i]
        seen = met[x]
        start = max(i + half, i + 1)
        partner = -1
        for j in range(start, n):  # the bottom half first, from its top
            if not taken[j] and group[j] not in seen:
                partner = j
                break
        if partner < 0:
            for j in range(min(start, n) - 1, i, -1):  # then closer places upwards
                if not taken[j] and group[j] not in seen:
                    partner = j
                    break
        if partner >= 0:
            taken[i] = taken[partner] = True
            pairs.append((x, group[partner]))
    return [group[i] for i in range(n) if not taken[i]]


def _repair(
    order: list[int],
    pairs: list[tuple[int, int]],
    left: list[int],
    bye: int | None,
    points: Mapping[int, int],
    met: Mapping[int, Collection[int]],
    had: set[int],
    rank: dict[int, int],
) -> SwissPairing:
    """Undo the last k greedy pairs and match them with the leftovers exactly; double k
    until the whole field is matched or shown impossible."""
    k = max(4, len(left))
    while True:
        k = min(k, len(pairs))
        kept = pairs[: len(pairs) - k]
        tail = [e for p in pairs[len(pairs) - k :] for e in p] + left
        if bye is not None:
            tail.append(bye)
        matched = _exact(tail, bye is not None, points, met, had, rank)
        if matched is not None:
            new_pairs, new_bye = matched
            all_pairs = kept + new_pairs
            return SwissPairing(sorted(all_pairs, key=lambda p: rank[p[0]]), new_bye)
        if k == len(pairs):
            raise NoPairing("no pairing of this round avoids a rematch")
        k *= 2


def _exact(
    tail: list[int],
    odd: bool,
    points: Mapping[int, int],
    met: Mapping[int, Collection[int]],
    had: set[int],
    rank: dict[int, int],
) -> tuple[list[tuple[int, int]], int | None] | None:
    """A perfect matching of `tail` without rematches, points as close as possible, and
    (odd field) the empty seat given to the lowest placed who has not sat out."""
    tail = sorted(tail, key=rank.__getitem__)
    spread = max(points[e] for e in tail) - min(points[e] for e in tail)
    room = spread * spread + 1
    g = nx.Graph()
    for i, x in enumerate(tail):
        for y in tail[i + 1 :]:
            if y not in met[x]:
                d = points[x] - points[y]
                g.add_edge(x, y, weight=room - d * d)
    if odd:
        heavy = room * (len(tail) // 2 + 1)  # outweighs any difference in points
        for x in tail:
            if x not in had:
                g.add_edge(_BYE, x, weight=heavy * (1 + rank[x]))
    nodes = len(tail) + (1 if odd else 0)
    matching = nx.max_weight_matching(g, maxcardinality=True)
    if 2 * len(matching) != nodes:
        return None
    pairs: list[tuple[int, int]] = []
    bye = None
    for x, y in matching:
        if _BYE in (x, y):
            bye = x if y == _BYE else y
            continue
        pairs.append((x, y) if rank[x] < rank[y] else (y, x))
    return pairs, bye


class _MetView(dict):
    """`met[e]` for everyone, empty for those who have met nobody, without copying."""

    def __init__(self, met: Mapping[int, Collection[int]]) -> None:
        super().__init__()
        self._met = met

    def __missing__(self, e: int) -> Collection[int]:
        return self._met.get(e, ())


class Swiss(Event):
    format = Format.SWISS

    def __init__(
        self, entrants: int, numbers: Numbers | None = None, ratings: dict[int, float] | None = None
    ) -> None:
        super().__init__(entrants, numbers, ratings)
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
        met: Mapping[int, Collection[int]] = {e: set() for e in self.entrants}
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
        result = pair_swiss(order, self.points(), self.opponents(), had)
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
