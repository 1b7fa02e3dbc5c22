"""docs/rules.md, "Coinche": one test per rule sentence, under the section it tests."""

import pytest

from engine import Contract, IllegalAction, Match, Phase, TableRules, get_ruleset
from engine import parse_cards as pc
from engine.core import COINCHE_POINTS, score_coinche

from .helpers import bulgarian_deck, legal

SPARE = [list(range(32))] * 50
ALL_OPTIONS = TableRules("coinche", no_trump=True, all_trump=True, generale=True)


def auction(*calls: str, rules: TableRules | str = "coinche", decks=SPARE) -> Match:
    m = Match(rules, decks=decks)
    for c in calls:
        m.apply(m.to_move, c)
    return m


def bids(m: Match, seat: int | None = None) -> list[str]:
    return [a.text for a in m.legal_actions(m.to_move if seat is None else seat)]


# docs/rules.md#coinche-table-options
def test_every_option_is_off_by_default_and_the_log_names_those_set():
    assert TableRules("coinche").options == {}
    m = Match(TableRules("coinche", no_trump=True, bid_only=True), decks=SPARE)
    assert m.to_log()["options"] == {"no_trump": True, "bid_only": True}
    again = Match.from_log(m.to_log()).table_rules
    assert again.options == m.table_rules.options and again.match_target == 1000


# docs/rules.md#coinche-dealing
def test_deal_3_2_3_from_the_dealers_next_seat_before_the_auction():
    deck = list(range(32))
    m = Match("coinche", decks=[deck])
    assert m.turned is None
    assert m.phase is Phase.BIDDING
    # seat 1 (the dealer's next) gets deck[0..2], deck[12..13], deck[20..22]
    assert m.hand(1) == [0, 1, 2, 12, 13, 20, 21, 22]
    assert m.hand(0) == [9, 10, 11, 18, 19, 29, 30, 31]
    assert [len(m.hand(s)) for s in range(4)] == [8, 8, 8, 8]


# docs/rules.md#coinche-the-auction
def test_a_bid_is_a_value_80_to_160_in_tens_or_capot_with_a_suit():
    texts = bids(Match("coinche", decks=SPARE))
    assert texts[0] == "pass"
    assert texts[1:5] == ["bid 80 C", "bid 80 D", "bid 80 H", "bid 80 S"]
    values = list(dict.fromkeys(t.split()[1] for t in texts[1:]))
    assert values == ["80", "90", "100", "110", "120", "130", "140", "150", "160", "capot"]
    assert len(texts) == 1 + 10 * 4  # no coinche without a bid


def test_no_trump_all_trump_and_generale_only_where_the_table_allows_them():
    m = Match("coinche", decks=SPARE)
    for call in ("bid 80 NT", "bid 80 AT", "bid generale H"):
        with pytest.raises(IllegalAction):
            m.apply(1, call)
    texts = bids(Match(ALL_OPTIONS, decks=SPARE))
    assert "bid 80 NT" in texts and "bid 80 AT" in texts
    assert texts[-6:] == [f"bid generale {c}" for c in ("C", "D", "H", "S", "NT", "AT")]


def test_a_bid_must_be_higher_in_value_than_the_standing_bid_in_any_suit():
    m = auction("bid 100 H")
    assert "bid 100 S" not in bids(m) and "bid 110 C" in bids(m)
    for call in ("bid 100 S", "bid 90 C", "bid 100 H"):
        with pytest.raises(IllegalAction) as why:
            m.apply(2, call)
        assert why.value.reason == "bid-higher"
    assert m.to_move == 2 and m.view(None).bids == ((1, "bid 100 H"),)


def test_coinche_by_an_opponent_of_the_standing_bidder_only():
    m = auction("bid 90 H")  # seat 1, team 1
    assert "coinche" in bids(m)  # seat 2, team 0
    m.apply(2, "pass")
    with pytest.raises(IllegalAction) as why:
        m.apply(3, "coinche")  # the bidder's partner
    assert why.value.reason == "coinche-own-side"
    with pytest.raises(IllegalAction) as why:
        Match("coinche", decks=SPARE).apply(1, "coinche")
    assert why.value.reason == "coinche-no-bid"


def test_after_a_coinche_nobody_bids_again_and_the_bidders_may_surcoinche():
    m = auction("bid 90 H", "coinche")
    assert bids(m) == ["pass", "surcoinche"]  # seat 3, the bidder's partner
    with pytest.raises(IllegalAction) as why:
        m.apply(3, "bid 100 S")
    assert why.value.reason == "bid-after-coinche"
    m.apply(3, "pass")
    assert bids(m) == ["pass"]  # seat 0, the defence
    with pytest.raises(IllegalAction) as why:
        m.apply(0, "surcoinche")
    assert why.value.reason == "surcoinche-defence"
    with pytest.raises(IllegalAction) as why:
        m.apply(0, "coinche")
    assert why.value.reason == "coinche-twice"


def test_a_surcoinche_ends_the_auction_at_once():
    m = auction("bid 90 H", "coinche", "surcoinche")
    assert m.phase is Phase.PLAY
    assert m.contract == Contract("H", 1, 4, 90)


def test_three_passes_after_a_bid_or_a_coinche_end_the_auction():
    m = auction("bid 80 C", "pass", "pass")
    assert m.phase is Phase.BIDDING
    m.apply(0, "pass")
    assert m.contract == Contract("C", 1, 1, 80)
    assert m.phase is Phase.PLAY and m.to_move == 1  # the dealer's next seat leads
    m = auction("bid 80 C", "bid 90 D", "coinche", "pass", "pass")
    assert m.phase is Phase.BIDDING
    m.apply(2, "pass")
    assert m.contract == Contract("D", 2, 2, 90)


def test_four_passes_with_no_bid_throw_the_deal_in():
    m = auction("pass", "pass", "pass")
    m.apply(0, "pass")
    assert m.deal_number == 1 and m.dealer == 1 and m.to_move == 2
    assert m.deals[0].result is None


def test_a_refused_call_changes_nothing():
    m = auction("bid 100 H", "coinche")
    before = (m.to_log(), m.view(3))
    for bad in ("bid 110 S", "coinche", "take", "play 7C", "bid H"):
        with pytest.raises(IllegalAction):
            m.apply(3, bad)
    assert (m.to_log(), m.view(3)) == before


# docs/rules.md#coinche-play
def test_partner_winning_frees_a_void_player_from_trumping():
    # the partner of the player to move played the trick's card before last
    assert legal("coinche", "H", "7H 8S AC", "AD KD") == {"7H", "8S", "AC"}
    assert legal("coinche", "H", "7H 8S AC", "7D 9H 8D") == {"7H", "8S", "AC"}
    assert legal("club", "H", "7H 8S AC", "AD KD") == {"7H"}  # club differs here


def test_an_opponent_winning_obliges_trump_and_overtrump_else_undertrump():
    assert legal("coinche", "H", "7H 8S AC", "KD AD") == {"7H"}
    assert legal("coinche", "H", "7H JH 8S", "AD 9H") == {"JH"}
    assert legal("coinche", "H", "7H AH 8S", "AD 9H") == {"7H", "AH"}
    assert legal("coinche", "H", "JH 7H", "9H") == {"JH"}  # trump led: beat it, always


def test_coinche_plays_by_the_classic_obligations():
    assert get_ruleset("coinche").legal == "classic"


# docs/rules.md#coinche-card-values
@pytest.mark.parametrize("code", range(6))
def test_every_contract_is_worth_162_with_the_last_trick(code):
    assert sum(COINCHE_POINTS[code]) + 10 == 162


def test_no_trump_and_all_trump_values():
    ace, ten, king, queen, jack, nine = (pc(t)[0] for t in ("AS", "TS", "KS", "QS", "JS", "9S"))
    nt, at = COINCHE_POINTS[4], COINCHE_POINTS[5]
    assert [nt[c] for c in (ace, ten, king, queen, jack, nine)] == [19, 10, 4, 3, 2, 0]
    assert [at[c] for c in (jack, nine, ace, ten, king, queen)] == [14, 9, 6, 5, 3, 1]


# docs/rules.md#coinche-scoring
def score(bid, mult, cards, tricks=(4, 4), belotes=(0, 0), alone=False, bid_only=False):
    return score_coinche(Contract("H", 0, mult, bid), cards, tricks, belotes, alone, bid_only)


def test_made_not_coinched_bid_plus_card_points_defence_its_own():
    assert score(100, 1, (112, 50), belotes=(20, 0)).points == (232, 50)


def test_made_when_card_points_and_belote_reach_the_bid():
    assert score(100, 1, (80, 82), belotes=(20, 0)).outcome == "made"  # 80 + 20 = 100
    assert score(100, 1, (99, 63)).outcome == "set"


def test_bid_only_option_scores_the_bid_alone():
    assert score(100, 1, (112, 50), belotes=(20, 0), bid_only=True).points == (120, 50)


def test_made_coinched_160_plus_bid_times_multiplier_defence_nothing():
    assert score(100, 2, (112, 50), belotes=(20, 0)).points == (380, 0)
    assert score(100, 4, (112, 50)).points == (560, 0)


def test_made_coinched_with_every_trick_252_plus_bid_times_multiplier():
    assert score(100, 2, (162, 0), tricks=(8, 0)).points == (252 + 200, 0)


def test_failed_defence_160_plus_bid_times_multiplier_takers_nothing():
    assert score(120, 1, (110, 52)).points == (0, 280)
    assert score(120, 2, (90, 72), belotes=(20, 20)).points == (20, 160 + 240 + 20)
    assert score(120, 4, (110, 52)).points == (0, 160 + 480)


def test_capot_is_made_only_by_taking_all_eight_tricks():
    assert score(250, 1, (162, 0), tricks=(8, 0)).points == (250 + 252, 0)
    assert score(250, 1, (150, 12), tricks=(7, 1)).points == (0, 160 + 250)


def test_generale_is_made_only_when_the_taker_alone_takes_every_trick():
    assert score(500, 1, (162, 0), tricks=(8, 0), alone=True).outcome == "made"
    assert score(500, 1, (162, 0), tricks=(8, 0), alone=False).points == (0, 660)


def test_belote_stays_with_the_team_that_announced_it():
    assert score(80, 1, (60, 102), belotes=(0, 20)).points == (0, 160 + 80 + 20)


# docs/rules.md#coinche-belote-rebelote
def test_a_whole_deal_counts_the_takers_belote_toward_the_contract():
    # seat 1 holds K+Q of hearts and bids 90 H; it announces belote with the first played
    deck = bulgarian_deck({1: "KH QH JH 9H AH TH 7H 8H", 2: "AC TC KC QC JC 9C 8C 7C"})
    m = auction("bid 90 H", "pass", "pass", "pass", decks=[deck] * 4)
    assert "play KH belote" in [a.text for a in m.legal_actions(1)]
    m.apply(1, "play KH belote")
    while m.phase is Phase.PLAY and m.deal_number == 0:
        m.apply(m.to_move, m.legal_actions(m.to_move)[0])
    result = m.deals[0].result
    assert result is not None and result.belotes == (0, 20)
    assert result.outcome == "made" and result.points[1] == 90 + result.totals[1]
    assert result.totals[1] == (252 if result.tricks[0] == 0 else result.card_points[1]) + 20


# docs/rules.md#coinche-the-end-of-the-match
def test_the_game_is_to_1000_or_the_tables_target():
    assert Match("coinche", decks=SPARE).target == 1000
    assert Match(TableRules("coinche", 2000), decks=SPARE).target == 2000


def test_coinche_calls_at_other_tables_are_refused_by_name():
    m = Match("bulgarian", decks=SPARE)
    with pytest.raises(IllegalAction, match="Nobody says coinche in bulgarian"):
        m.apply(1, "coinche")
    with pytest.raises(IllegalAction, match="A bid has no value in bulgarian"):
        m.apply(1, "bid 80 H")
