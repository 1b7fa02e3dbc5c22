"""Where a lead comes from: the decks whose two tables bid the same contract, and the rest.

    python bench/studies/contracts.py LEADS.json [--a expert] [--jobs 2]

``LEADS.json`` is a ``bench/studies/paired.py --save`` file (its ruleset, opponent, seed and its
shipped expert's per-deck leads).  Only the auctions are played again (no card play, so
it takes a minute, not the arena's quarter of an hour): a deck whose two tables reached
the same contract, by the same seat, on the same deal, was decided by the card play
alone; the others by the bidding too.  A lead that a change to the card play cannot move
is the bidding's, and the other way round.
"""

from __future__ import annotations

import argparse
import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from bench.studies.paired import saved_record
from engine.ai.arena import MAX_REDEALS, arena_action, deck_source, table_levels, table_seed
from engine.match import Match

# (deal number, trump, taker seat, multiplier): what an auction ended in
Auction = tuple[int, str, int, int] | None


# (deal number, seat, action) of every call until the first card
Calls = tuple[tuple[int, int, str], ...]


def replay_auction(
    ruleset: str, a: str, b: str, seed: int, i: int, table: int
) -> tuple[Calls, Auction]:
    """Table ``table`` of deck ``i`` played up to its first card: every call, and the
    contract it ended in (``None``: thrown in to the end)."""
    levels = table_levels(a, b, table)
    match = Match(ruleset, decks=deck_source(seed, i))
    ai_seed = table_seed(seed, i, table)
    said: list[tuple[int, int, str]] = []
    while match.to_move is not None and len(match.deals) <= MAX_REDEALS:
        view = match.view(match.to_move)
        if view.legal and view.legal[0].kind == "play":
            c = view.contract
            assert c is not None  # the card play has begun
            return tuple(said), (view.k, c.trump, c.taker, c.multiplier)
        action = arena_action(view, levels[match.to_move], ai_seed)
        said.append((len(match.deals), match.to_move, action.text))
        match.apply(match.to_move, action)
    return tuple(said), None


def auctions(job: tuple[str, str, str, int, int]) -> tuple[Auction, Auction]:
    """The contract each table of deck ``i`` plays (``None``: thrown in to the end)."""
    ruleset, a, b, seed, i = job
    return (
        replay_auction(ruleset, a, b, seed, i, 0)[1],
        replay_auction(ruleset, a, b, seed, i, 1)[1],
    )


def category(first: Auction, second: Auction) -> str:
    """How the two tables' auctions of a deck compare."""
    if first is not None and first == second:
        side = "A's" if first[2] % 2 == 0 else "B's"  # A sits in the even seats at table 0
        return f"same contract, {side} seat took it at the first table"
    if first is None or second is None or first[0] != second[0]:
        return "one table threw in a deal the other played"
    return "different contracts"


def breakdown(leads: list[float], ends: list[tuple[Auction, Auction]]) -> dict[str, list[float]]:
    """The per-deck leads by ``category``."""
    out: dict[str, list[float]] = {}
    for lead, (first, second) in zip(leads, ends, strict=True):
        out.setdefault(category(first, second), []).append(lead)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("leads", help="a bench/studies/paired.py --save file")
    parser.add_argument("--a", default="expert")
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    record = saved_record(args.leads, {}, given_as="LEADS.json")
    leads = [float(x) for x in record["shipped"]]
    ruleset, b, seed = record["ruleset"], record["b"], record["seed"]
    work = [(ruleset, args.a, b, seed, i) for i in range(len(leads))]
    with ProcessPoolExecutor(args.jobs) as pool:
        ends = list(pool.map(auctions, work))
    n = len(leads)
    print(f"{ruleset}, {n} decks of seed {seed}: {args.a} vs {b}, {sum(leads) / n:+.2f} a deal")
    for name, part in sorted(breakdown(leads, ends).items()):
        print(
            f"  {name}: {len(part)} decks, {sum(part) / len(part):+.1f} a deck, "
            f"{sum(part) / n:+.2f} of the lead"
        )


if __name__ == "__main__":
    main()
