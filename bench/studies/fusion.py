"""What strategy fusion costs the expert: its own next choice made per world, or on what it
will see.

    python bench/studies/fusion.py [--positions N] [--worlds W] [--cards C] [--depth D]

The expert scores each legal card by solving every sampled world double dummy, as if it
would know the hidden cards from then on (strategy fusion: in each world it plays on as
if it saw that world).  Here the same worlds are also scored with its next ``--depth``
choices postponed: after the card, the other three seats play their double-dummy best
in each world, the worlds are grouped by what the seat then sees (the cards played), and
in each group the seat picks one card for all its worlds (the best total of the group),
so it can no longer guess right in every world.  A card's postponed total can only be
lower; where the gap changes the best card, fusion misled the search.

Positions: the seat to move in deals of the hard level, with at most ``--cards`` cards
left and a choice to make (alpha-mu and other non-fusing searches are dear early on,
where a world's solve alone costs what a whole late decision does).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from engine import Match
from engine.ai import choose_action
from engine.ai.knowledge import Knowledge, knowledge_from_view
from engine.ai.scoring import deal_value
from engine.ai.solver import Position, solve_root
from engine.ai.tables import (
    CAPOT_BONUS,
    POINTS,
    POWER,
    bits,
    last_trick_bonus,
    legal_mask,
    trick_points,
    winner_index,
)
from engine.ai.world_search import INFER_PLAYS, POINTS_WEIGHT, space_of, world_weight
from engine.ai.worlds import SplitMix, draw_world

World = tuple[float, Position, int]  # weight, position, team 0's points since the root


def play(pos: Position, card: int) -> tuple[Position, int]:
    """``pos`` after its seat to move plays ``card``, and team 0's gain (a closed trick)."""
    seat = pos.to_move
    hands = list(pos.hands)
    hands[seat] ^= 1 << card
    trick = [*pos.trick, card]
    if len(trick) < 4:
        return Position(pos.kind, pos.code, hands, pos.leader, trick, pos.won), 0
    winner = (pos.leader + winner_index(pos.code, trick)) % 4
    last = not any(hands)
    gain = trick_points(pos.code, trick) + (last_trick_bonus(pos.code) if last else 0)
    won = pos.won | 1 << (winner & 1)
    gain0 = gain if winner & 1 == 0 else -gain
    if last and won in (1, 2):
        gain0 += CAPOT_BONUS if won == 1 else -CAPOT_BONUS
    return Position(pos.kind, pos.code, hands, winner, [], won), gain0


def best_for(pos: Position) -> int:
    """The double-dummy best card of the seat to move (ties: the cheapest)."""
    values, _ = solve_root(pos, pos.to_move & 1)
    pts, power = POINTS[pos.code], POWER[pos.code]
    return max(values, key=lambda c: (values[c], -pts[c], -power[c]))


def until_my_turn(pos: Position, me: int) -> tuple[Position, int, tuple[int, ...]]:
    """The others play their best until ``me`` is to move again (or the deal ends)."""
    gain0, seen = 0, []
    while any(pos.hands) and pos.to_move != me:
        card = best_for(pos)
        seen.append(card)
        pos, g = play(pos, card)
        gain0 += g
    return pos, gain0, tuple(seen)


def card_totals(k: Knowledge, group: list[World], depth: int) -> dict[int, float]:
    """Every legal card's weighted total over ``group`` (worlds that look alike to the
    seat), its next ``depth`` choices made once per group of worlds it cannot tell apart."""
    me, team = k.seat, k.seat & 1
    so_far = k.points[team] - k.points[1 - team]

    def score(points0: int, rest: int) -> float:
        diff = so_far + (points0 if team == 0 else -points0) + rest
        dv = deal_value(
            k.kind, k.code, k.multiplier, k.taker & 1, team, diff, k.meld_pts, k.belote_pts
        )
        return dv + POINTS_WEIGHT * diff

    first = group[0][1]
    cards = bits(legal_mask(k.kind, k.code, first.hands[me], first.trick))
    totals = dict.fromkeys(cards, 0.0)
    if depth == 0:
        for w, pos, points0 in group:
            values, _ = solve_root(pos, team)
            for c in cards:
                totals[c] += w * score(points0, values[c])
        return totals
    for c in cards:
        seen_groups: dict[tuple[int, ...], list[World]] = {}
        for w, pos, points0 in group:
            after, g1 = play(pos, c)
            later, g2, seen = until_my_turn(after, me)
            if not any(later.hands):
                totals[c] += w * score(points0 + g1 + g2, 0)
            else:
                seen_groups.setdefault(seen, []).append((w, later, points0 + g1 + g2))
        for sub in seen_groups.values():
            totals[c] += max(card_totals(k, sub, depth - 1).values())
    return totals


def positions(count: int, max_cards: int) -> list[Knowledge]:
    """One position a deal, the first decision with at most ``max_cards`` cards left (less
    by 0, 4 or 8, by turns, so every stage of the end is met)."""
    out: list[Knowledge] = []
    deal = 0
    while len(out) < count:
        deal += 1
        ruleset = ("classic", "club", "bulgarian")[deal % 3]
        rng = random.Random(f"fusion|{deal}")
        m = Match(ruleset, decks=lambda _k, rng=rng: rng.sample(range(32), 32))
        limit = max_cards - 4 * (deal % 3)
        while m.to_move is not None and not any(d.result for d in m.deals):
            view = m.view(m.to_move)
            if view.phase.value == "play" and len({a.card for a in view.legal}) > 1:
                k = knowledge_from_view(view)
                if k.cards_left <= limit:
                    out.append(k)
                    break
            m.apply(m.to_move, choose_action(view, "hard", deal))
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--positions", type=int, default=60)
    ap.add_argument("--worlds", type=int, default=64)
    ap.add_argument("--cards", type=int, default=20)
    ap.add_argument("--depth", type=int, default=1)
    args = ap.parse_args()
    changed, t_fused, t_post = 0, 0.0, 0.0
    gaps: list[float] = []
    loss: list[float] = []
    for n, k in enumerate(positions(args.positions, args.cards)):
        space = space_of(k)
        rng = SplitMix(n + 1)
        group: list[World] = []
        for _ in range(args.worlds):
            hands = draw_world(space, rng)
            pos = Position(k.kind, k.code, hands, k.leader, list(k.trick), k.won)
            group.append((world_weight(k, hands, INFER_PLAYS), pos, 0))
        wsum = sum(w for w, _, _ in group)
        t0 = time.perf_counter()
        fused = card_totals(k, group, 0)
        t1 = time.perf_counter()
        post = card_totals(k, group, args.depth)
        t2 = time.perf_counter()
        t_fused += t1 - t0
        t_post += t2 - t1
        pick_f = max(fused, key=lambda c: fused[c])
        pick_p = max(post, key=lambda c: post[c])
        changed += post[pick_p] - post[pick_f] > 1e-9  # not a tie
        gaps.extend((fused[c] - post[c]) / wsum for c in fused)
        loss.append((post[pick_p] - post[pick_f]) / wsum)
    count = len(loss)
    print(
        f"{count} positions (at most {args.cards} cards left), {args.worlds} worlds, "
        f"the next {args.depth} choice(s) postponed"
    )
    print(
        f"  a card's fused total above its postponed one: mean {statistics.mean(gaps):.2f}, "
        f"max {max(gaps):.2f} points"
    )
    print(
        f"  best card changed (not a tie) in {changed} of {count}; postponed value gained: "
        f"mean {statistics.mean(loss):.3f}, max {max(loss):.2f} points"
    )
    ms = 1000 / count
    print(f"  time: fused {t_fused * ms:.0f} ms, postponed {t_post * ms:.0f} ms a position")


if __name__ == "__main__":
    main()
