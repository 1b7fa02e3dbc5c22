"""drand quicknet: round arithmetic, BLS verification of real beacons, the client."""

from __future__ import annotations

import dataclasses

import pytest

from bot.proof import drand
from bot.proof.drand import (
    QUICKNET_GENESIS,
    Beacon,
    DrandClient,
    first_round_after,
    round_at,
    time_of_round,
    verify_beacon,
)
from tests.fakes.drand_relay import REAL_BEACONS, closed_relay_url, drand_relay, tampered

B1, B2 = REAL_BEACONS[1], REAL_BEACONS[2]
ALL_BACKENDS = ["py_ecc", "arkworks"]


def test_round_arithmetic() -> None:
    assert round_at(QUICKNET_GENESIS) == 1
    assert round_at(QUICKNET_GENESIS + 2.999) == 1
    assert round_at(QUICKNET_GENESIS + 3) == 2
    assert round_at(QUICKNET_GENESIS - 1) == 0
    assert time_of_round(1) == QUICKNET_GENESIS
    assert time_of_round(2) == QUICKNET_GENESIS + 3
    for r in (1, 2, 1000, 12_345_678):
        assert round_at(time_of_round(r)) == r
        assert round_at(time_of_round(r) - 0.001) == r - 1
    assert first_round_after(QUICKNET_GENESIS + 1) == 2
    with pytest.raises(ValueError):
        time_of_round(0)


@pytest.mark.parametrize("backend", ALL_BACKENDS)
@pytest.mark.parametrize("beacon", [B1, B2], ids=["round1", "round2"])
def test_real_beacons_verify(beacon: Beacon, backend: str) -> None:
    assert verify_beacon(beacon, backend=backend)


@pytest.mark.parametrize("backend", ALL_BACKENDS)
def test_tampered_beacons_fail(backend: str) -> None:
    # the right signature under the wrong round
    assert not verify_beacon(dataclasses.replace(B1, round=2), backend=backend)
    assert not verify_beacon(dataclasses.replace(B2, round=1), backend=backend)
    # a flipped bit in the signature, randomness recomputed so only BLS can tell
    for bit in (0, 9, 200):
        assert not verify_beacon(tampered(B1, bit), backend=backend)
    # randomness that is not sha256(signature)
    rnd = bytearray(B1.randomness)
    rnd[0] ^= 1
    assert not verify_beacon(dataclasses.replace(B1, randomness=bytes(rnd)), backend=backend)
    # malformed sizes never raise
    assert not verify_beacon(dataclasses.replace(B1, signature=B1.signature[:47]), backend=backend)
    assert not verify_beacon(dataclasses.replace(B1, round=0), backend=backend)
    assert not verify_beacon(Beacon(1, b"", b""), backend=backend)


def test_default_backend_is_fast_one_when_installed() -> None:
    pytest.importorskip("py_arkworks_bls12381")
    assert drand.backend_name() == "arkworks"


def test_beacon_json_round_trip_and_garbage() -> None:
    assert Beacon.from_json(B1.to_json()) == B1
    for bad in (
        None,
        [],
        {"round": "1"},
        {"round": 1},
        {"round": 1, "randomness": "zz"},
        {"round": True, "randomness": "", "signature": ""},
    ):
        with pytest.raises(ValueError):
            Beacon.from_json(bad)


async def test_client_fetches_verified_beacon() -> None:
    async with drand_relay() as relay, DrandClient([relay.url], timeout=2.0) as client:
        assert await client.fetch(1) == B1
        assert await client.fetch(2) == B2
        assert await client.latest() == B2
        assert await client.fetch(3) is None  # 404: not published
        assert relay.requests[0] == f"/{drand.QUICKNET_CHAIN_HASH}/public/1"


async def test_client_tries_next_relay_when_one_is_down() -> None:
    async with (
        drand_relay("down") as down,
        drand_relay() as good,
        DrandClient([closed_relay_url(), down.url, good.url], timeout=2.0) as client,
    ):
        assert await client.fetch(2) == B2
        assert down.requests and good.requests


@pytest.mark.parametrize("mode", ["garbage", "404", "down", "tampered", "wrong_round"])
async def test_client_bad_relay_gives_none(mode: str) -> None:
    async with drand_relay(mode) as relay, DrandClient([relay.url], timeout=2.0) as client:
        assert await client.fetch(1) is None
        if mode != "wrong_round":  # "latest" has no round to disagree with
            assert await client.latest() is None
        assert relay.requests


async def test_client_bad_relay_then_good_one() -> None:
    async with (
        drand_relay("tampered") as liar,
        drand_relay() as good,
        DrandClient([liar.url, good.url], timeout=2.0) as client,
    ):
        assert await client.fetch(1) == B1


async def test_client_timeout_gives_none() -> None:
    async with drand_relay("slow", delay=5.0) as relay, DrandClient([relay.url], 0.2) as client:
        assert await client.fetch(1) is None


class FakeClock:
    """Fake time: sleeping advances the clock at once."""

    def __init__(self, t: float) -> None:
        self.t = t
        self.slept: list[float] = []

    def now(self) -> float:
        return self.t

    async def sleep(self, seconds: float) -> None:
        self.slept.append(seconds)
        self.t += seconds


async def test_fetch_until_waits_for_the_round_then_fetches() -> None:
    clock = FakeClock(time_of_round(2) - 2.5)
    async with drand_relay() as relay, DrandClient([relay.url], 1.0) as client:
        assert await client.fetch_until(2, clock=clock) == B2
        assert clock.slept[0] == pytest.approx(2.5)


async def test_fetch_until_retries_until_published() -> None:
    clock = FakeClock(time_of_round(2))
    async with drand_relay(beacons={1: B1}) as relay, DrandClient([relay.url], 1.0) as client:
        published = False

        async def sleep(seconds: float) -> None:
            nonlocal published
            await clock.sleep(seconds)
            if not published and clock.now() >= time_of_round(2) + 1:
                relay.beacons[2] = B2  # the relay catches up a second late
                published = True

        assert await client.fetch_until(2, clock=clock, sleep=sleep) == B2
        assert published
        assert len(relay.requests) >= 2


async def test_fetch_until_gives_up_at_the_deadline() -> None:
    clock = FakeClock(time_of_round(2))
    async with drand_relay(beacons={1: B1}) as relay, DrandClient([relay.url], 1.0) as client:
        assert await client.fetch_until(2, clock=clock) is None
        assert clock.now() >= time_of_round(2) + drand.GRACE_SECONDS
        assert clock.now() < time_of_round(2) + drand.GRACE_SECONDS + 1


async def test_fetch_until_slow_relay_gives_up_in_real_time() -> None:
    """With the real clock, a relay that never answers costs the deadline and no more."""
    import time

    class Late:
        def now(self) -> float:  # round 1 is long due: the deadline is 0.5 s from now
            return time.time()

    async with drand_relay("slow", delay=5.0) as relay, DrandClient([relay.url], 3.0) as client:
        start = time.monotonic()
        assert await client.fetch_until(1, deadline=time.time() + 0.5, clock=Late()) is None
        assert time.monotonic() - start < 2.5


def test_falls_back_to_py_ecc_without_arkworks(monkeypatch: pytest.MonkeyPatch) -> None:
    import sys

    monkeypatch.setitem(sys.modules, "py_arkworks_bls12381", None)  # import now fails
    backend = drand._pick_backend()
    assert backend.name == "py_ecc"
    monkeypatch.setattr(drand, "_backend", backend)
    assert drand.backend_name() == "py_ecc"
    assert verify_beacon(B2)
    assert not verify_beacon(tampered(B2))


async def test_verify_runs_off_the_event_loop(monkeypatch: pytest.MonkeyPatch) -> None:
    """The CPU-heavy check runs in a worker thread: the loop stays free meanwhile."""
    import threading

    seen: list[bool] = []
    real = drand.verify_beacon

    def spy(beacon: Beacon, public_key: bytes = drand.QUICKNET_PUBLIC_KEY) -> bool:
        seen.append(threading.current_thread() is threading.main_thread())
        return real(beacon, public_key)

    monkeypatch.setattr(drand, "verify_beacon", spy)
    assert await drand.verify_beacon_async(B1)
    assert seen == [False]
