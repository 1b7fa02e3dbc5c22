"""The expert's search core: draw worlds, weigh them by the others' plays, solve, aggregate.

One call, :func:`world_totals`, returns for every legal card its weighted total over
``samples`` worlds: each world is drawn uniformly among the deals the seat cannot rule
out (``worlds``), weighed by how well it explains the other seats' plays so far
(``search.play_likelihood``: an earlier card the rules of thumb would not have played from
that hand multiplies the weight by ``MISMATCH``), solved double dummy for every legal card
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

from dataclasses import dataclass
from types import ModuleType

from engine.ai.heuristic import normal_card
from engine.ai.knowledge import Knowledge
from engine.ai.rollout import rollout
from engine.ai.scoring import deal_value
from engine.ai.solver import COMPILED, NodeLimit, Position, solve_root
from engine.ai.tables import FULL, bits, legal_mask
from engine.ai.worlds import SplitMix, WorldSpace, draw_world, world_space

_dds: ModuleType | None
try:
    from engine.ai import _dds
except ImportError:  # no C compiler at install: the pure-Python path below does it all
    _dds = None

MISMATCH = 0.4  # likelihood factor of a play the rules of thumb would not have made
SCORE = 0  # objective: the deal score the card leads to (plus ``points_weight`` x the points)
POINTS_WEIGHT = 0.05
POINTS = 1  # objective: the card points alone (the sparring partner's)
SEARCH_COMPILED = COMPILED and _dds is not None and hasattr(_dds, "search_worlds")


@dataclass(frozen=True)
class Totals:
    """Weighted totals per legal card (ascending), the weights' sum, the nodes searched."""

    cards: tuple[int, ...]
    totals: tuple[float, ...]
    weight_sum: float
    nodes: int

    def mean(self, card: int) -> float:
        return self.totals[self.cards.index(card)] / self.weight_sum

    def merged(self, other: Totals) -> Totals:
        """Both batches of worlds together (same position, so the same cards)."""
        return Totals(
            self.cards,
            tuple(a + b for a, b in zip(self.totals, other.totals, strict=True)),
            self.weight_sum + other.weight_sum,
            self.nodes + other.nodes,
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


def play_likelihood(k: Knowledge, hands: list[int]) -> float:
    """How plausible ``hands`` make the others' past plays (see the module docstring)."""
    later = [0, 0, 0, 0]
    weight = 1.0
    for seat, card, prefix, gone in reversed(k.history):
        later[seat] |= 1 << card
        if seat == k.seat:
            continue
        hand = hands[seat] | later[seat]
        trick = list(prefix)
        legal = legal_mask(k.kind, k.code, hand, trick)
        if legal & (legal - 1) == 0:
            continue  # forced: says nothing
        if normal_card(k.kind, k.code, seat, hand, legal, trick, gone, k.taker) != card:
            weight *= MISMATCH
    return weight


def world_totals(
    k: Knowledge,
    samples: int,
    seed: int,
    node_budget: int,
    infer: bool = True,
    objective: int = SCORE,
    compiled: bool | None = None,
    points_weight: float = POINTS_WEIGHT,
) -> Totals:
    """Every legal card's weighted total over ``samples`` worlds drawn from ``seed``.

    ``compiled`` forces one path (None: the C one when it was built).
    """
    use_c = SEARCH_COMPILED if compiled is None else compiled
    if use_c and not SEARCH_COMPILED:
        raise RuntimeError("the compiled search core was not built")
    space = space_of(k)
    if use_c:
        assert _dds is not None
        cards, totals, wsum, nodes = _dds.search_worlds(
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
        )
        return Totals(tuple(cards), tuple(totals), wsum, nodes)
    return _python_totals(k, space, samples, seed, node_budget, infer, objective, points_weight)


def _python_totals(
    k: Knowledge,
    space: WorldSpace,
    samples: int,
    seed: int,
    node_budget: int,
    infer: bool,
    objective: int,
    points_weight: float,
) -> Totals:
    cards = bits(legal_mask(k.kind, k.code, k.hand, k.trick))
    me = k.seat
    my_team = me & 1
    so_far = k.points[my_team] - k.points[1 - my_team]
    taker_team = k.taker & 1
    rng = SplitMix(seed)
    totals = [0.0] * len(cards)
    weight_sum = 0.0
    nodes_left = node_budget
    nodes_used = 0
    for _ in range(samples):
        hands = draw_world(space, rng)
        w = play_likelihood(k, hands) if infer else 1.0
        weight_sum += w
        pos = Position(k.kind, k.code, hands, k.leader, list(k.trick), k.won)
        values: dict[int, int] | None = None
        if nodes_left > 0:
            try:
                values, nodes = solve_root(pos, my_team, nodes_left)
                nodes_left -= nodes
                nodes_used += nodes
            except NodeLimit:
                values, nodes_left = None, 0
        if values is None:
            values = {}
            for c in cards:
                h = list(hands)
                h[me] ^= 1 << c
                d = rollout_points(k, h, [*k.trick, c], k.played | (1 << c))
                values[c] = d if my_team == 0 else -d
        for i, c in enumerate(cards):
            if objective == POINTS:
                totals[i] += w * values[c]
                continue
            diff = so_far + values[c]
            dv = deal_value(
                k.kind, k.code, k.multiplier, taker_team, my_team, diff, k.meld_pts, k.belote_pts
            )
            totals[i] += w * (dv + points_weight * diff)
    return Totals(tuple(cards), tuple(totals), weight_sum, nodes_used)


def rollout_points(k: Knowledge, hands: list[int], trick: list[int], played: int) -> int:
    """The deal played out by the rules of thumb: card points for team 0 from now on
    (the current trick included, capot bonus included)."""
    return rollout(k.kind, k.code, k.taker, hands, k.leader, trick, played, k.won)


__all__ = [
    "MISMATCH",
    "POINTS",
    "SCORE",
    "SEARCH_COMPILED",
    "Totals",
    "play_likelihood",
    "space_of",
    "world_totals",
]
