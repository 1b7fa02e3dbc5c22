"""The fast simulator inlines the rules of the core for speed: replay its deals through
``Match`` and check that every legal set, belote and score agrees."""

import random

import pytest

from engine import Action, Match, get_ruleset
from engine.contract import CONTRACT_TEXTS
from engine.simulate import random_deal, run_random_deals


def replay(ruleset: str, deck: list[int], trace: list) -> Match:
    m = Match(ruleset, decks=[deck, *[list(range(32))] * 5])
    _, code, taker, mult = trace[0]
    text = CONTRACT_TEXTS[code]
    if m.rules.auction == "french":
        if code == deck[20] >> 3:
            while m.to_move != taker:
                m.apply(m.to_move, "pass")
            m.apply(taker, "take")
        else:
            for _ in range(4):
                m.apply(m.to_move, "pass")
            while m.to_move != taker:
                m.apply(m.to_move, "pass")
            m.apply(taker, f"bid {text}")
    else:
        while m.to_move != taker:
            m.apply(m.to_move, "pass")
        m.apply(taker, f"bid {text}")
        if mult >= 2:
            m.apply(m.to_move, "contre")
        if mult == 4:
            m.apply(m.to_move, "recontre")
        for _ in range(3):
            m.apply(m.to_move, "pass")
    assert m.contract.trump == text and m.contract.taker == taker
    assert m.contract.multiplier == mult
    declaring = {t[1] for t in trace if t[0] == "melds"}
    played = set()
    for step in trace:
        if step[0] != "play":
            continue
        _, seat, card, legal, belote = step
        assert m.to_move == seat
        mask = 0
        for a in m.legal_actions(seat):
            mask |= 1 << a.card
        assert mask == legal, (seat, m.current_trick)
        melds = seat in declaring and seat not in played
        played.add(seat)
        m.apply(seat, Action.play(card, belote=belote, melds=melds))
    return m


@pytest.mark.parametrize("ruleset", ["classic", "club", "bulgarian"])
def test_simulated_deals_replay_identically_through_the_match(ruleset):
    rules = get_ruleset(ruleset)
    rng = random.Random(ruleset)
    done = 0
    while done < 300:
        deck = rng.sample(range(32), 32)
        trace: list = []
        score = random_deal(rules, deck, 0, rng, trace)
        if score is None:
            continue
        m = replay(ruleset, deck, trace)
        r = m.deals[0].result
        assert (r.totals, r.points, r.outcome, r.held) == (
            score.totals,
            score.points,
            score.outcome,
            score.held,
        )
        done += 1


def test_run_random_deals_counts_deals_and_redeals():
    scored, redeals = run_random_deals(get_ruleset("classic"), 400, random.Random(5))
    assert scored + redeals == 400 and scored > 350
