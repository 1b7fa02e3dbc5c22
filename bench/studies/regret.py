"""A level's card decisions scored against the true deal: a low-noise measure of play.

    python bench/studies/regret.py --positions FILE [--a LEVEL] [--set FIELD=JSON ...]
                           [--deals N] [--seed S] [--ruleset R] [--jobs J]
                           [--save FILE] [--against FILE] [--cards-left N]
                           [--cards-from M]

A duel's score follows the whole deal that a decision sets off, so a change worth a
point a deal hides in a spread of some forty; measuring it takes hundreds of decks.  This
script scores decisions one at a time instead.  It records positions once (``--deals``
decks played card play only, every seat bidding as hard, at a table of four sparring
partners and at a table of two experts against two sparring partners; every card
decision with a choice, of every seat), with the double-dummy value of each legal card
in the deal as it truly lies, and keeps them in ``--positions`` (made when missing,
read when present).  Then it asks ``--a`` (``sparring``, ``hard`` or ``expert``, with its
plan changed by every ``--set``, as in ``bench/studies/paired.py``) for its card in each position,
from the seat's view alone, and counts the card's *regret*: the best card's value in the
true deal minus its own (card points, last trick and capot included).

The figure is a team's regret a deal (the decisions of two seats, both tables of a deck
averaged), with a 95% CI over the decks; with ``--set`` it also scores the shipped level
on the same positions and prints the paired difference.  ``--save`` keeps the regrets scored
(the changed level's, or the shipped one's) and ``--against`` takes the baseline from such
a file instead of scoring the shipped level again.  ``--cards-left N`` scores only the
decisions with at most N cards in hands, ``--cards-from M`` only those with at least M
(``--cards-from 29``: the first trick), so a change to some tiers costs minutes, not a
quarter of an hour, and its figure is not diluted by decisions it cannot change; its
``--against`` may be a file of every decision, or of the same ones.  It is a proxy: the
true deal's values assume everyone plays perfectly afterwards, and a card that tells the
partner something is worth nothing here.  What it measures well is how good a seat's picture of
the hidden hands is, decision by decision, with the noise of the rest of the deal gone.
"""

from __future__ import annotations

import argparse
import json
import pickle
import sys
from collections.abc import Iterable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from bench.studies.paired import parse_settings, use_plan
from bench.studies.selfplay import card_choices
from engine.ai.arena import arena_action, mean_ci95
from engine.ai.knowledge import knowledge_from_view
from engine.ai.solver import Position, solve_root
from engine.ai.sparring import SPARRING
from engine.match import Match, SeatView

LEVELS = (SPARRING, "hard", "expert")


@dataclass(frozen=True)
class Spot:
    """A card decision with a choice, and what each legal card is worth in the true deal."""

    deck: int
    view: SeatView
    seed: int
    values: dict[int, int]  # card -> the mover's team's card points minus the other's


def true_values(m: Match, view: SeatView) -> dict[int, int]:
    """Every legal card's double-dummy value with every hand as it truly is."""
    k = knowledge_from_view(view)
    hands = [m.hand_mask(s) for s in range(4)]
    pos = Position(k.kind, k.code, hands, k.leader, list(k.trick), k.won)
    values, _nodes = solve_root(pos, k.seat & 1)
    return values


def record_deck(job: tuple[str, int, int]) -> list[Spot]:
    """The spots of both tables of deck ``i``."""
    i = job[2]
    return [Spot(i, c.view, c.seed, true_values(c.match, c.view)) for c in card_choices(*job)]


Key = tuple[str, int, int]  # ruleset, decks, seed


def positions(path: Path, ruleset: str, deals: int, seed: int, jobs: int) -> list[Spot]:
    """The spots kept in ``path``, recorded first when it does not exist."""
    key = (ruleset, deals, seed)
    if path.exists():
        return load_spots(path, key)
    work = [(ruleset, seed, i) for i in range(deals)]
    with ProcessPoolExecutor(jobs) as pool:
        spots = [s for deck in pool.map(record_deck, work) for s in deck]
    save_spots(path, key, spots)
    return spots


def save_spots(path: Path, key: Key, spots: list[Spot]) -> None:
    # plain tuples, so the file reads back whichever module ``Spot`` was loaded as
    rows = [(s.deck, s.view, s.seed, s.values) for s in spots]
    with path.open("wb") as f:
        pickle.dump({"key": key, "spots": rows}, f)


def load_spots(path: Path, key: Key) -> list[Spot]:
    with path.open("rb") as f:
        kept = pickle.load(f)
    if tuple(kept["key"]) != key:
        raise SystemExit(f"--positions {path}: recorded for {tuple(kept['key'])}, not {key}")
    return [Spot(*row) for row in kept["spots"]]


def card_of(level: str, spot: Spot) -> int:
    """``level``'s card from the spot's view, as the arena would have it play."""
    card = arena_action(spot.view, level, spot.seed).card
    assert card is not None
    return card


def regret(job: tuple[str, Spot]) -> float:
    level, spot = job
    card = card_of(level, spot)
    return max(spot.values.values()) - spot.values[card]


def regrets(level: str, spots: list[Spot], jobs: int, settings: dict[str, object]) -> list[float]:
    with ProcessPoolExecutor(jobs, initializer=use_plan, initargs=(settings, level)) as pool:
        return list(pool.map(regret, [(level, s) for s in spots], chunksize=8))


def per_deck(spots: list[Spot], values: list[float]) -> list[float]:
    """A team's regret a deal, deck by deck: both tables' four seats summed, halved twice."""
    return deck_sums([s.deck for s in spots], values)


def deck_sums(decks: Iterable[int], values: Iterable[float]) -> list[float]:
    """:func:`per_deck` from each decision's deck number (in deck order)."""
    sums: dict[int, float] = {}
    for d, v in zip(decks, values, strict=True):
        sums[d] = sums.get(d, 0.0) + v / 4
    return [sums[d] for d in sorted(sums)]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--positions", required=True, metavar="FILE")
    ap.add_argument("--a", default="expert", choices=LEVELS)
    ap.add_argument("--set", action="append", default=[], metavar="FIELD=JSON")
    ap.add_argument("--ruleset", default="classic")
    ap.add_argument("--deals", type=int, default=100)
    ap.add_argument("--seed", type=int, default=4242)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--save", metavar="FILE", help="keep the regrets scored, as JSON")
    ap.add_argument("--against", metavar="FILE", help="the baseline's regrets of a --save")
    ap.add_argument("--cards-left", type=int, default=32, metavar="N")
    ap.add_argument("--cards-from", type=int, default=1, metavar="M")
    args = ap.parse_args()
    settings = parse_settings(args.set)
    if settings and args.a == SPARRING:
        raise SystemExit("--set changes a search plan: give --a hard or --a expert")
    every = positions(Path(args.positions), args.ruleset, args.deals, args.seed, args.jobs)
    kept = decisions_between(every, args.cards_from, args.cards_left)
    spots = [every[i] for i in kept]
    baseline = None
    if args.against:
        baseline = saved_regrets(Path(args.against), len(spots), kept, len(every))
    label = args.a if not settings else f"{args.a} with {' '.join(args.set)}"
    if args.cards_from > 1 or args.cards_left < 32:
        label += f" (the decisions with {args.cards_from} to {args.cards_left} cards left)"
    got = regrets(args.a, spots, args.jobs, settings)
    print(summary(label, spots, got))
    if args.save:
        Path(args.save).write_text(json.dumps(got))
    if baseline is None and settings:
        baseline = regrets(args.a, spots, args.jobs, {})
        print(summary(args.a, spots, baseline))
    if baseline is not None:
        diff = [a - b for a, b in zip(got, baseline, strict=True)]
        m, ci = mean_ci95(per_deck(spots, diff))
        differ = sum(1 for d in diff if d)
        print(
            f"{args.ruleset}, {args.deals} decks of seed {args.seed}: the change costs "
            f"{m:+.2f} card points a team a deal (95% CI +-{ci:.2f}), paired; "
            f"{differ} of {len(diff)} decisions score otherwise"
        )


def decisions_between(spots: list[Spot], least: int, most: int) -> list[int]:
    """The indices of the decisions made with ``least`` to ``most`` cards in hands."""
    kept = [i for i, s in enumerate(spots) if least <= sum(s.view.hand_sizes) <= most]
    if not kept:
        raise SystemExit(
            f"--cards-from {least} --cards-left {most}: no decision has that many cards left"
        )
    return kept


def saved_regrets(
    path: Path, count: int, kept: list[int] | None = None, every: int = 0
) -> list[float]:
    """The regrets a ``--save`` kept, which must be of ``count`` positions, or of all
    ``every`` positions, of which those at the indices ``kept`` are taken."""
    try:
        baseline = [float(x) for x in json.loads(path.read_text())]
    except (OSError, ValueError, TypeError) as e:
        raise SystemExit(f"--against {path}: cannot read it ({e})") from None
    if kept is not None and len(baseline) == every:
        return [baseline[i] for i in kept]
    if len(baseline) != count:
        raise SystemExit(f"--against {path}: not scored on these positions")
    return baseline


def summary(label: str, spots: list[Spot], got: list[float]) -> str:
    best = sum(1 for r in got if r == 0) / len(got)
    m, ci = mean_ci95(per_deck(spots, got))
    return (
        f"{label}: {len(got)} decisions, the best card {best:.1%}; "
        f"regret {m:.2f} card points a team a deal (95% CI +-{ci:.2f})"
    )


if __name__ == "__main__":
    main()
