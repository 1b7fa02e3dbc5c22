"""drand quicknet: the public beacon whose value makes the third input of every deck.

The server names a round nobody knows yet; the deal waits for its value. A value is only
used once its BLS signature checks against quicknet's public key, so a lying relay cannot
choose the cards. Everything here is either pure (round arithmetic, verification) or an
async HTTP client that never raises: a table must deal on time with or without drand.

Verification uses ``py_arkworks_bls12381`` (Rust, about a millisecond) when it is installed,
and ``py_ecc`` (pure Python, about two seconds) otherwise; both give the same answer and
both are tested. Async callers must go through :func:`verify_beacon_async`, which runs the
check in a worker thread so the event loop keeps serving the tables.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import math
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from functools import cache, lru_cache
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    import httpx

from bot.ops import metrics

log = logging.getLogger(__name__)

QUICKNET_CHAIN_HASH = "52db9ba70e0cc0f6eaf7803dd07447a1f5477735fd3f661792ba94600c84e971"
QUICKNET_PUBLIC_KEY = bytes.fromhex(
    "83cf0f2896adee7eb8b5f01fcad3912212c437e0073e911fb90022d3e760183c"
    "8c4b450b6a0a6c3ac6a5776a2d1064510d1fec758c921cc22b0e17e63aaf4bcb"
    "5ed66304de9cf809bd274ca73bab4af5a6e9c76a4bc09e76eae8991ef5ece45a"
)
QUICKNET_GENESIS = 1692803367
QUICKNET_PERIOD = 3
QUICKNET_SCHEME = "bls-unchained-g1-rfc9380"
DST_G1 = b"BLS_SIG_BLS12381G1_XMD:SHA-256_SSWU_RO_NUL_"

PUBLIC_RELAYS: tuple[str, ...] = (
    "https://api.drand.sh",
    "https://api2.drand.sh",
    "https://api3.drand.sh",
    "https://drand.cloudflare.com",
)

#: The table's rule: a value not arrived this many seconds after its round is due is given
#: up, and the match is dealt from the seeds alone.
GRACE_SECONDS = 5.0

_MAX_ROUND = 2**64 - 1


def round_at(unix_time: float) -> int:
    """The latest round published at ``unix_time`` (0 before quicknet's genesis)."""
    if unix_time < QUICKNET_GENESIS:
        return 0
    return math.floor((unix_time - QUICKNET_GENESIS) / QUICKNET_PERIOD) + 1


def time_of_round(r: int) -> float:
    """When round ``r`` is published (unix seconds)."""
    if r < 1:
        raise ValueError("drand rounds start at 1")
    return float(QUICKNET_GENESIS + (r - 1) * QUICKNET_PERIOD)


def first_round_after(unix_time: float) -> int:
    """The first round whose value nobody can know at ``unix_time``: the one to name."""
    return round_at(unix_time) + 1


def round_message(r: int) -> bytes:
    """What quicknet signs for round ``r``: sha256 of the round as 8 bytes big-endian."""
    return hashlib.sha256(r.to_bytes(8, "big")).digest()


@dataclass(frozen=True)
class Beacon:
    """One drand round as a relay serves it: ``randomness`` is ``sha256(signature)``."""

    round: int
    randomness: bytes
    signature: bytes

    def to_json(self) -> dict[str, Any]:
        return {
            "round": self.round,
            "randomness": self.randomness.hex(),
            "signature": self.signature.hex(),
        }

    @classmethod
    def from_json(cls, data: Any) -> Beacon:
        """Parse a relay's answer; ``ValueError`` with a short text when it is malformed."""
        if not isinstance(data, dict):
            raise ValueError("a drand beacon is a JSON object")
        r = data.get("round")
        if isinstance(r, bool) or not isinstance(r, int) or not 1 <= r <= _MAX_ROUND:
            raise ValueError("a drand beacon needs a positive integer round")
        try:
            randomness = bytes.fromhex(data["randomness"])
            signature = bytes.fromhex(data["signature"])
        except (KeyError, TypeError, ValueError) as exc:
            raise ValueError("a drand beacon needs hex randomness and signature") from exc
        return cls(r, randomness, signature)


# --- BLS verification -------------------------------------------------------------------


class _Backend(Protocol):
    name: str

    def verify(self, public_key: bytes, message: bytes, signature: bytes) -> bool: ...


class _ArkworksBackend:
    """py_arkworks_bls12381: Rust arkworks, a pairing check in about a millisecond."""

    name = "arkworks"

    def __init__(self) -> None:
        import py_arkworks_bls12381 as ark

        self._ark = ark
        self._g2 = ark.G2Point()

    @lru_cache(maxsize=8)  # noqa: B019 - a handful of public keys, process-long
    def _public_key(self, public_key: bytes) -> Any:
        pk = self._ark.G2Point.from_compressed_bytes(public_key)
        if not pk.is_in_subgroup() or pk == self._ark.G2Point.identity():
            raise ValueError("public key is not a point of G2")
        return pk

    def verify(self, public_key: bytes, message: bytes, signature: bytes) -> bool:
        ark = self._ark
        pk = self._public_key(public_key)
        sig = ark.G1Point.from_compressed_bytes(signature)
        if not sig.is_in_subgroup() or sig == ark.G1Point.identity():
            return False
        hm = ark.G1Point.hash_to_curve(message, DST_G1)
        # e(sig, g2) == e(H(m), pk)  <=>  e(sig, g2) * e(-H(m), pk) == 1
        return bool(ark.GT.pairing_check([sig, -hm], [self._g2, pk]))


class _PyEccBackend:
    """py_ecc: pure Python, about two seconds a beacon; always available."""

    name = "py_ecc"

    @lru_cache(maxsize=8)  # noqa: B019 - a handful of public keys, process-long
    def _public_key(self, public_key: bytes) -> Any:
        from eth_typing import BLSSignature
        from py_ecc.bls.g2_primitives import signature_to_G2, subgroup_check
        from py_ecc.optimized_bls12_381 import is_inf

        # named for the other ciphersuite: this decompresses a 96-byte G2 point
        pk = signature_to_G2(BLSSignature(public_key))
        if is_inf(pk) or not subgroup_check(pk):
            raise ValueError("public key is not a point of G2")
        return pk

    def verify(self, public_key: bytes, message: bytes, signature: bytes) -> bool:
        from eth_typing import BLSPubkey
        from py_ecc.bls.g2_primitives import pubkey_to_G1, subgroup_check
        from py_ecc.bls.hash_to_curve import hash_to_G1
        from py_ecc.optimized_bls12_381 import (
            FQ12,
            G2,
            final_exponentiate,
            is_inf,
            neg,
            pairing,
        )

        pk = self._public_key(public_key)
        # named for the other ciphersuite: this decompresses a 48-byte G1 point
        sig = pubkey_to_G1(BLSPubkey(signature))
        if is_inf(sig) or not subgroup_check(sig):
            return False
        # py_ecc annotates the hash *function* it calls as a hash object (_hashlib.HASH)
        hm = hash_to_G1(message, DST_G1, hashlib.sha256)  # type: ignore[arg-type]
        # One final exponentiation for both Miller loops: e(g2, sig) * e(-pk, H(m)) == 1.
        product = pairing(G2, sig, final_exponentiate=False) * pairing(
            neg(pk), hm, final_exponentiate=False
        )
        return final_exponentiate(product) == FQ12.one()


def _pick_backend() -> _Backend:
    try:
        return _ArkworksBackend()
    except ImportError:
        return _PyEccBackend()


BACKENDS: dict[str, Callable[[], _Backend]] = {
    "arkworks": _ArkworksBackend,
    "py_ecc": _PyEccBackend,
}
_backend: _Backend = _pick_backend()


@cache
def _backend_named(name: str) -> _Backend:
    return BACKENDS[name]()


def backend_name() -> str:
    """Which BLS implementation :func:`verify_beacon` uses ("arkworks" or "py_ecc")."""
    return _backend.name


def verify_beacon(
    beacon: Beacon, public_key: bytes = QUICKNET_PUBLIC_KEY, *, backend: str | None = None
) -> bool:
    """True only when ``beacon`` is quicknet's real value for its round.

    Checks ``randomness == sha256(signature)`` and the BLS signature of the round's message
    under ``public_key``. Never raises: anything malformed is simply not verified. CPU-heavy
    with py_ecc: from async code call :func:`verify_beacon_async`.
    """
    try:
        if not isinstance(beacon.round, int) or not 1 <= beacon.round <= _MAX_ROUND:
            return False
        if len(beacon.signature) != 48 or len(beacon.randomness) != 32:
            return False
        if hashlib.sha256(beacon.signature).digest() != beacon.randomness:
            return False
        impl = _backend_named(backend) if backend else _backend
        return impl.verify(bytes(public_key), round_message(beacon.round), beacon.signature)
    except Exception:  # malformed points, wrong types: not a valid beacon
        return False


async def verify_beacon_async(beacon: Beacon, public_key: bytes = QUICKNET_PUBLIC_KEY) -> bool:
    """:func:`verify_beacon` in a worker thread, so the event loop is never blocked."""
    return await asyncio.to_thread(verify_beacon, beacon, public_key)


# --- the HTTP client --------------------------------------------------------------------


class Clock(Protocol):
    def now(self) -> float: ...


Sleep = Callable[[float], Awaitable[Any]]


class DrandClient:
    """Fetches verified quicknet beacons from a list of relays, first that answers well.

    No method raises for network trouble, a slow or lying relay, or garbage: they return
    ``None`` and the caller deals without drand, as the table's rule says.
    """

    def __init__(
        self,
        relays: Sequence[str] = PUBLIC_RELAYS,
        timeout: float = 2.0,
        *,
        chain_hash: str = QUICKNET_CHAIN_HASH,
        public_key: bytes = QUICKNET_PUBLIC_KEY,
        retry_interval: float = 0.5,
    ) -> None:
        if not relays:
            raise ValueError("DrandClient needs at least one relay")
        self.relays = [r.rstrip("/") for r in relays]
        self.timeout = timeout
        self.chain_hash = chain_hash
        self.public_key = public_key
        self.retry_interval = retry_interval
        self._http: httpx.AsyncClient | None = None

    def _client(self) -> httpx.AsyncClient:
        if self._http is None or self._http.is_closed:
            import httpx  # here, not at the top: a table with no drand never loads it (0.1 s)

            self._http = httpx.AsyncClient(
                timeout=httpx.Timeout(self.timeout), headers={"Accept": "application/json"}
            )
        return self._http

    async def aclose(self) -> None:
        if self._http is not None:
            await self._http.aclose()
            self._http = None

    async def __aenter__(self) -> DrandClient:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()

    async def _from_relay(self, relay: str, path: str) -> Beacon | None:
        url = f"{relay}/{self.chain_hash}/public/{path}"
        try:
            # wait_for as well as httpx's timeout: a relay dripping bytes is cut off too
            resp = await asyncio.wait_for(self._client().get(url), self.timeout)
            if resp.status_code != 200:
                log.info("drand relay %s answered %s for %s", relay, resp.status_code, path)
                return None
            beacon = Beacon.from_json(resp.json())
            metrics.drand_beacon("fetched")
            return beacon
        except Exception as exc:  # network, timeout, JSON, shape: try the next relay
            log.info("drand relay %s failed for %s: %s", relay, path, type(exc).__name__)
            return None

    async def fetch(self, round: int) -> Beacon | None:
        """The verified beacon of ``round`` from the first relay that serves it, or None."""
        try:
            return await self._fetch(round)
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # never let a beacon problem reach the table
            log.warning("drand fetch of round %s failed: %s", round, type(exc).__name__)
            return None

    async def _fetch(self, round: int) -> Beacon | None:
        for relay in self.relays:
            beacon = await self._from_relay(relay, str(round))
            if beacon is None:
                continue
            if beacon.round != round:
                log.warning("drand relay %s served round %s for %s", relay, beacon.round, round)
                continue
            if await self._verified(beacon):
                return beacon
            log.warning("drand relay %s served a beacon that does not verify", relay)
        return None

    async def _verified(self, beacon: Beacon) -> bool:
        ok = await verify_beacon_async(beacon, self.public_key)
        metrics.drand_beacon("verified" if ok else "rejected")
        return ok

    async def latest(self) -> Beacon | None:
        """The newest verified beacon any relay serves, or None."""
        try:
            for relay in self.relays:
                beacon = await self._from_relay(relay, "latest")
                if beacon is not None and await self._verified(beacon):
                    return beacon
        except asyncio.CancelledError:
            raise
        except Exception as exc:
            log.warning("drand latest failed: %s", type(exc).__name__)
        return None

    async def fetch_until(
        self,
        round: int,
        deadline: float | None = None,
        clock: Clock | None = None,
        *,
        sleep: Sleep | None = None,
    ) -> Beacon | None:
        """Wait until ``round`` is due, then fetch it, retrying until ``deadline``.

        ``deadline`` defaults to the table's rule: :data:`GRACE_SECONDS` after the round is
        due. ``clock`` gives the time (``now()``); ``sleep`` waits (defaults to the clock's
        own ``sleep`` when it has one, else ``asyncio.sleep``), so tests can run in fake
        time. Returns None when the deadline passes first.
        """
        import time

        now = clock.now if clock is not None else time.time
        if sleep is None:
            sleep = getattr(clock, "sleep", None) or asyncio.sleep
        due = time_of_round(round)
        if deadline is None:
            deadline = due + GRACE_SECONDS
        try:
            if now() < due:
                await sleep(due - now())
            while True:
                left = deadline - now()
                if left <= 0:
                    return None
                try:
                    beacon = await asyncio.wait_for(self.fetch(round), left)
                except TimeoutError:
                    return None
                if beacon is not None:
                    return beacon
                left = deadline - now()
                if left <= 0:
                    return None
                await sleep(min(self.retry_interval, left))
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # never let a beacon problem stop a deal
            log.warning("drand fetch for round %s gave up: %s", round, type(exc).__name__)
            return None
