"""Swiss pairings are optimal by the stated order of criteria (bot/tournaments/swiss_pairing.py):
no rematch and the bye to the lowest placed possible; then the fewest pairs across score
groups; then the least sum of squared differences in those; then the seeding order.

References: a brute force over every pairing on tiny fields, and networkx's blossom
(an implementation independent of the rustworkx one the pairing uses) over the whole
field on small ones.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Collection, Iterator, Mapping

import networkx as nx
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.tournaments import swiss_pairing
from bot.tournaments.model import NoPairing, Numbers, Outcome
from bot.tournaments.simulate import play, sim_ratings
from bot.tournaments.swiss import Swiss, pair_swiss

Met = Mapping[int, Collection[int]]


def cost(pairs: list[tuple[int, int]], points: Mapping[int, int]) -> tuple[int, int]:
    """(pairs across score groups, sum of their squared differences)."""
    diffs = [points[a] - points[b] for a, b in pairs if points[a] != points[b]]
    return len(diffs), sum(d * d for d in diffs)


def _unplayed(x: int, y: int, met: Met) -> bool:
    return y not in met.get(x, ()) and x not in met.get(y, ())


def reference_best(field: list[int], points: Mapping[int, int], met: Met) -> tuple[int, int] | None:
    """The least (pairs across, squared differences) of any pairing of `field` without a
    rematch, by one networkx matching over the whole field; None if there is none."""
    spread = max(points[e] for e in field) - min(points[e] for e in field)
    heavy = spread * spread * len(field) + 1
    g = nx.Graph()
    g.add_nodes_from(field)
    for x, y in itertools.combinations(field, 2):
        if _unplayed(x, y, met):
            d = points[x] - points[y]
            g.add_edge(x, y, weight=-(heavy * (d != 0) + d * d))
    matching = nx.max_weight_matching(g, maxcardinality=True)
    if 2 * len(matching) != len(field):
        return None
    return cost(list(matching), points)


def reference_bye(order: list[int], met: Met, had: set[int]) -> int | None:
    """The lowest placed without a bye for whom the others can still be paired."""
    for bye in reversed(order):
        if bye in had:
            continue
        g = nx.Graph()
        rest = [e for e in order if e != bye]
        g.add_nodes_from(rest)
        g.add_edges_from((x, y) for x, y in itertools.combinations(rest, 2) if _unplayed(x, y, met))
        if 2 * len(nx.max_weight_matching(g, maxcardinality=True)) == len(rest):
            return bye
    return None


def check_optimal(order: list[int], points: Mapping[int, int], met: Met, had: set[int]) -> None:
    """pair_swiss keeps the hard rules and is optimal on criteria 1-3, or NoPairing is right."""
    if len(order) % 2:
        bye = reference_bye(order, met, had)
        field = [e for e in order if e != bye]
    else:
        bye, field = None, order
    best = reference_best(field, points, met) if (bye is not None or len(order) % 2 == 0) else None
    try:
        result = pair_swiss(order, points, met, had)
    except NoPairing:
        assert best is None
        return
    assert best is not None
    assert result.bye == bye
    seen = [e for p in result.pairs for e in p] + ([bye] if bye is not None else [])
    assert sorted(seen) == sorted(order)
    assert all(_unplayed(a, b, met) for a, b in result.pairs)
    rank = {e: i for i, e in enumerate(order)}
    assert all(rank[a] < rank[b] for a, b in result.pairs)
    assert cost(result.pairs, points) == best


def _events(n: int, rounds: int, seed: int) -> Iterator[tuple[list[int], dict, dict, set]]:
    """Every round of a simulated Swiss: the standings order, points, met, had a bye.
    Checks the event as a whole too: nobody sits out twice, every round is played, and
    a round that cannot be paired ends the event cleanly."""
    rng = random.Random(seed)
    ratings = sim_ratings(n)
    ev = Swiss(n, Numbers(rounds=rounds), ratings)
    sat: list[int] = []
    while not ev.is_over():
        order = [s.entrant for s in ev.standings() if s.entrant in set(ev.active())]
        had = {e for b in ev.byes.values() for e in b}
        yield order, ev.points(), ev.opponents(), had
        try:
            plan = ev.start_round()
        except NoPairing:
            assert ev.finished and ev.end_reason
            return
        sat += plan.byes
        assert len(sat) == len(set(sat))
        for m in ev.pending():
            outcome, sa, sb = play(m, ratings, rng)
            if rng.random() < 0.2:  # upsets and level matches shuffle the groups more
                outcome = rng.choice(list(Outcome)[:3])
            ev.record(m.id, outcome, sa, sb)
    assert ev.round == rounds


@settings(max_examples=80, deadline=None)
@given(
    field=st.integers(min_value=2, max_value=47).flatmap(
        lambda n: st.tuples(st.just(n), st.integers(1, min(9, n - 1 + n % 2)))
    ),
    seed=st.integers(min_value=0, max_value=10**6),
)
def test_every_round_of_an_event_is_optimal(field: tuple[int, int], seed: int) -> None:
    """16- to 47-entrant events are where the greedy pairing made 1 to 6 extra pairs
    across a round; tiny ones (down to 2) are where no pairing may be left."""
    n, rounds = field
    for order, points, met, had in _events(n, rounds, seed):
        check_optimal(order, points, met, had)


@settings(max_examples=150, deadline=None)
@given(
    n=st.integers(min_value=2, max_value=30),
    groups=st.integers(min_value=1, max_value=6),
    density=st.floats(min_value=0.0, max_value=0.9),
    seed=st.integers(min_value=0, max_value=10**6),
)
def test_random_fields_are_optimal(n: int, groups: int, density: float, seed: int) -> None:
    rng = random.Random(seed)
    order = list(range(1, n + 1))
    points = {e: rng.randrange(groups) * rng.choice((1, 2, 3, 100)) for e in order}
    order.sort(key=lambda e: -points[e])
    met: dict[int, set[int]] = {e: set() for e in order}
    for x, y in itertools.combinations(order, 2):
        if rng.random() < density * (1.0 if points[x] == points[y] else 0.3):
            met[x].add(y)
            met[y].add(x)
    had = {e for e in order if rng.random() < density / 2}
    check_optimal(order, points, met, had)


@settings(max_examples=40, deadline=None)
@given(
    sizes=st.lists(st.integers(min_value=1, max_value=32), min_size=2, max_size=6),
    blocked=st.integers(min_value=0, max_value=5),
    seed=st.integers(min_value=0, max_value=10**6),
)
def test_the_exact_route_with_big_groups_represented_is_optimal(
    sizes: list[int], blocked: int, seed: int
) -> None:
    """Small groups whose members have all met each other break the ideal structure, so
    the weighted matching runs, with the big groups represented by their ends."""
    rng = random.Random(seed)
    order: list[int] = []
    points: dict[int, int] = {}
    for gi, s in enumerate(sizes):
        for _ in range(s):
            order.append(len(order) + 1)
            points[order[-1]] = 3 * (len(sizes) - gi)
    met: dict[int, set[int]] = {e: set() for e in order}
    small = [gi for gi, s in enumerate(sizes) if s <= 4]
    start = [sum(sizes[:gi]) + 1 for gi in range(len(sizes))]
    for gi in small[:blocked]:  # a small group that has all met
        members = range(start[gi], start[gi] + sizes[gi])
        for x, y in itertools.combinations(members, 2):
            met[x].add(y)
            met[y].add(x)
    for _ in range(len(order)):  # and a few rematches anywhere
        x, y = rng.sample(order, 2) if len(order) > 1 else (1, 1)
        if x != y:
            met[x].add(y)
            met[y].add(x)
    check_optimal(order, points, met, set())


def _brute(field: list[int], met: Met) -> Iterator[list[tuple[int, int]]]:
    if not field:
        yield []
        return
    x, rest = field[0], field[1:]
    for i, y in enumerate(rest):
        if _unplayed(x, y, met):
            for more in _brute(rest[:i] + rest[i + 1 :], met):
                yield [(x, y), *more]


def _seeding_key(group: list[int], pairs: dict[int, int]) -> list[int]:
    """Criterion 4b as a vector: top to bottom, how far down the preference list
    (ideal place, one lower, one higher, ...) each one's partner is."""
    half = len(group) // 2
    done: set[int] = set()
    key = []
    for i, x in enumerate(group):
        if x in done:
            continue
        prefs = [group[j] for j in swiss_pairing._around(i + half, i + 1, len(group) - 1)]
        prefs = [y for y in prefs if y not in done]
        key.append(prefs.index(pairs[x]))
        done |= {x, pairs[x]}
    return key


@settings(max_examples=200, deadline=None)
@given(
    n=st.integers(min_value=2, max_value=10).filter(lambda n: n % 2 == 0),
    groups=st.integers(min_value=1, max_value=4),
    density=st.floats(min_value=0.0, max_value=0.6),
    seed=st.integers(min_value=0, max_value=10**6),
)
def test_brute_force_agrees_on_every_criterion(
    n: int, groups: int, density: float, seed: int
) -> None:
    rng = random.Random(seed)
    order = list(range(1, n + 1))
    points = {e: rng.randrange(groups) for e in order}
    order.sort(key=lambda e: -points[e])
    met: dict[int, set[int]] = {e: set() for e in order}
    for x, y in itertools.combinations(order, 2):
        if rng.random() < density:
            met[x].add(y)
            met[y].add(x)
    group_of = {e: points[e] for e in order}
    members = {p: [e for e in order if points[e] == p] for p in set(points.values())}
    place = {e: members[points[e]].index(e) for e in order}

    def floaters_cost(pairs: list[tuple[int, int]]) -> int:  # criterion 4a
        total = 0
        for a, b in pairs:
            if group_of[a] != group_of[b]:
                hi, lo = (a, b) if points[a] > points[b] else (b, a)
                total += len(members[points[hi]]) - 1 - place[hi] + place[lo]
        return total

    every = list(_brute(order, met))
    try:
        result = pair_swiss(order, points, met, ())
    except NoPairing:
        assert not every
        return
    assert every

    def key(pairs: list[tuple[int, int]]) -> tuple[int, int, int]:
        return (*cost(pairs, points), floaters_cost(pairs))

    assert key(result.pairs) == min(key(p) for p in every)
    # 4b: given these floaters, each group's pairing is the best by seeding
    ours = {a: b for a, b in result.pairs} | {b: a for a, b in result.pairs}
    floating = {e for a, b in result.pairs if group_of[a] != group_of[b] for e in (a, b)}
    for p in members:
        rest = [e for e in members[p] if e not in floating]
        options = list(_brute(rest, met))
        best = min(_seeding_key(rest, {a: b for a, b in o} | {b: a for a, b in o}) for o in options)
        assert _seeding_key(rest, ours) == best


def test_a_rematch_moves_the_pairing_to_the_next_nearest_place() -> None:
    # 1's ideal is 4, then one place lower (5), then one higher (3); it has met 4 and 5
    order = list(range(1, 9))
    points = {1: 6, 2: 6, 3: 6, 4: 6, 5: 6, 6: 6, 7: 0, 8: 0}
    met = {1: {4, 5}, 4: {1}, 5: {1}}
    result = pair_swiss(order, points, met, ())
    assert result.pairs == [(1, 3), (2, 5), (4, 6), (7, 8)]


def test_the_odd_groups_float_to_each_other_not_through_an_even_one() -> None:
    # groups of 3, 2, 3: one pair across (3's bottom with the third group's top), not two
    order = list(range(1, 9))
    points = {1: 9, 2: 9, 3: 9, 4: 6, 5: 6, 6: 3, 7: 3, 8: 3}
    result = pair_swiss(order, points, {}, ())
    assert result.pairs == [(1, 2), (3, 6), (4, 5), (7, 8)]


def test_big_events_keep_the_rematch_and_bye_rules() -> None:
    sat: list[int] = []
    for order, points, met, had in _events(601, 9, seed=3):
        eligible = [e for e in order if e not in had]
        result = pair_swiss(order, points, met, had)
        assert result.route in ("ideal", "matching")
        assert all(_unplayed(a, b, met) for a, b in result.pairs)
        assert result.bye is not None and result.bye == eligible[-1]
        sat.append(result.bye)
        seen = [e for p in result.pairs for e in p] + [result.bye]
        assert sorted(seen) == sorted(order)
    assert len(sat) == len(set(sat)) == 9


def test_a_hundred_entrants_every_round_optimal() -> None:
    for order, points, met, had in _events(100, 7, seed=11):
        check_optimal(order, points, met, had)


@settings(max_examples=200, deadline=None)
@given(
    line=st.lists(st.integers(min_value=0, max_value=30), min_size=0, max_size=8),
    reach=st.lists(st.integers(min_value=0, max_value=50), min_size=8, max_size=8),
    k=st.integers(min_value=0, max_value=8),
)
def test_the_outside_bound_is_the_best_choice_of_groups_left_out(
    line: list[int], reach: list[int], k: int
) -> None:
    """_fewest_squares (the window proof's outside part) against trying every choice."""
    line = sorted(line, reverse=True)
    if (len(line) - k) % 2 or k > len(line):
        return
    best = min(
        sum(reach[i] for i in out)
        + sum((a - b) ** 2 for a, b in zip(kept[::2], kept[1::2], strict=True))
        for out in itertools.combinations(range(len(line)), k)
        for kept in [[p for i, p in enumerate(line) if i not in out]]
    )
    assert swiss_pairing._fewest_squares(line, reach[: len(line)], k) == best


def test_preferences_run_from_the_ideal_place_outwards() -> None:
    assert list(swiss_pairing._around(4, 1, 7)) == [4, 5, 3, 6, 2, 7, 1]
    assert list(swiss_pairing._around(9, 1, 3)) == [3, 2, 1]
    assert list(swiss_pairing._around(1, 1, 0)) == []  # the last one has nobody below


def test_the_greedy_fallback_keeps_the_hard_rules() -> None:
    # the bottom 12 have all met each other: they must all float up
    order = list(range(1, 41))
    points = {e: 0 if e > 28 else 3 for e in order}
    met = {e: set(range(29, 41)) - {e} for e in range(29, 41)}
    field = swiss_pairing._Field(order, points, swiss_pairing._MetView(met))
    pairs, route = swiss_pairing._fallback(field)
    assert route == "greedy"
    assert sorted(e for p in pairs for e in p) == order
    assert all(_unplayed(a, b, met) for a, b in pairs)


def test_two_leaders_and_two_last_who_have_met_are_paired_optimally() -> None:
    """Two places where the ideal structure breaks, far apart: two windows, each proven
    on its own (or merged when a pairing across both could be better)."""
    rounds = list(_events(120, 5, seed=4))
    order, points, met, had = rounds[-1]
    met = {e: set(s) for e, s in met.items()}
    points = dict(points)
    for a, b, alone in ((order[0], order[1], 99), (order[-1], order[-2], -1)):
        met[a].add(b)
        met[b].add(a)
        points[a] = points[b] = alone
    check_optimal(order, points, met, had)
    assert pair_swiss(order, points, met, had).route == "matching"
