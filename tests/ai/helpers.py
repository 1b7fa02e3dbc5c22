"""Shared helpers for the AI tests: random decks and matches played by AI levels."""

from __future__ import annotations

import random

from bench.studies.regret import Spot, true_values
from engine import Match
from engine.ai import choose_action
from engine.ai.arena import deck_source


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


def late_spot() -> tuple[Match, Spot]:
    """A classic deal played at random until the seat to move holds two or three cards
    and has a choice."""
    m = Match("classic", decks=deck_source(7, 3))
    rng = random.Random(1)
    while m.to_move is not None:
        seat = m.to_move
        view = m.view(seat)
        plays = {a.card for a in view.legal if a.kind == "play"}
        if len(view.hand) <= 3 and len(plays) > 1:
            return m, Spot(0, view, 5, true_values(m, view))
        m.apply(seat, "take" if "take" in [a.text for a in view.legal] else rng.choice(view.legal))
    raise AssertionError("the deal ended before a late choice")
