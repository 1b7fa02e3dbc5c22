"""The double-dummy solver is exact: every root move's value equals plain minimax's."""

from __future__ import annotations

import random

import pytest

from engine.ai.solver import NodeLimit, Position, Solver, minimax_values, solve, solve_root
from engine.ai.tables import BULGARIAN, CLASSIC, CLUB, bits, legal_mask


def random_ending(rng: random.Random, kind: int, per_hand: int) -> Position:
    code = rng.randrange(6) if kind == BULGARIAN else rng.randrange(4)
    cards = rng.sample(range(32), 4 * per_hand)
    hands = [0, 0, 0, 0]
    for i, c in enumerate(cards):
        hands[i // per_hand] |= 1 << c
    pos = Position(kind, code, hands, rng.randrange(4), [], won=rng.choice([0, 1, 2, 3]))
    for _ in range(rng.randrange(4)):  # start some endings in the middle of a trick
        seat = pos.to_move
        card = rng.choice(bits(legal_mask(kind, code, pos.hands[seat], pos.trick)))
        pos.hands[seat] ^= 1 << card
        pos.trick.append(card)
    return pos


@pytest.mark.parametrize("kind", [CLASSIC, CLUB, BULGARIAN])
@pytest.mark.parametrize("per_hand", [1, 2, 3])
def test_root_values_equal_full_minimax(kind: int, per_hand: int) -> None:
    rng = random.Random(100 * kind + per_hand)
    for _ in range(60 if per_hand < 3 else 25):
        pos = random_ending(rng, kind, per_hand)
        team = rng.randrange(2)
        assert Solver(kind, pos.code, team).root_values(pos) == minimax_values(pos, team)


def test_four_card_endings_with_a_shared_table() -> None:
    """One solver reused across the root moves and their successors stays exact."""
    rng = random.Random(7)
    for _ in range(6):
        pos = random_ending(rng, CLUB, 4)
        solver = Solver(CLUB, pos.code, 0)
        reference = minimax_values(pos, 0)
        assert solver.root_values(pos) == reference
        best = max if pos.to_move % 2 == 0 else min
        assert solver.value(pos) == best(reference.values())


def test_value_is_zero_sum() -> None:
    rng = random.Random(11)
    for _ in range(20):
        pos = random_ending(rng, BULGARIAN, 3)
        assert Solver(BULGARIAN, pos.code, 0).value(pos) == -Solver(BULGARIAN, pos.code, 1).value(
            pos
        )


def test_capot_bonus_counts() -> None:
    # Team 0 holds every trump and every ace: it takes all tricks of a 1-card ending.
    pos = Position(CLUB, 0, [1 << 4, 1 << 8, 1 << 2, 1 << 16], 0, [], won=1)
    # J of clubs, 7 of diamonds, 9 of clubs, 7 of hearts: seat 0 leads J, seat 2 follows.
    values = Solver(CLUB, 0, 0).root_values(pos)
    assert values == {4: 20 + 14 + 10 + 90}


# -- the compiled core (engine/ai/_dds.c) -----------------------------------------------


def test_the_compiled_solver_was_built() -> None:
    """`pip install -e .` compiles the solver; without it the expert searches far less."""
    from engine.ai import solver

    assert solver.COMPILED, "engine/ai/_dds.c was not built: is a C compiler installed?"


@pytest.mark.parametrize("kind", [CLASSIC, CLUB, BULGARIAN])
@pytest.mark.parametrize("per_hand", [1, 2, 3])
def test_compiled_root_values_equal_full_minimax(kind: int, per_hand: int) -> None:
    rng = random.Random(500 + 100 * kind + per_hand)
    for _ in range(60 if per_hand < 3 else 25):
        pos = random_ending(rng, kind, per_hand)
        team = rng.randrange(2)
        values, nodes = solve_root(pos, team)
        assert values == minimax_values(pos, team)
        assert nodes > 0


@pytest.mark.parametrize("kind", [CLASSIC, CLUB, BULGARIAN])
def test_compiled_solver_equals_the_python_solver_on_longer_endings(kind: int) -> None:
    rng = random.Random(900 + kind)
    for _ in range(12):
        pos = random_ending(rng, kind, rng.choice([4, 5]))
        team = rng.randrange(2)
        assert solve_root(pos, team)[0] == Solver(kind, pos.code, team).root_values(pos)
        assert solve(pos, team)[0] == Solver(kind, pos.code, team).value(pos)


def test_compiled_solver_leaves_the_position_untouched() -> None:
    pos = random_ending(random.Random(3), CLUB, 5)
    before = pos.copy()
    solve_root(pos, 0)
    assert (pos.hands, pos.trick, pos.leader, pos.won) == (
        before.hands,
        before.trick,
        before.leader,
        before.won,
    )


def test_compiled_solver_stops_at_its_node_budget() -> None:
    pos = random_ending(random.Random(4), BULGARIAN, 6)
    with pytest.raises(NodeLimit):
        solve_root(pos, 0, max_nodes=50)
    values, nodes = solve_root(pos, 0)  # and a later solve is unaffected
    assert nodes > 50 and values


@pytest.mark.parametrize(
    "bad",
    [
        dict(code=6),
        dict(hands=[0, 0, 0]),
        dict(hands=[1 << 33, 0, 0, 0]),
        dict(trick=[40]),
        dict(trick=[1, 2, 3, 4]),
        dict(leader=4),
    ],
)
def test_compiled_solver_refuses_malformed_positions(bad: dict) -> None:
    from engine.ai import _dds

    args = dict(kind=CLUB, code=0, team=0, hands=[1, 2, 4, 8], leader=0, trick=[], won=0)
    args.update(bad)
    with pytest.raises((ValueError, TypeError, OverflowError)):
        _dds.root_values(*args.values())


def test_compiled_solver_is_exact_in_parallel_threads() -> None:
    """The search runs without the GIL, each thread on its own table: solving in four
    threads at once gives what solving one after the other gives."""
    from concurrent.futures import ThreadPoolExecutor

    rng = random.Random(12)
    positions = [random_ending(rng, kind, 6) for kind in (CLASSIC, CLUB, BULGARIAN) * 4]
    alone = [solve_root(pos, 0)[0] for pos in positions]
    with ThreadPoolExecutor(4) as pool:
        together = list(pool.map(lambda pos: solve_root(pos, 0)[0], positions))
    assert together == alone


@pytest.mark.parametrize("kind", [CLASSIC, CLUB, BULGARIAN])
def test_only_the_cards_asked_for_are_solved_and_to_the_same_values(kind: int) -> None:
    """A race solves some root cards no more: the others keep their exact values, on the
    compiled solver and the Python one, equivalent cards included."""
    rng = random.Random(1300 + kind)
    asked_nodes = every_nodes = 0
    for _ in range(20):
        pos = random_ending(rng, kind, rng.choice([3, 4]))
        team = rng.randrange(2)
        full = minimax_values(pos, team)
        only = 0
        for card in rng.sample(sorted(full), rng.randrange(1, len(full) + 1)):
            only |= 1 << card
        asked = {c: v for c, v in full.items() if only >> c & 1}
        values, nodes = solve_root(pos, team, None, only)
        assert values == asked
        assert Solver(kind, pos.code, team).root_values(pos, only) == asked
        asked_nodes += nodes
        every_nodes += solve_root(pos, team)[1]
    # On the whole, fewer cards cost fewer nodes (not always one position at a time: each
    # root card's first window is centred on the card solved before it).
    assert asked_nodes < every_nodes
