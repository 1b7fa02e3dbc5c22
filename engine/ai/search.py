"""Hard and expert card play: determinized Monte Carlo over deals consistent with the view.

Each sample deals the unseen cards to the other seats (respecting voids, trump ceilings,
placed cards and the bidding's hints), then scores every legal card on that open deal:
exactly with the double-dummy solver when few enough cards are left, otherwise by playing
the deal out with the normal level's rules of thumb.  The card with the best mean *deal
score* (the contract made or set, not just card points) is played.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass

from engine.ai.knowledge import Knowledge
from engine.ai.rollout import rollout
from engine.ai.sampler import sample_hands
from engine.ai.scoring import deal_value
from engine.ai.solver import NodeLimit, Position, solve_root
from engine.ai.tables import (
    POINTS,
    POWER,
    belote_pairs,
    bits,
    legal_mask,
)
from engine.ai.world_search import (
    INFER_ANNOUNCED,
    INFER_AUCTION,
    INFER_PLAYS,
    INFER_POLICY,
    INFER_SOLVED,
    NO_JUDGE,
    NO_RACE,
    SCORE,
    Judge,
    Race,
    Totals,
    melds_to_foresee,
    play_likelihood,
    unseen_of,
    world_totals,
)


@dataclass(frozen=True)
class Tier:
    """Up to ``cards`` cards left in hands: draw ``samples`` deals, solve them exactly
    (``exact``) or play them out by rules of thumb."""

    cards: int
    samples: int
    exact: bool
    tail: int = 0  # rollouts stop at this many cards left and the rest is solved exactly
    # The search core's race (``world_search.Race``): after this many worlds, the cards
    # more than the plan's ``race_margin`` below the best are solved no more (0: none).
    race: int = 0
    # Solver nodes a decision of this tier may spend (0: the plan's ``node_budget``).
    budget: int = 0


@dataclass(frozen=True)
class SearchPlan:
    """How much a level looks ahead, by how many cards are left (first matching tier).

    With a time budget, ``samples`` is a floor and sampling goes on up to ``max_factor``
    times as many while time remains.  ``bias``: follow the bidding when dealing.
    """

    tiers: tuple[Tier, ...]
    max_factor: int = 4
    bias: bool = True
    node_budget: int = 1 << 62  # solver nodes per decision; past it, samples are rolled out
    infer_plays: bool = False  # weigh each sample by the others' plays, by the rules of thumb
    infer_auction: bool = False  # ... and their bids (exact tiers of the search core only)
    judge: Judge = NO_JUDGE  # ... and their latest cards by the solver (when ``depth`` > 0)
    infer_policy: bool = False  # ... and their past cards by the learned policy (``policy.py``)
    infer_announced: bool = False  # ... and the melds they showed, the belotes they did not
    policy_alpha: float = 1.0  # the power of the policy's probabilities in a world's weight
    oversample: int = 1  # draw this many times the worlds, solve those resampled by weight
    # Exact tiers run the search core (``world_search``: uniform worlds, compiled end to
    # end) instead of the loop below; the time budget is then ignored (fixed samples).
    worlds: bool = False
    points_weight: float = 0.05  # the card points' share of a card's value beside the score
    # Count, in each world, the belote that a seat still holding the king and queen will
    # announce (the search core's exact tiers; announced ones always count).
    foresee_belote: bool = False
    # In the first trick, count in each world the melds that every seat will declare with
    # its first card and that will count (the search core's exact tiers; until the trick
    # ends the view shows none, not even the seat's own).
    foresee_melds: bool = False
    # The rest of the current trick played by the learned policy from each other seat's
    # hand in the world (2: the partner's card by the solver), double dummy after it
    # (the search core's exact tiers, with ``infer_policy``).
    model_trick: int = 0
    race_margin: float = 0.0  # see ``Tier.race``
    # The tiers of a lead (the trick empty), when given; ``tiers`` are then a card to a
    # trick begun.  Most of what a seat loses to the hidden cards is lost in its leads
    # (``bench/studies/regret.py``), so more worlds there buy more than anywhere (an option, off:
    # measured within the noise, docs/ai.md).
    lead_tiers: tuple[Tier, ...] = ()

    @property
    def infer(self) -> int:
        """What weighs the search core's worlds (``world_search.INFER_*`` bits)."""
        return (
            (INFER_PLAYS if self.infer_plays else 0)
            | (INFER_AUCTION if self.infer_auction else 0)
            | (INFER_SOLVED if self.judge.depth else 0)
            | (INFER_POLICY if self.infer_policy else 0)
            | (INFER_ANNOUNCED if self.infer_announced else 0)
        )

    def tier(self, cards_left: int, lead: bool = False) -> Tier:
        tiers = self.lead_tiers if lead and self.lead_tiers else self.tiers
        for t in tiers:
            if cards_left <= t.cards:
                return t
        return tiers[-1]

    def decision_tier(self, k: Knowledge) -> Tier:
        """The tier of the seat's decision in ``k``: a lead's when its trick is empty."""
        return self.tier(k.cards_left, lead=not k.trick)

    def nodes_for(self, tier: Tier) -> int:
        """The solver nodes a decision of ``tier`` may spend: its own budget, or the plan's."""
        return tier.budget or self.node_budget


Weights = list[dict[int, float]]


def play_weights(k: Knowledge, bids: tuple[tuple[int, str], ...], turned: int | None) -> Weights:
    """Where unseen cards tend to be, from the auction (a soft prior, never a constraint)."""
    weights: list[dict[int, float]] = [{}, {}, {}, {}]
    code = k.code
    if code < 4:
        strong = [code * 8 + r for r in (4, 2, 7, 3)]  # J 9 A T of trump
        for c in strong:
            weights[k.taker][c] = 3.0
        for c in range(code * 8, code * 8 + 8):
            weights[k.taker].setdefault(c, 1.8)
    turned_suit = turned >> 3 if turned is not None else None
    for s, text in bids:
        if text == "pass" and turned_suit is not None and s != k.taker:
            # Passed on the turned suit: the jack and nine are less likely there.
            for r in (4, 2):
                c = turned_suit * 8 + r
                weights[s][c] = min(weights[s].get(c, 1.0), 0.5)
        elif text.startswith("bid "):
            bid = text[4:]
            if bid in ("C", "D", "H", "S"):
                suit = "CDHS".index(bid)
                for r in (4, 2, 7):
                    weights[s][suit * 8 + r] = max(weights[s].get(suit * 8 + r, 1.0), 2.0)
            elif bid == "NT":
                for suit in range(4):
                    weights[s][suit * 8 + 7] = max(weights[s].get(suit * 8 + 7, 1.0), 2.0)
            elif bid == "AT":
                for suit in range(4):
                    weights[s][suit * 8 + 4] = max(weights[s].get(suit * 8 + 4, 1.0), 2.0)
    return weights


def draw(k: Knowledge, rng: random.Random, weights: Weights | None = None) -> list[int]:
    """One deal of the unseen cards consistent with ``k``."""
    u = unseen_of(k)
    return sample_hands(rng, u.pool, u.need, u.allowed, u.fixed, weights)


def choose_card(
    k: Knowledge,
    plan: SearchPlan,
    rng: random.Random,
    weights: Weights | None = None,
    budget_s: float | None = None,
) -> int:
    """The legal card with the best mean deal score over sampled deals."""
    legal = legal_mask(k.kind, k.code, k.hand, k.trick)
    cards = bits(legal)
    if len(cards) == 1:
        return cards[0]
    tier = plan.decision_tier(k)
    if plan.worlds and tier.exact and weights is None:
        return _world_card(k, plan, tier, rng, budget_s)
    me = k.seat
    my_team = me & 1
    so_far = k.points[my_team] - k.points[1 - my_team]
    taker_team = k.taker & 1
    melds = k.meld_pts
    belotes = k.belote_pts
    totals = dict.fromkeys(cards, 0.0)
    use_dd = tier.exact
    start = time.perf_counter() if budget_s is not None else 0.0
    n = 0
    weight_sum = 0.0
    nodes_left = plan.nodes_for(tier)
    limit = tier.samples * plan.max_factor if budget_s is not None else tier.samples
    while n < limit:
        if budget_s is not None and n >= tier.samples and time.perf_counter() - start > budget_s:
            break
        hands = draw(k, rng, weights)
        n += 1
        w = play_likelihood(k, hands) if plan.infer_plays else 1.0
        weight_sum += w
        pos = Position(k.kind, k.code, hands, k.leader, list(k.trick), k.won)
        values = None
        if use_dd and nodes_left > 0:
            try:
                values, nodes = solve_root(pos, my_team, nodes_left)
                nodes_left -= nodes
            except NodeLimit:
                values, nodes_left = None, 0
        if values is None:
            values = {}
            for c in cards:
                h = list(hands)
                h[me] ^= 1 << c
                d = rollout(
                    k.kind,
                    k.code,
                    k.taker,
                    h,
                    k.leader,
                    [*k.trick, c],
                    k.played | (1 << c),
                    k.won,
                    tier.tail,
                )
                values[c] = d if my_team == 0 else -d
        for c in cards:
            diff = so_far + values[c]
            totals[c] += w * (
                deal_value(
                    k.kind, k.code, k.multiplier, taker_team, my_team, diff, melds, belotes, k.bid
                )
                + 0.05 * diff
            )
    pts = POINTS[k.code]
    power = POWER[k.code]
    # Ties (common when the deal is decided) go to the cheapest card.
    return max(cards, key=lambda c: (round(totals[c] / weight_sum, 6), -pts[c], -power[c]))


def _world_card(
    k: Knowledge, plan: SearchPlan, tier: Tier, rng: random.Random, budget_s: float | None
) -> int:
    """The search core's choice: the best weighted mean, ties to the cheapest card.

    With a time budget, more batches of worlds (up to ``max_factor`` in all) while time
    remains, each with its own node budget."""
    start = time.perf_counter() if budget_s is not None else 0.0
    found: Totals | None = None
    for batch in range(plan.max_factor if budget_s is not None else 1):
        if budget_s is not None and batch and time.perf_counter() - start > budget_s:
            break
        more = plan_totals(k, plan, tier, rng.getrandbits(64))
        found = more if found is None else found.merged(more)
    assert found is not None
    return best_card(k.code, found)


def plan_totals(
    k: Knowledge, plan: SearchPlan, tier: Tier, seed: int, compiled: bool | None = None
) -> Totals:
    """One batch of ``tier``'s worlds searched as ``plan`` says (the search core's call):
    its cards raced after ``tier.race`` worlds, within its node budget."""
    return world_totals(
        k,
        tier.samples,
        seed,
        plan.nodes_for(tier),
        plan.infer,
        SCORE,
        compiled=compiled,
        points_weight=plan.points_weight,
        judge=plan.judge,
        policy_alpha=plan.policy_alpha,
        oversample=plan.oversample,
        belote_pairs=belote_pairs(k.code) if plan.foresee_belote else (),
        foresee_melds=plan.foresee_melds and melds_to_foresee(k),
        model_trick=plan.model_trick,
        race=Race(tier.race, plan.race_margin) if tier.race else NO_RACE,
    )


def best_card(code: int, found: Totals) -> int:
    """The card of best mean (rounded, so float noise never decides), then cheapest;
    never a card a race dropped."""
    pts = POINTS[code]
    power = POWER[code]
    pairs = zip(found.cards, found.totals, strict=True)
    means = {c: round(t / found.weight_sum, 6) for c, t in pairs}
    raced = [c for c in found.cards if c not in found.dropped] or found.cards
    return max(raced, key=lambda c: (means[c], -pts[c], -power[c]))
