"""Auction decisions on hand-made deals: obvious takes, passes, and Contre."""

from __future__ import annotations

import pytest

from engine import Match, parse_card, parse_cards
from engine.ai import choose_action
from engine.ai.bidding import obvious, strength
from engine.ai.tables import AT, NT


def deck_for(hands_first5: dict[int, str], turned: str | None = None) -> list[int]:
    """A deck dealing the given first five cards to seats 1, 2, 3, 0 (dealer 0)."""
    deck: list[int | None] = [None] * 32
    for seat, text in hands_first5.items():
        cards = parse_cards(text)
        i = (seat - 1) % 4
        for j, pos in enumerate([3 * i, 3 * i + 1, 3 * i + 2, 12 + 2 * i, 13 + 2 * i]):
            deck[pos] = cards[j]
    if turned is not None:
        deck[20] = parse_card(turned)
    rest = [c for c in range(32) if c not in deck]
    return [c if c is not None else rest.pop() for c in deck]


def test_strength_orders_hands_sensibly() -> None:
    strong = sum(1 << c for c in parse_cards("JH 9H AH AS AC"))
    weak = sum(1 << c for c in parse_cards("7H 8H KS 9C 8D"))
    assert strength(strong, 2) > strength(weak, 2) + 20
    aces = sum(1 << c for c in parse_cards("AS AC AD AH TS"))
    jacks = sum(1 << c for c in parse_cards("JS JC JD JH 9S"))
    assert strength(aces, NT) > strength(jacks, NT)
    assert strength(jacks, AT) > strength(aces, AT)
    assert obvious(strong, 2) and not obvious(weak, 2)


@pytest.mark.parametrize("level", ["easy", "normal", "hard", "expert"])
def test_contre_on_the_opponents_trump_stack(level: str) -> None:
    deck = deck_for({1: "7H 8H KH QH TD", 2: "JH 9H AH AS AC"})
    m = Match("bulgarian", decks=[deck])
    m.apply(1, "bid H")
    view = m.view(2)
    assert choose_action(view, level, 0).text == "contre"


@pytest.mark.parametrize("level", ["normal", "hard", "expert"])
def test_take_an_obvious_hand_and_pass_a_hopeless_one(level: str) -> None:
    strong = deck_for({1: "JS 9S AS AH AD"}, turned="TS")
    m = Match("classic", decks=[strong])
    assert choose_action(m.view(1), level, 0).text == "take"
    weak = deck_for({1: "7C 8D 9H 7D 8C"}, turned="TS")
    m = Match("classic", decks=[weak])
    assert choose_action(m.view(1), level, 0).text == "pass"


def test_easy_passes_without_an_obvious_hand() -> None:
    m = Match("classic", decks=[deck_for({1: "JS AS AH AD KC"}, turned="7S")])
    assert choose_action(m.view(1), "easy", 0).text == "pass"  # no nine: not obvious
