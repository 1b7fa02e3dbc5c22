"""Deal the unseen cards to the other seats, consistent with everything a seat knows.

A sample respects every hand size, every card known to be in a hand, and every card a
seat cannot hold (voids, trump ceilings).  Optional weights bias where a card tends to go
(the taker holds trumps, a player who passed probably lacks the jack), so samples follow
the bidding as well as the play.  Deterministic for a given ``random.Random``.
"""

from __future__ import annotations

import random

from engine.ai.tables import bits


class NoConsistentDeal(Exception):
    """The constraints admit no deal (cannot happen with a consistent view)."""


def sample_hands(
    rng: random.Random,
    pool: int,
    need: list[int],
    allowed: list[int],
    fixed: list[int],
    weights: list[dict[int, float]] | None = None,
    tries: int = 40,
) -> list[int]:
    """Hands for the four seats: ``fixed[s]`` plus ``need[s]`` cards of ``pool``.

    ``allowed[s]`` masks the cards seat ``s`` may receive.  ``weights[s][card]`` (default 1)
    scales how likely seat ``s`` is to get ``card``.
    """
    cards = bits(pool)
    if sum(need) != len(cards):
        raise NoConsistentDeal("sizes do not add up")
    options = {c: [s for s in range(4) if need[s] and allowed[s] >> c & 1] for c in cards}
    for _ in range(tries):
        hands = list(fixed)
        left = list(need)
        order = sorted(cards, key=lambda c: (len(options[c]), rng.random()))
        ok = True
        for c in order:
            seats = [s for s in options[c] if left[s]]
            if not seats:
                ok = False
                break
            if len(seats) == 1:
                s = seats[0]
            else:
                w = [left[s] * (weights[s].get(c, 1.0) if weights else 1.0) for s in seats]
                s = rng.choices(seats, weights=w)[0]
            hands[s] |= 1 << c
            left[s] -= 1
        if ok:
            return hands
    return _exact(rng, cards, need, allowed, fixed)


def _exact(
    rng: random.Random, cards: list[int], need: list[int], allowed: list[int], fixed: list[int]
) -> list[int]:
    """Backtracking fallback when random dealing keeps failing (tight voids)."""
    order = sorted(cards, key=lambda c: sum(1 for s in range(4) if allowed[s] >> c & 1))
    hands = list(fixed)
    left = list(need)

    def place(i: int) -> bool:
        if i == len(order):
            return True
        c = order[i]
        seats = [s for s in range(4) if left[s] and allowed[s] >> c & 1]
        rng.shuffle(seats)
        for s in seats:
            hands[s] |= 1 << c
            left[s] -= 1
            if place(i + 1):
                return True
            hands[s] ^= 1 << c
            left[s] += 1
        return False

    if not place(0):
        raise NoConsistentDeal("no deal fits the constraints")
    return hands
