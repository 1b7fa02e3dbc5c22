"""Shared helpers for the AI tests: random decks and matches played by AI levels."""

from __future__ import annotations

import random

from engine import Match
from engine.ai import choose_action


def decks(seed: int):
    return lambda k: random.Random(f"test|{seed}|{k}").sample(range(32), 32)


def play_until(
    match: Match, levels, seed: int, stop=None, max_actions: int = 10_000, whole: bool = False
) -> Match:
    """Let AI levels play ``match`` until ``stop(match)``, the first scored deal, or (with
    ``whole``) the end of the match."""
    for _ in range(max_actions):
        if match.to_move is None:
            break
        if not whole and any(d.result is not None for d in match.deals):
            break
        if stop is not None and stop(match):
            break
        seat = match.to_move
        action = choose_action(match.view(seat), levels[seat], seed)
        assert action in match.legal_actions(seat)
        match.apply(seat, action)
    return match
