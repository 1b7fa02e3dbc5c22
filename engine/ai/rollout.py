"""The deal played out by the rules of thumb from a position: the cheap estimate every
searching level uses past its exact horizon. Its own module so the search and the world
search both use it without importing each other."""

from __future__ import annotations

from collections.abc import Callable

from engine.ai.heuristic import normal_card
from engine.ai.solver import Position, solve
from engine.ai.tables import (
    CAPOT_BONUS,
    POINTS,
    last_trick_bonus,
    legal_mask,
    winner_index,
)

_ROLLOUT: Callable[..., int] | None
try:
    from engine.ai._dds import rollout as _compiled_rollout

    _ROLLOUT = _compiled_rollout
except ImportError:  # no C compiler at install: the Python rollout below
    _ROLLOUT = None


def rollout(
    kind: int,
    code: int,
    taker: int,
    hands: list[int],
    leader: int,
    trick: list[int],
    played: int,
    won: int,
    tail: int = 0,
) -> int:
    """Play the deal out with the normal level's rules; card-point diff for team 0,
    from the current trick on (capot bonus included).  Compiled when built (the same
    play, checked by the tests) unless an exact tail is asked for."""
    if _ROLLOUT is not None and not tail:
        return int(_ROLLOUT(kind, code, taker, hands, leader, trick, played, won))
    return python_rollout(kind, code, taker, hands, leader, trick, played, won, tail)


def python_rollout(
    kind: int,
    code: int,
    taker: int,
    hands: list[int],
    leader: int,
    trick: list[int],
    played: int,
    won: int,
    tail: int = 0,
) -> int:
    """:func:`rollout` in Python (the fallback, and with an exact tail)."""
    hands = list(hands)
    trick = list(trick)
    pts = POINTS[code]
    diff = 0
    seat = (leader + len(trick)) % 4
    while True:
        if len(trick) == 4:
            w = (leader + winner_index(code, trick)) % 4
            gain = pts[trick[0]] + pts[trick[1]] + pts[trick[2]] + pts[trick[3]]
            if not (hands[0] | hands[1] | hands[2] | hands[3]):
                gain += last_trick_bonus(code)
            diff += gain if w & 1 == 0 else -gain
            won |= 1 << (w & 1)
            leader = seat = w
            trick = []
            if tail and (hands[0] | hands[1] | hands[2] | hands[3]).bit_count() <= tail:
                pos = Position(kind, code, hands, leader, [], won)
                return diff + solve(pos, 0)[0]
        hand = hands[seat]
        if not hand:
            break
        legal = legal_mask(kind, code, hand, trick)
        card = normal_card(kind, code, seat, hand, legal, trick, played, taker)
        hands[seat] = hand & ~(1 << card)
        trick.append(card)
        played |= 1 << card
        seat = (seat + 1) % 4
    if won == 1:
        diff += CAPOT_BONUS
    elif won == 2:
        diff -= CAPOT_BONUS
    return diff
