"""bench/studies/regret.py: a decision scored by what each legal card is worth in the true deal."""

from __future__ import annotations

import dataclasses

import pytest

from bench.studies.regret import (
    Spot,
    decisions_between,
    load_spots,
    per_deck,
    regret,
    save_spots,
    saved_regrets,
)
from engine.ai.knowledge import knowledge_from_view
from engine.ai.solver import Position, minimax_values
from tests.ai.helpers import late_spot


def test_the_cards_are_valued_in_the_deal_as_it_truly_lies() -> None:
    m, spot = late_spot()
    k = knowledge_from_view(spot.view)
    hands = [m.hand_mask(s) for s in range(4)]
    reference = minimax_values(
        Position(k.kind, k.code, hands, k.leader, list(k.trick), k.won), k.seat & 1
    )
    assert spot.values == reference


def test_the_best_card_has_no_regret_and_the_others_their_shortfall(monkeypatch) -> None:
    _m, spot = late_spot()
    best = max(spot.values, key=spot.values.get)
    worst = min(spot.values, key=spot.values.get)
    assert spot.values[best] > spot.values[worst]  # a choice that matters
    for card in (best, worst):
        monkeypatch.setattr("bench.studies.regret.card_of", lambda _level, _spot, c=card: c)
        assert regret(("expert", spot)) == spot.values[best] - spot.values[card]


def test_a_deal_counts_a_team_s_decisions_at_both_tables() -> None:
    """Two tables of four seats: a quarter of a deck's decisions is a team's deal."""
    _m, spot = late_spot()
    spots = [Spot(0, spot.view, 1, {}), Spot(0, spot.view, 1, {}), Spot(1, spot.view, 1, {})]
    assert per_deck(spots, [4.0, 8.0, 2.0]) == [3.0, 0.5]


def test_positions_are_kept_and_read_back_only_for_their_decks(tmp_path) -> None:
    _m, spot = late_spot()
    path = tmp_path / "positions.pkl"
    save_spots(path, ("classic", 1, 4242), [spot])
    (back,) = load_spots(path, ("classic", 1, 4242))
    assert back == spot
    with pytest.raises(SystemExit, match="recorded for"):
        load_spots(path, ("classic", 2, 4242))


def test_a_baseline_file_that_does_not_fit_is_refused_with_its_name(tmp_path) -> None:
    path = tmp_path / "expert.json"
    with pytest.raises(SystemExit, match="cannot read it"):
        saved_regrets(path, 2)
    path.write_text("not json")
    with pytest.raises(SystemExit, match="cannot read it"):
        saved_regrets(path, 2)
    path.write_text("[1.0, 2.0, 3.0]")
    with pytest.raises(SystemExit, match="not scored on these positions"):
        saved_regrets(path, 2)
    path.write_text("[1.0, 0]")
    assert saved_regrets(path, 2) == [1.0, 0.0]


def test_a_baseline_of_every_decision_serves_a_score_of_the_late_ones(tmp_path) -> None:
    _m, late = late_spot()
    early = dataclasses.replace(late, view=dataclasses.replace(late.view, hand_sizes=(8,) * 4))
    spots = [early, late, early]
    assert decisions_between(spots, 1, 20) == [1]
    assert decisions_between(spots, 1, 32) == [0, 1, 2]
    assert decisions_between(spots, 29, 32) == [0, 2]  # the first trick's
    path = tmp_path / "expert.json"
    path.write_text("[5.0, 2.0, 7.0]")  # every decision's regret
    assert saved_regrets(path, 1, [1], 3) == [2.0]
    path.write_text("[2.0]")  # the late one's alone
    assert saved_regrets(path, 1, [1], 3) == [2.0]
    path.write_text("[5.0, 2.0]")  # neither
    with pytest.raises(SystemExit, match="not scored on these positions"):
        saved_regrets(path, 1, [1], 3)


def test_a_range_of_cards_left_that_keeps_no_decision_is_refused_by_name() -> None:
    _m, late = late_spot()
    with pytest.raises(SystemExit, match="--cards-left 0: no decision"):
        decisions_between([late], 1, 0)
    with pytest.raises(SystemExit, match="--cards-from 29 --cards-left 32: no decision"):
        decisions_between([late], 29, 32)
