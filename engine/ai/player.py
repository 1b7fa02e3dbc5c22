"""``choose_action``: the one entry point the bot core calls to play a seat.

A decision reads only the seat's ``SeatView`` (its hand, the public history and its legal
actions), so no level can see another seat's cards.  The randomness of sampling comes
from ``random.Random`` seeded with the caller's seed and the position, so the same view,
level and seed always give the same action (unless a time budget is given, in which case
the number of samples depends on the clock).
"""

from __future__ import annotations

import hashlib
import random
from dataclasses import dataclass

from engine.actions import Action
from engine.ai.bidding import heuristic_bid
from engine.ai.expert_bidding import expert_bid
from engine.ai.heuristic import lowest_card, normal_card
from engine.ai.knowledge import knowledge_from_view
from engine.ai.search import SearchPlan, Tier, choose_card, play_weights
from engine.ai.tables import CONTRACT_CODES
from engine.match import SeatView

# Hard is a small expert (since session 17): the same search core, far fewer worlds (12
# while more than 16 cards are left, 24 after; the expert solves 48 to 160), a node
# budget of 3 million (about 0.2 s at the opening lead; past it worlds are rolled out),
# the worlds weighed by the learned policy alone (not by the bids).  Until then hard
# drew 24 deals biased by the auction and rolled them out by the rules of thumb until 16
# cards were left; it was behind the sparring partner (-2.6 and -0.3 card points a deal
# on 300 decks each of seeds 2028 and 5151), the small expert ahead of it (+3.0 and +1.7:
# docs/ai.md).
HARD_PLAN = SearchPlan(
    (Tier(16, 24, exact=True), Tier(32, 12, exact=True)),
    node_budget=3_000_000,
    infer_policy=True,
    oversample=4,
    bias=False,
    worlds=True,
    foresee_belote=True,
)
# Worlds solved exactly from the first trick by the compiled search core
# (``world_search``).  Fewer worlds while the deal is whole (a 32-card solve of every
# root card costs about 12 ms), more once it shrinks; the node budget (18 million, about
# 0.8 to 1.8 s of solving by the machine) bounds the heavy decisions of the second
# trick; past it the remaining worlds are played out by the rules of thumb (the opening
# lead solves about half of its worlds' weight, the rest of the first trick nine tenths,
# the second 97%: ``bench/expert_speed.py``; all exact on fewer worlds measured
# worse).  The first trick spends half as much (9 million), and its cards race
# (``Tier.race``): after its first 8 worlds a card 10 points or more below the best is
# solved no more, so the budget goes to the cards still in the running (since session
# 21: the same regret as before in the three rulesets, for a quarter less work a
# decision; the second trick's race and half budget both cost regret, docs/ai.md).  A
# belote still in a seat's hand counts in each world's score (``foresee_belote``); the
# melds every seat will declare, counted in the first trick of club and Bulgarian
# (``foresee_melds``), measured a loss on fresh decks and stay an option (docs/ai.md).
# Four times the worlds are drawn, each weighed by how likely the learned policy
# (``policy.py``) finds the others' cards so far from the hand that world gives them, and
# the worlds solved are drawn from those in proportion to their weights (measured +3.4 a
# deal over weighing by the rules of thumb: docs/ai.md).  The worlds are also weighed by
# the others' bids, as the hard evaluation would have made them (``infer_auction``, since
# session 16: ahead of the sparring partner on all six seeds and rulesets measured, by
# +1.06 card points a deal over 500 classic decks, +1.19 in club and +2.22 in Bulgarian
# over 100; at no cost in time; even against hard in classic).  The
# solver's judgement of their latest choices (``judge=Judge(3, 28, 20.0, 3_000_000)``)
# measured no better on fresh decks and costs a sixth more time: it stays an option
# (bench/studies/arena.md, docs/ai.md).  So does weighing the worlds by what the others showed
# and did not announce (``infer_announced``: melds, belotes; session 25, within the
# noise in every ruleset).
EXPERT_PLAN = SearchPlan(
    (
        Tier(16, 160, exact=True),
        Tier(24, 128, exact=True),
        Tier(28, 96, exact=True),
        Tier(32, 48, exact=True, race=8, budget=9_000_000),
    ),
    node_budget=18_000_000,
    race_margin=10.0,
    infer_policy=True,
    infer_auction=True,
    oversample=4,
    bias=False,  # the plays weigh the samples instead of the crude auction prior (measured)
    worlds=True,
    foresee_belote=True,
)


@dataclass(frozen=True)
class Level:
    """How a level bids (``"easy"``, ``"normal"``, ``"hard"`` evaluation thresholds or
    ``"sampled"``) and plays (``"lowest"``, ``"rules"`` or a search plan)."""

    bidding: str
    play: str | SearchPlan


LEVEL_SPECS: dict[str, Level] = {
    "easy": Level("easy", "lowest"),
    "normal": Level("normal", "rules"),
    "hard": Level("hard", HARD_PLAN),
    "expert": Level("sampled", EXPERT_PLAN),
}
LEVELS = ("easy", "normal", "hard", "expert")


class UnknownLevel(ValueError):
    """Raised for a level name that is not one of ``LEVELS``."""


def position_rng(view: SeatView, level: str, seed: int) -> random.Random:
    """A generator fixed by the seed and the position (stable across processes)."""
    text = (
        f"{seed}|{level}|{view.k}|{view.seat}|{len(view.bids)}|{len(view.tricks)}|"
        f"{len(view.trick)}|{','.join(map(str, view.hand))}"
    )
    digest = hashlib.blake2b(text.encode(), digest_size=8).digest()
    return random.Random(int.from_bytes(digest, "big"))


def choose_action(
    view: SeatView, level: str, seed: int = 0, budget_s: float | None = None
) -> Action:
    """The action ``level`` plays from ``view`` (always one of ``view.legal``).

    ``budget_s`` (hard / expert only) lets the search draw more samples while time
    remains; without it the decision is a pure function of (view, level, seed).
    """
    spec = LEVEL_SPECS.get(level) if isinstance(level, str) else None
    if spec is None:
        raise UnknownLevel(f"Unknown AI level {level!r}: choose one of {', '.join(LEVELS)}.")
    legal = tuple(view.legal)
    if not legal:
        raise ValueError("This seat has nothing to do now (no legal action).")
    if len(legal) == 1:
        return legal[0]
    rng = position_rng(view, level, seed)
    if legal[0].kind != "play":
        if spec.bidding == "sampled":
            text = expert_bid(view, rng)
        else:
            text = heuristic_bid(view, spec.bidding)
        for a in legal:
            if a.text == text:
                return a
        passes = [a for a in legal if a.kind == "pass"]
        return passes[0] if passes else legal[0]
    card = _choose_card(view, spec, rng, budget_s)
    return _with_flags(legal, card)


def _choose_card(view: SeatView, spec: Level, rng: random.Random, budget_s: float | None) -> int:
    legal_cards = {a.card for a in view.legal if a.card is not None}
    legal = 0
    for c in legal_cards:
        legal |= 1 << c
    assert view.contract is not None  # a card is played under a contract
    code = CONTRACT_CODES[view.contract.trump]
    if spec.play == "lowest":
        return lowest_card(code, legal)
    k = knowledge_from_view(view)
    if spec.play == "rules":
        card = normal_card(k.kind, code, k.seat, k.hand, legal, k.trick, k.played, k.taker)
    else:
        plan = spec.play
        assert isinstance(plan, SearchPlan)
        weights = play_weights(k, view.bids, view.turned) if plan.bias else None
        card = choose_card(k, plan, rng, weights, budget_s)
    if card not in legal_cards:  # never happens while the model matches the engine
        card = lowest_card(code, legal)
    return card


def _with_flags(legal: tuple[Action, ...], card: int) -> Action:
    """Announce belote and declare melds whenever the rules allow it with this card."""
    options = [a for a in legal if a.card == card]
    return max(options, key=lambda a: (a.belote, a.melds))
