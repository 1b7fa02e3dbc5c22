"""Every level, every ruleset: each decision is legal, whole deals through."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import Match
from engine.ai import LEVELS, UnknownLevel, choose_action
from tests.ai.helpers import decks, play_until

RULESETS = ("classic", "club", "bulgarian")


@pytest.mark.parametrize("ruleset", RULESETS)
@pytest.mark.parametrize("level", ["easy", "normal"])
@settings(max_examples=20, deadline=None, derandomize=True)
@given(seed=st.integers(0, 10**9), mix=st.booleans())
def test_fast_levels_play_legal_matches(ruleset: str, level: str, seed: int, mix: bool) -> None:
    """Whole (short) matches, the level against itself or mixed with the others."""
    target = 30 if ruleset == "bulgarian" else 400
    levels = (level, "easy", level, "normal") if mix else (level,) * 4
    m = play_until(Match(ruleset, decks=decks(seed), target=target), levels, seed, whole=True)
    assert m.to_move is None and m.winner in (0, 1)


@pytest.mark.parametrize("ruleset", RULESETS)
@settings(max_examples=3, deadline=None, derandomize=True)
@given(seed=st.integers(0, 10**9))
def test_hard_plays_legal_deals(ruleset: str, seed: int) -> None:
    m = play_until(Match(ruleset, decks=decks(seed)), ("hard", "normal", "hard", "easy"), seed)
    assert any(d.result is not None for d in m.deals)


@pytest.mark.slow
@pytest.mark.parametrize("ruleset", RULESETS)
def test_expert_plays_a_legal_deal(ruleset: str) -> None:
    m = play_until(Match(ruleset, decks=decks(5)), ("expert", "hard") * 2, 5)
    assert any(d.result is not None for d in m.deals)


def test_unknown_level_is_refused() -> None:
    m = Match("club", decks=decks(0))
    with pytest.raises(UnknownLevel):
        choose_action(m.view(m.to_move), "godlike", 0)
    assert "expert" in LEVELS


def test_a_time_budget_still_gives_a_legal_card() -> None:
    m = play_until(
        Match("club", decks=decks(8)),
        ("normal",) * 4,
        8,
        stop=lambda mm: mm.phase.value == "play" and len(mm.view(mm.to_move).legal) > 1,
    )
    view = m.view(m.to_move)
    for level in ("hard", "expert"):
        assert choose_action(view, level, 1, budget_s=0.05) in view.legal


@pytest.mark.parametrize("ruleset", RULESETS)
def test_belote_and_melds_are_always_announced(ruleset: str) -> None:
    """Whenever the chosen card may carry a belote or a meld declaration, it does."""
    flagged = 0
    for seed in range(12):
        m = Match(ruleset, decks=decks(100 + seed))
        for _ in range(200):
            if m.to_move is None or any(d.result is not None for d in m.deals):
                break
            seat = m.to_move
            view = m.view(seat)
            action = choose_action(view, "normal", seed)
            if action.kind == "play":
                same = [a for a in view.legal if a.card == action.card]
                assert action.belote == any(a.belote for a in same)
                assert action.melds == any(a.melds for a in same)
                flagged += action.belote or action.melds
            m.apply(seat, action)
    assert flagged > 0
