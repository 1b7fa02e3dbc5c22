"""How long one Swiss round takes to pair, and how close the pairing is.

- 1,000 (goal: under 50 ms at p99), 1,001 and 10,000 entrants (goal: under 1 s) after 0, 4
  and 8 simulated rounds, so that score groups and rematches are real;
- every round of several whole 1,000-entrant events (p99 over all those rounds);
- the exact route at work: the top two (and the bottom two) are a score group of two who
  have met, so the ideal structure breaks there; the bottom 8 or 40 have all met.

Each line says which route paired it (ideal / matching / greedy) and the pairs across
score groups against the fewest any pairing could have when every odd group floats one
entrant ((odd groups)/2, a lower bound: equal means optimal on that criterion).

Run: python bench/pairing.py [--repeat N] [--events N]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections import Counter
from collections.abc import Callable, Collection, Mapping

from bot.tournaments.model import Numbers
from bot.tournaments.simulate import play, sim_ratings
from bot.tournaments.swiss import Swiss, SwissPairing, pair_swiss

Pairer = Callable[[], SwissPairing]


def field_after(entrants: int, rounds_played: int, seed: int = 1) -> Swiss:
    """A Swiss of `entrants` with `rounds_played` rounds already played."""
    rng = random.Random(seed)
    ratings = sim_ratings(entrants)
    event = Swiss(entrants, Numbers(rounds=rounds_played + 1), ratings)
    for _ in range(rounds_played):
        event.start_round()
        for m in event.pending():
            outcome, sa, sb = play(m, ratings, rng)
            event.record(m.id, outcome, sa, sb)
    return event


def round_inputs(event: Swiss) -> tuple[list[int], dict, dict, set]:
    active = set(event.active())
    order = [s.entrant for s in event.standings() if s.entrant in active]
    had = {e for sitting in event.byes.values() for e in sitting}
    return order, event.points(), event.opponents(), had


def across(result: SwissPairing, order: list[int], points: Mapping[int, int]) -> tuple[int, int]:
    """(pairs across score groups, the lower bound (odd groups)/2)."""
    field = [e for e in order if e != result.bye]
    sizes = Counter(points[e] for e in field)
    odd = sum(1 for s in sizes.values() if s % 2)
    return sum(1 for a, b in result.pairs if points[a] != points[b]), odd // 2


def timed(pair: Pairer, repeat: int) -> tuple[list[float], SwissPairing]:
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        result = pair()
        times.append((time.perf_counter() - t0) * 1000)
    return times, result


def figures(times: list[float]) -> str:
    times = sorted(times)
    p99 = times[min(len(times) - 1, int(len(times) * 0.99))]
    return (
        f"p50 {statistics.median(times):7.2f} ms  p99 {p99:7.2f} ms  max {times[-1]:7.2f} ms"
        f"  ({len(times)} runs)"
    )


def check(result: SwissPairing, order: list[int], met: Mapping[int, Collection[int]]) -> None:
    assert len(result.pairs) == len(order) // 2
    assert all(b not in met.get(a, ()) for a, b in result.pairs)


def bench_field(entrants: int, played: int, repeat: int) -> None:
    order, points, met, had = round_inputs(field_after(entrants, played))
    times, result = timed(lambda: pair_swiss(order, points, met, had), repeat)
    check(result, order, met)
    cross, bound = across(result, order, points)
    print(
        f"swiss pairing  entrants={entrants:>6}  after round {played}:  {figures(times)}"
        f"  route {result.route}, across {cross} (fewest possible >= {bound})"
    )


def bench_events(entrants: int, rounds: int, events: int) -> None:
    """Every round of `events` whole events, each round paired once; the rounds that
    needed the matching are also shown apart."""
    times: list[float] = []
    by_route: dict[str, list[float]] = {}
    above = 0
    for seed in range(events):
        rng = random.Random(seed)
        ratings = sim_ratings(entrants)
        event = Swiss(entrants, Numbers(rounds=rounds), ratings)
        while not event.is_over():
            order, points, met, had = round_inputs(event)
            t, result = timed(lambda: pair_swiss(order, points, met, had), 1)  # noqa: B023
            times += t
            by_route.setdefault(result.route, []).extend(t)
            cross, bound = across(result, order, points)
            above += cross > bound
            event.start_round()
            for m in event.pending():
                outcome, sa, sb = play(m, ratings, rng)
                event.record(m.id, outcome, sa, sb)
    print(
        f"swiss events   entrants={entrants:>6}  {events} events x {rounds} rounds:"
        f"  {figures(times)}  rounds above the bound {above}"
    )
    for route, t in sorted(by_route.items()):
        print(f"    of which route {route:<8}  {figures(t)}")


def bench_met_ends(entrants: int, repeat: int, bottom: bool) -> None:
    """After 8 rounds, the first two are made a score group of their own who have met
    (and, with `bottom`, the last two too): the ideal structure fails and the weighted
    matching runs, on a window at the top (or, with both ends, on the whole field)."""
    order, points, met, had = round_inputs(field_after(entrants, 8))
    met = {e: set(s) for e, s in met.items()}
    points = dict(points)
    ends = [(order[0], order[1], points[order[0]] + 1)]
    if bottom:
        ends.append((order[-1], order[-2], -1))
    for a, b, alone in ends:
        met[a].add(b)
        met[b].add(a)
        points[a] = points[b] = alone
    times, result = timed(lambda: pair_swiss(order, points, met, had), repeat)
    check(result, order, met)
    cross, bound = across(result, order, points)
    where = "top and bottom two" if bottom else "top two"
    print(
        f"swiss {where} met  entrants={entrants:>6}:  {figures(times)}"
        f"  route {result.route}, across {cross} (fewest possible >= {bound})"
    )


def bench_clique(entrants: int, clique: int, repeat: int) -> None:
    """The bottom `clique` entrants, alone on 0 points, have all met each other."""
    order = list(range(1, entrants + 1))
    points = {e: (0 if e > entrants - clique else 3) for e in order}
    bottom = order[-clique:]
    met = {e: set(bottom) - {e} for e in bottom}
    times, result = timed(lambda: pair_swiss(order, points, met, ()), repeat)
    check(result, order, met)
    cross, bound = across(result, order, points)
    print(
        f"swiss clique   entrants={entrants:>6}  bottom {clique} all met:  {figures(times)}"
        f"  route {result.route}, across {cross} (fewest possible >= {bound})"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeat", type=int, default=200)
    parser.add_argument("--events", type=int, default=5)
    args = parser.parse_args()
    big = max(5, args.repeat // 20)
    for entrants, repeat in ((1000, args.repeat), (1001, args.repeat), (10000, big)):
        for played in (0, 4, 8):
            bench_field(entrants, played, repeat)
    bench_events(1000, 9, args.events)
    bench_events(1001, 9, args.events)
    for entrants in (1000, 10000):
        for bottom in (False, True):
            bench_met_ends(entrants, args.repeat // 4 if entrants == 1000 else big, bottom)
    for entrants, clique in ((1000, 8), (1000, 40), (10000, 40)):
        bench_clique(entrants, clique, max(5, args.repeat // (20 if entrants > 1000 else 4)))


if __name__ == "__main__":
    main()
