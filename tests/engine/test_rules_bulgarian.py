"""docs/rules.md, "Bulgarian": one test per rule sentence, under the section it tests."""

import pytest

from engine import IllegalAction, Match, Phase, card_points, find_melds, get_ruleset, mask_of
from engine import parse_cards as pc
from engine.core import counting_melds, round_one, round_pair, score_bulgarian

from .helpers import bulgarian_deck, eager, legal, play_out

BG = get_ruleset("bulgarian")
SPARE = [list(range(32))] * 50
JACKS_AND_NINES = {1: "JC JD JH JS 9C 9D 9H 9S"}


def auction(*calls: str) -> Match:
    m = Match("bulgarian", decks=SPARE)
    for c in calls:
        m.apply(m.to_move, c)
    return m


# docs/rules.md#bulgarian-dealing
def test_deal_3_then_2_bid_then_3_more_nothing_is_turned_up():
    m = Match("bulgarian", decks=SPARE)
    assert m.turned is None and m.view(1).turned is None
    assert [len(m.hand(s)) for s in range(4)] == [5, 5, 5, 5]


# docs/rules.md#bulgarian-the-auction
def test_the_auction_starts_at_the_dealers_next_seat_in_rising_order():
    m = Match("bulgarian", decks=SPARE)
    assert m.to_move == 1
    texts = [a.text for a in m.legal_actions(1)]
    assert texts == ["pass", "bid C", "bid D", "bid H", "bid S", "bid NT", "bid AT"]


def test_a_call_must_be_higher_than_the_current_contract():
    m = auction("bid H")
    assert [a.text for a in m.legal_actions(2) if a.kind == "bid"] == ["bid S", "bid NT", "bid AT"]
    with pytest.raises(IllegalAction):
        m.apply(2, "bid D")
    with pytest.raises(IllegalAction):
        m.apply(2, "bid H")


def test_contre_by_an_opponent_of_the_contracts_team_once():
    m = auction("bid H")  # seat 1, team 1
    assert "contre" in [a.text for a in m.legal_actions(2)]
    m.apply(2, "pass")
    assert "contre" not in [a.text for a in m.legal_actions(3)]  # partner of the bidder
    with pytest.raises(IllegalAction):
        m.apply(3, "contre")
    m.apply(3, "pass")
    m.apply(0, "contre")
    assert "contre" not in [a.text for a in m.legal_actions(1)]
    m.apply(1, "pass")
    assert "contre" not in [a.text for a in m.legal_actions(2)]  # once


def test_recontre_by_the_contracts_team_after_a_contre():
    m = auction("bid H")
    assert "recontre" not in [a.text for a in m.legal_actions(2)]
    m.apply(2, "contre")
    assert "recontre" in [a.text for a in m.legal_actions(3)]
    m.apply(3, "recontre")
    for _ in range(3):
        m.apply(m.to_move, "pass")
    assert m.contract.trump == "H" and m.contract.taker == 1 and m.contract.multiplier == 4


def test_a_higher_call_cancels_doubling():
    m = auction("bid H", "contre", "bid S", "pass", "pass", "pass")
    assert m.contract.trump == "S" and m.contract.taker == 3 and m.contract.multiplier == 1


def test_the_auction_ends_after_three_passes_in_a_row_following_a_call():
    m = auction("bid C", "pass", "pass")
    assert m.phase is Phase.BIDDING
    m.apply(0, "pass")
    assert m.phase is Phase.PLAY and m.contract.trump == "C" and m.contract.taker == 1
    m = auction("bid C", "contre", "pass", "pass")
    assert m.phase is Phase.BIDDING
    m.apply(m.to_move, "pass")
    assert m.contract.multiplier == 2


def test_four_passes_with_no_call_redeal_by_the_next_dealer():
    m = auction("pass", "pass", "pass")
    assert m.deal_number == 0
    m.apply(0, "pass")
    assert m.deal_number == 1 and m.dealer == 1 and m.to_move == 2


# docs/rules.md#bulgarian-play
def test_play_follow_suit():
    assert legal("bulgarian", "H", "7C AC JD", "KC") == {"7C", "AC"}


def test_trump_led_beat_the_highest_card_of_that_suit_if_you_can():
    assert legal("bulgarian", "H", "JH 7H 7D", "9H") == {"JH"}
    assert legal("bulgarian", "H", "AH 7H 7D", "9H") == {"AH", "7H"}
    assert legal("bulgarian", "H", "JH 7H", "9H 7C") == {"JH"}  # partner's card too


def test_all_trump_any_suit_led_beat_the_highest_card_of_that_suit_if_you_can():
    assert legal("bulgarian", "AT", "JC 7C AD", "9C") == {"JC"}
    assert legal("bulgarian", "AT", "AC 7C AD", "9C") == {"AC", "7C"}
    assert legal("bulgarian", "AT", "JC 7C", "9C 8C") == {"JC"}
    assert legal("bulgarian", "AT", "7H 8D", "AC") == {"7H", "8D"}  # void: anything


def test_suit_contract_void_and_an_opponent_winning_trump():
    assert legal("bulgarian", "H", "7H 8D", "AC") == {"7H"}


def test_or_overtrump_if_an_opponent_already_trumped_and_you_can():
    assert legal("bulgarian", "H", "JH 7H 8D", "AC 9H") == {"JH"}


def test_you_may_discard_when_your_partner_is_winning():
    assert legal("bulgarian", "H", "7H 8D", "AC 7C") == {"7H", "8D"}
    assert legal("bulgarian", "H", "7H 8D", "7C 9H 8C") == {"7H", "8D"}


def test_you_may_discard_when_you_cannot_beat_an_opponents_trump():
    assert legal("bulgarian", "H", "7H 8D", "AC 9H") == {"7H", "8D"}


def test_no_trump_only_follow_suit():
    assert legal("bulgarian", "NT", "7C AC 8D", "KC") == {"7C", "AC"}
    assert legal("bulgarian", "NT", "8D 7H", "AC") == {"8D", "7H"}


# docs/rules.md#bulgarian-card-values
def test_card_values_per_contract():
    at = [card_points(c, "AT") for c in pc("JC 9C AC TC KC QC 8C 7C")]
    nt = [card_points(c, "NT") for c in pc("AC TC KC QC JC 9C 8C 7C")]
    assert at == [20, 14, 11, 10, 4, 3, 0, 0] and nt == [11, 10, 4, 3, 2, 0, 0, 0]


@pytest.mark.parametrize(("contract", "total"), [("NT", 260), ("AT", 258), ("S", 162)])
def test_deal_totals_no_trump_260_all_trump_258_suits_162(contract, total):
    f = 2 if contract == "NT" else 1
    assert f * (sum(card_points(c, contract) for c in range(32)) + 10) == total


# docs/rules.md#bulgarian-announcements
def test_announcements_in_suit_and_all_trump_contracts_only():
    deck = bulgarian_deck({1: "7C 8C 9C KH QH JS 9S AD"})
    for contract, melds in (("NT", False), ("AT", True), ("C", True)):
        m = Match("bulgarian", decks=[deck, *SPARE])
        m.apply(1, f"bid {contract}")
        for _ in range(3):
            m.apply(m.to_move, "pass")
        acts = m.legal_actions(1)
        assert any(a.melds for a in acts) is melds
        assert any(a.belote for a in acts) is (contract == "AT")


@pytest.mark.parametrize(
    ("hand", "points"),
    [
        ("7C 8C 9C JD 9H KS 8S AD", [20]),
        ("7C 8C 9C TC JD 9H KS 8S", [50]),
        ("7C 8C 9C TC JC 9H KS 8S", [100]),
        ("7C 8C 9C TC JC QC 9H KS", [100]),
        ("JC JD JH JS 7C 9D KH AS", [200]),
        ("9C 9D 9H 9S 7C JD KH AS", [150]),
        ("KC KD KH KS 7C JD QH 9S", [100]),
    ],
)
def test_sequences_3_20_4_50_5_plus_100_carres_j_200_9_150_others_100(hand, points):
    assert [m.points for m in find_melds(mask_of(pc(hand)), "AT", BG)] == points


def test_belote_in_all_trump_k_q_of_any_suit_played_on_a_trick_of_that_suit():
    deck = bulgarian_deck({1: "KS QS 7C", 2: "KD QD 8H 9H TH JH AH 7H"})
    m = Match("bulgarian", decks=[deck, *SPARE])
    m.apply(1, "bid AT")
    for _ in range(3):
        m.apply(m.to_move, "pass")
    assert "play KS belote" in [a.text for a in m.legal_actions(1)]  # leading spades
    m.apply(1, "play 7C")
    # seat 2 is void of clubs: K/Q of diamonds on a club trick is no belote
    acts = [a.text for a in m.legal_actions(2)]
    assert "play KD" in acts and "play KD belote" not in acts


def test_carres_count_for_whoever_holds_them_sequences_for_the_best_team_only():
    def meld(h):
        return tuple(find_melds(mask_of(pc(h)), "AT", BG))

    declared = [(1, meld("KC KD KH KS 7C 8C 9C 7D")), (2, meld("9H TH JH QH 7S 8S AD QD"))]
    got = [(s, m.points, c) for s, m, c in counting_melds(BG, 5, declared)]
    assert got == [(1, 100, True), (1, 20, False), (2, 50, True)]


def test_of_sequences_length_then_top_card_equal_best_nobody():
    def meld(h):
        return tuple(find_melds(mask_of(pc(h)), "AT", BG))

    higher = [(1, meld("7C 8C 9C")), (2, meld("8D 9D TD"))]
    assert [c for *_, c in counting_melds(BG, 5, higher)] == [False, True]
    equal = [(1, meld("7C 8C 9C")), (2, meld("7D 8D 9D"))]
    assert [c for *_, c in counting_melds(BG, 5, equal)] == [False, False]
    same_team = [(1, meld("7C 8C 9C")), (3, meld("7D 8D 9D"))]
    assert [c for *_, c in counting_melds(BG, 5, same_team)] == [True, True]


# docs/rules.md#bulgarian-scoring
def test_the_contract_team_must_score_more_else_the_whole_deal_goes_to_the_other():
    s = score_bulgarian(0, 1, 0, (90, 72), (4, 4), (0, 0), (0, 0))
    assert s.outcome == "made" and s.points == (9, 7)
    s = score_bulgarian(0, 1, 0, (70, 92), (4, 4), (0, 0), (0, 0))
    assert s.outcome == "set" and s.points == (0, 16)


def test_equal_the_points_hang_the_other_team_scores_its_own():
    s = score_bulgarian(0, 1, 0, (81, 81), (4, 4), (0, 0), (0, 0))
    assert s.outcome == "hanging" and s.points == (0, 8) and s.held == 8


def test_contre_recontre_whoever_scores_more_takes_the_whole_deal_x2_x4():
    s = score_bulgarian(0, 2, 0, (70, 92), (4, 4), (0, 0), (0, 0))
    assert s.points == (0, 32)  # 324 -> 32
    s = score_bulgarian(0, 4, 0, (92, 70), (4, 4), (0, 0), (0, 0))
    assert s.points == (65, 0)  # 648 -> 65
    s = score_bulgarian(0, 2, 0, (81, 81), (4, 4), (0, 0), (0, 0))
    assert s.outcome == "hanging" and s.points == (0, 0) and s.held == 32


def test_a_capot_in_a_doubled_deal_is_doubled_too():
    s = score_bulgarian(0, 2, 0, (162, 0), (8, 0), (0, 0), (0, 0))
    assert s.totals == (252, 0) and s.points == (50, 0)  # 504 -> 50


def test_capot_plus_90_to_the_team_that_took_every_trick_not_doubled_by_no_trump():
    s = score_bulgarian(4, 1, 0, (130, 0), (8, 0), (0, 0), (0, 0))
    assert s.totals == (350, 0) and s.points == (35, 0)


def test_capot_252_in_suits():
    assert score_bulgarian(1, 1, 1, (0, 162), (0, 8), (0, 0), (0, 0)).totals == (0, 252)


# docs/rules.md#bulgarian-rounding-to-tens
@pytest.mark.parametrize(
    ("value", "code", "tens"),
    [(35, 0, 3), (36, 0, 4), (125, 5, 13), (124, 5, 12), (108, 4, 11), (105, 4, 10)],
)
def test_scores_are_kept_in_tens_the_rules_examples(value, code, tens):
    assert round_one(value, code) == tens


def test_no_trump_54_is_doubled_to_108_and_gives_11():
    assert score_bulgarian(4, 1, 0, (76, 54), (4, 4), (0, 0), (0, 0)).points == (15, 11)


def test_suits_both_totals_end_in_6_the_smaller_rounds_down():
    assert round_pair(86, 76, 0) == (9, 7)
    assert round_pair(76, 86, 2) == (7, 9)


def test_all_trump_both_end_in_4_the_smaller_rounds_up_154_144_gives_15_15():
    assert round_pair(154, 144, 5) == (15, 15)
    assert round_pair(134, 124, 5) == (13, 13)
    assert round_pair(134, 125, 5) == (13, 13)


def test_no_trump_both_end_in_5_the_smaller_rounds_up():
    assert round_pair(155, 145, 4) == (15, 15)
    assert round_pair(155, 146, 4) == (15, 15)


def test_a_whole_deal_given_to_one_team_is_rounded_as_one_number():
    s = score_bulgarian(5, 1, 0, (100, 158), (3, 5), (0, 0), (0, 0))
    assert s.points == (0, 26)  # 258 -> 26 (x8 up in All Trump)


def capot_match(target=None):
    deck = bulgarian_deck(JACKS_AND_NINES)
    m = Match("bulgarian", decks=[deck, *SPARE], target=target)
    m.apply(1, "bid AT")
    for _ in range(3):
        m.apply(m.to_move, "pass")
    return m


# docs/rules.md#bulgarian-the-end-of-the-match
def test_game_to_151():
    assert Match("bulgarian", decks=SPARE).target == 151


# docs/rules.md#bulgarian-scoring
def test_a_capot_deal_scores_258_plus_90():
    m = capot_match()
    play_out(m, eager)
    r = m.deals[0].result
    assert r.capot == 1 and r.totals == (0, 348) and r.points == (0, 35)


# docs/rules.md#bulgarian-the-end-of-the-match
def test_a_game_cannot_end_on_a_deal_that_one_team_took_capot():
    m = capot_match()
    m.scores = (0, 140)
    play_out(m, eager)
    assert m.scores == (0, 175) and m.phase is not Phase.OVER and m.deal_number == 1


def test_a_team_reaching_151_on_a_deal_without_capot_wins():
    m = Match("bulgarian", decks=SPARE)
    m.scores = (150, 150)
    while m.phase is not Phase.OVER and m.deal_number < 10:
        m.apply(m.to_move, eager(m, m.to_move, m.legal_actions(m.to_move)))
    assert m.phase is Phase.OVER and m.winner == (0 if m.scores[0] > m.scores[1] else 1)


# docs/rules.md#held-points
def test_hanging_points_go_to_whoever_wins_the_next_deal():
    m = capot_match()
    m.hanging = 8
    play_out(m, eager)
    assert m.deals[0].result.paid == (0, 8) and m.scores == (0, 43) and m.hanging == 0


def test_hanging_points_on_a_rounding_tie_go_to_the_team_that_made_its_contract():
    m = capot_match()
    m.hanging = 8
    # force the next deal's count to a made 15 / 15 (All Trump 154 / 144)
    import engine.match as match_module
    from engine.core import DealScore

    real = match_module.score_bulgarian
    match_module.score_bulgarian = lambda *a: DealScore((144, 154), (15, 15), "made", 0)
    try:
        play_out(m, eager)
    finally:
        match_module.score_bulgarian = real
    assert m.deals[0].result.paid == (0, 8)  # seat 1's team made the contract
