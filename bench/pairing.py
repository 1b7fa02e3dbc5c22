"""How long one Swiss round takes to pair: 1,000 entrants (goal: under 50 ms at p99)
and 10,000, after a few simulated rounds so that score groups and rematches are real.

Run: python bench/pairing.py [--repeat N]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from bot.tournaments.model import Numbers
from bot.tournaments.simulate import play, sim_ratings
from bot.tournaments.swiss import Swiss, pair_swiss


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


def measure(entrants: int, rounds_played: int, repeat: int) -> dict[str, float]:
    event = field_after(entrants, rounds_played)
    active = set(event.active())
    order = [s.entrant for s in event.standings() if s.entrant in active]
    points, met = event.points(), event.opponents()
    had = {e for sitting in event.byes.values() for e in sitting}
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        result = pair_swiss(order, points, met, had)
        times.append((time.perf_counter() - t0) * 1000)
    assert len(result.pairs) == entrants // 2
    assert all(b not in met[a] for a, b in result.pairs)
    times.sort()
    p99 = times[min(len(times) - 1, int(len(times) * 0.99))]
    return {"p50": statistics.median(times), "p99": p99, "max": times[-1]}


def measure_repair(entrants: int, clique: int, repeat: int) -> dict[str, float]:
    """The exact repair at work: the bottom `clique` entrants, alone on 0 points, have all
    met each other, so the greedy pass leaves them unpaired and the tail is re-matched."""
    order = list(range(1, entrants + 1))
    points = {e: (0 if e > entrants - clique else 3) for e in order}
    bottom = order[-clique:]
    met = {e: set(bottom) - {e} for e in bottom}
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        result = pair_swiss(order, points, met, ())
        times.append((time.perf_counter() - t0) * 1000)
    assert len(result.pairs) == entrants // 2
    assert all(b not in met.get(a, ()) for a, b in result.pairs)
    times.sort()
    p99 = times[min(len(times) - 1, int(len(times) * 0.99))]
    return {"p50": statistics.median(times), "p99": p99, "max": times[-1]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeat", type=int, default=200)
    args = parser.parse_args()
    sizes = ((1000, args.repeat), (1001, args.repeat), (10000, max(5, args.repeat // 20)))
    for entrants, repeat in sizes:
        for played in (0, 4, 8):
            f = measure(entrants, played, repeat)
            print(
                f"swiss pairing  entrants={entrants:>6}  after round {played}:"
                f"  p50 {f['p50']:7.2f} ms  p99 {f['p99']:7.2f} ms  max {f['max']:7.2f} ms"
                f"  ({repeat} runs)"
            )
    for entrants, clique in ((1000, 8), (1000, 40), (10000, 40)):
        repeat = max(5, args.repeat // (20 if entrants > 1000 else 4))
        f = measure_repair(entrants, clique, repeat)
        print(
            f"swiss repair   entrants={entrants:>6}  bottom {clique} all met:"
            f"  p50 {f['p50']:7.2f} ms  p99 {f['p99']:7.2f} ms  max {f['max']:7.2f} ms"
            f"  ({repeat} runs)"
        )


if __name__ == "__main__":
    main()
