"""Pairing one Swiss round, optimal by a stated order of criteria.

The rules (docs/rules.md#tournaments): never the same opponent twice; the lowest placed
who has not sat out sits out (nobody twice); "you meet someone on the same points as you,
or as close as possible". Read as an order of criteria, as the FIDE Dutch system and bbpPairings do:

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

Criteria 2-3 depend only on score groups, which is what makes an exact answer fast:

- The ideal structure (the fast route). Every odd group needs at least one pair across,
  so the fewest possible is (odd groups)/2; a pairing reaching it floats exactly one
  entrant from each odd group and none from an even one, and the odd groups' floaters
  paired in order (1st with 2nd, 3rd with 4th) have the least sum of squared differences
  of any pairing of points on a line. So if every even group can be paired within itself
  and every such pair of odd groups has one unplayed pair whose groups can then be paired
  within, that structure is optimal for 1-3, and 4 is separable over its blocks.
- Otherwise a maximum-weight matching (rustworkx's blossom; integer weights encode
  2 > 3 > 4a lexicographically) on a window of groups around each place where a block
  failed, the ideal blocks staying outside. A lower bound on every pairing with pairs
  across the windows' edges proves them big enough (_windows_proven), or they widen and
  merge, up to the whole field. Inside a window the graph is sparse: a big group stands
  in by its top and bottom ends (its top end floating only up, its bottom end only
  down), each end F + r_out + 1 entrants, F = min(r + 1, 2X) (r the most opponents
  anyone has, X the pairs across of a known pairing), r_out the most of the group any
  outsider has met. Why that is exact: in an optimum, a group with more than r + 1
  floaters has two whose partners never met (entrants who all met each other are at most
  r + 1), and pairing those partners together and the two floaters inside the group
  (its internal pairs leave room when it is big enough against its own rematches r_in)
  has fewer pairs across; it cannot float more than 2X either; and a floater away from
  its end swaps with an end one its partner never met, at a lower 4a cost. The
  conditions (_ends) are checked on the answer; a group that fails them is taken whole
  and the matching is solved again.

Groups are then paired within by criterion 4b. Whether the rest of a group can still be
paired is Dirac's theorem (every entrant unplayed with half of the others: a Hamiltonian
cycle, so a perfect matching) when the group is big, an exact matching when it is small.

Only when the matching's graph would pass EXACT_LIMIT entrants (far beyond anything the
bench meets; it would take seconds) does the pairing fall back to a greedy pass with an
exact tail repair, which keeps the hard rules (criterion 1) but not 2-4; the answer's
`route` says which way it was found.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass
from typing import cast

import rustworkx as rx

from bot.tournaments.model import NoPairing

# The exact route solves graphs up to this many entrants; beyond, the greedy fallback.
EXACT_LIMIT = 1200


@dataclass(frozen=True)
class SwissPairing:
    pairs: list[tuple[int, int]]  # higher placed first, in standings order
    bye: int | None
    # how it was found: "ideal" (the fast route), "matching" (the exact route) or
    # "greedy" (the fallback beyond EXACT_LIMIT: hard rules only, criteria 2-4 not ensured)
    route: str = "ideal"


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
    result: tuple[list[tuple[int, int]], str], bye: int | None, rank: Mapping[int, int]
) -> SwissPairing:
    pairs, route = result
    pairs = [(x, y) if rank[x] < rank[y] else (y, x) for x, y in pairs]
    return SwissPairing(sorted(pairs, key=lambda p: rank[p[0]]), bye, route)


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
        self._degrees: dict[int, tuple[int, int]] = {}
        # criteria 2 > 3 > 4a as one integer cost per pair: c2 x (across) + c3 x d^2 + 4a
        self.size = n = len(ranked)
        spread = points[ranked[0]] - points[ranked[-1]] if ranked else 0
        c4 = 2 * max((len(g) for g in self.groups), default=1)  # above one pair's 4a
        self.c3 = c4 * (n // 2 + 1)  # above every pair's 4a together
        self.c2 = self.c3 * (spread * spread * (n // 2 + 1) + 1)  # above all squares too
        self.top = self.c2 + self.c3 * spread * spread + c4  # every weight positive

    def degrees(self, gi: int) -> tuple[int, int]:
        """(r_in, r_out) of group gi: the most opponents one of its entrants has inside
        it, and the most of its entrants one outsider has met."""
        if gi not in self._degrees:
            inside = set(self.groups[gi])
            outsiders: Counter[int] = Counter()
            r_in = 0
            for z in self.groups[gi]:
                seen = self.met[z]
                mine = inside.intersection(seen)
                r_in = max(r_in, len(mine))
                if len(mine) < len(seen):
                    outsiders.update(y for y in seen if y not in inside)
            self._degrees[gi] = (r_in, max(outsiders.values(), default=0))
        return self._degrees[gi]

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
) -> tuple[list[tuple[int, int]], str] | None:
    """The whole pairing of an even field, or None if none exists."""
    field = _Field(ranked, points, met)
    blocks = _ideal_blocks(field)
    route = "ideal"
    if all(b.ok for b in blocks):
        floats = [b.floats for b in blocks if b.floats is not None]
    else:
        route = "matching"
        try:
            found = _window_floats(field, blocks)
        except _TooBig:
            return _fallback(field)
        if found is None:
            return None
        floats = found
    pairs = list(floats)
    floating = {e for p in floats for e in p}
    for g in field.groups:
        rest = [e for e in g if e not in floating]
        inside = _pair_group(field, rest)
        if inside is None:  # cannot happen (each route checked): still, keep the rules
            return _fallback(field)
        pairs += inside
    return pairs, route


# --- the fast route: the ideal structure -------------------------------------------------


@dataclass
class _Block:
    """A block of the ideal structure: an even group alone, or two odd groups in a row
    (among the odd ones) joined by one pair."""

    groups: tuple[int, ...]
    ok: bool
    floats: tuple[int, int] | None = None
    cost_4a: int = 0


def _ideal_blocks(field: _Field) -> list[_Block]:
    blocks = []
    odd = []
    for gi, g in enumerate(field.groups):
        if len(g) % 2:
            odd.append(gi)
        else:
            blocks.append(_Block((gi,), field.pairable(g)))
    for a, b in zip(odd[::2], odd[1::2], strict=True):
        found = _best_float(field, field.groups[a], field.groups[b])
        if found is None:
            blocks.append(_Block((a, b), False))
        else:
            blocks.append(_Block((a, b), True, found[1:], found[0]))
    return blocks


def _best_float(field: _Field, upper: list[int], lower: list[int]) -> tuple[int, int, int] | None:
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
    return best  # (its cost by criterion 4a, x, y)


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
    if lo > hi:
        return
    target = min(max(target, lo), hi)
    yield target
    for d in range(1, hi - lo + 1):
        if target + d <= hi:
            yield target + d
        if target - d >= lo:
            yield target - d
        if target + d > hi and target - d < lo:
            return


# --- the exact route: a weighted matching on a window of score groups ----------------------


class _TooBig(Exception):
    """The exact route's graph is beyond EXACT_LIMIT entrants."""


def _window_floats(field: _Field, blocks: list[_Block]) -> list[tuple[int, int]] | None:
    """The pairs across groups of an optimum by criteria 2, 3 and 4a (None: no pairing).

    The matching runs on windows of groups around the blocks the ideal structure could
    not pair, each window alone; outside them the ideal blocks stay. Pairings with pairs
    across the windows' edges are bounded from below (_windows_proven); when the bound
    does not prove the answer optimal, the windows widen (and merge), up to the whole
    field."""
    groups = field.groups
    last = len(groups) - 1
    odd_above = [0]
    for g in groups:
        odd_above.append(odd_above[-1] + len(g) % 2)

    def edges(lo: int, hi: int) -> tuple[int, int]:
        """Widened to edges that no pair of the ideal structure crosses."""
        lo, hi = max(lo, 0), min(hi, last)
        while odd_above[lo] % 2:
            lo -= 1
        while odd_above[hi + 1] % 2:
            hi += 1
        return lo, hi

    def merged(spans: list[tuple[int, int]]) -> list[tuple[int, int]]:
        out: list[tuple[int, int]] = []
        for lo, hi in sorted(edges(lo, hi) for lo, hi in spans):
            if out and lo <= out[-1][1] + 1:
                out[-1] = (out[-1][0], max(hi, out[-1][1]))
            else:
                out.append((lo, hi))
        return out

    failed = [b for b in blocks if not b.ok]
    trouble = {gi for b in failed for gi in b.groups}
    windows = merged([(min(b.groups) - 1, max(b.groups) + 1) for b in failed])
    while True:
        whole = windows == [(0, last)]
        solved = []
        for lo, hi in windows:
            found = _exact_floats(field, lo, hi, 0, trouble)
            if found is None:
                if whole:
                    return None
                break
            solved.append(found)
        else:
            inside = {gi for lo, hi in windows for gi in range(lo, hi + 1)}
            outside = [b for b in blocks if b.groups[0] not in inside]
            if whole or _windows_proven(field, windows, solved, outside, trouble):
                floats = [p for found in solved for p in found[0]]
                return floats + [b.floats for b in outside if b.floats is not None]
        windows = merged(
            [
                (lo - max(2, (hi - lo + 1) // 2), hi + max(2, (hi - lo + 1) // 2))
                for lo, hi in windows
            ]
        )


def _windows_proven(
    field: _Field,
    windows: list[tuple[int, int]],
    solved: list[tuple[list[tuple[int, int]], int, int]],
    outside: list[_Block],
    trouble: set[int],
) -> bool:
    """Are the windows' optima plus the ideal blocks outside them optimal for the field?

    A pairing with no pair across the windows' edges is at best that. Otherwise say
    window i sends k_i of its entrants out (k_i even: a window holds an even number) and
    s of those pairs end outside (the others join two windows). At best: window i paired
    with k_i seats sent out, each costing a pair across and (its distance to the window's
    edge)^2 (the matching with k_i dummy seats; a pair joining two windows is counted in
    both, so half a pair across comes off per seat, and half comes back per pair ending
    outside; such a pair also spans the gap between the windows, squared); outside, one
    pair across for every two odd groups left (s fixed by the
    partners, at best) and the least sum of squares of pairing those left, plus the
    squared distance from each fixed one to the nearest window's edge. More than
    2 x (pairs across in the windows) seats in all cost more pairs across than the
    answer, so only that many are tried. A window's bound is first taken from a smaller
    relaxed matching (_relaxed_value) and from the full one only if that does not do."""
    points, groups, c2, c3 = field.points, field.groups, field.c2, field.c3
    odd_points = [points[groups[gi][0]] for b in outside if len(b.groups) == 2 for gi in b.groups]
    odd_points.sort(reverse=True)
    ideal_sq = sum((x - y) ** 2 for x, y in zip(odd_points[::2], odd_points[1::2], strict=True))
    ours = (
        sum(value for _, value, _ in solved)
        + c2 * (len(odd_points) // 2)
        + c3 * ideal_sq
        + sum(b.cost_4a for b in outside)
    )
    reach = []
    for p in odd_points:
        d = min(
            p - points[groups[lo][0]] if p > points[groups[lo][0]] else points[groups[hi][0]] - p
            for lo, hi in windows
        )
        reach.append(d * d)
    most = 2 * sum(cross for _, _, cross in solved)
    sizes = [sum(len(groups[gi]) for gi in range(lo, hi + 1)) for lo, hi in windows]
    options = [range(0, min(most, size, field.size - size) + 1, 2) for size in sizes]
    combos = 1
    for ks in options:
        combos *= len(ks)
    if combos > 4096:
        return False  # too many ways to check: widen, the windows merge
    # what the pairs ending outside can be worth, s of them at least
    away = {
        s: c2 * (s // 2)
        + c2 * (max(0, len(odd_points) - s) // 2)
        + c3 * _fewest_squares(odd_points, reach, s)
        for s in range(0, most + 1, 2)
    }
    # a pair joining two windows also spans the gap between them
    gap = min(
        (
            (points[groups[hi][0]] - points[groups[lo][0]]) ** 2
            for (_, hi), (lo, _) in itertools.pairwise(windows)
        ),
        default=0,
    )
    exact = [False] * len(windows)
    while True:
        bound: list[dict[int, int | None]] = []
        for i, ((lo, hi), (_, value, _)) in enumerate(zip(windows, solved, strict=True)):
            values: dict[int, int | None] = {0: value}
            for k in options[i]:
                if k:
                    if exact[i]:
                        found = _exact_floats(field, lo, hi, k, trouble)
                        values[k] = None if found is None else found[1]
                    else:
                        values[k] = _relaxed_value(field, lo, hi, k, trouble)
            bound.append(values)
        if _least_bound(bound, away, most, c2, c3 * gap) >= ours:
            return True
        if all(exact):
            return False
        exact = [True] * len(windows)


def _least_bound(
    bound: list[dict[int, int | None]], away: dict[int, int], most: int, c2: int, across: int
) -> float:
    """The least lower bound over every way of sending seats out of the windows (a pair
    joining two windows costs at least `across` more than its two seats)."""
    least: float = float("inf")
    for ks in itertools.product(*(sorted(b) for b in bound)):
        total = sum(ks)
        if total == 0 or total > most:
            continue
        parts = [b[k] for b, k in zip(bound, ks, strict=True)]
        if None in parts:  # a window that cannot send that many out
            continue
        fewest_out = max(0, 2 * max(ks) - total)  # a window's seats cannot all meet its own
        out = min(away[s] + across * ((total - s) // 2) for s in range(fewest_out, total + 1, 2))
        least = min(least, sum(cast(list[int], parts)) - c2 * (total // 2) + out)
    return least


def _relaxed_value(field: _Field, lo: int, hi: int, dummies: int, trouble: set[int]) -> int | None:
    """A lower bound on the window's value with `dummies` seats sent out, from a smaller
    matching: only the rematches among the groups that broke the ideal structure
    (`trouble`) are kept and criterion 4a is dropped. Every other group's entrants are
    then alike, so a group stands in by a few anonymous seats: in an optimum it floats
    at most max(dummies, 1 + the trouble's entrants) (two floaters' partners that could
    pair would rather pair, the two floaters staying home), so that many plus one (of
    the group's parity) are enough. None: not even this can be paired (nor the window)."""
    groups, points, met = field.groups, field.points, field.met
    involved = sum(len(groups[gi]) for gi in trouble if lo <= gi <= hi)
    if involved > 4 * field.r + 8:
        return 0  # no smaller than the window itself: costs are never negative
    seats = max(dummies, 1 + involved) + 1
    nodes: list[tuple[int, int | None]] = []
    for gi in range(lo, hi + 1):
        g = groups[gi]
        if gi in trouble:
            nodes += [(gi, e) for e in g]
        else:
            n = min(len(g), seats + (len(g) - seats) % 2)
            nodes += [(gi, None)] * n
    c2, c3, top = field.c2, field.c3, field.top
    edges = []
    for i, (gx, x) in enumerate(nodes):
        px = points[groups[gx][0]]
        for j in range(i + 1, len(nodes)):
            gy, y = nodes[j]
            if x is not None and y is not None and y in met[x]:
                continue
            d = px - points[groups[gy][0]]
            edges.append((i, j, top if gx == gy else top - c2 - c3 * d * d))
    _seat_edges(field, edges, [points[groups[gi][0]] for gi, _ in nodes], dummies, lo, hi)
    return _matching_value(len(nodes) + dummies, edges, top)


def _seat_edges(field: _Field, edges: list, at: list[int], dummies: int, lo: int, hi: int) -> None:
    """The dummy seats' edges (after the len(at) entrants): a seat sent out costs a pair
    across and the squared distance to the window's nearest edge."""
    points, groups = field.points, field.groups
    near = []
    if lo > 0:
        near.append(points[groups[lo][0]])
    if hi < len(groups) - 1:
        near.append(points[groups[hi][0]])
    n = len(at)
    for i, p in enumerate(at):
        d = min(abs(p - q) for q in near)
        cost = field.c2 + field.c3 * d * d
        edges += [(i, n + k, field.top - cost) for k in range(dummies)]


def _matching_value(size: int, edges: list, top: int) -> int | None:
    """The least total cost of a perfect matching (weights are top - cost), or None."""
    g = rx.PyGraph()
    g.add_nodes_from(range(size))
    g.add_edges_from(edges)
    matching = rx.max_weight_matching(g, max_cardinality=True, weight_fn=int)
    if 2 * len(matching) != size:
        return None
    return sum(top - g.get_edge_data(i, j) for i, j in matching)


def _fewest_squares(line: list[int], reach: list[int], k: int) -> int:
    """The least cost of leaving out k of the points of `line` (in order; leaving out
    point i costs reach[i]) and pairing the others, each with its neighbour among those
    left, at the squared difference."""
    m = len(line)
    if k > m:
        return 0
    inf = float("inf")
    # best[i][j]: the first i points, j of them left out, the others paired
    best = [[inf] * (k + 1) for _ in range(m + 1)]
    best[0][0] = 0
    for i in range(1, m + 1):
        for j in range(k + 1):
            if j and best[i - 1][j - 1] + reach[i - 1] < best[i][j]:
                best[i][j] = best[i - 1][j - 1] + reach[i - 1]
            skipped_cost = 0
            for partner in range(i - 2, -1, -1):  # point i-1 pairs with `partner`
                skipped = i - 2 - partner
                if skipped > j:
                    break
                c = best[partner][j - skipped] + skipped_cost + (line[partner] - line[i - 1]) ** 2
                if c < best[i][j]:
                    best[i][j] = c
                skipped_cost += reach[partner]
    return int(best[m][k])


def _ends(field: _Field, gi: int, cross: int, dummies: int) -> int | None:
    """How many entrants at each end may stand for group `gi` in the matching, when a
    known pairing has `cross` pairs across (dummy seats included); None: take it whole.
    The conditions of the exchange argument in the module doc, with the group's own
    numbers of opponents inside it (r_in) and among any one outsider's (r_out)."""
    size = len(field.groups[gi])
    r_in, r_out = field.degrees(gi)
    clique = max(field.r + 1, dummies)  # partners that cannot pair with each other
    most = min(clique, 2 * cross)  # floaters of the group in an optimum
    ends = most + r_out + 1
    if size <= 2 * ends + 1 or size <= most + 4 * r_in + 2:
        return None
    if 2 * cross > clique and size <= 2 * cross + 4 * r_in:
        return None
    return ends


def _exact_floats(
    field: _Field, lo: int, hi: int, dummies: int, trouble: Collection[int]
) -> tuple[list[tuple[int, int]], int, int] | None:
    """An optimum of groups lo..hi alone (with `dummies` seats for entrants sent out):
    its pairs across groups, its value (c2 x pairs across + c3 x squares + 4a) and its
    number of pairs across (those sent out included); None if there is no pairing.
    `trouble`: the groups that broke the ideal structure (their entrants may all have
    to float, which sizes the first guess of the pairs across)."""
    groups = field.groups
    whole: set[int] = set()
    cross = sum(len(groups[gi]) % 2 for gi in range(lo, hi + 1)) // 2 + dummies
    cross += sum(len(groups[gi]) // 2 for gi in trouble if lo <= gi <= hi)
    clique = max(field.r + 1, dummies)
    while True:
        nodes: list[int] = []
        represented: dict[int, int] = {}
        for gi in range(lo, hi + 1):
            g = groups[gi]
            ends = None if gi in whole else _ends(field, gi, cross, dummies)
            if ends is None:
                nodes += g
            else:
                represented[gi] = ends
                nodes += g[:ends] + g[len(g) - ends - len(g) % 2 :]
        if len(nodes) + dummies > EXACT_LIMIT:
            raise _TooBig
        solved = _solve(field, nodes, represented, dummies, lo, hi)
        if solved is None:
            if not represented:
                return None
            if 2 * cross < clique:  # the ends may be too short for the floaters needed
                cross = max(2 * cross, 1)
            else:
                whole |= set(represented)  # a represented group may be what blocked it
            continue
        floats, value, sent = solved
        floating = {e for p in floats for e in p} | set(sent)
        bad = {
            gi
            for gi in represented
            if not field.pairable([e for e in groups[gi] if e not in floating])
        }
        if bad:
            whole |= bad
            continue
        actual = len(floats) + len(sent)
        if actual > cross:  # the ends were sized for fewer pairs across: still enough?
            cross = actual
            if any(_ends(field, gi, cross, dummies) != e for gi, e in represented.items()):
                continue
        return floats, value, actual


def _solve(
    field: _Field,
    nodes: list[int],
    represented: Collection[int],
    dummies: int,
    lo: int,
    hi: int,
) -> tuple[list[tuple[int, int]], int, list[int]] | None:
    """Maximum-weight perfect matching of `nodes` (top-down) and `dummies` seats: its
    pairs across groups, its value and who took a dummy seat."""
    n = len(nodes)
    points, group_of, place, met = field.points, field.group_of, field.place, field.met
    groups = field.groups
    c2, c3, top = field.c2, field.c3, field.top
    sizes = [len(g) for g in groups]
    edges = []
    # A represented group floats down from its bottom end only and up from its top end
    # only: a floater elsewhere would swap with an end one at a lower 4a cost.
    upper_end = [group_of[x] in represented and 2 * place[x] < sizes[group_of[x]] for x in nodes]
    may_go_down = [not up for up in upper_end]
    may_go_up = [
        up or group_of[x] not in represented for x, up in zip(nodes, upper_end, strict=True)
    ]
    for i, x in enumerate(nodes):
        gx = group_of[x]
        seen = met[x]
        free_inside = gx in represented
        px = points[x]
        down = may_go_down[i]
        for j in range(i + 1, n):
            y = nodes[j]
            gy = group_of[y]
            if gy == gx:
                if free_inside or y not in seen:
                    edges.append((i, j, top))
            elif down and may_go_up[j] and y not in seen:
                d = px - points[y]
                # x is the higher group (nodes run top-down): x floats down, y up
                cost = c2 + c3 * d * d + sizes[gx] - 1 - place[x] + place[y]
                edges.append((i, j, top - cost))
    if dummies:
        _seat_edges(field, edges, [points[x] for x in nodes], dummies, lo, hi)
    g = rx.PyGraph()
    g.add_nodes_from(range(n + dummies))
    g.add_edges_from(edges)
    matching = rx.max_weight_matching(g, max_cardinality=True, weight_fn=int)
    if 2 * len(matching) != n + dummies:
        return None
    floats = []
    sent = []
    value = 0
    for i, j in matching:
        i, j = min(i, j), max(i, j)
        value += top - g.get_edge_data(i, j)
        if j >= n:
            if i < n:
                sent.append(nodes[i])
            continue
        x, y = nodes[i], nodes[j]
        if group_of[x] != group_of[y]:
            floats.append((x, y))
    return floats, value, sent


# --- the fallback: greedy with an exact tail repair (hard rules only) ----------------------


def _fallback(field: _Field) -> tuple[list[tuple[int, int]], str] | None:
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
            return pairs[: len(pairs) - k] + matched, "greedy"
        if k == len(pairs):
            return None
        k *= 2
    return pairs, "greedy"


def _match_all(field: _Field, people: list[int]) -> list[tuple[int, int]] | None:
    """Any pairing of `people` without a rematch (a maximum-cardinality matching)."""
    g = _unplayed_graph(people, field.met)
    matching = rx.max_weight_matching(g, max_cardinality=True)
    if 2 * len(matching) != len(people):
        return None
    return [(people[i], people[j]) for i, j in matching]
