"""A search plan's tiers: how many worlds a decision searches, a lead apart from a follow."""

from __future__ import annotations

import random
from dataclasses import replace

from engine.ai.player import EXPERT_PLAN, HARD_PLAN
from engine.ai.search import Tier, choose_card
from tests.ai.test_world_search import positions

FEW = (Tier(32, 2, exact=True),)


def test_without_lead_tiers_a_lead_searches_the_tiers() -> None:
    for cards_left in (32, 27, 20, 9):
        assert EXPERT_PLAN.tier(cards_left, lead=True) == EXPERT_PLAN.tier(cards_left)


def test_a_lead_takes_the_lead_tiers_and_a_card_to_a_trick_the_others() -> None:
    plan = replace(EXPERT_PLAN, lead_tiers=(Tier(24, 256, exact=True), Tier(32, 48, exact=True)))
    assert plan.tier(20, lead=True).samples == 256
    assert plan.tier(30, lead=True).samples == 48
    assert plan.tier(20, lead=False).samples == 128
    assert plan.tier(30, lead=False) == EXPERT_PLAN.tier(30)


def test_only_a_lead_searches_the_lead_tiers() -> None:
    """A plan with few worlds for its leads leads as a plan with few worlds everywhere,
    and follows as the plan it was made from."""
    leading = replace(HARD_PLAN, lead_tiers=FEW)
    few = replace(HARD_PLAN, tiers=FEW)
    leads = follows = told_apart = 0
    for i, k in enumerate(positions(24)):
        card = choose_card(k, leading, random.Random(i))
        if k.trick:
            follows += 1
            assert card == choose_card(k, HARD_PLAN, random.Random(i))
        else:
            leads += 1
            assert card == choose_card(k, few, random.Random(i))
            told_apart += card != choose_card(k, HARD_PLAN, random.Random(i))
    assert leads >= 3 and follows >= 3
    assert told_apart, "two worlds and twelve never chose apart: the test could not fail"


def test_a_tier_spends_its_own_node_budget() -> None:
    """A tier's budget stands in for the plan's: every tier on 1,000 nodes plays as a plan
    of 1,000 nodes."""
    tight = replace(HARD_PLAN, node_budget=1_000)
    own = replace(HARD_PLAN, tiers=tuple(replace(t, budget=1_000) for t in HARD_PLAN.tiers))
    told_apart = 0
    for i, k in enumerate(positions(24)):
        card = choose_card(k, own, random.Random(i))
        assert card == choose_card(k, tight, random.Random(i))
        told_apart += card != choose_card(k, HARD_PLAN, random.Random(i))
    assert told_apart, "a thousand nodes and three million never chose apart"


def test_the_expert_races_the_cards_of_the_first_trick_on_a_smaller_budget() -> None:
    """The first trick's cards race within half the budget; later tricks as before."""
    first, second = EXPERT_PLAN.tier(32), EXPERT_PLAN.tier(28)
    assert first.race and EXPERT_PLAN.race_margin > 0
    assert 0 < first.budget < EXPERT_PLAN.node_budget
    assert not second.race and not second.budget
