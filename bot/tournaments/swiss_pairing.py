"""Pairing one Swiss round, optimal by a stated order of criteria.

The rules (seed 000): never the same opponent twice; the lowest placed who has not sat
out sits out (nobody twice); "you meet someone on the same points as you, or as close as
possible". Read as an order of criteria, as the FIDE Dutch system and bbpPairings do:

1. no rematch, nobody sits out twice (hard rules), and the bye to the lowest placed
   entrant without one for whom the others can still be paired;
2. the fewest pairs across score groups;
3. the smallest score differences in those pairs (the sum of their squares, so one pair
   two groups apart weighs more than two pairs one group apart);
4. the seeding order: (a) the floaters are the lowest of the group above and the highest
   of the group below (the least sum of their places from those ends), then (b) within a
   group, top to bottom, each takes the partner closest to the ideal top-half-against-
   bottom-half (1-5, 2-6, 3-7, 4-8 in eight; then one place lower, one higher, ...) that
   still lets the rest of the group be paired.

Criteria 2-3 depend only on score groups, so two exact routes give the same answer:

- The ideal structure (the fast route). Every group needs at least one pair across if it
  is odd, so the fewest possible is (odd groups)/2; a pairing reaching it floats exactly
  one entrant from each odd group and none from an even one, and the odd groups' floaters
  paired in order (1st with 2nd, 3rd with 4th) have the least sum of squared differences
  of any pairing of points on a line. So if every even group can be paired within itself
  and every such pair of odd groups has one unplayed pair whose groups can then be paired
  within, that structure is optimal for 1-3, and 4 is separable over its blocks.
- A maximum-weight matching (the exact route, rustworkx's blossom) with integer weights
  that encode 2 > 3 > 4a lexicographically, on a sparse graph: a group too big to matter
  whole is represented by its top and bottom 2r+2 entrants (r = most opponents anyone
  has). Why that is exact: in an optimum a group with more than r+1 floaters has two
  floaters whose partners never met (a set of entrants who all met each other has at
  most r+1), and pairing those two partners together and the two floaters inside the
  group (the group's internal pairs leave room for them when it has more than
  4r + 2X entrants, X the pairs across of a known pairing) has fewer pairs across; and a
  floater outside the represented ends swaps with one inside them that its partner never
  met, at a lower 4a cost. The proof's conditions are checked on the answer; a group
  that fails them is taken whole and the matching is solved again.

Groups are then paired within by criterion 4b. Whether the rest of a group can still be
paired is Dirac's theorem (every entrant unplayed with half of the others: a Hamiltonian
cycle, so a perfect matching) when the group is big, an exact matching when it is small.

Only when the exact route's graph would be too big to solve in time does the pairing fall
back to a greedy pass with an exact tail repair, which keeps the hard rules (criterion 1)
but not 2-4; docs/tournaments.md says when.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass

import rustworkx as rx

from bot.tournaments.model import NoPairing

# The exact route solves graphs up to this many entrants; beyond, the greedy fallback.
EXACT_LIMIT = 1200


@dataclass(frozen=True)
class SwissPairing:
    pairs: list[tuple[int, int]]  # higher placed first, in standings order
    bye: int | None
    exact: bool = True  # False: the greedy fallback was used (criteria 2-4 not ensured)


class _MetView(dict):
    """`met[e]` for everyone, empty for those who have met nobody, without copying."""

    def __init__(self, met: Mapping[int, Collection[int]]) -> None:
        super().__init__()
        self._met = met

    def __missing__(self, e: int) -> Collection[int]:
        return self._met.get(e, ())


def pair_swiss(
    order: list[int],
    points: Mapping[int, int],
    met: Mapping[int, Collection[int]],
    had_bye: Iterable[int] = (),
) -> SwissPairing:
    """Pair one round. `order` is the current standings order (best first); `met` says
    whom each has met (sets, for fast look-ups). Raises NoPairing when no pairing keeps
    the hard rules."""
    met_view = _MetView(met)
    had = set(had_bye)
    rank = {e: i for i, e in enumerate(order)}
    # score groups top-down, standings order within (order is normally sorted already)
    ranked = sorted(order, key=lambda e: (-points[e], rank[e]))
    if len(ranked) % 2 == 0:
        result = _pair_field(ranked, points, met_view)
        if result is None:
            raise NoPairing("no pairing of this round avoids a rematch")
        return _finish(result, None, rank)
    candidates = [e for e in reversed(order) if e not in had]
    if not candidates:
        raise NoPairing("everyone has sat out once already: nobody may sit out twice", "bye")
    for bye in candidates:
        result = _pair_field([e for e in ranked if e != bye], points, met_view)
        if result is not None:
            return _finish(result, bye, rank)
    raise NoPairing("no pairing of this round avoids a rematch")


def _finish(
    result: tuple[list[tuple[int, int]], bool], bye: int | None, rank: Mapping[int, int]
) -> SwissPairing:
    pairs, exact = result
    pairs = [(x, y) if rank[x] < rank[y] else (y, x) for x, y in pairs]
    return SwissPairing(sorted(pairs, key=lambda p: rank[p[0]]), bye, exact)


class _Field:
    """One round's field without the bye: score groups and the look-ups the routes share."""

    def __init__(
        self, ranked: list[int], points: Mapping[int, int], met: Mapping[int, Collection[int]]
    ) -> None:
        self.met = met
        self.points = points
        self.groups: list[list[int]] = []
        for e in ranked:
            if self.groups and points[self.groups[-1][0]] == points[e]:
                self.groups[-1].append(e)
            else:
                self.groups.append([e])
        self.group_of = {e: gi for gi, g in enumerate(self.groups) for e in g}
        self.place = {e: i for g in self.groups for i, e in enumerate(g)}
        # the most opponents anyone has: beyond 2r+2 entrants Dirac settles matchability
        self.r = max((len(met[e]) for e in ranked), default=0)

    def pairable(self, people: list[int]) -> bool:
        """Can `people` be paired among themselves without a rematch?"""
        m = len(people)
        if m % 2:
            return False
        if m >= 2 * self.r + 2:  # everyone is unplayed with at least half of the others
            return True
        inside = set(people)
        met = self.met
        if all(m - 1 - len(inside.intersection(met[z])) >= m / 2 for z in people):
            return True  # Dirac's condition on the actual degrees
        return _perfect_matching_exists(people, met)


def _unplayed_graph(people: list[int], met: Mapping[int, Collection[int]]) -> rx.PyGraph:
    g = rx.PyGraph()
    g.add_nodes_from(people)
    g.add_edges_from_no_data(
        [
            (i, j)
            for i, x in enumerate(people)
            for j in range(i + 1, len(people))
            if people[j] not in met[x]
        ]
    )
    return g


def _perfect_matching_exists(people: list[int], met: Mapping[int, Collection[int]]) -> bool:
    g = _unplayed_graph(people, met)
    return 2 * len(rx.max_weight_matching(g, max_cardinality=True)) == len(people)


def _pair_field(
    ranked: list[int], points: Mapping[int, int], met: Mapping[int, Collection[int]]
) -> tuple[list[tuple[int, int]], bool] | None:
    """The whole pairing of an even field, or None if none exists."""
    field = _Field(ranked, points, met)
    floats = _ideal_floats(field)
    if floats is None:
        try:
            floats = _exact_floats(field)
        except _TooBig:
            return _fallback(field)
        if floats is None:
            return None
    pairs = list(floats)
    floating = {e for p in floats for e in p}
    for g in field.groups:
        rest = [e for e in g if e not in floating]
        inside = _pair_group(field, rest)
        if inside is None:  # cannot happen: each route checked the group can be paired
            raise AssertionError("a score group the route found pairable was not")
        pairs += inside
    return pairs, True


# --- the fast route: the ideal structure -------------------------------------------------


def _ideal_floats(field: _Field) -> list[tuple[int, int]] | None:
    """The floaters of the ideal structure (odd groups paired in order), or None if some
    block of it cannot be paired."""
    odd = [gi for gi, g in enumerate(field.groups) if len(g) % 2]
    for g in field.groups:
        if len(g) % 2 == 0 and not field.pairable(g):
            return None
    floats = []
    for a, b in zip(odd[::2], odd[1::2], strict=True):
        pair = _best_float(field, field.groups[a], field.groups[b])
        if pair is None:
            return None
        floats.append(pair)
    return floats


def _best_float(field: _Field, upper: list[int], lower: list[int]) -> tuple[int, int] | None:
    """The unplayed pair (x from `upper`, y from `lower`) with the least sum of x's place
    from the bottom of its group and y's from the top, both groups pairable without them."""
    big_u = len(upper) - 1 >= 2 * field.r + 2
    big_l = len(lower) - 1 >= 2 * field.r + 2
    downs = [
        (len(upper) - 1 - i, x)
        for i, x in reversed(list(enumerate(upper)))
        if big_u or field.pairable(upper[:i] + upper[i + 1 :])
    ]
    ups = [
        (j, y) for j, y in enumerate(lower) if big_l or field.pairable(lower[:j] + lower[j + 1 :])
    ]
    best: tuple[int, int, int] | None = None
    for cost_x, x in downs:
        if best is not None and cost_x >= best[0]:
            break
        seen = field.met[x]
        for cost_y, y in ups:
            if best is not None and cost_x + cost_y >= best[0]:
                break
            if y not in seen:
                best = (cost_x + cost_y, x, y)
                break
    return None if best is None else (best[1], best[2])


# --- within a group: criterion 4b --------------------------------------------------------


def _pair_group(field: _Field, people: list[int]) -> list[tuple[int, int]] | None:
    """Top to bottom, each takes the unplayed partner nearest its ideal (the same place in
    the bottom half; then one lower, one higher, ...) that leaves the rest pairable."""
    m = len(people)
    if not field.pairable(people):
        return None
    half = m // 2
    taken = [False] * m
    left = m
    pairs = []
    met = field.met
    safe = 2 * field.r + 2  # with this many left (after a pair), any pair keeps it pairable
    for i in range(m):
        if taken[i]:
            continue
        x = people[i]
        seen = met[x]
        rest: list[int] | None = None
        for j in _around(i + half, i + 1, m - 1):
            y = people[j]
            if taken[j] or y in seen:
                continue
            if left - 2 < safe:
                if rest is None:
                    rest = [people[k] for k in range(i + 1, m) if not taken[k]]
                if not field.pairable([z for z in rest if z != y]):
                    continue
            taken[i] = taken[j] = True
            left -= 2
            pairs.append((x, y))
            break
        else:  # cannot happen: the group was pairable before this step
            return None
    return pairs


def _around(target: int, lo: int, hi: int) -> Iterable[int]:
    """lo..hi by distance from target, the lower place (larger index) first on a tie."""
    target = min(max(target, lo), hi)
    yield target
    for d in range(1, hi - lo + 1):
        if target + d <= hi:
            yield target + d
        if target - d >= lo:
            yield target - d
        if target + d > hi and target - d < lo:
            return


# --- the exact route: a weighted matching on a sparse graph --------------------------------


class _TooBig(Exception):
    """The exact route's graph is beyond EXACT_LIMIT entrants."""


def _cross_estimate(field: _Field) -> int:
    return sum(len(g) % 2 for g in field.groups) // 2 + 1


def _exact_nodes(field: _Field, whole: set[int], cross: int) -> tuple[list[int], set[int]]:
    """The matching's nodes: small groups whole, big ones by their top and bottom 2r+2
    (and one more when odd, so that the group keeps its parity). Returns the nodes and the
    groups represented."""
    r = field.r
    ends = 2 * r + 2
    nodes: list[int] = []
    represented = set()
    for gi, g in enumerate(field.groups):
        s = len(g)
        if gi not in whole and s > max(4 * r + 2 * cross, 5 * r + 3) + 1 and s > 2 * ends + 1:
            reps = g[:ends] + g[s - ends - (s % 2) :]
            represented.add(gi)
            nodes += reps
        else:
            nodes += g
    return nodes, represented


def _exact_floats(field: _Field) -> list[tuple[int, int]] | None:
    """The pairs across groups of an optimum by criteria 2, 3 and 4a, or None if the
    field cannot be paired at all."""
    whole: set[int] = set()
    cross = _cross_estimate(field)
    while True:
        nodes, represented = _exact_nodes(field, whole, cross)
        if len(nodes) > EXACT_LIMIT:
            raise _TooBig
        floats = _solve(field, nodes, represented)
        if floats is None:
            if not represented:
                return None
            whole |= represented  # a represented group may be what blocked it
            continue
        cross = len(floats)
        floating = {e for p in floats for e in p}
        bad = set()
        for gi in represented:
            g = field.groups[gi]
            s = len(g)
            if s <= max(4 * field.r + 2 * cross, 5 * field.r + 3) + 1 or not field.pairable(
                [e for e in g if e not in floating]
            ):
                bad.add(gi)
        if not bad:
            return floats
        whole |= bad


def _solve(field: _Field, nodes: list[int], represented: set[int]) -> list[tuple[int, int]] | None:
    """Maximum-weight perfect matching of `nodes`; its pairs across groups."""
    n = len(nodes)
    points, group_of, place, met = field.points, field.group_of, field.place, field.met
    spread = points[field.groups[0][0]] - points[field.groups[-1][0]]
    largest = max(len(g) for g in field.groups)
    c4 = 2 * largest  # the most one pair's 4a cost can be, plus one
    c3 = c4 * (n // 2 + 1)  # outweighs every pair's 4a cost together
    c2 = c3 * spread * spread * (n // 2 + 1) + c3  # outweighs every squared difference
    top = c2 + c3 * spread * spread + c4  # every weight positive
    sizes = [len(g) for g in field.groups]
    g = rx.PyGraph()
    g.add_nodes_from(nodes)
    edges = []
    for i, x in enumerate(nodes):
        gx = group_of[x]
        seen = met[x]
        free_inside = gx in represented
        px = points[x]
        for j in range(i + 1, n):
            y = nodes[j]
            gy = group_of[y]
            if gy == gx:
                if free_inside or y not in seen:
                    edges.append((i, j, top))
            elif y not in seen:
                d = px - points[y]
                # x is the higher group (nodes run top-down): x floats down, y up
                cost_4 = sizes[gx] - 1 - place[x] + place[y]
                edges.append((i, j, top - c2 - c3 * d * d - cost_4))
    g.add_edges_from(edges)
    matching = rx.max_weight_matching(g, max_cardinality=True, weight_fn=int)
    if 2 * len(matching) != n:
        return None
    floats = []
    for i, j in matching:
        x, y = nodes[i], nodes[j]
        if group_of[x] != group_of[y]:
            floats.append((x, y) if group_of[x] < group_of[y] else (y, x))
    return floats


# --- the fallback: greedy with an exact tail repair (hard rules only) ----------------------


def _fallback(field: _Field) -> tuple[list[tuple[int, int]], bool] | None:
    """Score groups top-down, top half against bottom half, leftovers floating down; when
    that leaves someone unpaired, the last k pairs are undone and matched again exactly
    with the leftovers, k doubling until the whole field is covered."""
    pairs: list[tuple[int, int]] = []
    floaters: list[int] = []
    for g in field.groups:
        group = floaters + g
        taken = [False] * len(group)
        half = len(group) // 2
        for i, x in enumerate(group):
            if taken[i]:
                continue
            for j in _around(i + half, i + 1, len(group) - 1):
                if not taken[j] and group[j] not in field.met[x]:
                    taken[i] = taken[j] = True
                    pairs.append((x, group[j]))
                    break
        floaters = [e for i, e in enumerate(group) if not taken[i]]
    k = max(4, len(floaters))
    while floaters:
        k = min(k, len(pairs))
        tail = [e for p in pairs[len(pairs) - k :] for e in p] + floaters
        matched = _match_all(field, tail)
        if matched is not None:
            return pairs[: len(pairs) - k] + matched, False
        if k == len(pairs):
            return None
        k *= 2
    return pairs, False


def _match_all(field: _Field, people: list[int]) -> list[tuple[int, int]] | None:
    """Any pairing of `people` without a rematch (a maximum-cardinality matching)."""
    g = _unplayed_graph(people, field.met)
    matching = rx.max_weight_matching(g, max_cardinality=True)
    if 2 * len(matching) != len(people):
        return None
    return [(people[i], people[j]) for i, j in matching]
