"""The AI's play model agrees with the engine's rules on random positions."""

from __future__ import annotations

import random

import pytest

from engine import core
from engine.ai.tables import (
    BULGARIAN,
    CLASSIC,
    CLUB,
    NT,
    POINTS,
    legal_mask,
    total_points,
    winner_index,
)


def random_position(rng: random.Random, code: int):
    cards = rng.sample(range(32), 32)
    n = rng.randrange(0, 4)
    trick = cards[:n]
    size = rng.randrange(1, 9)
    hand = 0
    for c in cards[n : n + size]:
        hand |= 1 << c
    return hand, trick


@pytest.mark.parametrize("kind", [CLASSIC, CLUB, BULGARIAN])
def test_legal_and_winner_match_the_engine(kind: int) -> None:
    rng = random.Random(kind)
    codes = range(6) if kind == BULGARIAN else range(4)
    checked = 0
    for _ in range(3000):
        code = rng.choice(list(codes))
        hand, trick = random_position(rng, code)
        assert legal_mask(kind, code, hand, trick) == core.legal_mask(kind, code, hand, trick)
        if trick:
            assert winner_index(code, trick) == core.winner_index(code, trick)
            checked += 1
    assert checked > 1000


def test_points_add_up_per_contract() -> None:
    for code in range(6):
        factor = 2 if code == NT else 1
        assert sum(POINTS[code]) == sum(core.POINTS[code]) * factor
        assert sum(POINTS[code]) + (20 if code == NT else 10) == total_points(code)
