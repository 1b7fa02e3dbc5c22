"""docs/rules.md, "Common to all rulesets" and "The fair deal": one test per rule sentence,
under the section it tests."""

import pytest

from engine import (
    Action,
    DeckInputs,
    Match,
    TrickWon,
    card_points,
    cards_text,
    find_melds,
    get_ruleset,
    mask_of,
    parse_card,
    parse_cards,
    shuffled_deck,
    trick_winner,
)

from .helpers import bulgarian_deck, eager, french_deck, play_out

INPUTS = DeckInputs(bytes(range(32)), (bytes(16), None, bytes(16), None))


# docs/rules.md#table-and-seats
def test_four_players_and_the_next_seat_is_seat_plus_one_mod_4():
    m = Match("classic", inputs=INPUTS)
    seen = []
    for _ in range(4):
        seen.append(m.to_move)
        m.apply(m.to_move, "pass")
    assert seen == [1, 2, 3, 0]  # dealer 0: its next seat speaks first, then round the table
    assert m.to_move == 1


# docs/rules.md#tricks
def test_trick_points_go_to_the_team_of_the_trick_winner():
    # seat 2 wins a trick: it counts for team 0 ({0, 2})
    deck = french_deck(
        {1: "7C 8C 9C 7D 8D", 2: "AC AD TD KD QD", 3: "TC KC QC JD 9D", 0: "JC 7S 8S 9S TS"},
        turned="JH",
        taker=1,
    )
    m = Match("classic", decks=[deck, *[list(range(32))] * 10])
    m.apply(1, "take")
    m.apply(1, "play 7C")
    m.apply(2, "play AC")
    m.apply(3, "play TC")
    m.apply(0, "play JC")
    v = m.view(0)
    assert v.tricks[0].winner == 2 and v.tricks[0].points == 11 + 10 + 2
    assert m._card_pts == [23, 0]


# docs/rules.md#table-and-seats
def test_the_first_dealer_is_seat_0():
    assert Match("club", inputs=INPUTS).dealer == 0


@pytest.mark.parametrize("ruleset", ["classic", "bulgarian"])
def test_the_deal_passes_to_the_next_seat_after_every_deal_a_redeal_included(ruleset):
    m = Match(ruleset, inputs=INPUTS)
    while m.to_move is not None and m.deal_number == 0:
        m.apply(m.to_move, "pass")  # all pass: a redeal
    assert m.deal_number == 1 and m.dealer == 1 and m.to_move == 2
    assert m.deals[0].result is None
    play_out(m)
    assert m.dealer == 2 and m.deal_number == 2


# docs/rules.md#cards
def test_32_cards_ranks_7_to_ace():
    deck = shuffled_deck(INPUTS, 0)
    assert sorted(deck) == list(range(32))


# docs/rules.md#card-order-and-values
def test_trump_order_is_J_9_A_10_K_Q_8_7():
    order = ["JH", "9H", "AH", "TH", "KH", "QH", "8H", "7H"]
    for i in range(len(order) - 1):
        hi, lo = parse_card(order[i]), parse_card(order[i + 1])
        assert trick_winner("H", [lo, hi]) == 1
        assert trick_winner("H", [hi, lo]) == 0


def test_plain_order_is_A_10_K_Q_J_9_8_7():
    order = ["AC", "TC", "KC", "QC", "JC", "9C", "8C", "7C"]
    for i in range(len(order) - 1):
        hi, lo = parse_card(order[i]), parse_card(order[i + 1])
        assert trick_winner("H", [lo, hi]) == 1
        assert trick_winner("H", [hi, lo]) == 0


def test_trump_values_are_20_14_11_10_4_3_0_0():
    trumps = parse_cards("JS 9S AS TS KS QS 8S 7S")
    assert [card_points(c, "S") for c in trumps] == [20, 14, 11, 10, 4, 3, 0, 0]


def test_plain_values_are_11_10_4_3_2_0_0_0():
    plain = parse_cards("AD TD KD QD JD 9D 8D 7D")
    assert [card_points(c, "S") for c in plain] == [11, 10, 4, 3, 2, 0, 0, 0]


# docs/rules.md#tricks
def test_a_trump_beats_any_plain_card_and_an_off_suit_card_never_wins():
    assert trick_winner("H", parse_cards("AC 7H TC KC")) == 1
    assert trick_winner("H", parse_cards("9C AS AD 7C")) == 0


@pytest.mark.parametrize("ruleset", ["classic", "club", "bulgarian"])
def test_last_trick_is_worth_10_more(ruleset):
    m = Match(ruleset, inputs=INPUTS)
    tricks = []
    while m.deals[0].result is None:
        events = m.apply(m.to_move, eager(m, m.to_move, m.legal_actions(m.to_move)))
        tricks += [e.trick for e in events if isinstance(e, TrickWon)]
    code = m.deals[0].contract.trump
    assert len(tricks) == 8
    for i, trick in enumerate(tricks):
        raw = sum(card_points(c, code) for _seat, c in trick.cards)
        assert trick.points == raw + (10 if i == 7 else 0)


# docs/rules.md#card-order-and-values
def test_melds_use_the_natural_order_for_sequences():
    rules = get_ruleset("club")
    (meld,) = find_melds(mask_of(parse_cards("9H TH JH 7C 9S KD AD 8S")), "S", rules)
    assert meld.kind == "sequence" and meld.points == 20
    assert sorted(meld.cards) == parse_cards("9H TH JH")
    # J 9 A is consecutive in trump order but not in the natural one
    assert find_melds(mask_of(parse_cards("JH 9H AH 7C 9S KD QS 8S")), "H", rules) == []


# docs/rules.md#the-deck-of-deal-k
@pytest.mark.parametrize("ruleset", ["classic", "bulgarian"])
def test_every_deck_comes_from_the_recipe_and_k_counts_redeals(ruleset):
    m = Match(ruleset, inputs=INPUTS)
    while m.deal_number == 0:
        m.apply(m.to_move, "pass")
    play_out(m)
    for k, deal in enumerate(m.deals):
        assert deal.k == k
        assert deal.deck == shuffled_deck(INPUTS, k)


# docs/rules.md#dealing-from-the-deck
@pytest.mark.parametrize("ruleset", ["classic", "club"])
def test_dealing_starts_with_deck_0_to_the_dealers_next_seat_in_packets_3_then_2(ruleset):
    m = Match(ruleset, inputs=INPUTS)
    d = shuffled_deck(INPUTS, 0)
    # dealer 0: seat 1 gets deck[0..2] and deck[12..13], seat 2 deck[3..5] and deck[14..15] ...
    for i, seat in enumerate((1, 2, 3, 0)):
        expect = d[3 * i : 3 * i + 3] + d[12 + 2 * i : 14 + 2 * i]
        assert m.hand(seat) == sorted(expect)
    assert m.turned == d[20]


def test_bulgarian_dealing_3_2_then_3():
    deck = bulgarian_deck({1: "7C 8C 9C TC JC QC KC AC"})
    m = Match("bulgarian", decks=[deck] * 3)
    assert cards_text(m.hand(1)) == "7C 8C 9C TC JC"
    m.apply(1, "bid C")
    for s in (2, 3, 0):
        m.apply(s, "pass")
    assert cards_text(m.hand(1)) == "7C 8C 9C TC JC QC KC AC"


# docs/rules.md#cards
def test_actions_have_one_canonical_text():
    for text in [
        "pass",
        "take",
        "bid NT",
        "contre",
        "recontre",
        "play TD",
        "play KH belote",
        "play 9S melds",
        "play KH melds belote",
    ]:
        assert Action.parse(text).text == text
    assert Action.parse("play KH belote melds").text == "play KH melds belote"
