"""The contract of a deal: trump (a suit, NT or AT), who took it, and any doubling."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

CONTRACT_TEXTS = ("C", "D", "H", "S", "NT", "AT")
# Contract code used by the core: suits 0..3, No Trump 4, All Trump 5.
TRUMP_CODE: dict[str, int] = {t: i for i, t in enumerate(CONTRACT_TEXTS)}
NT = 4
AT = 5


@dataclass(frozen=True)
class Contract:
    trump: str
    taker: int
    multiplier: int = 1

    @property
    def taker_team(self) -> int:
        return self.taker % 2

    @property
    def code(self) -> int:
        return TRUMP_CODE[self.trump]

    @property
    def text(self) -> str:
        return self.trump + {1: "", 2: " contre", 4: " recontre"}[self.multiplier]

    def to_dict(self) -> dict[str, Any]:
        return {"trump": self.trump, "taker": self.taker, "multiplier": self.multiplier}

    @classmethod
    def from_dict(cls, d: dict[str, Any] | None) -> Contract | None:
        if d is None:
            return None
        return cls(d["trump"], d["taker"], d.get("multiplier", 1))
