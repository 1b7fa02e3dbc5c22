"""Types of the double-dummy solver's compiled core (engine/ai/_dds.c), for the checker."""

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
    /,
) -> tuple[dict[int, int], int]: ...
