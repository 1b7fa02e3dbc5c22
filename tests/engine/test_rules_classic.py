"""docs/rules.md, "Classic": one test per rule sentence, under the section it tests."""

import pytest

from engine import Action, DeckInputs, IllegalAction, Match, Phase, get_ruleset, parse_card
from engine.core import score_french

from .helpers import eager, french_deck, legal, play_out

ALL_HEARTS = {1: "JH 9H AH TH KH QH 8H 7H"}
SPARE = [list(range(32))] * 50  # decks for the deals after the one under test


def hearts_capot_match(ruleset="classic", target=None):
    deck = french_deck(ALL_HEARTS, turned="JH", taker=1)
    return Match(ruleset, decks=[deck, *SPARE], target=target)


# docs/rules.md#dealing-from-the-deck
def test_deal_3_then_2_to_each_seat_and_turn_deck_20():
    deck = french_deck(ALL_HEARTS, turned="JH", taker=1)
    m = Match("classic", decks=[deck, *SPARE])
    assert m.turned == parse_card("JH") == deck[20]
    assert all(len(m.hand(s)) == 5 for s in range(4))


# docs/rules.md#classic-the-auction
def test_round_1_from_the_dealers_next_seat_take_the_turned_suit_or_pass():
    m = hearts_capot_match()
    assert m.to_move == 1
    assert [a.text for a in m.legal_actions(1)] == ["pass", "take"]
    m.apply(1, "take")
    assert m.contract.trump == "H" and m.contract.taker == 1 and m.phase is Phase.PLAY


def test_round_2_name_another_suit_or_pass():
    m = hearts_capot_match()
    for s in (1, 2, 3, 0):
        m.apply(s, "pass")
    assert [a.text for a in m.legal_actions(1)] == ["pass", "bid C", "bid D", "bid S"]
    with pytest.raises(IllegalAction):
        m.apply(1, "bid H")
    m.apply(1, "pass")
    m.apply(2, "bid S")
    assert m.contract.trump == "S" and m.contract.taker == 2


def test_all_pass_twice_redeal_by_the_next_dealer():
    m = hearts_capot_match()
    for _ in range(8):
        m.apply(m.to_move, "pass")
    assert m.deal_number == 1 and m.dealer == 1 and m.phase is Phase.BIDDING


# docs/rules.md#dealing-from-the-deck
def test_then_the_taker_gets_the_turned_card_and_2_every_other_seat_3():
    m = Match("classic", decks=[list(range(32)), *SPARE])  # deck[i] == card i
    m.apply(1, "pass")
    m.apply(2, "take")
    deck = list(range(32))
    assert m.hand(1) == sorted(deck[0:3] + deck[12:14] + deck[21:24])
    assert m.hand(2) == sorted(deck[3:6] + deck[14:16] + [deck[20]] + deck[24:26])
    assert m.hand(3) == sorted(deck[6:9] + deck[16:18] + deck[26:29])
    assert m.hand(0) == sorted(deck[9:12] + deck[18:20] + deck[29:32])


# docs/rules.md#classic-play
def test_the_dealers_next_seat_leads():
    m = hearts_capot_match()
    m.apply(1, "pass")
    m.apply(2, "pass")
    m.apply(3, "take")
    assert m.to_move == 1


def test_follow_suit():
    assert legal("classic", "H", "7C AC 7D JH", "KC") == {"7C", "AC"}


def test_trump_led_overtrump_if_you_can():
    assert legal("classic", "H", "JH 7H 7D", "9H") == {"JH"}
    assert legal("classic", "H", "AH 7H 7D", "9H") == {"AH", "7H"}  # cannot: any trump


def test_trump_led_overtrump_even_when_the_partner_holds_the_trick():
    assert legal("classic", "H", "JH 7H", "9H 7C") == {"JH"}


def test_void_partner_winning_play_anything():
    assert legal("classic", "H", "7H 8D AS", "AC 7C") == {"7H", "8D", "AS"}


def test_void_opponent_winning_you_must_trump():
    assert legal("classic", "H", "7H 8D AS", "AC") == {"7H"}


def test_an_opponent_has_trumped_overtrump_if_you_can():
    assert legal("classic", "H", "JH 7H 8D", "AC 9H") == {"JH"}


def test_an_opponent_has_trumped_and_you_cannot_overtrump_you_still_undertrump():
    assert legal("classic", "H", "7H 8D", "AC 9H") == {"7H"}


def test_void_without_trump_play_anything():
    assert legal("classic", "H", "8D AS", "AC") == {"8D", "AS"}


def test_the_leader_plays_anything():
    assert legal("classic", "H", "8D AS JH", "") == {"8D", "AS", "JH"}


def _play(m, choose_belote):
    def choose(match, seat, actions):
        for a in actions:
            if a.kind in ("take", "bid"):
                return a
        if choose_belote and any(a.belote for a in actions):
            return next(a for a in actions if a.belote)
        return next(a for a in actions if not a.belote)

    play_out(m, choose)
    return m.deals[0].result


# docs/rules.md#classic-belote-rebelote
def test_belote_rebelote_is_20_counted_only_if_announced_the_player_chooses():
    with_belote = _play(hearts_capot_match(), True)
    without = _play(hearts_capot_match(), False)
    assert with_belote.belotes == (0, 20) and without.belotes == (0, 0)
    assert with_belote.points[1] == without.points[1] + 20


def test_belote_is_offered_with_the_first_of_king_and_queen_only():
    m = hearts_capot_match()
    m.apply(1, "take")
    texts = [a.text for a in m.legal_actions(1)]
    assert "play KH belote" in texts and "play QH belote" in texts and "play KH" in texts
    assert "play JH belote" not in texts
    m.apply(1, "play KH belote")
    for s in (2, 3, 0):
        m.apply(s, m.legal_actions(s)[0])
    assert "play QH belote" not in [a.text for a in m.legal_actions(1)]
    with pytest.raises(IllegalAction):
        m.apply(1, "play QH belote")


def test_belote_needs_king_and_queen_of_trump_in_one_hand():
    deck = french_deck({1: "JH 9H AH TH KH 8C 8H 7H", 2: "QH"}, turned="JH", taker=1)
    m = Match("classic", decks=[deck, *SPARE])
    m.apply(1, "take")
    assert not any(a.belote for a in m.legal_actions(1))


# docs/rules.md#classic-scoring
def test_the_takers_must_score_more_than_the_defenders_card_points_plus_belote():
    assert score_french(0, (91, 71), (4, 4), (0, 0), (0, 0)).outcome == "made"
    assert score_french(0, (71, 91), (4, 4), (0, 0), (20, 0)).outcome == "dispute"  # 91 = 91
    assert score_french(0, (72, 90), (4, 4), (0, 0), (20, 0)).outcome == "made"  # 92 > 90
    assert score_french(0, (81, 81), (4, 4), (0, 0), (0, 20)).outcome == "set"


def test_if_they_score_less_defenders_162_takers_0_each_team_keeps_its_own_belote():
    s = score_french(1, (102, 60), (5, 3), (0, 0), (20, 20))
    assert s.outcome == "set" and s.points == (162 + 20, 20)
    s = score_french(1, (102, 60), (5, 3), (0, 0), (0, 0))
    assert s.points == (162, 0)


def test_level_81_81_a_dispute_defenders_score_takers_keep_belote_card_points_held():
    s = score_french(0, (81, 81), (4, 4), (0, 0), (0, 0))
    assert s.outcome == "dispute" and s.points == (0, 81) and s.held == 81
    s = score_french(0, (71, 91), (4, 4), (0, 0), (20, 0))
    assert s.points == (20, 91) and s.held == 71


# docs/rules.md#held-points
def test_held_points_go_to_the_team_that_scores_more_in_the_next_deal():
    m = hearts_capot_match()
    m.hanging = 81  # as if the deal before was a dispute
    play_out(m, eager)
    r = m.deals[0].result
    assert r.points[1] > r.points[0] and r.paid == (0, 81) and m.hanging == 0
    assert m.scores == (r.points[0], r.points[1] + 81)


# docs/rules.md#classic-scoring
def test_capot_the_team_that_takes_all_8_tricks_scores_252_instead_of_162():
    m = hearts_capot_match()
    play_out(m, eager)
    r = m.deals[0].result
    assert r.tricks == (0, 8) and r.capot == 1 and r.points == (0, 252)
    assert score_french(1, (0, 162), (0, 8), (0, 0), (0, 0)).points == (0, 252)


def test_set_by_a_defenders_capot_gives_them_252():
    assert score_french(0, (0, 162), (0, 8), (0, 0), (0, 0)).points == (0, 252)


# docs/rules.md#classic
def test_no_melds_no_doubling_no_no_trump_or_all_trump():
    rules = get_ruleset("classic")
    assert not rules.has_melds and not rules.doubling and rules.contracts == ("C", "D", "H", "S")
    deck = french_deck({1: "JH 9H TH QH KH AS AC AD", 2: "JS JC JD"}, turned="JH", taker=1)
    m = Match("classic", decks=[deck, *SPARE])
    seen = set()
    while m.deal_number == 0:
        acts = m.legal_actions(m.to_move)
        seen |= {a.kind for a in acts}
        assert not any(a.melds for a in acts)
        m.apply(m.to_move, eager(m, m.to_move, acts))
    assert "contre" not in seen and "recontre" not in seen
    with pytest.raises(IllegalAction):
        Match("classic", decks=SPARE).apply(1, Action.bid("NT"))


# docs/rules.md#classic-the-end-of-the-match
def test_game_to_1000_or_the_tables_own_target():
    assert Match("classic", decks=SPARE).target == 1000
    assert Match("classic", decks=SPARE, target=500).target == 500


# docs/rules.md#the-end-of-a-match
def test_a_team_that_passes_the_target_wins():
    m = hearts_capot_match(target=200)
    play_out(m, eager)
    assert m.phase is Phase.OVER and m.winner == 1 and m.to_move is None


def test_when_both_pass_the_target_on_the_same_deal_the_higher_total_wins():
    inputs = DeckInputs(bytes(range(32)), (None, None, None, None))
    probe = Match("classic", inputs=inputs)
    play_out(probe, eager)
    a, b = probe.deals[0].result.points
    assert a > 0 and b > 0  # both teams score on this deal
    m = Match("classic", inputs=inputs)
    m.scores = (1000 - a + 5, 1000 - b + 10)  # both pass 1000 on this deal
    play_out(m, eager)
    assert m.scores == (1005, 1010) and m.phase is Phase.OVER and m.winner == 1


def test_when_both_pass_the_target_level_another_deal_is_played():
    m = hearts_capot_match(target=1000)
    m.scores = (1252, 1000)  # the capot gives team 1 252: level at 1252
    play_out(m, eager)
    assert m.scores == (1252, 1252) and m.phase is Phase.BIDDING and m.winner is None
