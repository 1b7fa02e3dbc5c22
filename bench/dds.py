"""Double-dummy solver speed: median time and nodes per second by cards left.

    python bench/dds.py [--positions N] [--seed S] [--root] [--python]

Random deals of the club ruleset (suit contracts) and the Bulgarian one (all six
contracts), cut to 12, 16, 20, 24, 28 and 32 cards left at a trick boundary; each position
is solved from scratch (fresh transposition table) for its exact value, or with
``--root`` for every legal card's value (what the expert's search asks).  The nodes (the
median and the sum over the positions) do not depend on the machine's load: they compare
two builds of the solver where the times cannot.  The compiled
core (engine/ai/_dds.c) by default; ``--python`` times the pure-Python ``Solver`` (up to
24 cards: a whole deal takes it seconds).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.ai.solver import COMPILED, Position, Solver, solve, solve_root
from engine.ai.tables import BULGARIAN, CLUB


def position(rng: random.Random, cards_left: int) -> Position:
    kind = rng.choice([CLUB, BULGARIAN])
    code = rng.randrange(6) if kind == BULGARIAN else rng.randrange(4)
    per_hand = cards_left // 4
    cards = rng.sample(range(32), cards_left)
    hands = [0, 0, 0, 0]
    for i, c in enumerate(cards):
        hands[i // per_hand] |= 1 << c
    return Position(kind, code, hands, rng.randrange(4), [], won=3)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--root",
        action="store_true",
        help="time root_values (every legal card) instead of one value",
    )
    parser.add_argument("--python", action="store_true", help="time the pure-Python solver")
    args = parser.parse_args()
    compiled = COMPILED and not args.python
    what = "every root card" if args.root else "one value"
    print(f"solver: {'compiled (engine/ai/_dds.c)' if compiled else 'pure Python'}, {what}")
    print(
        f"{'cards':>5} {'median ms':>10} {'p90 ms':>9} {'nodes med':>10} {'nodes all':>11} "
        f"{'knodes/s':>9}"
    )
    for left in (12, 16, 20, 24, 28, 32) if compiled else (12, 16, 20, 24):
        rng = random.Random(f"{args.seed}|{left}")
        times, nodes = [], []
        for _ in range(args.positions):
            pos = position(rng, left)
            t0 = time.perf_counter()
            if compiled:
                n = (solve_root(pos, 0) if args.root else solve(pos, 0))[1]
            else:
                solver = Solver(pos.kind, pos.code, 0)
                solver.root_values(pos) if args.root else solver.value(pos)
                n = solver.nodes
            times.append(time.perf_counter() - t0)
            nodes.append(n)
        rate = sum(nodes) / sum(times) / 1000
        p90 = sorted(times)[int(0.9 * (len(times) - 1))]
        print(
            f"{left:>5} {statistics.median(times) * 1000:>10.1f} {p90 * 1000:>9.1f} "
            f"{statistics.median(nodes):>10.0f} {sum(nodes):>11} {rate:>9.0f}"
        )


if __name__ == "__main__":
    main()
