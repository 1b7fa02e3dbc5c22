"""The events `apply` returns tell the whole story of a deal, in order, as typed values."""

from engine import (
    Bid,
    CardPlayed,
    ContractMade,
    DealEnded,
    Dealt,
    DeckInputs,
    Match,
    MatchEnded,
    Redealt,
    TrickWon,
)

from .helpers import eager

INPUTS = DeckInputs(bytes(range(32)), (bytes(16), None, bytes(16), None))


def test_a_deal_tells_deal_bid_contract_plays_tricks_and_its_end():
    m = Match("club", inputs=INPUTS)
    assert m.start_events == [Dealt(0, 0, m.deals[0].turned)]
    events = []
    while m.deal_number == 0:
        events += m.apply(m.to_move, eager(m, m.to_move, m.legal_actions(m.to_move)))
    kinds = [type(e) for e in events]
    assert kinds[0] is Bid and kinds[1] is ContractMade
    assert kinds.count(CardPlayed) == 32 and kinds.count(TrickWon) == 8
    assert kinds[-2:] == [DealEnded, Dealt]
    contract = next(e for e in events if isinstance(e, ContractMade)).contract
    assert contract == m.deals[0].contract
    tricks = [e.trick for e in events if isinstance(e, TrickWon)]
    assert [t.winner for t in tricks] == [t.cards[0][0] for t in tricks[1:]] + [tricks[-1].winner]
    plays = [(e.seat, e.card) for e in events if isinstance(e, CardPlayed)]
    assert plays == [pair for t in tricks for pair in t.cards]
    assert events[-2] == DealEnded(m.deals[0].result)
    assert events[-1] == Dealt(1, 1, m.turned)
    assert {e.kind for e in events} == {"bid", "contract", "play", "trick", "deal_end", "deal"}


def test_a_redeal_is_told_then_the_next_deal():
    m = Match("classic", inputs=INPUTS)
    events = []
    for _ in range(8):
        events = m.apply(m.to_move, "pass")
    assert events[0] == Bid(0, "pass")
    assert events[1:] == [Redealt(0), Dealt(1, 1, m.turned)]


def test_the_match_end_is_told_with_the_winner_and_scores():
    m = Match("classic", inputs=INPUTS, target=1)
    events = []
    while m.to_move is not None:
        events = m.apply(m.to_move, eager(m, m.to_move, m.legal_actions(m.to_move)))
    assert m.winner is not None
    assert events[-1] == MatchEnded(m.winner, m.scores)
