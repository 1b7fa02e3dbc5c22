"""Coinche bidding as partners (issue 66): a raise of the partner's suit by what the hand
adds, a suit named only with a trump honour, one change of suit a side, a coinche when a
count of the defence's tricks says the takers cannot make it; the expert's samples read
the partner's bid and pass.  Each example failed on the bidders before (kept in
``engine/ai/coinche_2026.py`` as the arena's baseline)."""

from __future__ import annotations

import pytest

from engine import Match
from engine.ai import choose_action
from engine.ai.arena import arena_action, partner_switches
from engine.ai.bidding import (
    BidTurn,
    PartnerRead,
    bid_on,
    names_suit,
    raise_limit,
    side_switches,
)
from engine.match import SeatView
from engine.options import TableRules
from tests.ai.test_coinche import _deck_giving, hand_of, legal_after, turn


def expert_view(seat: int, cards: str, bids: list[tuple[int, str]]) -> SeatView:
    """The view of ``seat`` holding ``cards`` after ``bids`` (dealer 0)."""
    m = Match(TableRules("coinche"), decks=[_deck_giving(seat, cards)])
    for s, text in bids:
        m.apply(s, text)
    assert m.to_move == seat
    return m.view(seat)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_expert_raises_its_partners_suit_with_a_trump_honour_and_an_ace(seed: int) -> None:
    """Partner 80 H, the opponents 90 C: the jack of hearts (with the belote's king) and
    the ace of diamonds raise to 100 H; the expert passed before."""
    view = expert_view(
        0, "7C QC KC TD KD AD JH KH", [(1, "pass"), (2, "bid 80 H"), (3, "bid 90 C")]
    )
    assert choose_action(view, "expert", seed).text == "bid 100 H"


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_expert_does_not_outbid_the_opponents_without_a_trump_honour(seed: int) -> None:
    """Over 120 C, A C A D 7 8 Q K of hearts 8 9 of spades: 130 H was bid and set."""
    bids = [(1, "bid 80 C"), (2, "pass"), (3, "bid 120 C")]
    view = expert_view(0, "AC AD 7H 8H QH KH 8S 9S", bids)
    assert arena_action(view, "expert-2026", seed).text == "bid 130 H"  # as before
    assert choose_action(view, "expert", seed).text != "bid 130 H"


def test_a_suit_is_named_only_with_its_jack_or_its_nine_and_four_trumps() -> None:
    assert not names_suit(hand_of("9C TC AC 7D 8D 7H 8S 9S"), 0)
    assert not names_suit(hand_of("TC QC KC AH AD 7S 8S 7D"), 0)
    assert names_suit(hand_of("JC 7C AH 8D 9D 7S 8S 8H"), 0)
    assert names_suit(hand_of("9C 7C 8C QC AH 8D 9S 8H"), 0)


def test_hard_does_not_open_80_on_nine_ten_ace_without_the_jack() -> None:
    seat, legal = legal_after([], {})
    t = turn(seat, (), legal)
    assert bid_on(hand_of("9C TC AC 7D 8D 7H 8S 9S"), t, "hard") == "pass"
    assert bid_on(hand_of("JC 9C AC 7D 8D 7H 8S 9S"), t, "hard") == "bid 80 C"


def test_hard_raises_by_what_the_hand_adds() -> None:
    """Partner 80 C: the jack (20) and an ace (10), less the average its bid counted on
    (10), take it to 100; nothing to add, a pass."""
    bids = ((1, "pass"), (2, "bid 80 C"), (3, "pass"))
    seat, legal = legal_after(list(bids), {})
    t = turn(seat, bids, legal)
    assert bid_on(hand_of("JC 7C AH 8D 9D 7S 8S 8H"), t, "hard") == "bid 100 C"
    assert bid_on(hand_of("7C 8D 9D 7S 8S 8H 9H 7D"), t, "hard") == "pass"
    read = PartnerRead.of(t)
    assert read.contract == 0 and read.value == 80
    assert raise_limit(hand_of("JC 7C AH 8D 9D 7S 8S 8H"), read) == 100


def test_hard_coinches_when_a_count_of_the_defence_says_so() -> None:
    """Over 120 H, three aces, a ten behind one and a guarded nine of hearts: the count
    (22 x 3 + 10 + 14, and 15 for the partner's share: 105) is over the 42 the takers
    can lose and the level's 20; a hand of nothing but the partner's share does not."""
    bids = [(1, "bid 120 H")]
    seat, legal = legal_after(bids, {})
    t = turn(seat, tuple(bids), legal)
    assert bid_on(hand_of("AS AD AC TS 9H 7H 8D 7C"), t, "hard") == "coinche"
    assert bid_on(hand_of("7S 8D 9D 7C 8C 9H 8S QD"), t, "hard") == "pass"


@pytest.mark.parametrize("seed", [1, 2])
def test_a_side_changes_suit_once_then_raises_or_passes(seed: int) -> None:
    """100 C ... 110 S: the club bidder (8 9 10 J A of clubs, 9 J of hearts, 8 of
    spades, the hand of the issue's 160 C, set 0 to 340) does not go back to clubs over
    its partner's spades; nor does the spade bidder go back to spades over 140 C.  The
    expert did both before."""
    bids = [(1, "bid 100 C"), (2, "pass"), (3, "bid 110 S"), (0, "pass")]
    view = expert_view(1, "8C 9C TC JC AC 9H JH 8S", bids)
    assert arena_action(view, "expert-2026", seed).text == "bid 120 C"  # as before
    assert choose_action(view, "expert", seed).text == "pass"
    bids = [(1, "bid 100 C"), (2, "pass"), (3, "bid 130 S"), (0, "pass")]
    bids += [(1, "bid 140 C"), (2, "pass")]
    view = expert_view(3, "JS 9S AS TS 8S 7H 8D QD", bids)
    assert arena_action(view, "expert-2026", seed).text == "bid 150 S"  # as before
    assert choose_action(view, "expert", seed).text == "pass"
    assert side_switches(tuple(bids), 1) == 2
    assert partner_switches([(1, "bid 100 C"), (3, "bid 130 S"), (1, "bid 140 C")]) == (0, 2)


def test_the_same_view_seed_and_level_give_the_same_coinche_bid() -> None:
    view = expert_view(
        0, "7C QC KC TD KD AD JH KH", [(1, "pass"), (2, "bid 80 H"), (3, "bid 90 C")]
    )
    for level in ("hard", "expert"):
        assert len({choose_action(view, level, 5).text for _ in range(2)}) == 1
    t = BidTurn.of_view(view)
    assert bid_on(hand_of("7C QC KC TD KD AD JH KH"), t, "hard") == bid_on(
        hand_of("7C QC KC TD KD AD JH KH"), t, "hard"
    )
