"""Card text (docs/rules.md#cards): rank `7 8 9 T J Q K A` + suit `C D H S`; ints and masks."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine import (
    RANKS,
    SUITS,
    InvalidCard,
    card_text,
    cards_of,
    cards_text,
    mask_of,
    parse_card,
    parse_cards,
    rank_of,
    suit_of,
)


def test_card_text_is_rank_then_suit_with_T_for_ten():
    assert card_text(parse_card("TD")) == "TD"
    assert suit_of(parse_card("TD")) == SUITS.index("D")
    assert rank_of(parse_card("TD")) == RANKS.index("T")
    assert card_text(parse_card("JS")) == "JS"


def test_card_int_is_suit_times_8_plus_rank_in_the_recipes_starting_order():
    assert [card_text(c) for c in range(8)] == ["7C", "8C", "9C", "TC", "JC", "QC", "KC", "AC"]
    assert card_text(8) == "7D" and card_text(31) == "AS"


def test_there_are_32_distinct_cards():
    texts = {card_text(c) for c in range(32)}
    assert len(texts) == 32
    assert {t[0] for t in texts} == set("789TJQKA") and {t[1] for t in texts} == set("CDHS")


@pytest.mark.parametrize("bad", ["", "1C", "TX", "AAS", "ZZ", "11H", "T"])
def test_unknown_card_text_raises_a_typed_error(bad):
    with pytest.raises(InvalidCard):
        parse_card(bad)


def test_unknown_card_int_raises():
    with pytest.raises(InvalidCard):
        card_text(32)


def test_card_lists_are_space_separated_and_empty_is_nothing():
    assert parse_cards("AD 9H") == [parse_card("AD"), parse_card("9H")]
    assert parse_cards("") == [] and parse_cards("   ") == []
    assert cards_text(parse_cards("AD 9H TS")) == "AD 9H TS"


@given(st.sets(st.integers(0, 31)))
def test_masks_round_trip(cs):
    m = mask_of(cs)
    assert cards_of(m) == sorted(cs)
    assert m.bit_count() == len(cs)
