"""Every position of real matches draws: bidding, redeals, melds, belote, the end."""

from __future__ import annotations

import random

import pytest

from bot.show.render import samples
from bot.show.render.hand import compose_hand
from bot.show.render.table import compose_table

NAMES = list(samples.NAMES)


@pytest.mark.parametrize("ruleset", ["classic", "club", "bulgarian"])
def test_every_position_of_two_deals_draws(ruleset):
    from engine import Match

    rng = random.Random(7)
    match = Match(ruleset, decks=lambda k: random.Random(700 + k).sample(range(32), 32))
    drawn = 0
    while match.to_move is not None and sum(1 for d in match.deals if d.result) < 2:
        public = match.view(None)
        _, layout = compose_table(
            public, table_id="W-1", names=NAMES, time_left=9.5, show_last_trick=True
        )
        assert set(layout.panels) == {0, 1, 2, 3}
        assert [(s, c) for s, c, _ in layout.trick] == list(public.trick)
        seat = match.to_move
        _, hand_layout = compose_hand(match.view(seat), table_id="W-1", seat_name=NAMES[seat])
        assert sorted(c for c, _ in hand_layout.cards) == sorted(match.hand(seat))
        match.apply(seat, rng.choice(match.legal_actions(seat)))
        drawn += 1
    assert drawn > 40
