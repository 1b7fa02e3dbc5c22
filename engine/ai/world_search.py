"""The expert's search core: draw worlds, weigh them by the others' plays, solve, aggregate.

One call, :func:`world_totals`, returns for every legal card its weighted total over
``samples`` worlds: each world is drawn uniformly among the deals the seat cannot rule
out (``worlds``), weighed by how well it explains the other seats' plays so far
(``policy_likelihood``: each earlier card's probability by the learned model of a strong
player, ``policy.py``; ``play_likelihood``: an earlier card the rules of thumb would not
have played from that hand multiplies the weight by ``MISMATCH``; ``Judge``: their latest
choices judged by the solver; optionally their bids, ``auction.py``), optionally drawn
``oversample`` times over and resampled by those weights, solved double dummy for every
legal card
(past the node budget, played out by the rules of thumb instead), and scored as the deal
score that card leads to (or the raw card points, for the sparring objective).

It runs in C end to end (``_dds.search_worlds``: the generator, the sampler, the
likelihood, the solver, the rollouts and the scoring, with the GIL released), so an
expert decision costs what its solves cost.  This module is also the pure-Python
fallback, step for step the same computation: the same SplitMix64 stream draws the same
worlds, the same integer and floating-point operations give the same totals (a test
checks the two against each other).
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass
from types import ModuleType

from engine.ai.auction import MISMATCH as BID_MISMATCH
from engine.ai.auction import auction_likelihood, bid_rows
from engine.ai.heuristic import normal_card
from engine.ai.knowledge import Knowledge, melds_signature
from engine.ai.policy import card_probabilities, card_probability
from engine.ai.policy_weights import WEIGHTS as POLICY_WEIGHTS
from engine.ai.rollout import rollout
from engine.ai.scoring import belote_points, deal_value
from engine.ai.solver import (
    COMPILED,
    INF,
    NodeLimit,
    Position,
    Solver,
    root_cards,
    solve_root,
)
from engine.ai.tables import FULL, NT, bits, legal_mask, winner_index
from engine.ai.worlds import SplitMix, WorldSpace, draw_world, world_space
from engine.core import best_melds, counting_melds
from engine.rulesets import get_ruleset

_dds: ModuleType | None
try:
    from engine.ai import _dds
except ImportError:  # no C compiler at install: the pure-Python path below does it all
    _dds = None

MISMATCH = 0.4  # likelihood factor of a play the rules of thumb would not have made
SCORE = 0  # objective: the deal score the card leads to (plus ``points_weight`` x the points)
POINTS_WEIGHT = 0.05
# How the rest of the current trick is played in each world (``SearchPlan.model_trick``)
MODEL_ALL = 1  # every other seat by the learned policy
MODEL_OPPONENTS = 2  # the opponents by the policy, the partner by the solver
MODEL_STREAM = 0xD1B54A32D192ED03  # the seed of the policy's draws, beside the worlds'
POINTS = 1  # objective: the card points alone (the sparring partner's)
# What weighs a world (``infer`` is a set of these bits).
INFER_PLAYS = 1  # the others' past cards, by the rules of thumb (``play_likelihood``)
INFER_AUCTION = 2  # the others' bids, by the hard evaluation (``auction.py``)
INFER_SOLVED = 4  # the others' latest cards, judged by the solver (``Judge``)
INFER_POLICY = 8  # the others' past cards, by the learned policy (``policy_likelihood``)
INFER_ANNOUNCED = 16  # the melds they showed, the belotes they did not announce
# The factor of a world in which another seat held melds other than those it showed, or
# a king and queen it played without announcing the belote.  Bots always announce, so
# such a world cannot be, but a person may forget: it is weighed down, not ruled out.
ANNOUNCE_MISMATCH = 0.05


@dataclass(frozen=True)
class Judge:
    """How the solver judges the others' latest cards in a world (``INFER_SOLVED``).

    A strong player's card is seldom far below the best card of the deal it holds: in a
    world where it was, the world is less likely.  The last ``depth`` plays of other seats
    that had a choice there, made with at most ``max_cards`` cards in hands, are solved
    from where they were made; a card worth ``loss`` less (in the solver's units, the
    player's team minus the other) than that seat's best multiplies the world's weight by
    ``exp(-loss / tau)``.  The solves share ``budget`` nodes; past it no more worlds are
    drawn, so every world counted was judged alike.
    """

    depth: int = 0
    max_cards: int = 32
    tau: float = 20.0
    budget: int = 0


NO_JUDGE = Judge()  # the others' cards judged by the rules of thumb alone


# A core built before ``search_worlds`` took its last argument (``coinche_bid``, after
# ``race_worlds`` and ``race_margin``), or before its worlds could be solved on several threads
# (``set_threads``), is not used: the Python path stands in until ``pip install -e .``
# rebuilds it.
SEARCH_COMPILED = (
    COMPILED
    and _dds is not None
    and "coinche_bid" in (getattr(getattr(_dds, "search_worlds", None), "__doc__", None) or "")
    and hasattr(_dds, "set_threads")
)


def set_search_threads(threads: int) -> int:
    """Let the compiled core solve a decision's worlds on up to ``threads`` threads (1 to
    8, the caller's included; 1 until this is called) and return the count before.

    Only the time changes: each world is solved alone and the node budget is spent as one
    thread in order would spend it, so the totals, and the card, are the same bits.  A
    quiet machine answers sooner; a busy one does the same work.  Without the compiled
    core it does nothing (the Python path has one thread) and returns 1."""
    if not 1 <= threads <= 8:
        raise ValueError("threads: 1 to 8")
    if not SEARCH_COMPILED:
        return 1
    assert _dds is not None
    return int(_dds.set_threads(threads))


@dataclass(frozen=True)
class Race:
    """Stop solving the cards that are clearly worse (``world_totals``).

    Most of an early decision's nodes go to cards no world would make best: a 32-card
    solve costs the same for a hopeless card as for the best one.  After the first
    ``worlds`` worlds, a card whose weighted mean is more than ``margin`` (the objective's
    units) below the best mean is solved (or rolled out) no more, and keeps the mean of
    the worlds it was solved in; it can no longer be chosen.  ``worlds`` 0: no race."""

    worlds: int = 0
    margin: float = 0.0


NO_RACE = Race()


@dataclass(frozen=True)
class Totals:
    """Weighted totals per legal card (ascending), the weights' sum, the nodes searched
    (the judge's included), the cards a race dropped (``Race``: their totals are their
    early worlds' mean times the weights' sum), and the weight of the worlds solved exactly
    (the others, past the node budget, were rolled out by the rules of thumb)."""

    cards: tuple[int, ...]
    totals: tuple[float, ...]
    weight_sum: float
    nodes: int
    dropped: tuple[int, ...] = ()
    exact: float = 0.0

    def mean(self, card: int) -> float:
        return self.totals[self.cards.index(card)] / self.weight_sum

    def merged(self, other: Totals) -> Totals:
        """Both batches of worlds together (same position, so the same cards)."""
        return Totals(
            self.cards,
            tuple(a + b for a, b in zip(self.totals, other.totals, strict=True)),
            self.weight_sum + other.weight_sum,
            self.nodes + other.nodes,
            tuple(sorted(set(self.dropped) | set(other.dropped))),
            self.exact + other.exact,
        )


@dataclass(frozen=True)
class Unseen:
    """What ``k`` says of the cards this seat cannot see: each seat's ``fixed`` cards (its
    own hand, cards known to be held), how many more it ``need``s, the cards it may be
    ``allowed`` (not excluded by a void or a trump ceiling), and the ``pool`` to deal."""

    fixed: list[int]
    need: list[int]
    allowed: list[int]
    pool: int


def unseen_of(k: Knowledge) -> Unseen:
    me = k.seat
    fixed = [0, 0, 0, 0]
    need = [0, 0, 0, 0]
    allowed = [0, 0, 0, 0]
    placed = 0
    for s in range(4):
        if s == me:
            fixed[s] = k.hand
            continue
        fixed[s] = k.known[s]
        placed |= k.known[s]
        need[s] = k.hand_sizes[s] - k.known[s].bit_count()
        allowed[s] = FULL & ~k.excluded[s]
    return Unseen(fixed, need, allowed, k.unseen & ~placed)


def space_of(k: Knowledge) -> WorldSpace:
    """The deals of the unseen cards that ``k`` admits (sizes, placed cards, exclusions)."""
    u = unseen_of(k)
    return world_space(k.seat, k.hand, u.pool, u.need, u.allowed, u.fixed)


_Choice = tuple[int, int, tuple[int, ...], int, int, int]


def _choices(k: Knowledge, hands: list[int]) -> Iterator[_Choice]:
    """The others' past cards that were a choice in the world ``hands``, latest first:
    (seat, card, the trick so far, cards gone before, the hand it was played from, its
    legal cards).  A forced card says nothing of a hand."""
    later = [0, 0, 0, 0]
    for seat, card, prefix, gone in reversed(k.history):
        later[seat] |= 1 << card
        if seat == k.seat:
            continue
        hand = hands[seat] | later[seat]
        legal = legal_mask(k.kind, k.code, hand, list(prefix))
        if legal & (legal - 1):
            yield seat, card, prefix, gone, hand, legal


def play_likelihood(k: Knowledge, hands: list[int]) -> float:
    """How plausible ``hands`` make the others' past plays (see the module docstring)."""
    weight = 1.0
    for seat, card, prefix, gone, hand, legal in _choices(k, hands):
        if normal_card(k.kind, k.code, seat, hand, legal, list(prefix), gone, k.taker) != card:
            weight *= MISMATCH
    return weight


def policy_likelihood(k: Knowledge, hands: list[int], alpha: float) -> float:
    """How plausible ``hands`` make the others' past plays by the learned model of a strong
    player (``policy.py``): the product of each choice's probability, to the power
    ``alpha`` (below 1 the model is trusted less, and fewer worlds dominate the mean)."""
    weight = 1.0
    for seat, card, prefix, gone, hand, legal in _choices(k, hands):
        weight *= card_probability(k.code, seat, hand, legal, prefix, gone, k.taker, card) ** alpha
    return weight


def wins_before(k: Knowledge) -> list[int]:
    """The teams (bit t: team t) that had taken a trick before each play of the history."""
    out = []
    won = 0
    for i, (_seat, _card, _prefix, _gone) in enumerate(k.history):
        out.append(won)
        if i % 4 == 3:
            trick = [c for _s, c, _p, _g in k.history[i - 3 : i + 1]]
            w = (k.history[i - 3][0] + winner_index(k.code, trick)) % 4
            won |= 1 << (w & 1)
    return out


def solved_likelihood(
    k: Knowledge, hands: list[int], judge: Judge, won_before: list[int], budget: list[int]
) -> float:
    """How plausible ``hands`` make the others' latest cards, by the solver (``Judge``);
    -1 when ``budget[0]`` nodes ran out."""
    later = [0, 0, 0, 0]
    weight = 1.0
    judged = 0
    for i in range(len(k.history) - 1, -1, -1):
        if judged >= judge.depth:
            break
        seat, card, prefix, _gone = k.history[i]
        later[seat] |= 1 << card
        if seat == k.seat or 32 - i > judge.max_cards:
            continue
        then = [hands[x] | later[x] for x in range(4)]
        legal = legal_mask(k.kind, k.code, then[seat], list(prefix))
        if legal & (legal - 1) == 0:
            continue
        if budget[0] <= 0:
            return -1.0
        pos = Position(k.kind, k.code, then, (seat - len(prefix)) % 4, list(prefix), won_before[i])
        try:
            values, nodes = solve_root(pos, seat & 1, budget[0])
        except NodeLimit:
            budget[0] = 0
            return -1.0
        budget[0] -= nodes
        best = max(values.values())
        weight *= math.exp(-float(best - values[card]) / judge.tau)
        judged += 1
    return weight


def dealt_hands(k: Knowledge, hands: list[int]) -> list[int]:
    """Each seat's whole hand of the deal in the world ``hands``: what it holds, and
    what it has played."""
    dealt = list(hands)
    for seat, card, _prefix, _gone in k.history:
        dealt[seat] |= 1 << card
    return dealt


def foreseen_melds(k: Knowledge, hands: list[int]) -> list[int]:
    """Each team's meld points that will count in the world ``hands`` when every seat
    declares the best melds of its whole hand with its first card (as the bots always
    do), by the engine's own rule of which melds count.  For the first trick, before the
    melds are shown: until then the view holds none of them, not even the seat's own."""
    dealt = dealt_hands(k, hands)
    declared = []
    for i in range(4):
        seat = (k.leader + i) & 3
        melds = best_melds(dealt[seat])
        if melds:
            declared.append((seat, melds))
    points = list(k.meld_pts)
    for seat, meld, counts in counting_melds(get_ruleset(k.ruleset), k.code, declared):
        if counts:
            points[seat & 1] += meld.points
    return points


def melds_to_foresee(k: Knowledge) -> bool:
    """Whether the seat decides in the first trick of a deal with melds, before they are
    shown."""
    return k.tricks_done == 0 and k.code != NT and get_ruleset(k.ruleset).has_melds


def announced_likelihood(k: Knowledge, hands: list[int]) -> float:
    """``ANNOUNCE_MISMATCH`` when the world ``hands`` gives another seat a belote it did
    not announce or melds other than those it showed after the first trick, else 1: a
    seat that showed nothing held no meld at all, and that rules out about two worlds in
    five drawn without it (club and Bulgarian, from the second trick on)."""
    dealt = dealt_hands(k, hands)
    for seat in range(4):
        if seat == k.seat:
            continue
        if dealt[seat] & k.unannounced[seat]:
            return ANNOUNCE_MISMATCH
        shown = k.shown_melds[seat]
        if shown >= 0 and melds_signature(best_melds(dealt[seat])) != shown:
            return ANNOUNCE_MISMATCH
    return 1.0


def world_weight(k: Knowledge, hands: list[int], infer: int, policy_alpha: float = 1.0) -> float:
    """How plausible the world ``hands`` is by the plays and the auction (what ``infer``
    asks to weigh, but the solver's judgement, which has a budget: see ``world_totals``)."""
    w = play_likelihood(k, hands) if infer & INFER_PLAYS else 1.0
    if infer & INFER_POLICY:
        w *= policy_likelihood(k, hands, policy_alpha)
    if infer & INFER_AUCTION and k.seen:
        w *= auction_likelihood(k.seen, dealt_hands(k, hands), k.turned)
    if infer & INFER_ANNOUNCED:
        w *= announced_likelihood(k, hands)
    return w


def world_totals(
    k: Knowledge,
    samples: int,
    seed: int,
    node_budget: int,
    infer: int = INFER_PLAYS,
    objective: int = SCORE,
    compiled: bool | None = None,
    points_weight: float = POINTS_WEIGHT,
    judge: Judge | None = None,
    policy_alpha: float = 1.0,
    oversample: int = 1,
    belote_pairs: tuple[int, ...] = (),
    foresee_melds: bool = False,
    model_trick: int = 0,
    race: Race = NO_RACE,
) -> Totals:
    """Every legal card's weighted total over ``samples`` worlds drawn from ``seed``.

    ``belote_pairs`` (``tables.belote_pairs``): a seat of a world that holds both cards of
    one, neither played yet, will announce its belote, and the deal score counts it.
    ``foresee_melds`` (in the first trick only, ``melds_to_foresee``): every seat of a
    world declares its melds, and the deal score counts those that will count.

    With ``oversample`` > 1, ``samples * oversample`` worlds are drawn and weighed, and
    ``samples`` of them are picked in proportion to their weights (``resample``), each
    then counting as many times as it was picked: the solves go to the plausible worlds.
    ``compiled`` forces one path (None: the C one when it was built).
    """
    judge = judge or NO_JUDGE
    if race.worlds < 0 or (race.worlds and (model_trick or not race.margin >= 0)):
        raise ValueError("race: worlds >= 0, a margin >= 0, and no model_trick")
    if foresee_melds and not melds_to_foresee(k):
        raise ValueError("foresee_melds: only in the first trick of a deal with melds")
    use_c = SEARCH_COMPILED if compiled is None else compiled
    if use_c and not SEARCH_COMPILED:
        raise RuntimeError("the compiled search core was not built")
    space = space_of(k)
    if use_c:
        assert _dds is not None
        cards, totals, wsum, nodes, dropped, exact = _dds.search_worlds(
            k.kind,
            k.code,
            k.seat,
            k.taker,
            k.multiplier,
            list(space.fixed),
            list(space.seats),
            list(space.need),
            [(m, list(cs)) for m, cs in space.classes],
            k.leader,
            list(k.trick),
            k.played,
            k.won,
            [(s, c, list(p), g) for s, c, p, g in k.history],
            k.points[k.seat & 1] - k.points[1 - (k.seat & 1)],
            list(k.meld_pts),
            list(k.belote_pts),
            samples,
            seed & ((1 << 64) - 1),
            node_budget,
            int(infer),
            objective,
            points_weight,
            bid_rows(k.seen) if infer & INFER_AUCTION else [],
            -1 if k.turned is None else k.turned,
            BID_MISMATCH,
            judge.depth,
            judge.max_cards,
            judge.tau,
            judge.budget,
            POLICY_WEIGHTS if infer & INFER_POLICY else (),
            policy_alpha,
            oversample,
            list(belote_pairs),
            int(foresee_melds),
            model_trick,
            race.worlds,
            race.margin,
            list(k.shown_melds),
            list(k.unannounced),
            ANNOUNCE_MISMATCH,
            k.bid,
        )
        return Totals(tuple(cards), tuple(totals), wsum, nodes, tuple(bits(dropped)), exact)
    if not 1 <= oversample <= 64:
        raise ValueError("oversample: 1..64")
    if model_trick not in (0, MODEL_ALL, MODEL_OPPONENTS):
        raise ValueError("model_trick: 0, 1 or 2")
    worlds = _weighed_worlds(k, space, samples, SplitMix(seed), infer, policy_alpha, oversample)
    judged = judge if infer & INFER_SOLVED else NO_JUDGE
    model = model_trick if infer & INFER_POLICY else 0
    return _python_totals(
        k,
        worlds,
        node_budget,
        objective,
        points_weight,
        judged,
        belote_pairs,
        foresee_melds,
        model,
        SplitMix(seed ^ MODEL_STREAM),
        race,
    )


def resample(weights: list[float], n: int, rng: SplitMix) -> list[tuple[int, int]]:
    """Systematic resampling: ``n`` picks among the weighed worlds, each world's chance in
    proportion to its weight, as (index, times picked), ascending.  One uniform draw
    places all ``n`` evenly spaced pointers, so a world is picked within one of its
    expected count (less noise than ``n`` independent picks)."""
    u = (rng.next() >> 11) * (1.0 / 9007199254740992.0)
    count = [0] * len(weights)
    total = 0.0
    for w in weights:
        total += w
    if not total > 0:
        for i in range(n):
            count[i % len(weights)] += 1
    else:
        step = total / n
        cum = weights[0]
        j = 0
        for i in range(n):
            target = (u + i) * step
            while cum < target and j < len(weights) - 1:
                j += 1
                cum += weights[j]
            count[j] += 1
    return [(i, c) for i, c in enumerate(count) if c]


def _weighed_worlds(
    k: Knowledge,
    space: WorldSpace,
    samples: int,
    rng: SplitMix,
    infer: int,
    policy_alpha: float,
    oversample: int,
) -> Iterator[tuple[list[int], float]]:
    """The worlds to solve and their weights (drawn one by one, or resampled)."""
    if oversample <= 1:
        for _ in range(samples):
            hands = draw_world(space, rng)
            yield hands, world_weight(k, hands, infer, policy_alpha)
        return
    drawn = [draw_world(space, rng) for _ in range(samples * oversample)]
    weights = [world_weight(k, hands, infer, policy_alpha) for hands in drawn]
    for i, times in resample(weights, samples, rng):
        yield drawn[i], float(times)


def _python_totals(
    k: Knowledge,
    worlds: Iterator[tuple[list[int], float]],
    node_budget: int,
    objective: int,
    points_weight: float,
    judge: Judge,
    belote_pairs: tuple[int, ...] = (),
    foresee_melds: bool = False,
    model: int = 0,
    model_rng: SplitMix | None = None,
    race: Race = NO_RACE,
) -> Totals:
    cards = bits(legal_mask(k.kind, k.code, k.hand, k.trick))
    me = k.seat
    my_team = me & 1
    so_far = k.points[my_team] - k.points[1 - my_team]
    taker_team = k.taker & 1
    totals = [0.0] * len(cards)
    weight_sum = 0.0
    nodes_left = node_budget
    nodes_used = 0
    won_before = wins_before(k)
    judge_left = [judge.budget]
    dropped = 0  # the cards the race stopped solving
    exact = 0.0  # the weight of the worlds solved within the node budget
    weights: list[float] = []
    early = 0.0  # the weights of the worlds before the race's cut
    for n, (hands, w) in enumerate(worlds):
        if judge.depth:
            judged = solved_likelihood(k, hands, judge, won_before, judge_left)
            if judged < 0:
                if weight_sum > 0:
                    break
                judged = 1.0
            w *= judged
        if n == race.worlds and n:
            for x in weights:
                early += x
            best = max(t / early for t in totals)
            for c, t in zip(cards, totals, strict=True):
                if best - t / early > race.margin:
                    dropped |= 1 << c
        weight_sum += w
        weights.append(w)
        belotes = belote_points(hands, belote_pairs, k.belote_pts)
        melds = foreseen_melds(k, hands) if foresee_melds else k.meld_pts
        pos = Position(k.kind, k.code, hands, k.leader, list(k.trick), k.won)
        values: dict[int, int] | None = None
        if nodes_left > 0:
            try:
                if model and len(k.trick) < 3:
                    assert model_rng is not None
                    values, nodes = modeled_values(k, pos, my_team, nodes_left, model_rng, model)
                else:
                    values, nodes = solve_root(pos, my_team, nodes_left, ~dropped & FULL)
                nodes_left -= nodes
                nodes_used += nodes
                exact += w
            except NodeLimit:
                values, nodes_left = None, 0
        if values is None:
            values = {}
            for c in cards:
                if dropped >> c & 1:
                    continue
                h = list(hands)
                h[me] ^= 1 << c
                d = rollout_points(k, h, [*k.trick, c], k.played | (1 << c))
                values[c] = d if my_team == 0 else -d
        for i, c in enumerate(cards):
            if dropped >> c & 1:
                continue
            if objective == POINTS:
                totals[i] += w * values[c]
                continue
            diff = so_far + values[c]
            dv = deal_value(
                k.kind, k.code, k.multiplier, taker_team, my_team, diff, melds, belotes, k.bid
            )
            totals[i] += w * (dv + points_weight * diff)
    nodes_used += judge.budget - max(judge_left[0], 0)  # the judge's solves count too
    if dropped:  # a dropped card keeps the mean of the worlds it was solved in
        scale = weight_sum / early
        totals = [t * scale if dropped >> c & 1 else t for c, t in zip(cards, totals, strict=True)]
    return Totals(tuple(cards), tuple(totals), weight_sum, nodes_used, tuple(bits(dropped)), exact)


def modeled_values(
    k: Knowledge, pos: Position, max_team: int, max_nodes: int, rng: SplitMix, model: int
) -> tuple[dict[int, int], int]:
    """Every legal card's value when the rest of the current trick is played as the
    others really would (``_dds.c``'s ``root_modeled``): double dummy, the others would
    answer the card as if they saw every hand; here each answers it with a card drawn
    from the learned policy for the hand the world gives it (``MODEL_OPPONENTS``: the
    partner plays its best card instead), and only from the next trick on is everyone
    solved double dummy.  One solver (one table) for the world, as in C; raises
    ``NodeLimit`` past ``max_nodes``."""
    solver = Solver(k.kind, k.code, max_team, max_nodes)
    seat = pos.to_move
    out: dict[int, int] = {}
    value = 0
    for card, fresh in root_cards(k.kind, k.code, pos):
        if fresh:
            hands = list(pos.hands)
            hands[seat] ^= 1 << card
            trick = [*pos.trick, card]
            gone = k.played | 1 << card
            value = _modeled_rest(k, solver, hands, pos.leader, trick, pos.won, gone, rng, model)
        out[card] = value
    return out, solver.nodes


def _modeled_rest(
    k: Knowledge,
    solver: Solver,
    hands: list[int],
    leader: int,
    trick: list[int],
    won: int,
    gone: int,
    rng: SplitMix,
    model: int,
) -> int:
    """The value once the seat to move (another seat) and those after it in this trick
    have played as ``modeled_values`` says."""
    n = len(trick)
    seat = (leader + n) % 4
    hand = hands[seat]
    legal = legal_mask(k.kind, k.code, hand, trick)
    if model == MODEL_OPPONENTS and seat & 1 == solver.max_team and legal & (legal - 1):
        cards = bits(legal)
    elif not legal & (legal - 1):
        cards = [legal.bit_length() - 1]
    else:
        u = (rng.next() >> 11) * (1.0 / 9007199254740992.0)
        cum = 0.0
        last = -1
        for c, p in card_probabilities(k.code, seat, hand, legal, trick, gone, k.taker).items():
            last = c
            cum += p
            if u < cum:
                break
        cards = [last]
    best = -INF
    for card in cards:
        if n == 3:
            v = solver.after(Position(k.kind, k.code, hands, leader, trick, won), card)
        else:
            after = list(hands)
            after[seat] ^= 1 << card
            v = _modeled_rest(
                k, solver, after, leader, [*trick, card], won, gone | 1 << card, rng, model
            )
        best = max(best, v)
    return best


def rollout_points(k: Knowledge, hands: list[int], trick: list[int], played: int) -> int:
    """The deal played out by the rules of thumb: card points for team 0 from now on
    (the current trick included, capot bonus included)."""
    return rollout(k.kind, k.code, k.taker, hands, k.leader, trick, played, k.won)


__all__ = [
    "INFER_AUCTION",
    "INFER_PLAYS",
    "INFER_POLICY",
    "INFER_SOLVED",
    "MISMATCH",
    "POINTS",
    "SCORE",
    "SEARCH_COMPILED",
    "Judge",
    "Totals",
    "dealt_hands",
    "foreseen_melds",
    "melds_to_foresee",
    "play_likelihood",
    "policy_likelihood",
    "space_of",
    "world_totals",
    "world_weight",
]
