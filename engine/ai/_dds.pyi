"""Types of the compiled core (engine/ai/_dds.c: solver and search core), for the checker."""

from collections.abc import Sequence

class NodeLimit(Exception): ...

def value(
    kind: int,
    code: int,
    max_team: int,
    hands: Sequence[int],
    leader: int,
    trick: Sequence[int],
    won: int,
    max_nodes: int = -1,
    /,
) -> tuple[int, int]: ...
def root_values(
    kind: int,
    code: int,
    max_team: int,
    hands: Sequence[int],
    leader: int,
    trick: Sequence[int],
    won: int,
    max_nodes: int = -1,
    only: int = 0xFFFFFFFF,
    /,
) -> tuple[dict[int, int], int]: ...
def search_worlds(
    kind: int,
    code: int,
    seat: int,
    taker: int,
    multiplier: int,
    fixed: Sequence[int],
    seats: Sequence[int],
    need: Sequence[int],
    classes: Sequence[tuple[int, Sequence[int]]],
    leader: int,
    trick: Sequence[int],
    played: int,
    won: int,
    history: Sequence[tuple[int, int, Sequence[int], int]],
    so_far: int,
    melds: Sequence[int],
    belotes: Sequence[int],
    samples: int,
    seed: int,
    node_budget: int,
    infer: int,
    objective: int,
    points_weight: float,
    bids: Sequence[Sequence[int]] = (),
    turned: int = -1,
    bid_mismatch: float = 1.0,
    judge_depth: int = 0,
    judge_cards: int = 32,
    judge_tau: float = 20.0,
    judge_budget: int = 0,
    policy: Sequence[float] = (),
    policy_alpha: float = 1.0,
    oversample: int = 1,
    belote_pairs: Sequence[int] = (),
    foresee_melds: int = 0,
    model_trick: int = 0,
    race_worlds: int = 0,
    race_margin: float = 0.0,
    /,
) -> tuple[list[int], list[float], float, int, int, float]: ...
def rollout(
    kind: int,
    code: int,
    taker: int,
    hands: Sequence[int],
    leader: int,
    trick: Sequence[int],
    played: int,
    won: int,
    /,
) -> int: ...
def playouts(kind: int, deals: int, seed: int, /) -> int: ...
def set_threads(threads: int, /) -> int: ...
