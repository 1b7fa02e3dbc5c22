"""The contract of a deal: trump (a suit, NT or AT), who took it, any doubling, and in
Coinche the value bid (80 to 160, capot 250, générale 500)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

CONTRACT_TEXTS = ("C", "D", "H", "S", "NT", "AT")
# Contract code used by the core: suits 0..3, No Trump 4, All Trump 5.
TRUMP_CODE: dict[str, int] = {t: i for i, t in enumerate(CONTRACT_TEXTS)}
NT = 4
AT = 5
#: Coinche's bids that are not a number of points: all 8 tricks, by the side or one player.
CAPOT_BID = 250
GENERALE_BID = 500
BID_WORDS = {CAPOT_BID: "capot", GENERALE_BID: "generale"}


@dataclass(frozen=True)
class Contract:
    trump: str
    taker: int
    multiplier: int = 1
    bid: int | None = None  # Coinche: the value bid; None where contracts have no value

    @property
    def taker_team(self) -> int:
        return self.taker % 2

    @property
    def code(self) -> int:
        return TRUMP_CODE[self.trump]

    @property
    def text(self) -> str:
        if self.bid is not None:
            value = BID_WORDS.get(self.bid, str(self.bid))
            return (
                f"{value} {self.trump}" + {1: "", 2: " coinche", 4: " surcoinche"}[self.multiplier]
            )
        return self.trump + {1: "", 2: " contre", 4: " recontre"}[self.multiplier]

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {
            "trump": self.trump,
            "taker": self.taker,
            "multiplier": self.multiplier,
        }
        if self.bid is not None:
            d["bid"] = self.bid
        return d

    @classmethod
    def from_dict(cls, d: dict[str, Any] | None) -> Contract | None:
        if d is None:
            return None
        return cls(d["trump"], d["taker"], d.get("multiplier", 1), d.get("bid"))
