"""Inference from the play (voids, trump ceilings, placed cards) and consistent sampling."""

from __future__ import annotations

import random

import pytest

from engine import Match
from engine.ai.knowledge import knowledge_from_view
from engine.ai.search import draw
from engine.ai.tables import FULL, SUIT_MASK, legal_mask
from tests.ai.helpers import decks, play_until


def positions(ruleset: str, count: int):
    rng = random.Random(ruleset)
    found = 0
    for seed in range(200):
        target = rng.randrange(8, 30)
        m = Match(ruleset, decks=decks(seed))
        m = play_until(
            m,
            ("normal",) * 4,
            seed,
            stop=lambda mm, t=target: mm.phase.value == "play" and len(mm.deals[-1].actions) >= t,
        )
        if m.to_move is None or m.phase.value != "play":
            continue
        yield m
        found += 1
        if found >= count:
            return


@pytest.mark.parametrize("ruleset", ["classic", "club", "bulgarian"])
def test_inferences_are_true(ruleset: str) -> None:
    """Every card a seat is deduced not to hold is really not in that hand; every card
    placed is really there."""
    deduced = 0
    for m in positions(ruleset, 25):
        seat = m.to_move
        k = knowledge_from_view(m.view(seat))
        for s in range(4):
            truth = m.hand_mask(s)
            assert truth & k.excluded[s] == 0 if s != seat else True
            assert k.known[s] & ~truth == 0
            if s != seat:
                deduced += (k.excluded[s] & ~k.hand & ~k.played).bit_count()
        assert k.unseen == FULL & ~k.hand & ~k.played
    assert deduced > 0  # some voids were found


def test_void_is_deduced_from_a_discard() -> None:
    """A player who does not follow suit is void in it."""
    seen = 0
    for m in positions("club", 40):
        k = knowledge_from_view(m.view(m.to_move))
        for t in m.view(m.to_move).tricks:
            led = t.cards[0][1] >> 3
            for s, c in t.cards[1:]:
                if c >> 3 != led and s != k.seat:
                    assert k.excluded[s] & SUIT_MASK[led] & ~k.played & ~k.hand == (
                        SUIT_MASK[led] & ~k.played & ~k.hand
                    )
                    seen += 1
    assert seen > 0


@pytest.mark.parametrize("ruleset", ["classic", "club", "bulgarian"])
def test_samples_are_consistent_deals(ruleset: str) -> None:
    rng = random.Random(5)
    for m in positions(ruleset, 8):
        seat = m.to_move
        view = m.view(seat)
        k = knowledge_from_view(view)
        for _ in range(10):
            hands = draw(k, rng)
            assert hands[seat] == k.hand
            union = 0
            for s in range(4):
                assert hands[s].bit_count() == view.hand_sizes[s]
                assert union & hands[s] == 0
                union |= hands[s]
                if s != seat:
                    assert hands[s] & k.excluded[s] == 0
                    assert hands[s] & k.known[s] == k.known[s]
            assert union == k.unseen | k.hand
            # The sampled hands could have played the real history: re-check legality.
            for t in view.tricks:
                prefix = []
                for s, c in t.cards:
                    if s != seat:
                        held = hands[s] | (1 << c)
                        assert legal_mask(k.kind, k.code, held, prefix) >> c & 1
                    prefix.append(c)


def test_play_likelihood_believes_the_truth_when_everyone_plays_by_the_rules() -> None:
    """Seats that all play the normal level: the real hands explain every play (weight 1),
    while random consistent samples usually explain fewer."""
    from engine.ai.search import play_likelihood

    rng = random.Random(2)
    truth_weights, sample_weights = [], []
    for m in positions("classic", 10):
        seat = m.to_move
        k = knowledge_from_view(m.view(seat))
        truth = [m.hand_mask(s) for s in range(4)]
        truth_weights.append(play_likelihood(k, truth))
        sample_weights += [play_likelihood(k, draw(k, rng)) for _ in range(5)]
    assert truth_weights and all(w == 1.0 for w in truth_weights)
    assert all(0 < w <= 1 for w in sample_weights)
    assert min(sample_weights) < 1.0
