"""How many worlds the expert's weighed draws are worth: the effective sample size.

    python bench/studies/worlds_ess.py [--deals N] [--seed S] [--ruleset R] [--oversample K]

The expert draws ``oversample`` times as many uniform worlds as it solves and picks the
ones it solves by weight (the learned policy's likelihood of the others' cards so far,
and of their bids).  When a few worlds carry most of the weight, the picks repeat them,
and the solves are worth fewer worlds than their count.  The effective sample size of
the drawn worlds, ``(sum w)^2 / sum w^2``, says how many: this script plays deals card
play only at a table of four sparring partners, and at every decision of seat 0 with a
choice weighs the worlds the expert would draw there (the Python reference of the search
core's weights, the same figures as the compiled one), then prints, by cards left, the
median and the smallest effective size against the number drawn and solved.
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from engine.ai.arena import arena_action, deck_source
from engine.ai.knowledge import knowledge_from_view
from engine.ai.player import EXPERT_PLAN
from engine.ai.world_search import SplitMix, draw_world, space_of, world_weight
from engine.match import Match


def effective_size(weights: list[float]) -> float:
    """``(sum w)^2 / sum w^2``: n for n equal weights, 1 when one world has them all."""
    total = sum(weights)
    squares = sum(w * w for w in weights)
    return total * total / squares if squares > 0 else 0.0


def positions_ess(
    ruleset: str, deals: int, seed: int, oversample: int
) -> list[tuple[int, int, int, float]]:
    """(cards left, worlds drawn, worlds solved, effective size) at each decision."""
    rows = []
    for i in range(deals):
        m = Match(ruleset, decks=deck_source(seed, i))
        while m.to_move is not None and not any(d.result for d in m.deals):
            seat = m.to_move
            view = m.view(seat)
            legal = tuple(view.legal)
            if seat == 0 and len(legal) > 1 and legal[0].kind == "play":
                k = knowledge_from_view(view)
                solved = EXPERT_PLAN.decision_tier(k).samples
                space = space_of(k)
                rng = SplitMix(seed * 1_000_003 + i * 64 + k.cards_left)
                weights = [
                    world_weight(k, draw_world(space, rng), EXPERT_PLAN.infer)
                    for _ in range(solved * oversample)
                ]
                rows.append((k.cards_left, solved * oversample, solved, effective_size(weights)))
            m.apply(seat, arena_action(view, "sparring", seed, play_only=True))
    return rows


def report(rows: list[tuple[int, int, int, float]]) -> list[str]:
    """A line for every four cards left, from the end of the deal."""
    groups: dict[int, list[tuple[int, int, int, float]]] = {}
    for row in rows:
        groups.setdefault((row[0] - 1) // 4, []).append(row)
    lines = []
    for key in sorted(groups):
        group = groups[key]
        sizes = [r[3] for r in group]
        drawn = sorted({r[1] for r in group})
        solved = sorted({r[2] for r in group})
        lines.append(
            f"{key * 4 + 1:2d}-{key * 4 + 4:2d} cards left: {len(group):3d} decisions, "
            f"drawn {'/'.join(map(str, drawn))}, solved {'/'.join(map(str, solved))}, "
            f"effective size median {statistics.median(sizes):.0f}, smallest {min(sizes):.0f}"
        )
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=12)
    parser.add_argument("--seed", type=int, default=77)
    parser.add_argument("--ruleset", default="classic")
    parser.add_argument("--oversample", type=int, default=EXPERT_PLAN.oversample)
    args = parser.parse_args()
    if args.oversample < 1:
        raise SystemExit("--oversample: 1 or more")
    rows = positions_ess(args.ruleset, args.deals, args.seed, args.oversample)
    print(
        f"{args.ruleset}, {args.deals} deals of seed {args.seed}, the expert's worlds "
        f"({args.oversample}x drawn as solved):"
    )
    print("\n".join(report(rows)))


if __name__ == "__main__":
    main()
