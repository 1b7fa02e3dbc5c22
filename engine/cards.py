"""Cards as small ints and hands as 32-bit masks, behind a readable text API.

A card is ``suit * 8 + rank`` with suits ``C D H S`` = 0..3 and ranks ``7 8 9 T J Q K A``
= 0..7: exactly the recipe's starting order, so ``list(range(32))`` is the unshuffled deck.
Ints and masks keep the hot paths (legal plays, trick winner) free of object allocation.
"""

from __future__ import annotations

from collections.abc import Iterable

from engine.errors import InvalidCard

SUITS = "CDHS"
RANKS = "789TJQKA"
SUIT_NAMES = ("clubs", "diamonds", "hearts", "spades")
SUIT_SINGULAR = ("club", "diamond", "heart", "spade")

CARD_TEXTS: tuple[str, ...] = tuple(r + s for s in SUITS for r in RANKS)
_CARD_BY_TEXT: dict[str, int] = {t: i for i, t in enumerate(CARD_TEXTS)}


def parse_card(text: str) -> int:
    """``"TD"`` -> 10. Case-insensitive; ``10`` is accepted for the ten."""
    if not isinstance(text, str):
        raise InvalidCard(f"Not a card: {text!r}.")
    t = text.strip().upper()
    if t.startswith("10"):
        t = "T" + t[2:]
    card = _CARD_BY_TEXT.get(t)
    if card is None:
        raise InvalidCard(
            f"Unknown card {text.strip()[:8]!r}: write rank 7 8 9 T J Q K A then suit C D H S, "
            "e.g. TD."
        )
    return card


def card_text(card: int) -> str:
    """10 -> ``"TD"``."""
    if not isinstance(card, int) or not 0 <= card < 32:
        raise InvalidCard(f"Not a card number: {card!r}.")
    return CARD_TEXTS[card]


def parse_cards(text: str) -> list[int]:
    """``"AD 9H"`` -> ``[9, 18]``; an empty or blank string gives ``[]``."""
    if not isinstance(text, str):
        raise InvalidCard(f"Not a card list: {text!r}.")
    return [parse_card(t) for t in text.replace(",", " ").split()]


def cards_text(cards: Iterable[int]) -> str:
    """``[9, 18]`` -> ``"AD 9H"``."""
    return " ".join(card_text(c) for c in cards)


def suit_of(card: int) -> int:
    return card >> 3


def rank_of(card: int) -> int:
    return card & 7


def mask_of(cards: Iterable[int]) -> int:
    m = 0
    for c in cards:
        m |= 1 << c
    return m


def cards_of(mask: int) -> list[int]:
    """The cards of a mask, ascending."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def count(mask: int) -> int:
    return mask.bit_count()
