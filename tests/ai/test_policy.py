"""The learned model of a strong player's card, and what it says of the hidden hands."""

from __future__ import annotations

import math

import pytest

from engine.ai.policy import SIZE, card_features, card_probability
from engine.ai.policy_weights import WEIGHTS
from engine.ai.tables import legal_mask
from engine.ai.world_search import (
    INFER_PLAYS,
    INFER_POLICY,
    SCORE,
    SEARCH_COMPILED,
    policy_likelihood,
    space_of,
    world_totals,
)
from engine.ai.worlds import SplitMix, draw_world
from engine.cards import mask_of, parse_card
from tests.ai.test_world_search import positions

needs_c = pytest.mark.skipif(not SEARCH_COMPILED, reason="the compiled core was not built")
HEARTS = 2  # contract code of hearts trump


def mask(*cards: str) -> int:
    return mask_of(parse_card(c) for c in cards)


def test_the_weights_fill_the_network() -> None:
    assert len(WEIGHTS) == SIZE
    assert all(math.isfinite(w) for w in WEIGHTS)
    assert any(w != 0.0 for w in WEIGHTS)


def test_the_probabilities_of_the_legal_cards_add_up_to_one() -> None:
    for k in positions(30):
        legal = legal_mask(k.kind, k.code, k.hand, k.trick)
        cards = [
            c for c, _x in card_features(k.code, k.seat, k.hand, legal, k.trick, k.played, k.taker)
        ]
        assert cards == sorted(cards) and len(cards) == legal.bit_count()
        total = sum(
            card_probability(k.code, k.seat, k.hand, legal, k.trick, k.played, k.taker, c)
            for c in cards
        )
        assert total == pytest.approx(1.0)


def test_last_in_a_rich_trick_a_strong_player_takes_it_with_his_ace() -> None:
    """Hearts trump; North led the ten of spades, East played the seven, South the king:
    North holds the trick.  West, last, takes 25 points with the ace of spades; the
    eight would give them away."""
    trick = [parse_card("TS"), parse_card("7S"), parse_card("KS")]
    hand = mask("AS", "8S", "7D", "9C")
    legal = legal_mask(0, HEARTS, hand, trick)
    gone = mask("TS", "7S", "KS")
    ace = card_probability(HEARTS, 3, hand, legal, trick, gone, 1, parse_card("AS"))
    low = card_probability(HEARTS, 3, hand, legal, trick, gone, 1, parse_card("8S"))
    assert ace > 0.8 > low


def test_a_low_card_under_a_rich_trick_says_the_ace_was_elsewhere() -> None:
    """The same trick, but West played the eight of spades: a world where West held the
    ace of spades then is less likely than one where it held the queen."""
    trick = (parse_card("TS"), parse_card("7S"), parse_card("KS"))
    gone = mask("TS", "7S", "KS")
    eight = parse_card("8S")

    def chance(hand: int) -> float:
        legal = legal_mask(0, HEARTS, hand, list(trick))
        assert legal & (legal - 1)
        return card_probability(HEARTS, 3, hand, legal, trick, gone, 1, eight)

    assert chance(mask("8S", "AS", "7D", "9C")) < chance(mask("8S", "QS", "7D", "9C")) / 4


def test_a_world_weighs_the_others_plays_not_the_seats_own() -> None:
    checked = 0
    for k in positions(12, min_actions=18):
        others = [(s, c) for s, c, _p, _g in k.history if s != k.seat]
        if not others:
            continue
        rng = SplitMix(5)
        space = space_of(k)
        for _ in range(4):
            hands = draw_world(space, rng)
            w = policy_likelihood(k, hands, 1.0)
            assert 0.0 < w <= 1.0
            assert policy_likelihood(k, hands, 0.0) == 1.0
            assert policy_likelihood(k, hands, 0.5) == pytest.approx(math.sqrt(w))
            checked += 1
    assert checked > 20


@needs_c
def test_compiled_core_weighs_worlds_by_the_policy_as_python_does() -> None:
    """The same features, probabilities and powers in C: the same totals to the bit."""
    checked = 0
    for i, k in enumerate(positions(24, min_actions=14)):
        for alpha in (1.0, 0.5):
            infer = INFER_POLICY | (INFER_PLAYS if i % 2 else 0)
            c = world_totals(k, 10, 700 + i, 10**9, infer, SCORE, compiled=True, policy_alpha=alpha)
            p = world_totals(
                k, 10, 700 + i, 10**9, infer, SCORE, compiled=False, policy_alpha=alpha
            )
            assert c == p
            checked += 1
    assert checked == 48


def test_a_bad_oversampling_or_policy_is_refused_on_both_paths() -> None:
    k = positions(1, min_actions=14)[0]
    for compiled in (False, True) if SEARCH_COMPILED else (False,):
        for bad in (0, 65):
            with pytest.raises(ValueError, match="oversample"):
                world_totals(k, 4, 1, 10**6, INFER_POLICY, SCORE, compiled=compiled, oversample=bad)
    if SEARCH_COMPILED:
        from engine.ai import _dds

        sp = space_of(k)
        args = (
            k.kind, k.code, k.seat, k.taker, k.multiplier, list(sp.fixed), list(sp.seats),
            list(sp.need), [(m, list(cs)) for m, cs in sp.classes], k.leader, list(k.trick),
            k.played, k.won, [(s, c, list(p), g) for s, c, p, g in k.history],
            0, [0, 0], [0, 0], 4, 1, 10**6, INFER_POLICY, SCORE, 0.05,
            [], -1, 1.0, 0, 32, 20.0, 0,
        )  # fmt: skip
        with pytest.raises(ValueError, match=f"{SIZE} weights"):
            _dds.search_worlds(*args, WEIGHTS[:10], 1.0, 1)
