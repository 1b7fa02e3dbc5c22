"""Coinche: every level bids and plays only legal actions, with the table's options on and
off; the bids follow the hand; the search scores a deal as the engine does."""

from __future__ import annotations

import random

import pytest

from engine import Match
from engine.ai import choose_action
from engine.ai.arena import run_arena
from engine.ai.bidding import (
    BidTurn,
    bid_on,
    coinche_estimate,
    coinche_state,
    parse_coinche_bid,
    sure_capot,
)
from engine.ai.scoring import deal_value
from engine.ai.tables import AT, CLASSIC, NT, total_points
from engine.cards import parse_card
from engine.contract import CAPOT_BID, Contract
from engine.core import score_coinche
from engine.options import TableRules
from tests.ai.helpers import decks, play_until

OPTION_SETS = [
    {},
    {"no_trump": True},
    {"all_trump": True, "generale": True},
    {"no_trump": True, "all_trump": True, "generale": True, "bid_only": True},
]


def hand_of(text: str) -> int:
    mask = 0
    for word in text.split():
        mask |= 1 << parse_card(word)
    return mask


def turn(seat: int, bids: tuple[tuple[int, str], ...], legal: list[str]) -> BidTurn:
    return BidTurn("coinche", seat, 3, None, bids, tuple(legal))


def legal_after(bids: list[tuple[int, str]], options: dict[str, bool]) -> tuple[int, list[str]]:
    """The seat to move and its legal texts after ``bids``, as the engine lists them."""
    m = Match(TableRules("coinche", **options), decks=decks(0))
    for s, text in bids:
        m.apply(s, text)
    assert m.to_move is not None
    return m.to_move, [a.text for a in m.legal_actions(m.to_move)]


@pytest.mark.parametrize("options", OPTION_SETS)
@pytest.mark.parametrize("level", ["easy", "normal"])
def test_fast_levels_play_legal_coinche_matches(level: str, options: dict[str, bool]) -> None:
    for seed in range(3):
        levels = (level, "easy", level, "normal") if seed % 2 else (level,) * 4
        rules = TableRules("coinche", target=600, **options)
        m = play_until(Match(rules, decks=decks(seed)), levels, seed, whole=True)
        assert m.to_move is None  # the match was played to its end, every action legal
        assert all(d.contract is None or d.contract.bid for d in m.deals)


@pytest.mark.parametrize("options", OPTION_SETS[::3])
def test_hard_and_expert_play_legal_coinche_deals(options: dict[str, bool]) -> None:
    rules = TableRules("coinche", **options)
    for seed in range(2):
        m = play_until(Match(rules, decks=decks(40 + seed)), ("hard", "normal") * 2, seed)
        assert any(d.result is not None for d in m.deals)
    m = play_until(Match(rules, decks=decks(7)), ("expert", "hard") * 2, 7)
    assert any(d.result is not None for d in m.deals)


def test_the_levels_bid_no_trump_and_all_trump_when_offered() -> None:
    """Over many auctions with every contract on, the levels that evaluate call more
    than the four suits, and each value they bid is one of the engine's."""
    rules = TableRules("coinche", no_trump=True, all_trump=True)
    said: set[str] = set()
    for seed in range(150):
        m = Match(rules, decks=decks(1000 + seed))
        while m.phase.value == "bidding" and m.deals[-1].k == 0:
            seat = m.to_move
            assert seat is not None
            action = choose_action(m.view(seat), ("normal", "hard")[seed % 2], seed)
            said.add(action.text)
            m.apply(seat, action)
    contracts = {b[1] for t in said if (b := parse_coinche_bid(t))}
    assert contracts & {NT, AT} and len(contracts & {0, 1, 2, 3}) == 4
    assert "coinche" in said


def test_auction_state_reads_values_and_doublings() -> None:
    bids = ((0, "bid 80 H"), (1, "bid 100 S"), (2, "coinche"))
    assert coinche_state(bids) == (3, 1, 2, 100)
    assert coinche_state(((0, "bid capot NT"), (1, "surcoinche"))) == (NT, 0, 4, CAPOT_BID)
    assert parse_coinche_bid("bid generale AT") == (500, AT)
    assert parse_coinche_bid("pass") is None


@pytest.mark.parametrize("level", ["normal", "hard", "expert"])
def test_a_strong_hand_bids_and_a_weak_one_passes(level: str) -> None:
    strong = "JH 9H AH TH KH AS AC AD"
    weak = "7C 8D 7H 8S 9C 9D QS 8C"
    for cards, bids in ((strong, True), (weak, False)):
        m = Match(TableRules("coinche"), decks=[_deck_giving(1, cards)])
        view = m.view(1)  # the dealer's next seat speaks first
        action = choose_action(view, level, 1)
        assert (action.kind == "bid") is bids, (cards, action.text)


def _deck_giving(seat: int, cards: str) -> list[int]:
    """A deck that deals ``cards`` to ``seat`` (dealer 0: seat 1 gets the first packet)
    under Coinche's 3-2-3 deal, the rest at random."""
    mine = [parse_card(w) for w in cards.split()]
    rest = [c for c in random.Random(5).sample(range(32), 32) if c not in mine]
    slots = {}
    pos = 0
    for packet in (3, 2, 3):
        for i in range(1, 5):
            for j in range(packet):
                slots.setdefault((i % 4), []).append(pos + j)
            pos += packet
    deck = [0] * 32
    for p, c in zip(slots[seat], mine, strict=True):
        deck[p] = c
    others = [p for s, ps in slots.items() if s != seat for p in ps]
    for p, c in zip(sorted(others), rest, strict=True):
        deck[p] = c
    return deck


def test_a_partners_bid_raises_its_contract_and_a_spoken_hand_does_not_raise_again() -> None:
    """Over the opponents' 90 S, a hand with the jack of hearts bids 100 H when its
    partner bid 80 H, and passes without that bid (its own estimate falls short); the
    partner who bid does not raise again on what its partner's raise counted."""
    support = hand_of("JH 7H AS AC AD TS 8C 7D")
    nothing = hand_of("7S 8S 9S 7C 8C 9D 8D 7D")
    bids = [(1, "bid 80 H"), (2, "bid 90 S")]
    seat, legal = legal_after(bids, {})
    assert seat == 3
    t = turn(seat, tuple(bids), legal)
    assert bid_on(support, t, "hard") == "bid 100 H"
    assert bid_on(nothing, t, "hard") == "pass"
    alone = [(1, "pass"), (2, "bid 90 S")]
    seat, legal = legal_after(alone, {})
    assert bid_on(support, turn(seat, tuple(alone), legal), "hard") == "pass"
    bids = [(1, "bid 80 H"), (2, "pass"), (3, "bid 90 H"), (0, "pass")]
    seat, legal = legal_after(bids, {})
    assert seat == 1
    assert bid_on(support, turn(1, tuple(bids), legal), "hard") == "pass"


def test_coinche_on_the_opponents_trump_stack_and_surcoinche_only_when_sure() -> None:
    stack = hand_of("JS 9S AS TS 8S AH AD 7C")
    seat, legal = legal_after([(1, "bid 120 S")], {})
    assert "coinche" in legal
    for level in ("easy", "normal", "hard"):
        assert bid_on(stack, turn(seat, ((1, "bid 120 S"),), legal), level) == "coinche"
    bids = [(1, "bid 80 H"), (2, "coinche"), (3, "pass"), (0, "pass")]
    seat, legal = legal_after(bids, {})
    assert seat == 1 and "surcoinche" in legal  # the bidder itself
    average = hand_of("7H 8H AS 7C 8D 9D QS TC")
    assert bid_on(average, turn(seat, tuple(bids), legal), "hard") == "pass"
    bids = [(1, "bid 80 H"), (2, "coinche")]
    seat, legal = legal_after(bids, {})
    assert seat == 3 and "surcoinche" in legal  # the bidder's partner
    assert bid_on(average, turn(seat, tuple(bids), legal), "hard") == "pass"
    monster = hand_of("JH 9H AH TH KH QH AS AC")
    assert bid_on(monster, turn(seat, tuple(bids), legal), "hard") == "surcoinche"


def test_capot_only_with_a_near_certain_hand() -> None:
    assert sure_capot(hand_of("JH 9H AH TH KH AS AC AD"), 2)
    assert not sure_capot(hand_of("JH 9H AH TH KH AS AC KD"), 2)
    assert not sure_capot(hand_of("JH AH TH KH QH AS AC AD"), 2)  # no nine
    seat, legal = legal_after([], {})
    t = turn(seat, (), legal)
    assert bid_on(hand_of("JH 9H AH TH KH AS AC AD"), t, "hard") == "bid capot H"
    assert coinche_estimate(hand_of("JH 9H AH TH KH AS AC AD"), 2) > 140


def test_easy_bids_only_eighty_on_an_obvious_hand() -> None:
    seat, legal = legal_after([], {})
    assert bid_on(hand_of("JH 9H 7H 8C 9C 7D 8D 7S"), turn(seat, (), legal), "easy") == "bid 80 H"
    assert bid_on(hand_of("AH TH 7H 8C 9C 7D 8D 7S"), turn(seat, (), legal), "easy") == "pass"


def test_deal_value_scores_a_suit_contract_as_the_engine() -> None:
    """The search's Coinche score of a suit contract is the engine's, to the point."""
    rng = random.Random(54)
    for _ in range(3000):
        code = rng.randrange(4)
        tk = rng.randrange(2)
        capot = rng.random() < 0.1
        if capot:
            team = rng.randrange(2)
            cards = [0, 0]
            cards[team] = 162
            tricks = [0, 0]
            tricks[team] = 8
        else:
            a = rng.randrange(0, 163)
            cards, tricks = [a, 162 - a], [4, 4]
        belotes = [rng.choice([0, 20]), rng.choice([0, 20])]
        bid = rng.choice([*range(80, 161, 10), CAPOT_BID])
        mult = rng.choice([1, 2, 4])
        contract = Contract("CDHS"[code], tk, mult, bid)
        took_all = tricks[1 - tk] == 0
        pts = score_coinche(contract, cards, tricks, belotes, took_all).points
        for me in (0, 1):
            diff = cards[me] - cards[1 - me]
            diff += 90 if tricks[1 - me] == 0 else -90 if tricks[me] == 0 else 0
            got = deal_value(CLASSIC, code, mult, tk, me, diff, (0, 0), belotes, bid)
            assert got == pts[me] - pts[1 - me], (cards, tricks, belotes, bid, mult, tk)


@pytest.mark.parametrize("code", [NT, AT])
def test_no_trump_and_all_trump_are_brought_to_coinches_162(code: int) -> None:
    """The search counts them by the standard tables; their points are brought to 162 in
    proportion, so a bid is made where its share of the points is."""
    total = total_points(code)
    half = 0  # both teams at half the standard total
    made = deal_value(CLASSIC, code, 1, 0, 0, half, (0, 0), (0, 0), 80)
    assert made == 80 + 81 - 81
    lost = deal_value(CLASSIC, code, 1, 0, 0, half, (0, 0), (0, 0), 90)
    assert lost == -(160 + 90)
    capot = deal_value(CLASSIC, code, 1, 0, 0, total + 90, (0, 0), (0, 0), CAPOT_BID)
    assert capot == CAPOT_BID + 252


def test_arena_plays_coinche_and_counts_its_doublings() -> None:
    report = run_arena("coinche", "normal", "normal", 3, seed=3)
    assert report.mean == 0.0  # the same level at both tables: every deck even
    report = run_arena("coinche", "normal", "easy", 8, seed=11)
    lines = report.lines()
    assert lines[0].startswith("arena coinche: normal (A) vs easy (B)")
    assert report.stats["normal"].contracts > 0
    assert "Contre" not in "\n".join(lines)
