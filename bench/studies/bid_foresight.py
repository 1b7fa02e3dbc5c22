"""How well the expert's bidding foresees a deal: the solver, the playout, and their blend.

    python bench/studies/bid_foresight.py [--ruleset R] [--deals N]

Deals are bid by the hard level and played by four sparring partners (information-set
double-dummy players: strong play that sees no hidden card).  At the first lead, with the
true hands, the taker's team's card points minus the defenders' are foreseen two ways:
the double-dummy solver's value and the rules of thumb's playout (what
``engine/ai/expert_bidding.py`` blends).  The script prints how far each (and each blend,
the solver's mean flattery removed) is from what the four players then made: the mean
error and its standard deviation.  The expert's ``DD_WEIGHT`` and ``DD_FLATTERY`` come
from these figures.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from engine import Match
from engine.ai import choose_action
from engine.ai.knowledge import knowledge_from_view
from engine.ai.rollout import rollout
from engine.ai.solver import Position, solve
from engine.ai.sparring import sparring_action


def foresee(ruleset: str, i: int) -> tuple[int, int, int] | None:
    """(solver, playout, made) for deal ``i``, the taker's team minus the defenders'."""
    rng = random.Random(f"foresight|{ruleset}|{i}")
    m = Match(ruleset, decks=lambda k: rng.sample(range(32), 32))
    seen: tuple[int, int, int] | None = None
    while m.to_move is not None and not any(d.result for d in m.deals):
        seat = m.to_move
        view = m.view(seat)
        if view.phase.value != "play":
            action = choose_action(view, "hard", i)
        else:
            if seen is None:
                k = knowledge_from_view(view)
                hands = [m.hand_mask(s) for s in range(4)]
                team = k.taker & 1
                dd = solve(Position(k.kind, k.code, hands, k.leader, [], 0), team)[0]
                played = rollout(k.kind, k.code, k.taker, hands, k.leader, [], 0, 0)
                seen = (dd, played if team == 0 else -played, team)
            if len({a.card for a in view.legal}) == 1:
                action = view.legal[0]
            else:
                position = random.Random(f"{i}|{len(view.tricks)}|{len(view.trick)}")
                action = sparring_action(view, 10, position)
        m.apply(seat, action)
    deal = next((d for d in m.deals if d.result is not None), None)
    if deal is None or deal.result is None or seen is None:
        return None
    dd, played, team = seen
    points = deal.result.card_points
    return dd, played, points[team] - points[1 - team]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ruleset", default="classic", choices=("classic", "club", "bulgarian"))
    parser.add_argument("--deals", type=int, default=150)
    args = parser.parse_args()
    rows = [r for i in range(args.deals) if (r := foresee(args.ruleset, i)) is not None]
    dd = [r[0] for r in rows]
    played = [r[1] for r in rows]
    made = [r[2] for r in rows]
    print(
        f"{args.ruleset}, {len(rows)} deals: the taker's team minus the defenders' "
        f"(card points), mean: solver {statistics.mean(dd):+.1f}, "
        f"playout {statistics.mean(played):+.1f}, made {statistics.mean(made):+.1f}"
    )
    flattery = statistics.mean(dd) - statistics.mean(made)
    bias = statistics.mean(played) - statistics.mean(made)
    for weight in (0.0, 0.25, 0.5, 0.75, 1.0):
        errors = [weight * (x - flattery) + (1 - weight) * (y - bias) - z for x, y, z in rows]
        print(
            f"  {weight:.2f} solver + {1 - weight:.2f} playout: error sd "
            f"{statistics.stdev(errors):.1f}"
            + (f" (the solver {flattery:+.1f} too high for the taker)" if weight == 1 else "")
            + (f" (the playout {bias:+.1f})" if weight == 0 else "")
        )


if __name__ == "__main__":
    main()
