"""The easy and normal levels' card play on hand-made tricks."""

from __future__ import annotations

from engine import mask_of, parse_card, parse_cards
from engine.ai.heuristic import lowest_card, normal_card
from engine.ai.tables import CLASSIC, CLUB, legal_mask

HEARTS = 2  # contract code of hearts as trump


def play(
    kind: int, code: int, seat: int, hand: str, trick: str, played: str = "", taker: int = 0
) -> str:
    h = mask_of(parse_cards(hand))
    t = parse_cards(trick)
    legal = legal_mask(kind, code, h, t)
    gone = mask_of(parse_cards(played)) | mask_of(t)
    card = normal_card(kind, code, seat, h, legal, t, gone, taker)
    assert legal >> card & 1
    return "789TJQKA"[card & 7] + "CDHS"[card >> 3]


def test_easy_plays_the_lowest_card() -> None:
    h = mask_of(parse_cards("AS 7C JH 9D"))
    assert lowest_card(HEARTS, h) == parse_card("7C")
    # Trumps come last even when they are worth nothing.
    h = mask_of(parse_cards("7H TS"))
    assert lowest_card(HEARTS, h) == parse_card("TS")


def test_normal_smears_points_on_a_partner_sure_trick() -> None:
    # Seat 3 plays last; partner (seat 1) holds the trick with the ace of clubs.
    # Void in clubs, classic rules allow a discard: give the ten of spades.
    assert play(CLASSIC, HEARTS, 3, "TS 7D 8H", "8C AC 9C", taker=1) == "TS"


def test_normal_ruffs_a_rich_trick_with_its_lowest_trump() -> None:
    # An opponent's ace of clubs wins, partner played the ten: ruff, but not with the jack.
    assert play(CLUB, HEARTS, 3, "JH 7H 8S", "AC TC 9C", taker=3) == "7H"


def test_normal_wins_last_with_the_richest_card() -> None:
    # Last to play, the opponents' king of spades holds: win with the ace rather than a lower card.
    assert play(CLASSIC, HEARTS, 3, "AS 8S 7D", "KS 7S 9S", taker=3) == "AS"


def test_normal_does_not_waste_a_card_it_cannot_win_with() -> None:
    # Cannot beat the jack of trumps: play the cheapest trump, keep the ace.
    assert play(CLASSIC, HEARTS, 1, "AH 7H 8D", "JH", taker=0) == "7H"


def test_normal_taker_leads_the_master_trump() -> None:
    assert play(CLASSIC, HEARTS, 0, "JH 9H 7H AS 8D", "", taker=0) == "JH"
