"""The expert's model of the auction: what the others' bids say of their hands."""

from __future__ import annotations

import itertools
import random

import pytest

from engine import Match
from engine.ai import choose_action
from engine.ai.auction import (
    MISMATCH,
    SeenBid,
    _seat_likelihood,
    auction_likelihood,
    legal_texts,
    seen_bids,
)
from engine.ai.bidding import BidTurn, bid_on, heuristic_bid
from engine.ai.knowledge import knowledge_from_view
from engine.ai.world_search import (
    INFER_AUCTION,
    INFER_PLAYS,
    INFER_POLICY,
    SCORE,
    SEARCH_COMPILED,
    dealt_hands,
    world_totals,
)
from tests.ai.helpers import decks

needs_c = pytest.mark.skipif(not SEARCH_COMPILED, reason="the compiled core was not built")


def card(text: str) -> int:
    """'JH' -> the card's index (suit * 8 + rank, ranks 7 8 9 T J Q K A)."""
    return "CDHS".index(text[-1]) * 8 + "789TJQKA".index(text[:-1])


def mask(*texts: str) -> int:
    out = 0
    for t in texts:
        out |= 1 << card(t)
    return out


def test_the_calls_each_bidder_had_are_the_engines() -> None:
    """Replaying the auction gives, at every turn, the very calls the engine offered."""
    turns = 0
    for seed in range(45):
        ruleset = ("classic", "club", "bulgarian")[seed % 3]
        m = Match(ruleset, decks=decks(seed))
        while m.to_move is not None and not any(d.result for d in m.deals):
            seat = m.to_move
            view = m.view(seat)
            if view.phase.value == "bidding":
                offered = tuple(a.text for a in view.legal)
                assert legal_texts(ruleset, view.dealer, view.turned, view.bids, seat) == offered
                assert BidTurn.of_view(view).legal == offered
                turns += 1
            m.apply(seat, choose_action(view, "hard", seed))
    assert turns > 200


def test_the_model_bids_as_the_hard_level() -> None:
    """``bid_on`` from a turn is the hard level's bid from the view of that turn."""
    for seed in range(30):
        ruleset = ("classic", "club", "bulgarian")[seed % 3]
        m = Match(ruleset, decks=decks(seed))
        while m.to_move is not None and m.view(m.to_move).phase.value == "bidding":
            view = m.view(m.to_move)
            hand = sum(1 << c for c in view.hand)
            said = heuristic_bid(view, "hard")
            assert bid_on(hand, BidTurn.of_view(view), "hard") == said
            m.apply(view.seat, next(a for a in view.legal if a.text == said))


def first_round(said: str) -> SeenBid:
    """Seat 1 (first to speak, dealer 0) on the turned jack of hearts."""
    turn = BidTurn("classic", 1, 0, card("JH"), (), ("pass", "take"))
    return SeenBid(turn, said)


def test_a_taker_without_trumps_is_unlikely() -> None:
    strong = mask("9H", "AH", "TH", "KH", "QH", "AS", "AC", "7D")
    weak = mask("7H", "7S", "8S", "9S", "7C", "8C", "7D", "8D")
    take = (first_round("take"),)
    assert _seat_likelihood(take, strong) == 1.0  # every five of these cards takes
    assert _seat_likelihood(take, weak) == pytest.approx(MISMATCH)  # none of them does
    assert auction_likelihood(take, [0, strong, 0, 0], card("JH")) == 1.0


def test_a_pass_on_the_turned_suit_makes_its_honours_unlikely() -> None:
    passed = (first_round("pass"),)
    holding = mask("9H", "AH", "TH", "AS", "AC", "7D", "8D", "9D")
    lacking = mask("7C", "8C", "9C", "7S", "8S", "9S", "7D", "8D")
    assert _seat_likelihood(passed, lacking) == 1.0
    assert _seat_likelihood(passed, holding) < 0.5


def test_the_five_cards_of_the_auction_are_any_five_of_the_hand() -> None:
    """Three strong trumps among eight cards: the share of five-card choices that hold
    enough to take is what the likelihood counts."""
    hand = mask("9H", "AH", "TH", "7C", "8C", "9C", "7S", "8S")
    take = (first_round("take"),)
    five_card_hands = []
    cards = [c for c in range(32) if hand >> c & 1]
    for five in itertools.combinations(cards, 5):
        h = sum(1 << c for c in five)
        five_card_hands.append(bid_on(h, take[0].turn, "hard") == "take")
    share = sum(five_card_hands) / len(five_card_hands)
    expected = share + (1 - share) * MISMATCH
    assert _seat_likelihood(take, hand) == pytest.approx(expected)
    assert 0 < share < 1


def play_positions(count: int) -> list:
    out = []
    for seed in range(200):
        if len(out) >= count:
            break
        ruleset = ("classic", "club", "bulgarian")[seed % 3]
        rng = random.Random(seed)
        m = Match(ruleset, decks=decks(seed))
        stop = rng.randrange(0, 24)
        plays = 0
        while m.to_move is not None and not any(d.result for d in m.deals):
            view = m.view(m.to_move)
            if view.phase.value == "play":
                if plays == stop and len({a.card for a in view.legal}) > 1:
                    out.append(view)
                    break
                plays += 1
            m.apply(view.seat, choose_action(view, "normal", seed))
    return out


def test_every_position_knows_the_others_bids() -> None:
    for view in play_positions(12):
        k = knowledge_from_view(view)
        assert k.seen == seen_bids(view)
        assert {b.turn.seat for b in k.seen} <= {0, 1, 2, 3} - {view.seat}
        assert len(k.seen) == sum(1 for s, _ in view.bids if s != view.seat)


def test_the_whole_hands_are_held_and_played_cards() -> None:
    for view in play_positions(6):
        k = knowledge_from_view(view)
        hands = [0, 0, 0, 0]
        hands[k.seat] = k.hand
        dealt = dealt_hands(k, hands)
        assert dealt[k.seat].bit_count() == 8


@needs_c
def test_compiled_core_weighs_the_auction_as_python_does() -> None:
    """Same worlds, the same auction and play weights, the same totals, in all three
    rulesets, in every combination of what is weighed."""
    checked = 0
    for i, view in enumerate(play_positions(18)):
        k = knowledge_from_view(view)
        for infer in (INFER_AUCTION, INFER_PLAYS | INFER_AUCTION):
            c = world_totals(k, 12, 500 + i, 10**9, infer, SCORE, compiled=True)
            p = world_totals(k, 12, 500 + i, 10**9, infer, SCORE, compiled=False)
            assert c == p
            checked += 1
        # with the policy, resampled, and a node budget that runs out early in a deal
        both = INFER_POLICY | INFER_AUCTION
        for budget in (10**9, 20_000):
            c = world_totals(k, 12, 600 + i, budget, both, SCORE, compiled=True, oversample=4)
            p = world_totals(k, 12, 600 + i, budget, both, SCORE, compiled=False, oversample=4)
            assert c == p
        flat = world_totals(k, 12, 500 + i, 10**9, 0, SCORE, compiled=True)
        weighed = world_totals(k, 12, 500 + i, 10**9, INFER_AUCTION, SCORE, compiled=True)
        assert weighed.weight_sum <= flat.weight_sum == 12.0
    assert checked == 36
