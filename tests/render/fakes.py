"""Stand-ins shaped like the engine's types (docs/engine-api.md), for pictures the engine
cannot reach on demand (a given trick, a given time left). Real engine views are used
wherever a test is about what a seat may see."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class FakeAction:
    kind: str
    card: int | None = None
    contract: str | None = None
    belote: bool = False
    melds: bool = False


@dataclass(frozen=True)
class FakeContract:
    trump: str
    taker: int
    multiplier: int = 1

    @property
    def taker_team(self) -> int:
        return self.taker % 2


@dataclass(frozen=True)
class FakeTrick:
    leader: int
    cards: tuple[tuple[int, int], ...]
    winner: int
    points: int


@dataclass(frozen=True)
class FakeView:
    seat: int | None
    hand: tuple[int, ...] = ()
    ruleset: str = "club"
    target: int = 1000
    phase: str = "play"
    k: int = 0
    dealer: int = 0
    to_move: int | None = 0
    hand_sizes: tuple[int, int, int, int] = (8, 8, 8, 8)
    turned: int | None = None
    bids: tuple[tuple[int, str], ...] = ()
    contract: FakeContract | None = None
    trick: tuple[tuple[int, int], ...] = ()
    leader: int | None = 1
    tricks: tuple[FakeTrick, ...] = ()
    belotes: tuple[tuple[int, int], ...] = ()
    melds: tuple = ()
    scores: tuple[int, int] = (0, 0)
    hanging: int = 0
    last_result: object | None = None
    legal: tuple[FakeAction, ...] = field(default_factory=tuple)


def plays(*cards: int) -> tuple[FakeAction, ...]:
    return tuple(FakeAction("play", card=c) for c in cards)
