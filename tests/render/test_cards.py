"""Card faces: drawn by code, the right size, the right ink, four colours on request."""

from __future__ import annotations

import itertools
from collections import Counter

import pytest
from PIL import ImageChops

from bot.show.render import cards, order, theme
from bot.show.render.suits import suit_mask


def _ink(card: int, four_colour: bool) -> tuple[int, int, int]:
    """The commonest strongly coloured or dark pixel of a face: its suit's ink."""
    face = cards.face(card, 116, four_colour).convert("RGB")
    counts: Counter[tuple[int, int, int]] = Counter()
    for px in face.get_flattened_data():
        if max(px) - min(px) > 80 or max(px) < 60:
            counts[px] += 1
    return counts.most_common(1)[0][0]


def test_face_size_and_transparent_corners():
    face = cards.face(0, 116)
    assert face.size == cards.card_size(116) == (116, 166)
    assert face.mode == "RGBA"
    assert face.getpixel((0, 0))[3] == 0  # rounded corner
    assert face.getpixel((58, 83))[3] == 255


@pytest.mark.parametrize("suit", range(4))
def test_suit_shapes_are_distinct_filled_shapes(suit):
    mask = suit_mask(suit, 64)
    filled = sum(1 for v in mask.get_flattened_data() if v > 128) / (64 * 64)
    assert 0.25 < filled < 0.75
    for other in range(4):
        if other != suit:
            assert ImageChops.difference(mask, suit_mask(other, 64)).getbbox() is not None


def test_every_card_has_its_own_face():
    faces = [cards.face(c, 80).tobytes() for c in range(32)]
    assert len(set(faces)) == 32


@pytest.mark.parametrize("card", [0, 8, 16, 24])
def test_two_colour_deck_is_red_and_black(card):
    suit = card // 8
    assert _ink(card, False) == theme.SUIT_TWO[suit]


@pytest.mark.parametrize("card", [0, 8, 16, 24])
def test_four_colour_deck_gives_each_suit_its_colour(card):
    suit = card // 8
    assert _ink(card, True) == theme.SUIT_FOUR[suit]


def test_four_colour_inks_all_differ():
    assert len({theme.SUIT_FOUR[s] for s in range(4)}) == 4


def test_dimmed_face_is_darker():
    bright = cards.face(5, 116).convert("L").getpixel((20, 150))
    dim = cards.face(5, 116, dimmed=True).convert("L").getpixel((20, 150))
    assert bright > 240 and dim < 180


def test_hand_order_trumps_first_in_trump_order():
    # Hearts trump: JH 9H AH TH KH QH 8H 7H, then clubs, diamonds, spades in plain order.
    hand = list(range(32))
    shown = order.sort_hand(hand, "H")
    assert [order.card_label(c) for c in shown[:8]] == [
        "JH",
        "9H",
        "AH",
        "TH",
        "KH",
        "QH",
        "8H",
        "7H",
    ]
    assert [order.card_label(c) for c in shown[8:16]] == [
        "AC",
        "TC",
        "KC",
        "QC",
        "JC",
        "9C",
        "8C",
        "7C",
    ]
    assert [c // 8 for c in shown[16::8]] == [1, 3]


def test_hand_order_colours_alternate_for_every_trump():
    for trump in "CDHS":
        suits = order.suit_sequence(trump)
        assert suits[0] == "CDHS".index(trump)
        reds = [s in (1, 2) for s in suits]
        assert all(a != b for a, b in itertools.pairwise(reds))


def test_all_trump_orders_every_suit_as_trump_and_no_trump_as_plain():
    jack_nine = order.sort_hand([31, 28, 26], "AT")  # AS JS 9S
    assert [order.card_label(c) for c in jack_nine] == ["JS", "9S", "AS"]
    assert [order.card_label(c) for c in order.sort_hand([31, 28, 26], "NT")] == ["AS", "JS", "9S"]
