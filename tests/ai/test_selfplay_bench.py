"""bench/studies/selfplay.py: the card decisions with a choice at a deck's two self-play tables."""

from __future__ import annotations

from bench.studies.selfplay import TABLES, card_choices
from engine.ai.arena import table_seed


def test_every_choice_is_a_real_one_played_by_its_seat_s_level() -> None:
    choices = list(card_choices("classic", 9001, 0))
    assert choices
    for c in choices:
        assert c.legal & (c.legal - 1)  # more than one legal card
        assert c.action.card is not None and c.legal >> c.action.card & 1
        seat = c.view.seat
        assert seat is not None
        table = 0 if c.seed == table_seed(9001, 0, 0) else 1
        assert c.seed == table_seed(9001, 0, table)
        assert c.level == TABLES[table][seat]
    assert {c.seed for c in choices} == {table_seed(9001, 0, t) for t in (0, 1)}
