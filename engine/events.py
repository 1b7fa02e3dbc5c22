"""What `Match.apply` tells happened, as typed values: one frozen dataclass per kind of
event, and the union `Event` of them all.

Typed so that a reader (the bot's presenter, a test) matches on the class and reads
named fields the type checker knows, instead of a kind string and a dict. Each class
keeps its old kind string as the class attribute ``kind`` for logs and debugging.
Cards are card codes (0..31), as everywhere else in the engine; nothing here is stored.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from engine.contract import Contract
from engine.core import Meld


@dataclass(frozen=True)
class Trick:
    leader: int
    cards: tuple[tuple[int, int], ...]  # (seat, card) in play order
    winner: int
    points: int  # raw card points (+10 on the last trick), before No Trump doubling


@dataclass(frozen=True)
class DealResult:
    """How a deal was counted. Points are match units (tens in Bulgarian)."""

    k: int
    contract: Contract
    card_points: tuple[int, int]  # raw, last trick included
    tricks: tuple[int, int]
    melds: tuple[int, int]  # melds that count
    belotes: tuple[int, int]
    totals: tuple[int, int]  # what was compared (see core.score_*)
    outcome: str  # made / set / dispute / hanging
    points: tuple[int, int]  # scored by each team on this deal
    held: int  # put aside for the winner of the next deal
    paid: tuple[int, int]  # earlier held points paid to each team on this deal
    scores: tuple[int, int]  # match totals after this deal
    capot: int | None  # team that took every trick

    def to_dict(self) -> dict[str, Any]:
        return {
            "k": self.k,
            "contract": self.contract.to_dict(),
            "card_points": list(self.card_points),
            "tricks": list(self.tricks),
            "melds": list(self.melds),
            "belotes": list(self.belotes),
            "totals": list(self.totals),
            "outcome": self.outcome,
            "points": list(self.points),
            "held": self.held,
            "paid": list(self.paid),
            "scores": list(self.scores),
            "capot": self.capot,
        }


@dataclass(frozen=True)
class Dealt:
    """A deal began: its number (redeals count), its dealer, the turned card (French)."""

    kind: ClassVar[str] = "deal"
    k: int
    dealer: int
    turned: int | None


@dataclass(frozen=True)
class Bid:
    """A seat spoke in the auction (``pass``, ``take``, ``bid H``, ``contre``...)."""

    kind: ClassVar[str] = "bid"
    seat: int
    action: str


@dataclass(frozen=True)
class ContractMade:
    """The auction closed on this contract; the rest of the cards are dealt."""

    kind: ClassVar[str] = "contract"
    contract: Contract


@dataclass(frozen=True)
class Redealt:
    """Everybody passed: deal ``k`` is dealt again (a `Dealt` follows)."""

    kind: ClassVar[str] = "redeal"
    k: int


@dataclass(frozen=True)
class CardPlayed:
    """A seat played a card, announcing belote and/or declaring its melds with it."""

    kind: ClassVar[str] = "play"
    seat: int
    card: int
    belote: bool
    melds: bool


@dataclass(frozen=True)
class MeldsShown:
    """After the first trick: every declared meld as (seat, meld, whether it counts)."""

    kind: ClassVar[str] = "melds"
    melds: tuple[tuple[int, Meld, bool], ...]


@dataclass(frozen=True)
class TrickWon:
    """A trick closed: its cards in play order, its winner, its raw points."""

    kind: ClassVar[str] = "trick"
    trick: Trick


@dataclass(frozen=True)
class DealEnded:
    """A deal was counted."""

    kind: ClassVar[str] = "deal_end"
    result: DealResult


@dataclass(frozen=True)
class MatchEnded:
    """The match is over: the winning team (0 is seats 0 and 2) and the final scores."""

    kind: ClassVar[str] = "match_end"
    winner: int
    scores: tuple[int, int]


Event = (
    Dealt
    | Bid
    | ContractMade
    | Redealt
    | CardPlayed
    | MeldsShown
    | TrickWon
    | DealEnded
    | MatchEnded
)

__all__ = [
    "Bid",
    "CardPlayed",
    "ContractMade",
    "DealEnded",
    "DealResult",
    "Dealt",
    "Event",
    "MatchEnded",
    "MeldsShown",
    "Redealt",
    "Trick",
    "TrickWon",
]
