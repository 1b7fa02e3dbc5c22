"""The shared vocabulary of every tournament format: numbers, matches, outcomes, standings.

Everything here is pure data that serialises to JSON, so that a running event can be
stored after every change and rebuilt after a restart without replaying anything.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from enum import StrEnum
from typing import Any

SEAT_SECONDS = 180  # docs/rules.md#tournaments: "take your seat within 3 minutes, or you are out"


class Outcome(StrEnum):
    """How one match ended, seen from the tournament."""

    A = "a"  # side a won
    B = "b"  # side b won
    DRAW = "draw"  # nobody won
    BOTH_LOSE = "both_lose"  # undecided at the round's time limit: lost by both


class Format(StrEnum):
    ROUNDROBIN = "roundrobin"
    SWISS = "swiss"
    ELIMINATION = "elimination"
    LADDER = "ladder"


@dataclass(frozen=True)
class Numbers:
    """The numbers a tournament sets for itself, shown on its page (`/tournament info`).

    `rounds` is used by Swiss, `best_of` by elimination, `days` by the ladder; the
    points for a win, a draw and a loss by every format that counts points.
    """

    win: int = 3
    draw: int = 1
    loss: int = 0
    round_minutes: int = 60
    rounds: int = 5
    best_of: int = 1
    days: int = 7
    rotate_partners: bool = False

    def points(self, won: bool | None) -> int:
        """Points for a win (True), a loss (False) or a draw (None)."""
        if won is None:
            return self.draw
        return self.win if won else self.loss

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Numbers:
        known = {k: v for k, v in data.items() if k in cls.__dataclass_fields__}
        return cls(**known)


@dataclass
class Match:
    """One game of the event. Sides are tuples of entrants: one each for teams, two each
    when a table of four rotates partners."""

    id: int
    round: int
    a: tuple[int, ...]
    b: tuple[int, ...]
    outcome: Outcome | None = None
    score_a: int = 0
    score_b: int = 0
    forfeit: bool = False  # decided without being played (no-show, withdrawal)

    @property
    def decided(self) -> bool:
        return self.outcome is not None

    def won_by(self, entrant: int) -> bool | None:
        """True if `entrant` won, False if they lost, None for a draw."""
        if self.outcome is Outcome.DRAW:
            return None
        if self.outcome is Outcome.BOTH_LOSE:
            return False
        in_a = entrant in self.a
        return (self.outcome is Outcome.A) == in_a

    def scored(self, entrant: int) -> tuple[int, int]:
        """(points scored, points conceded) for `entrant` in this match."""
        if entrant in self.a:
            return self.score_a, self.score_b
        return self.score_b, self.score_a

    def opponents(self, entrant: int) -> tuple[int, ...]:
        return self.b if entrant in self.a else self.a

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "round": self.round,
            "a": list(self.a),
            "b": list(self.b),
            "outcome": self.outcome.value if self.outcome else None,
            "score_a": self.score_a,
            "score_b": self.score_b,
            "forfeit": self.forfeit,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Match:
        return cls(
            id=data["id"],
            round=data["round"],
            a=tuple(data["a"]),
            b=tuple(data["b"]),
            outcome=Outcome(data["outcome"]) if data["outcome"] else None,
            score_a=data["score_a"],
            score_b=data["score_b"],
            forfeit=data.get("forfeit", False),
        )


@dataclass(frozen=True)
class Standing:
    """One line of the table: place, entrant, points and the tie-breaks in the order used."""

    place: int
    entrant: int
    points: int
    tiebreaks: tuple[float | int, ...] = ()
    played: int = 0
    withdrawn: bool = False


@dataclass
class RoundPlan:
    """What a round asks for: the pairings (side a placed higher) and who sits out."""

    round: int
    pairings: list[tuple[tuple[int, ...], tuple[int, ...]]] = field(default_factory=list)
    byes: list[int] = field(default_factory=list)


class NoPairing(Exception):
    """A round cannot be paired without breaking a rule (a rematch, a second bye).

    The event ends cleanly and the organiser is told; a pairing is never repeated silently.
    `kind` says which rule: "rematch" or "bye" (everyone has sat out already).
    """

    def __init__(self, message: str, kind: str = "rematch") -> None:
        super().__init__(message)
        self.kind = kind
