"""One injectable clock and one injectable source of randomness.

Every deadline and every secret of the core goes through these two, so tests run timers in
fake time and a seeded source makes whole runs reproducible (the SIGKILL test, the bench).
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import secrets
import time
from typing import Protocol


class Clock(Protocol):
    def now(self) -> float: ...


class SystemClock:
    """Wall-clock unix time: deadlines in the database survive restarts."""

    def now(self) -> float:
        return time.time()


class FakeClock:
    """Time that only moves when a test says so (see ``bot.ops.scheduler.FakeScheduler``)."""

    def __init__(self, start: float = 1_800_000_000.0) -> None:
        self.t = float(start)

    def now(self) -> float:
        return self.t

    def set(self, t: float) -> None:
        self.t = max(self.t, float(t))

    async def sleep(self, seconds: float) -> None:
        """Used by the drand fetcher: moves fake time forward instead of waiting."""
        self.t += max(0.0, seconds)
        await asyncio.sleep(0)


class Randomness(Protocol):
    def token_bytes(self, n: int, label: str) -> bytes: ...


class SystemRandomness:
    """The operating system's CSPRNG: what production draws server seeds from."""

    def token_bytes(self, n: int, label: str) -> bytes:
        return secrets.token_bytes(n)


class SeededRandomness:
    """Bytes derived from one seed and a label (``server-seed/m12``): same label, same bytes.

    Keyed by label rather than by a stream position so a restarted process draws the same
    values for the same purposes, whatever was drawn before the restart. Tests only.
    """

    def __init__(self, seed: bytes | str | int) -> None:
        if isinstance(seed, int):
            seed = seed.to_bytes(16, "big")
        elif isinstance(seed, str):
            seed = seed.encode()
        self._key = hashlib.sha256(b"belote/seeded/" + seed).digest()

    def token_bytes(self, n: int, label: str) -> bytes:
        out = b""
        block = 0
        while len(out) < n:
            msg = label.encode() + b"/" + block.to_bytes(4, "big")
            out += hmac.new(self._key, msg, hashlib.sha256).digest()
            block += 1
        return out[:n]
