"""bench/studies/worlds_ess.py: what the expert's weighed worlds are worth."""

from __future__ import annotations

from bench.studies.worlds_ess import effective_size, positions_ess, report


def test_equal_weights_are_worth_their_number_and_one_heavy_world_is_worth_one() -> None:
    assert effective_size([1.0] * 8) == 8.0
    assert abs(effective_size([1.0, 1e-9, 1e-9]) - 1.0) < 1e-6
    assert effective_size([3.0, 1.0]) == 16 / 10
    assert effective_size([0.0, 0.0]) == 0.0


def test_every_decision_of_seat_zero_is_weighed_and_grouped_by_cards_left() -> None:
    rows = positions_ess("classic", 1, 7, 2)
    assert rows, "seat 0 had at least one choice in the deal"
    for cards_left, drawn, solved, size in rows:
        assert drawn == 2 * solved
        assert 0 < size <= drawn
        assert 1 <= cards_left <= 32
    lines = report(rows)
    assert sum(int(line.split(":")[1].split()[0]) for line in lines) == len(rows)
