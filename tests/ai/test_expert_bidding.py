"""The expert's auction: every candidate foreseen on the same deals, by the playout and,
near a threshold, by the solver too."""

from __future__ import annotations

import random

import pytest

from engine import Match
from engine.ai import expert_bidding
from engine.ai.expert_bidding import DD_FLATTERY, _contracts, _deals, _Outcomes
from engine.ai.solver import COMPILED
from tests.ai.test_bidding import deck_for

needs_c = pytest.mark.skipif(not COMPILED, reason="the compiled solver was not built")


def second_round_view():
    """Seat 1 holds spades and hearts in the second round (everyone passed the 7C)."""
    m = Match("classic", decks=[deck_for({1: "JS 9S AS JH 9H"}, turned="7C")])
    for seat in (1, 2, 3, 0):
        m.apply(seat, "pass")
    return m.view(1)


@needs_c
def test_every_candidate_is_solved_on_the_same_deals() -> None:
    view = second_round_view()
    legal = [a.text for a in view.legal]
    keys = _contracts(view, legal, 1)
    assert keys == [(1, 1), (2, 1), (3, 1)]  # diamonds, hearts, spades by seat 1
    sampled = _Outcomes(view, _deals(view, random.Random(3), 24))
    sampled.solve_first(keys)
    solved = [len(sampled._solved[key]) for key in keys]
    assert len(set(solved)) == 1 and solved[0] > 0


@needs_c
def test_the_solver_counts_less_its_flattery_of_the_taker(monkeypatch) -> None:
    """With the solver's whole weight, a solved deal is foreseen as the solver's value
    less the flattery; with none, as the playout alone."""
    view = second_round_view()
    deals = _deals(view, random.Random(5), 12)
    playout = _Outcomes(view, deals).outcomes(3, 1)
    monkeypatch.setitem(expert_bidding.DD_WEIGHT, "classic", 1.0)
    blended = _Outcomes(view, deals)
    blended.solve_first([(3, 1)])
    foreseen = blended.outcomes(3, 1)
    solved = blended._solved[(3, 1)]
    for i, value in enumerate(solved):
        assert foreseen[i][0] == value - DD_FLATTERY
    for i in range(len(solved), len(deals)):
        assert foreseen[i] == playout[i]
    monkeypatch.setitem(expert_bidding.DD_WEIGHT, "classic", 0.0)
    none = _Outcomes(view, deals)
    none.solve_first([(3, 1)])
    assert none.outcomes(3, 1) == playout


def test_the_budget_bounds_the_solves(monkeypatch) -> None:
    view = second_round_view()
    monkeypatch.setattr(expert_bidding, "BID_NODES", 1)
    sampled = _Outcomes(view, _deals(view, random.Random(5), 12))
    sampled.solve_first([(3, 1), (2, 1)])
    assert all(len(v) <= 1 for v in sampled._solved.values())
