"""bench/studies/correction.py: a correction of the expert's means, learned and cross-validated."""

from __future__ import annotations

import numpy as np

from bench.studies.correction import Decision, Searched, Table, card_facts, decision, team_deal
from engine.ai.knowledge import knowledge_from_view
from engine.ai.tables import POINTS, POWER
from tests.ai.helpers import late_spot


def misled(deck: int, rng: np.random.Generator, truth_in_facts: bool) -> Decision:
    """Two cards: the means favour the first, the true deal the second.  With
    ``truth_in_facts`` the second card's first fact says so."""
    facts = np.zeros((2, 3))
    if truth_in_facts:
        facts[1, 0] = 1.0
    facts[:, 1:] = rng.random((2, 2))  # facts that say nothing
    return Decision(deck, np.array([0.0, -2.0]), np.array([30.0, 0.0]), facts, 0)


def test_no_correction_plays_the_best_mean() -> None:
    rng = np.random.default_rng(3)
    table = Table([misled(d, rng, True) for d in range(10)])
    rows = np.arange(10)
    assert (table.picks(np.zeros(3), rows) == 0).all()
    assert table.regret_of(np.zeros(3), rows).sum() == 300.0


def test_a_fact_that_tells_the_truth_is_learned_on_other_decks() -> None:
    rng = np.random.default_rng(4)
    table = Table([misled(d, rng, True) for d in range(40)])
    cv = table.cross_validated(lam=0.0, temperature=2.0)
    assert cv.sum() == 0.0  # every held-out deck's decision turned to the better card


def test_facts_that_say_nothing_change_nothing() -> None:
    rng = np.random.default_rng(5)
    table = Table([misled(d, rng, False) for d in range(40)])
    cv = table.cross_validated(lam=0.3, temperature=2.0)
    assert (cv == 30.0).all()


def test_a_team_deal_counts_both_tables_four_seats() -> None:
    rng = np.random.default_rng(6)
    table = Table([misled(d // 4, rng, False) for d in range(8)])
    per_deck = team_deal(table, np.full(8, 4.0))
    assert per_deck.tolist() == [4.0, 4.0]


def test_a_real_decision_keeps_the_raced_cards_out_and_the_pick_in() -> None:
    _match, spot = late_spot()
    k = knowledge_from_view(spot.view)
    cards = sorted(spot.values, key=lambda c: (POINTS[k.code][c], POWER[k.code][c]))
    means = {c: 0.0 for c in cards}  # all equal: the expert plays the cheapest kept
    searched = Searched(means, (cards[0],), cards[1])
    d = decision(spot, searched)
    assert len(d.means) == len(cards) - 1  # the dropped card is no candidate
    assert d.pick == 0
    table = Table([d])
    assert table.picks(np.zeros(d.facts.shape[1]), np.arange(1)).tolist() == [d.pick]
    best = max(spot.values.values())
    assert d.regrets.tolist() == [best - spot.values[c] for c in cards[1:]]
    facts = card_facts(k, cards[1:])
    assert np.allclose(d.facts, facts)
    assert all(row[0] <= 0.0 for row in facts)  # a log-probability
