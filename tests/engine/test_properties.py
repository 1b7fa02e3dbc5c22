"""Properties over many random matches of every ruleset: card points add up, illegal moves
are refused without a trace, legal ones are accepted, views keep hidden cards hidden, and a
match rebuilt from its log is identical."""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import (
    Action,
    DeckInputs,
    EngineError,
    IllegalAction,
    Match,
    NotYourTurn,
    Phase,
    TableRules,
    card_points,
    cards_of,
    options_of,
)
from engine.core import POINTS
from engine.simulate import random_deal

RULESETS = ["classic", "club", "bulgarian"]
RAW_TOTAL = {"C": 162, "D": 162, "H": 162, "S": 162, "NT": 130, "AT": 258}


def inputs_for(seed: int) -> DeckInputs:
    r = random.Random(seed)
    seats = tuple(None if r.random() < 0.3 else r.randbytes(16) for _ in range(4))
    return DeckInputs(r.randbytes(32), seats)


def snapshot(m: Match):
    return (
        m.to_json(),
        tuple(m.hand_mask(s) for s in range(4)),
        m.scores,
        m.hanging,
        m.phase,
        m.to_move,
        m.view(None),
        m.view(m.to_move) if m.to_move is not None else None,
    )


def check_view_hides_cards(m: Match) -> None:
    public = set()
    v = m.view(None)
    assert v.hand == ()
    if v.turned is not None:
        public.add(v.turned)
    for _, mm, _ in v.melds:
        public |= set(mm.cards)
    for seat in range(4):
        sv = m.view(seat)
        assert list(sv.hand) == m.hand(seat)
        shown = set(sv.hand) | {c for _, c in sv.trick} | {c for _, c in sv.belotes}
        for t in sv.tricks:
            shown |= {c for _, c in t.cards}
        for _, mm, _ in sv.melds:
            shown |= set(mm.cards)
        if sv.turned is not None:
            shown.add(sv.turned)
        for other in range(4):
            if other != seat:
                assert not (shown & set(m.hand(other))) - public
        assert sv.legal == tuple(m.legal_actions(seat))
        assert sv.hand_sizes == tuple(len(m.hand(s)) for s in range(4))


def illegal_candidates(m: Match, rnd: random.Random) -> list[tuple[int, Action]]:
    """Actions that must be refused now."""
    seat = m.to_move
    out = []
    legal = set(m.legal_actions(seat))
    other = (seat + 1 + rnd.randrange(3)) % 4
    for a in m.legal_actions(seat)[:2]:
        out.append((other, a))  # out of turn
    if m.phase is Phase.PLAY:
        for c in range(32):
            for a in (Action.play(c), Action.play(c, belote=True), Action.play(c, melds=True)):
                if a not in legal:
                    out.append((seat, a))
        out.append((seat, Action.pass_()))
    else:
        for a in (
            Action.pass_(),
            Action.take(),
            Action.contre(),
            Action.recontre(),
            Action.coinche(),
            Action.surcoinche(),
            *(Action.bid(t) for t in ("C", "D", "H", "S", "NT", "AT")),
            *(Action.bid(t, v) for t in ("H", "NT", "AT") for v in (80, 120, 250, 500)),
            Action.play(0),
        ):
            if a not in legal:
                out.append((seat, a))
    return out


def play_random_match(ruleset: str, seed: int, deep: bool) -> Match:
    rnd = random.Random(seed)
    target = rnd.choice([None, 300, 80])
    rules = TableRules(ruleset, target)
    if ruleset == "coinche":  # every option, on or off
        rules = rules.with_changes(**{o.name: rnd.random() < 0.5 for o in options_of(ruleset)})
    m = Match(rules, inputs=inputs_for(seed))
    steps = 0
    while m.phase is not Phase.OVER and steps < 3000:
        seat = m.to_move
        acts = m.legal_actions(seat)
        assert acts, "the player to move always has a legal action"
        if deep or rnd.random() < 0.05:
            before = snapshot(m)
            cands = illegal_candidates(m, rnd)
            for s, a in rnd.sample(cands, min(4, len(cands))):
                with pytest.raises((IllegalAction, NotYourTurn)):
                    m.apply(s, a)
                assert snapshot(m) == before
            if deep:
                check_view_hides_cards(m)
        m.apply(seat, rnd.choice(acts))
        steps += 1
    for deal in m.deals:
        if deal.result is None:
            continue
        r = deal.result
        total = 162 if ruleset == "coinche" else RAW_TOTAL[deal.contract.trump]
        assert r.card_points[0] + r.card_points[1] == total
        assert r.tricks[0] + r.tricks[1] == 8
        assert sorted(c for h in deal.hands for c in h) == list(range(32))
    return m


@pytest.mark.parametrize("ruleset", RULESETS)
def test_random_matches_keep_every_invariant_step_by_step(ruleset):
    for seed in range(6):
        play_random_match(ruleset, seed, deep=True)


@pytest.mark.parametrize("ruleset", RULESETS)
def test_a_match_rebuilt_from_its_log_is_identical(ruleset):
    for seed in range(100, 130):
        m = play_random_match(ruleset, seed, deep=False)
        again = Match.from_json(m.to_json())
        assert again.to_log() == m.to_log()
        assert again.scores == m.scores and again.winner == m.winner
        assert [d.result for d in again.deals] == [d.result for d in m.deals]
        assert all(again.view(s) == m.view(s) for s in (None, 0, 1, 2, 3))


@pytest.mark.parametrize("ruleset", RULESETS)
def test_a_match_rebuilt_mid_deal_plays_on_identically(ruleset):
    rnd = random.Random(7)
    m = Match(ruleset, inputs=inputs_for(7))
    for _ in range(37):
        m.apply(m.to_move, rnd.choice(m.legal_actions(m.to_move)))
    copy = Match.from_log(m.to_log())
    assert all(copy.view(s) == m.view(s) for s in range(4))
    for _ in range(50):
        if m.phase is Phase.OVER:
            break
        a = rnd.choice(m.legal_actions(m.to_move))
        assert copy.apply(m.to_move, a) == m.apply(m.to_move, a)


def test_a_match_from_given_decks_logs_its_decks():
    decks = [random.Random(i).sample(range(32), 32) for i in range(40)]
    m = Match("club", decks=lambda k: decks[k])
    rnd = random.Random(3)
    for _ in range(120):
        m.apply(m.to_move, rnd.choice(m.legal_actions(m.to_move)))
    again = Match.from_json(m.to_json())
    assert again.to_log() == m.to_log() and again.view(2) == m.view(2)


@pytest.mark.parametrize("ruleset", RULESETS)
def test_hundreds_of_random_matches(ruleset):
    for seed in range(500, 700):
        play_random_match(ruleset, seed, deep=False)


@pytest.mark.slow
@pytest.mark.parametrize("ruleset", RULESETS)
def test_thousands_of_random_matches(ruleset):
    for seed in range(1000, 1000 + 1000):
        play_random_match(ruleset, seed, deep=False)


@settings(max_examples=150, deadline=None)
@given(seed=st.integers(0, 2**32), ruleset=st.sampled_from(RULESETS))
def test_every_legal_action_is_accepted(seed, ruleset):
    rnd = random.Random(seed)
    m = Match(ruleset, inputs=inputs_for(seed))
    for _ in range(rnd.randrange(60)):
        if m.phase is Phase.OVER:
            return
        m.apply(m.to_move, rnd.choice(m.legal_actions(m.to_move)))
    if m.phase is Phase.OVER:
        return
    log = m.to_log()
    for a in m.legal_actions(m.to_move):
        copy = Match.from_log(log)
        copy.apply(copy.to_move, a)  # never raises
        copy2 = Match.from_log(log)
        copy2.apply(copy2.to_move, a.text)


@settings(max_examples=300, deadline=None)
@given(seed=st.integers(0, 2**32), ruleset=st.sampled_from(RULESETS))
def test_card_points_sum_to_the_ruleset_total_in_fast_deals(seed, ruleset):
    from engine import get_ruleset

    rng = random.Random(seed)
    deck = rng.sample(range(32), 32)
    s = random_deal(get_ruleset(ruleset), deck, seed % 4, rng)
    if s is not None:
        assert s.totals[0] >= 0 and s.totals[1] >= 0
        assert s.outcome in ("made", "set", "dispute", "hanging")


def test_points_table_matches_card_points():
    for code, t in enumerate(("C", "D", "H", "S", "NT", "AT")):
        assert [card_points(c, t) for c in range(32)] == list(POINTS[code])
    assert cards_of(0) == []


def test_engine_errors_are_value_errors():
    assert issubclass(IllegalAction, EngineError) and issubclass(EngineError, ValueError)
