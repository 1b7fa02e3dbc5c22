"""A change to the expert's bidding, measured only on the decks where it bids otherwise.

    python bench/studies/paired_bidding.py --set PROPOSE_MARGIN.classic=30 [--set NAME=NUMBER ...]
                                   [--ruleset R] [--b LEVEL] [--deals N] [--seed S] [--jobs J]

``--set`` changes a number of ``engine.ai.expert_bidding`` (its margins and thresholds;
``NAME.KEY`` for one entry of a table of numbers, such as a margin by ruleset) in every
process that plays.  The card play does not change, and a deck is played from
its view and seeds alone, so a deck whose auctions (every call at both tables, until the
first card) are the same with and without the change scores the same: its paired
difference is zero, and it need not be played.  The auctions are replayed first (no card
play: a minute for 300 decks); only the decks whose auctions differ are played, both ways,
whole deals against ``--b`` (default hard), as ``bench/studies/paired.py`` does.  The mean and 95%
CI are of the per-deck differences over every deck, so the figure is the one the two
whole arenas would give, for a fraction of their time.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import TypeVar

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

import engine.ai.expert_bidding as expert_bidding
from bench.studies.contracts import Calls, replay_auction
from bench.studies.paired import parse_settings
from engine.ai.arena import mean_ci95, play_deck

Job = tuple[str, str, int, int]  # ruleset, opponent, seed, deck
T = TypeVar("T")


def _numbers() -> list[str]:
    """The names ``--set`` takes: the numbers of ``expert_bidding`` and its tables' entries."""
    out = []
    for name, value in vars(expert_bidding).items():
        if not name.isupper():
            continue
        if isinstance(value, int | float) and not isinstance(value, bool):
            out.append(name)
        elif isinstance(value, dict) and all(isinstance(v, float) for v in value.values()):
            out += [f"{name}.{key}" for key in value]
    return sorted(out)


def checked_settings(settings: dict[str, object]) -> dict[str, float]:
    """``settings`` as numbers of ``expert_bidding`` (a count such as ``SAMPLES`` stays a
    whole number), or a message naming the bad one."""
    out: dict[str, float] = {}
    names = _numbers()
    for name, value in settings.items():
        if name not in names:
            raise SystemExit(f"--set {name}: not a number of expert_bidding ({', '.join(names)})")
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise SystemExit(f"--set {name}: give a number")
        if isinstance(getattr(expert_bidding, name, None), int):
            if value != int(value) or value < 1:
                raise SystemExit(f"--set {name}: give a whole number, 1 or more")
            out[name] = int(value)
        else:
            out[name] = float(value)
    return out


def _use(settings: dict[str, float]) -> None:
    """Bid with ``settings`` in this process (a worker's initializer)."""
    for name, value in settings.items():
        table, _dot, key = name.partition(".")
        if key:
            setattr(expert_bidding, table, {**getattr(expert_bidding, table), key: value})
        else:
            setattr(expert_bidding, name, value)


def calls(job: Job) -> tuple[Calls, Calls]:
    """Every call of both tables of deck ``i``, until each table's card play begins."""
    ruleset, b, seed, i = job
    return (
        replay_auction(ruleset, "expert", b, seed, i, 0)[0],
        replay_auction(ruleset, "expert", b, seed, i, 1)[0],
    )


def _lead(job: Job) -> float:
    ruleset, b, seed, i = job
    return play_deck(ruleset, "expert", b, seed, i)[0]


def run(jobs: int, settings: dict[str, float], fn: Callable[[Job], T], work: list[Job]) -> list[T]:
    """``fn`` of every deck of ``work``, in processes that bid with ``settings``."""
    with ProcessPoolExecutor(jobs, initializer=_use, initargs=(settings,)) as pool:
        return list(pool.map(fn, work))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--set", action="append", default=[], metavar="NAME[.KEY]=NUMBER")
    parser.add_argument("--ruleset", default="classic")
    parser.add_argument("--b", default="hard")
    parser.add_argument("--deals", type=int, default=300)
    parser.add_argument("--seed", type=int, default=2028)
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    if args.b == "sparring":
        raise SystemExit("--b sparring: its duels are card play only, every seat bidding as hard")
    settings = checked_settings(parse_settings(args.set))
    if not settings:
        raise SystemExit("give at least one --set NAME[.KEY]=NUMBER: the change to measure")
    work = [(args.ruleset, args.b, args.seed, i) for i in range(args.deals)]
    before = run(args.jobs, {}, calls, work)
    after = run(args.jobs, settings, calls, work)
    differ = [job for job, x, y in zip(work, before, after, strict=True) if x != y]
    shipped = run(args.jobs, {}, _lead, differ)
    changed = run(args.jobs, settings, _lead, differ)
    gains = {job[3]: c - s for job, c, s in zip(differ, changed, shipped, strict=True)}
    diffs = [gains.get(i, 0.0) for i in range(args.deals)]
    m, ci = mean_ci95(diffs)
    label = " ".join(args.set)
    better = sum(1 for d in gains.values() if d > 0)
    worse = sum(1 for d in gains.values() if d < 0)
    print(
        f"{args.ruleset}, {args.deals} decks of seed {args.seed} vs {args.b}: {len(differ)} "
        f"bid otherwise ({better} better, {worse} worse, {len(differ) - better - worse} even)"
    )
    print(f"{label} gains {m:+.2f} points per deal (95% CI +-{ci:.2f}), paired")


if __name__ == "__main__":
    main()
