"""The fair-deal recipe (docs/rules.md#the-deck-of-deal-k), byte for byte.

Deal k reads a stream of 32-byte blocks; block b is HMAC-SHA256 keyed with the server seed
over ``b"belot.club/deal/v1" | k (4, BE) | b (4, BE) | players (1) | per seat: len (1) +
seed | drand round (8, BE) | drand value (32)``. The 32 cards start in order (clubs,
diamonds, hearts, spades, 7 to ace); for i from 31 down to 1 a byte x is drawn, redrawn
while x >= 256 - 256 % (i + 1), and positions i and x % (i + 1) are swapped. The 24-card
deck then sets the sevens and eights aside, keeping the others' order.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from engine.errors import InvalidSeed

DOMAIN = b"belot.club/deal/v1"
SERVER_SEED_BYTES = 32
SEAT_SEED_BYTES = 16
DRAND_VALUE_BYTES = 32


def commitment(server_seed: bytes) -> str:
    """The lower-case hex SHA-256 of the server seed, shown before any seat seed is sent."""
    return hashlib.sha256(bytes(server_seed)).hexdigest()


def parse_seed_hex(text: str, length: int, what: str = "A seed here") -> bytes:
    """Hex text -> exactly ``length`` bytes, or a friendly InvalidSeed (never echoing it)."""
    if not isinstance(text, str):
        raise InvalidSeed(f"{what} must be written in hexadecimal.")
    t = text.strip().lower()
    if t.startswith("0x"):
        t = t[2:]
    if not t.isascii() or any(c not in "0123456789abcdef" for c in t):
        # before the length: "(got 2 digits)" would be wrong for text that is not hex
        raise InvalidSeed(
            f"{what} must be {2 * length} hexadecimal digits, only 0-9 and a-f ({length} bytes)."
        )
    if len(t) != 2 * length:
        raise InvalidSeed(
            f"{what} must be {length} bytes: {2 * length} hexadecimal digits (got {len(t)} digits)."
        )
    return bytes.fromhex(t)


@dataclass(frozen=True)
class DeckInputs:
    """Everything a deck is made from. ``server_seed`` is secret until the reveal (repr hides
    it)."""

    server_seed: bytes = field(repr=False)
    seat_seeds: tuple[bytes | None, ...]
    drand_round: int | None = None
    drand_value: bytes | None = None
    size: int = 32

    def __post_init__(self) -> None:
        if not isinstance(self.server_seed, bytes | bytearray):
            raise InvalidSeed("The server seed must be bytes.")
        if len(self.server_seed) != SERVER_SEED_BYTES:
            raise InvalidSeed(f"The server seed must be {SERVER_SEED_BYTES} bytes.")
        seats = tuple(self.seat_seeds)
        object.__setattr__(self, "seat_seeds", seats)
        object.__setattr__(self, "server_seed", bytes(self.server_seed))
        if not 2 <= len(seats) <= 4:
            raise InvalidSeed(f"A table has 2 to 4 seats (got {len(seats)}).")
        for i, s in enumerate(seats):
            if s is None:
                continue
            if not isinstance(s, bytes | bytearray) or len(s) != SEAT_SEED_BYTES:
                raise InvalidSeed(f"Seat {i}'s seed must be {SEAT_SEED_BYTES} bytes or none.")
        seats = tuple(None if s is None else bytes(s) for s in seats)
        object.__setattr__(self, "seat_seeds", seats)
        if (self.drand_round is None) != (self.drand_value is None):
            raise InvalidSeed("Give both the drand round and its value, or neither.")
        if self.drand_round is not None:
            if (
                not isinstance(self.drand_round, int)
                or isinstance(self.drand_round, bool)
                or not 0 < self.drand_round < 1 << 64
            ):
                raise InvalidSeed("The drand round must be a whole number from 1 to 2^64 - 1.")
            if (
                not isinstance(self.drand_value, bytes | bytearray)
                or len(self.drand_value) != DRAND_VALUE_BYTES
            ):
                raise InvalidSeed(f"The drand value must be {DRAND_VALUE_BYTES} bytes.")
            object.__setattr__(self, "drand_value", bytes(self.drand_value))
        if self.size not in (32, 24):
            raise InvalidSeed("The deck has 32 or 24 cards.")

    def message_tail(self) -> bytes:
        """The part of the HMAC message after k and b (players, seats, drand)."""
        out = bytearray([len(self.seat_seeds)])
        for s in self.seat_seeds:
            if s is None:
                out.append(0)
            else:
                out.append(len(s))
                out += s
        out += (self.drand_round or 0).to_bytes(8, "big")
        out += self.drand_value if self.drand_value is not None else bytes(DRAND_VALUE_BYTES)
        return bytes(out)

    def to_dict(self) -> dict[str, Any]:
        """JSON-safe form (holds the server seed: keep it private until the reveal)."""
        return {
            "server_seed": self.server_seed.hex(),
            "seat_seeds": [None if s is None else s.hex() for s in self.seat_seeds],
            "drand_round": self.drand_round,
            "drand_value": None if self.drand_value is None else self.drand_value.hex(),
            "size": self.size,
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> DeckInputs:
        try:
            return cls(
                server_seed=parse_seed_hex(d["server_seed"], SERVER_SEED_BYTES),
                seat_seeds=tuple(
                    None if s is None else parse_seed_hex(s, SEAT_SEED_BYTES)
                    for s in d["seat_seeds"]
                ),
                drand_round=d.get("drand_round"),
                drand_value=None
                if d.get("drand_value") is None
                else parse_seed_hex(d["drand_value"], DRAND_VALUE_BYTES),
                size=d.get("size", 32),
            )
        except (KeyError, TypeError) as exc:
            raise InvalidSeed("Malformed deck inputs.") from exc


def block_stream(inputs: DeckInputs, k: int) -> Iterator[int]:
    """Yield the bytes of deal k's stream, block 0 first."""
    if not isinstance(k, int) or not 0 <= k < 1 << 32:
        raise InvalidSeed("The deal number must be from 0 to 2^32 - 1.")
    head = DOMAIN + k.to_bytes(4, "big")
    tail = inputs.message_tail()
    b = 0
    while True:
        yield from hmac.new(
            inputs.server_seed, head + b.to_bytes(4, "big") + tail, hashlib.sha256
        ).digest()
        b += 1


def shuffled_deck(inputs: DeckInputs, k: int) -> list[int]:
    """Deal k's deck, deck[0] first (32 cards, or 24 without the sevens and eights)."""
    stream = block_stream(inputs, k)
    deck = list(range(32))
    for i in range(31, 0, -1):
        n = i + 1
        limit = 256 - 256 % n
        x = next(stream)
        while x >= limit:
            x = next(stream)
        j = x % n
        deck[i], deck[j] = deck[j], deck[i]
    if inputs.size == 24:
        deck = [c for c in deck if (c & 7) >= 2]
    return deck
