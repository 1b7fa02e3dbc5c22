"""docs/rules.md, "Club": one test per rule sentence, under the section it tests."""

import pytest

from engine import IllegalAction, Match, MeldsShown, find_melds, get_ruleset, mask_of, parse_cards
from engine.core import Meld, counting_melds, score_french

from .helpers import french_deck, legal, play_out

CLUB = get_ruleset("club")
SPARE = [list(range(32))] * 50


def melds_of(hand: str, trump: str = "S") -> list[tuple[str, int]]:
    return sorted(
        (" ".join(sorted(t for t in hand.split() if parse_cards(t)[0] in m.cards)), m.points)
        for m in find_melds(mask_of(parse_cards(hand)), trump, CLUB)
    )


# docs/rules.md#club-the-auction
def test_round_2_the_dealer_speaks_last_and_if_all_others_passed_must_choose():
    m = Match("club", decks=SPARE)
    for _ in range(7):
        m.apply(m.to_move, "pass")
    assert m.to_move == 0 == m.dealer
    acts = [a.text for a in m.legal_actions(0)]
    assert "pass" not in acts and len(acts) == 3 and all(a.startswith("bid ") for a in acts)
    with pytest.raises(IllegalAction):
        m.apply(0, "pass")
    m.apply(0, acts[0])
    assert m.deal_number == 0 and m.contract.taker == 0  # no redeal


def test_round_2_each_names_a_suit_other_than_the_turned_one_or_passes():
    m = Match("club", decks=SPARE)  # turned card deck[20] = card 20 = QH
    for _ in range(4):
        m.apply(m.to_move, "pass")
    assert [a.text for a in m.legal_actions(1)] == ["pass", "bid C", "bid D", "bid S"]


# docs/rules.md#club-play
def test_void_you_must_trump_even_when_your_partner_holds_the_trick():
    assert legal("club", "H", "7H JH 8D", "AC 7C") == {"7H", "JH"}


def test_void_overtrump_if_you_can_even_over_your_partners_trump():
    assert legal("club", "H", "JH 7H 8D", "7C 9H 8C") == {"JH"}


def test_trump_led_you_must_play_a_higher_trump_if_you_have_one():
    assert legal("club", "H", "JH 7H 8D", "9H 7C") == {"JH"}
    assert legal("club", "H", "AH 7H 8D", "9H") == {"AH", "7H"}


def test_if_you_cannot_overtrump_you_still_play_a_trump_if_you_hold_one():
    assert legal("club", "H", "7H 8D", "AC 9H") == {"7H"}


def test_follow_suit_comes_first():
    assert legal("club", "H", "7C JH", "AC 9H") == {"7C"}


# docs/rules.md#club-melds
@pytest.mark.parametrize(
    ("hand", "expected"),
    [
        ("7C 8C 9C JD 9H KS 8S AD", [("7C 8C 9C", 20)]),
        ("7C 8C 9C TC JD 9H KS 8S", [("7C 8C 9C TC", 50)]),
        ("7C 8C 9C TC JC 9H KS 8S", [("7C 8C 9C JC TC", 100)]),
        ("7C 8C 9C TC JC QC 9H KS", [("7C 8C 9C JC QC TC", 100)]),  # a longer run: a quinte
        ("7C 8C 9C TC JC QC KC AC", [("7C 8C 9C", 20), ("AC JC KC QC TC", 100)]),  # 8 = 5 + 3
        ("JC JD JH JS 7C 9D KH AS", [("JC JD JH JS", 200)]),
        ("9C 9D 9H 9S 7C JD KH AS", [("9C 9D 9H 9S", 150)]),
        ("AC AD AH AS 7C JD KH 9S", [("AC AD AH AS", 100)]),
        ("TC TD TH TS 7C JD KH 9S", [("TC TD TH TS", 100)]),
        ("KC KD KH KS 7C JD QH 9S", [("KC KD KH KS", 100)]),
        ("QC QD QH QS 7C JD KH 9S", [("QC QD QH QS", 100)]),
        ("7C 7D 7H 7S 8C 8D 8H 8S", []),  # no carre of 7 or 8
    ],
)
def test_meld_values_tierce_20_quarte_50_quinte_100_carres_200_150_100(hand, expected):
    assert melds_of(hand) == sorted(expected)


def test_a_card_counts_in_one_meld_only_the_partition_that_scores_most():
    # carre of queens (100) + 9-10-J of hearts (20) beats the quinte 9..K of hearts (100)
    assert melds_of("9H TH JH QH KH QC QD QS") == [("9H JH TH", 20), ("QC QD QH QS", 100)]
    # carre of jacks (200) beats the tierce J-Q-K that would share its jack
    assert melds_of("JH QH KH JC JD JS 7C 8D") == [("JC JD JH JS", 200)]


def _meld(hand: str) -> Meld:
    (m,) = find_melds(mask_of(parse_cards(hand)), "S", CLUB)
    return m


def _counting(trump: str, declared: list[tuple[int, str]]) -> list[bool]:
    code = "CDHS".index(trump)
    return [c for _, _, c in counting_melds(CLUB, code, [(s, (_meld(h),)) for s, h in declared])]


def test_only_the_team_with_the_best_meld_scores_by_points_first():
    assert _counting("S", [(1, "7C 8C 9C"), (2, "7D 8D 9D TD")]) == [False, True]


def test_equal_points_the_longer_run_wins():
    assert _counting("S", [(1, "7C 8C 9C TC JC QC"), (2, "7D 8D 9D TD JD")]) == [True, False]


def test_equal_runs_the_higher_top_card_wins():
    assert _counting("S", [(1, "7C 8C 9C"), (2, "8D 9D TD")]) == [False, True]


def test_equal_runs_and_tops_trump_beats_plain():
    assert _counting("S", [(1, "7C 8C 9C"), (2, "7S 8S 9S")]) == [False, True]
    assert _counting("C", [(1, "7C 8C 9C"), (2, "7S 8S 9S")]) == [True, False]


def test_still_equal_the_first_to_declare_in_play_order_wins():
    assert _counting("S", [(3, "7C 8C 9C"), (0, "7D 8D 9D")]) == [True, False]
    assert _counting("S", [(0, "7D 8D 9D"), (3, "7C 8C 9C")]) == [True, False]


def test_the_best_team_scores_all_its_melds_both_partners():
    code = "CDHS".index("S")
    declared = [(1, (_meld("7C 8C 9C TC"),)), (2, (_meld("7D 8D 9D"),)), (3, (_meld("8H 9H TH"),))]
    assert [c for _, _, c in counting_melds(CLUB, code, declared)] == [True, False, True]


def meld_match():
    # seat 1 (taker) holds a quarte of clubs, seat 2 a tierce of spades
    deck = french_deck(
        {
            1: "JH 9H AH 7C 8C 9C TC 7S",
            2: "QS KS AS 7D 8D TD 7H 8H",
            3: "JC KC 9D JD AD TH 9S JS",
            0: "QC AC QD KD QH KH 8S TS",
        },
        turned="JH",
        taker=1,
    )
    return Match("club", decks=[deck, *SPARE])


# docs/rules.md#announcing-belote-and-melds
def test_melds_are_declared_with_your_first_card():
    m = meld_match()
    m.apply(1, "take")
    assert any(a.text.endswith("melds") for a in m.legal_actions(1))
    m.apply(1, "play 7C melds")
    assert any(a.melds for a in m.legal_actions(2))
    m.apply(2, next(a for a in m.legal_actions(2) if a.melds))
    m.apply(3, m.legal_actions(3)[0])
    m.apply(0, m.legal_actions(0)[0])
    # after the first trick nobody can declare any more
    assert not any(a.melds for s in range(4) for a in m.legal_actions(s))


def test_a_seat_without_melds_cannot_declare():
    m = meld_match()
    m.apply(1, "take")
    m.apply(1, "play 7C")
    m.apply(2, m.legal_actions(2)[0])
    assert not any(a.melds for a in m.legal_actions(3))
    with pytest.raises(IllegalAction):
        m.apply(3, m.legal_actions(3)[0].text + " melds")


def test_melds_are_shown_to_all_when_the_first_trick_ends():
    m = meld_match()
    m.apply(1, "take")
    m.apply(1, "play 7C melds")
    assert m.view(3).melds == () and m.view(None).melds == ()
    m.apply(2, next(a for a in m.legal_actions(2) if a.melds))
    m.apply(3, m.legal_actions(3)[0])
    events = m.apply(0, m.legal_actions(0)[0])
    assert isinstance(events[-1], MeldsShown) and events[-1].melds == m.view(None).melds
    shown = m.view(None).melds
    assert [(s, mm.points, c) for s, mm, c in shown] == [(1, 50, True), (2, 20, False)]


# docs/rules.md#club-scoring
def test_declared_melds_that_count_are_scored():
    m = meld_match()

    def choose(match, seat, actions):
        for a in actions:
            if a.kind == "take" or a.melds:
                return a
        return actions[0]

    play_out(m, choose)
    r = m.deals[0].result
    assert r.melds == (0, 50)


# docs/rules.md#club-melds
def test_belote_is_counted_as_in_classic_whatever_melds():
    s = score_french(0, (100, 62), (5, 3), (0, 50), (20, 0))
    assert s.outcome == "made" and s.points == (120, 112)


# docs/rules.md#club-scoring
def test_the_takers_must_score_more_melds_and_belote_included():
    assert score_french(0, (92, 70), (5, 3), (0, 20), (0, 0)).outcome == "made"  # 92 > 90
    assert score_french(0, (91, 71), (5, 3), (0, 20), (0, 0)).outcome == "dispute"  # 91 = 91
    assert score_french(0, (91, 71), (5, 3), (0, 0), (0, 20)).outcome == "dispute"
    assert score_french(0, (91, 71), (5, 3), (0, 50), (0, 0)).outcome == "set"  # 91 < 121


def test_set_defenders_162_plus_the_melds_that_count_whichever_team_holds_them():
    s = score_french(0, (40, 122), (3, 5), (20, 0), (20, 20))  # 80 < 142
    assert s.outcome == "set" and s.points == (20, 162 + 20 + 20)


def test_level_a_dispute_the_takers_held_points_include_their_melds():
    s = score_french(0, (61, 101), (4, 4), (40, 0), (0, 0))  # 101 = 101
    assert s.outcome == "dispute" and s.points == (0, 101) and s.held == 61 + 40
