"""The events `apply` returns tell the whole story of a deal, in order, as JSON-safe data."""

import json

from engine import DeckInputs, Match

from .helpers import eager

INPUTS = DeckInputs(bytes(range(32)), (bytes(16), None, bytes(16), None))


def test_a_deal_tells_deal_bid_contract_plays_tricks_and_its_end():
    m = Match("club", inputs=INPUTS)
    assert [e.kind for e in m.start_events] == ["deal"]
    assert m.start_events[0].data == {
        "k": 0,
        "dealer": 0,
        "turned": m.start_events[0].data["turned"],
    }
    kinds = []
    while m.deal_number == 0:
        for e in m.apply(m.to_move, eager(m, m.to_move, m.legal_actions(m.to_move))):
            kinds.append(e.kind)
            json.dumps(e.data)  # JSON-safe
    assert kinds[0] == "bid" and kinds[1] == "contract"
    assert kinds.count("play") == 32 and kinds.count("trick") == 8
    assert kinds[-2:] == ["deal_end", "deal"]


def test_a_redeal_is_told_then_the_next_deal():
    m = Match("classic", inputs=INPUTS)
    events = []
    for _ in range(8):
        events = m.apply(m.to_move, "pass")
    assert [e.kind for e in events] == ["bid", "redeal", "deal"]
    assert events[-1].data["k"] == 1 and events[-1].data["dealer"] == 1


def test_the_match_end_is_told_with_the_winner_and_scores():
    m = Match("classic", inputs=INPUTS, target=1)
    events = []
    while m.to_move is not None:
        events = m.apply(m.to_move, eager(m, m.to_move, m.legal_actions(m.to_move)))
    assert events[-1].kind == "match_end"
    assert events[-1].data == {"winner": m.winner, "scores": list(m.scores)}
