"""How a hand is laid out: by suit, trumps first in trump order, colours alternating.

Cards are the engine's ints (suit * 8 + rank; suits C D H S, ranks 7 8 9 T J Q K A).
"""

from __future__ import annotations

from collections.abc import Iterable

SUITS = "CDHS"
TRUMP_ORDER = (4, 2, 7, 3, 6, 5, 1, 0)  # J 9 A 10 K Q 8 7
PLAIN_ORDER = (7, 3, 6, 5, 4, 2, 1, 0)  # A 10 K Q J 9 8 7
# Spades, hearts, clubs, diamonds: black and red alternate, and still alternate when the
# cycle is turned to start at the trump suit.
_CYCLE = (3, 2, 0, 1)


def trump_suits(contract: str | None) -> frozenset[int]:
    """The suits ranked in trump order under ``contract`` ("C".."S", "NT", "AT" or None)."""
    if contract is None or contract == "NT":
        return frozenset()
    if contract == "AT":
        return frozenset(range(4))
    return frozenset({SUITS.index(contract)})


def suit_sequence(contract: str | None) -> tuple[int, ...]:
    """Suits in display order: the trump suit first, then the others, colours alternating."""
    if contract in (None, "NT", "AT"):
        return _CYCLE
    start = _CYCLE.index(SUITS.index(contract))
    return _CYCLE[start:] + _CYCLE[:start]


def sort_hand(cards: Iterable[int], contract: str | None) -> list[int]:
    """The cards in the order a player holds them under ``contract``."""
    trumps = trump_suits(contract)
    suit_pos = {s: i for i, s in enumerate(suit_sequence(contract))}

    def key(card: int) -> tuple[int, int]:
        suit, rank = divmod(card, 8)
        order = TRUMP_ORDER if suit in trumps else PLAIN_ORDER
        return suit_pos[suit], order.index(rank)

    return sorted(cards, key=key)


def card_label(card: int) -> str:
    """The card text of docs/rules.md#cards (``TD``, ``JS``), as ``engine.card_text`` writes it."""
    return "789TJQKA"[card % 8] + SUITS[card // 8]
