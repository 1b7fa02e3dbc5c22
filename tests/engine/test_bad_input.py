"""Bad input raises a clear typed error and leaves the match untouched."""

import pytest

from engine import (
    DeckInputs,
    EngineError,
    IllegalAction,
    InvalidCard,
    InvalidSeed,
    Match,
    MatchOver,
    NotYourTurn,
    UnknownRuleset,
    get_ruleset,
)

INPUTS = DeckInputs(bytes(range(32)), (bytes(16), None, bytes(16), None))


def state(m: Match):
    return (m.to_json(), tuple(m.hand_mask(s) for s in range(4)), m.view(None), m.phase)


@pytest.fixture
def playing() -> Match:
    m = Match("club", inputs=INPUTS)
    m.apply(1, "take")
    return m


def test_unknown_card_text_raises_invalid_card_and_changes_nothing(playing):
    before = state(playing)
    with pytest.raises(InvalidCard, match="Unknown card"):
        playing.apply(1, "play 1X")
    assert state(playing) == before


def test_a_card_not_in_hand_raises_illegal_action_and_changes_nothing(playing):
    before = state(playing)
    missing = next(c for c in range(32) if c not in playing.hand(1))
    with pytest.raises(IllegalAction, match="You do not hold"):
        playing.apply(1, f"play {'789TJQKA'[missing % 8]}{'CDHS'[missing // 8]}")
    assert state(playing) == before


def test_an_action_out_of_turn_raises_not_your_turn_and_changes_nothing(playing):
    before = state(playing)
    card = playing.hand(2)[0]
    with pytest.raises(NotYourTurn, match="turn"):
        playing.apply(2, playing.legal_actions(1)[0])
    with pytest.raises(NotYourTurn):
        playing.apply(7, "pass")
    with pytest.raises(NotYourTurn):
        playing.apply("1", "pass")
    assert state(playing) == before and card in playing.hand(2)


def test_a_card_that_breaks_the_rules_is_refused_with_the_reason():
    m = Match("classic", inputs=INPUTS)
    m.apply(1, "take")
    lead = m.legal_actions(1)[0]
    m.apply(1, lead)
    suit = lead.card // 8
    hand = m.hand(2)
    off = [c for c in hand if c // 8 != suit]
    if any(c // 8 == suit for c in hand) and off:
        before = state(m)
        with pytest.raises(IllegalAction, match="follow suit"):
            m.apply(2, f"play {'789TJQKA'[off[0] % 8]}{'CDHS'[off[0] // 8]}")
        assert state(m) == before


@pytest.mark.parametrize("text", ["", "dance", "bid X", "play", "play AS twice", "take me"])
def test_malformed_action_text_raises_a_typed_error(text):
    m = Match("bulgarian", inputs=INPUTS)
    before = state(m)
    with pytest.raises(EngineError):
        m.apply(1, text)
    assert state(m) == before


def test_bidding_actions_out_of_phase_are_refused(playing):
    before = state(playing)
    with pytest.raises(IllegalAction):
        playing.apply(1, "pass")
    m = Match("club", inputs=INPUTS)
    with pytest.raises(IllegalAction):
        m.apply(1, "play " + "789TJQKA"[m.hand(1)[0] % 8] + "CDHS"[m.hand(1)[0] // 8])
    assert state(playing) == before


def test_malformed_seed_raises_invalid_seed():
    with pytest.raises(InvalidSeed):
        Match("club", inputs=DeckInputs(bytes(32), (None, None)))  # a match needs 4 seats
    with pytest.raises(InvalidSeed):
        DeckInputs(b"short", (None, None, None, None))


def test_unknown_ruleset_raises():
    with pytest.raises(UnknownRuleset):
        get_ruleset("poker")
    with pytest.raises(UnknownRuleset):
        Match("poker", inputs=INPUTS)


def test_an_action_after_the_end_raises_match_over():
    m = Match("classic", inputs=INPUTS, target=1)
    while m.to_move is not None:
        acts = m.legal_actions(m.to_move)
        m.apply(m.to_move, next((a for a in acts if a.kind == "take"), acts[0]))
    assert m.legal_actions(0) == []
    with pytest.raises(MatchOver):
        m.apply(0, "pass")


def test_legal_actions_are_empty_for_a_seat_not_to_move(playing):
    assert playing.legal_actions(0) == [] and playing.legal_actions(1) != []


def test_bad_logs_raise_engine_error():
    with pytest.raises(EngineError):
        Match.from_json("{not json")
    with pytest.raises(EngineError):
        Match.from_log({"format": "belote-match/1", "ruleset": "club"})
    with pytest.raises(EngineError):
        Match.from_log({"nothing": 1})


def test_a_bad_deck_list_raises():
    with pytest.raises(EngineError):
        Match("club", decks=[[0] * 32])
    with pytest.raises(EngineError):
        Match("club", decks=[list(range(32))], inputs=INPUTS)
