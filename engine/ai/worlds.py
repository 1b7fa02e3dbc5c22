"""Uniform worlds: deal the unseen cards exactly uniformly among the deals a seat cannot rule out.

A *world* is one assignment of the unseen cards to the other three seats that respects
every hand size, every card known to be in a hand and every card a seat cannot hold
(voids, trump ceilings).  Each world is equally likely here; what the others' plays say
beyond that is the search's job (it weighs the worlds, see ``world_search``).

Why exact counting rather than rejection or greedy dealing: the unseen cards fall into at
most seven classes by the set of seats that may hold them, so the number of consistent
deals for every way of splitting the classes among the seats is a small table (computed
once per decision); a world is then drawn by walking the classes, each split chosen with
probability proportional to the deals it leaves.  No retries, no bias toward the seats
with the fewest constraints.

The generator is SplitMix64, written out here and in ``_dds.c``, so the compiled search
and this pure-Python one draw the very same worlds from the same seed (a test checks it).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from engine.ai.tables import bits

M64 = (1 << 64) - 1


class SplitMix:
    """SplitMix64: tiny, fast and identical in C and Python."""

    def __init__(self, seed: int) -> None:
        self.state = seed & M64

    def next(self) -> int:
        self.state = (self.state + 0x9E3779B97F4A7C15) & M64
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & M64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & M64
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """A number in ``range(n)`` (the modulo bias is below 1e-9 for our ``n``)."""
        return self.next() % n


class NoWorld(Exception):
    """No deal fits the constraints (cannot happen with a consistent view)."""


_BINOM = [[0] * 33 for _ in range(33)]
for _n in range(33):
    _BINOM[_n][0] = 1
    for _k in range(1, _n + 1):
        _BINOM[_n][_k] = _BINOM[_n - 1][_k - 1] + _BINOM[_n - 1][_k]


@dataclass(frozen=True)
class WorldSpace:
    """Every deal consistent with the constraints, counted by class and remaining quota.

    ``seats``: the three other seats; ``classes``: (seat-set bitmask over ``seats``
    indices, cards ascending), by bitmask ascending; ``counts[i]``: for each quota triple,
    how many ways classes ``i..`` fill exactly those quotas.
    """

    fixed: tuple[int, int, int, int]
    seats: tuple[int, int, int]
    need: tuple[int, int, int]
    classes: tuple[tuple[int, tuple[int, ...]], ...]
    counts: tuple[dict[tuple[int, int, int], int], ...]

    @property
    def total(self) -> int:
        """How many consistent deals there are."""
        return self.counts[0].get(self.need, 0)


def _splits(n: int, allowed: int, q: tuple[int, int, int]) -> Iterator[tuple[int, int, int]]:
    """Ways to split ``n`` cards of a class among the seats it may go to, fixed order."""
    for a in range(min(n, q[0]) + 1 if allowed & 1 else 1):
        for b in range(min(n - a, q[1]) + 1 if allowed & 2 else 1):
            c = n - a - b
            if c and not allowed & 4:
                continue
            if c > q[2]:
                continue
            yield a, b, c


def world_space(
    me: int, hand: int, pool: int, need: list[int], allowed: list[int], fixed: list[int]
) -> WorldSpace:
    """Count the deals of ``pool`` giving seat ``s`` ``need[s]`` cards of ``allowed[s]``."""
    seats = tuple(s for s in range(4) if s != me)
    groups: dict[int, list[int]] = {}
    for c in bits(pool):
        mask = 0
        for i, s in enumerate(seats):
            if need[s] and allowed[s] >> c & 1:
                mask |= 1 << i
        if not mask:
            raise NoWorld("a card no seat may hold")
        groups.setdefault(mask, []).append(c)
    classes = tuple((m, tuple(groups[m])) for m in sorted(groups))
    quota = (need[seats[0]], need[seats[1]], need[seats[2]])
    if sum(quota) != pool.bit_count():
        raise NoWorld("sizes do not add up")
    counts: list[dict[tuple[int, int, int], int]] = [{} for _ in range(len(classes) + 1)]
    counts[len(classes)][(0, 0, 0)] = 1
    # Bottom-up over the classes: the quota states reachable from ``quota`` going down.
    suffix = 0
    for i in range(len(classes) - 1, -1, -1):
        mask, cards = classes[i]
        n = len(cards)
        suffix += n
        table: dict[tuple[int, int, int], int] = {}
        nxt = counts[i + 1]
        for q0 in range(min(quota[0], suffix) + 1):
            for q1 in range(min(quota[1], suffix - q0) + 1):
                q2 = suffix - q0 - q1
                if q2 > quota[2]:
                    continue
                q = (q0, q1, q2)
                ways = 0
                for a, b, c in _splits(n, mask, q):
                    rest = nxt.get((q0 - a, q1 - b, q2 - c), 0)
                    if rest:
                        ways += _BINOM[n][a] * _BINOM[n - a][b] * rest
                if ways:
                    table[q] = ways
        counts[i] = table
    space = WorldSpace(
        (fixed[0], fixed[1], fixed[2], fixed[3]),
        (seats[0], seats[1], seats[2]),
        quota,
        classes,
        tuple(counts),
    )
    if not space.total:
        raise NoWorld("no deal fits the constraints")
    return space


def draw_world(space: WorldSpace, rng: SplitMix) -> list[int]:
    """One consistent deal, every one equally likely."""
    hands = list(space.fixed)
    q0, q1, q2 = space.need
    for i, (mask, cards) in enumerate(space.classes):
        n = len(cards)
        nxt = space.counts[i + 1]
        r = rng.below(space.counts[i][(q0, q1, q2)])
        pick = (0, 0, 0)
        for a, b, c in _splits(n, mask, (q0, q1, q2)):
            w = _BINOM[n][a] * _BINOM[n - a][b] * nxt.get((q0 - a, q1 - b, q2 - c), 0)
            if r < w:
                pick = (a, b, c)
                break
            r -= w
        order = list(cards)
        for j in range(n - 1, 0, -1):
            k = rng.below(j + 1)
            order[j], order[k] = order[k], order[j]
        a, b, _ = pick
        for j, card in enumerate(order):
            seat = space.seats[0 if j < a else (1 if j < a + b else 2)]
            hands[seat] |= 1 << card
        q0, q1, q2 = q0 - pick[0], q1 - pick[1], q2 - pick[2]
    return hands
