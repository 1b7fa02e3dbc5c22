"""A local fake drand HTTP relay (aiohttp on 127.0.0.1) serving real quicknet beacons.

Tests point the real ``bot.proof.drand.DrandClient`` (real httpx) at it, never at the network.

Usage::

    from tests.fakes.drand_relay import drand_relay, closed_relay_url, REAL_BEACONS

    async with drand_relay() as relay:           # serves rounds 1 and 2 of quicknet
        client = DrandClient([relay.url], timeout=1.0)
        beacon = await client.fetch(1)
        relay.mode = "garbage"                   # switch behaviour at any time
        relay.beacons.pop(2)                     # round 2 now answers 404 (not yet published)
        assert relay.requests[-1] == "/52db.../public/1"

Modes (``relay.mode``):
  ``"ok"``       serve the beacons as drand does (404 for an unknown round);
  ``"slow"``     wait ``relay.delay`` seconds (default 10) before answering;
  ``"down"``     answer 503 to everything;
  ``"404"``      answer 404 to everything;
  ``"garbage"``  answer 200 with a body that is not JSON;
  ``"tampered"`` serve each beacon with one bit of its signature flipped (randomness fixed
                 up to match, so only the BLS check can catch it);
  ``"wrong_round"`` serve the beacon of another round than asked.
For a relay that refuses connections altogether, use :func:`closed_relay_url`.
"""

from __future__ import annotations

import asyncio
import hashlib
import socket
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field

from aiohttp import web

from bot.proof.drand import (
    QUICKNET_CHAIN_HASH,
    QUICKNET_GENESIS,
    QUICKNET_PERIOD,
    QUICKNET_PUBLIC_KEY,
    QUICKNET_SCHEME,
    Beacon,
)

#: Real quicknet beacons (they verify against the real public key).
REAL_BEACONS: dict[int, Beacon] = {
    1: Beacon(
        1,
        bytes.fromhex("1466a6cd24e327188770752f6134001c64d6efcc590ccc26b721611ad96f165a"),
        bytes.fromhex(
            "b55e7cb2d5c613ee0b2e28d6750aabbb78c39dcc96bd9d38"
            "c2c2e12198df95571de8e8e402a0cc48871c7089a2b3af4b"
        ),
    ),
    2: Beacon(
        2,
        bytes.fromhex("5782d6987841c654515a0e72b2d1ebb4e741234042c37cb19608ae50d93fb60c"),
        bytes.fromhex(
            "b6b6a585449b66eb12e875b64fcbab3799861a00e4dbf092"
            "d99e969a5eac57dd3f798acf61e705fe4f093db926626807"
        ),
    ),
}

MODES = ("ok", "slow", "down", "404", "garbage", "tampered", "wrong_round")


def tampered(beacon: Beacon, bit: int = 0) -> Beacon:
    """``beacon`` with one bit of its signature flipped and the randomness recomputed."""
    sig = bytearray(beacon.signature)
    sig[-1 - bit // 8] ^= 1 << (bit % 8)
    return Beacon(beacon.round, hashlib.sha256(bytes(sig)).digest(), bytes(sig))


@web.middleware
async def _cors(request: web.Request, handler) -> web.StreamResponse:
    """drand's relays let any web page read them (``Access-Control-Allow-Origin: *``):
    the browser check of a match (web/verify) asks them from the player's own page."""
    try:
        response = await handler(request)
    except web.HTTPException as exc:
        response = exc
    response.headers["Access-Control-Allow-Origin"] = "*"
    return response


@dataclass
class FakeDrandRelay:
    """One fake relay. ``url`` is set once started; everything else may change at any time."""

    beacons: dict[int, Beacon] = field(default_factory=lambda: dict(REAL_BEACONS))
    mode: str = "ok"
    delay: float = 10.0
    chain_hash: str = QUICKNET_CHAIN_HASH
    requests: list[str] = field(default_factory=list)
    url: str = ""
    _runner: web.AppRunner | None = None

    def _app(self) -> web.Application:
        app = web.Application(middlewares=[_cors])
        app.router.add_get("/{chain}/info", self._info)
        app.router.add_get("/{chain}/public/{round}", self._public)
        return app

    async def start(self) -> str:
        self._runner = web.AppRunner(self._app(), access_log=None, shutdown_timeout=0.2)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        port = self._runner.addresses[0][1]
        self.url = f"http://127.0.0.1:{port}"
        return self.url

    async def stop(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def _misbehave(self) -> web.StreamResponse | None:
        if self.mode == "slow":
            await asyncio.sleep(self.delay)
        elif self.mode == "down":
            return web.Response(status=503, text="service unavailable")
        elif self.mode == "404":
            return web.Response(status=404, text="404 page not found")
        elif self.mode == "garbage":
            return web.Response(status=200, text="<html>not json", content_type="text/html")
        return None

    async def _info(self, request: web.Request) -> web.StreamResponse:
        self.requests.append(request.path)
        bad = await self._misbehave()
        if bad is not None:
            return bad
        if request.match_info["chain"] != self.chain_hash:
            return web.Response(status=404, text="unknown chain hash")
        return web.json_response(
            {
                "public_key": QUICKNET_PUBLIC_KEY.hex(),
                "period": QUICKNET_PERIOD,
                "genesis_time": QUICKNET_GENESIS,
                "genesis_seed": "",
                "chain_hash": self.chain_hash,
                "schemeID": QUICKNET_SCHEME,
                "metadata": {"beaconID": "quicknet"},
            }
        )

    async def _public(self, request: web.Request) -> web.StreamResponse:
        self.requests.append(request.path)
        bad = await self._misbehave()
        if bad is not None:
            return bad
        if request.match_info["chain"] != self.chain_hash:
            return web.Response(status=404, text="unknown chain hash")
        which = request.match_info["round"]
        if which == "latest":
            if not self.beacons:
                return web.Response(status=404, text="no beacon yet")
            r = max(self.beacons)
        elif which.isdigit():
            r = int(which)
        else:
            return web.Response(status=400, text="bad round")
        beacon = self.beacons.get(r)
        if beacon is None:
            return web.Response(status=404, text="beacon not found")
        if self.mode == "tampered":
            beacon = tampered(beacon)
        elif self.mode == "wrong_round":
            others = [b for k, b in self.beacons.items() if k != r]
            beacon = others[0] if others else Beacon(r + 1, beacon.randomness, beacon.signature)
        return web.json_response(beacon.to_json())


@asynccontextmanager
async def drand_relay(
    mode: str = "ok", *, beacons: dict[int, Beacon] | None = None, delay: float = 10.0
) -> AsyncIterator[FakeDrandRelay]:
    """Start a fake relay on 127.0.0.1 (a free port) and stop it afterwards."""
    if mode not in MODES:
        raise ValueError(f"unknown fake relay mode {mode!r}; one of {MODES}")
    relay = FakeDrandRelay(
        beacons=dict(REAL_BEACONS) if beacons is None else beacons, mode=mode, delay=delay
    )
    await relay.start()
    try:
        yield relay
    finally:
        await relay.stop()


def closed_relay_url() -> str:
    """A 127.0.0.1 URL nothing listens on: a relay that is down (connection refused)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    return f"http://127.0.0.1:{port}"
