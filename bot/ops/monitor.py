"""The operator's HTTP port (``--metrics-port``): ``/metrics``, ``/healthz`` and the
browser check of a match under ``/verify/`` (:mod:`bot.ops.verify_site`).

``/metrics`` is Prometheus's text format (every metric of :mod:`bot.ops.metrics`).
``/healthz`` answers 200 when the bot can do its job and 503 when not, with a short JSON
body that says which part is wrong: the database must answer a query within
:data:`DB_TIMEOUT`, and every chat platform the process runs must be connected (the
console has no connection to lose). Container health checks and load balancers ask it.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from aiohttp import web
from prometheus_client import CONTENT_TYPE_LATEST, REGISTRY, generate_latest

from bot.ops import metrics, verify_site

log = logging.getLogger(__name__)

DB_TIMEOUT = 2.0


async def health(app: Any) -> tuple[bool, dict[str, Any]]:
    """(healthy, what each part says) for ``app`` (a BeloteApp)."""
    report: dict[str, Any] = {}
    try:
        # any read the store has (SQLite and PostgreSQL alike); row 0 never exists
        await asyncio.wait_for(app.store.match(0), DB_TIMEOUT)
        report["database"] = "ok"
    except Exception as exc:
        report["database"] = f"not answering: {type(exc).__name__}"
    platforms = metrics.connections()
    report["platform"] = {
        name: "connected" if up else "disconnected" for name, up in platforms.items()
    } or "console"
    report["started"] = bool(app.started)
    ok = report["database"] == "ok" and all(platforms.values()) and report["started"]
    return ok, report


class Monitor:
    """A small aiohttp server next to the bot, on its event loop."""

    def __init__(self, app: Any, port: int, host: str = "0.0.0.0") -> None:
        self.app = app
        self.port = port
        self.host = host
        self._runner: web.AppRunner | None = None

    async def start(self) -> None:
        server = web.Application()
        server.router.add_get("/metrics", self._metrics)
        server.router.add_get("/healthz", self._healthz)
        verify_site.register(server.router)
        self._runner = web.AppRunner(server, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, self.host, self.port)
        await site.start()
        if self.port == 0:  # an ephemeral port (tests): say which one was given
            sockets = getattr(site._server, "sockets", None) or []
            if sockets:
                self.port = sockets[0].getsockname()[1]
        log.info("metrics and health on http://%s:%d/metrics and /healthz", self.host, self.port)

    async def stop(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def _metrics(self, request: web.Request) -> web.Response:
        body = generate_latest(REGISTRY)
        return web.Response(body=body, headers={"Content-Type": CONTENT_TYPE_LATEST})

    async def _healthz(self, request: web.Request) -> web.Response:
        ok, report = await health(self.app)
        report["status"] = "ok" if ok else "unhealthy"
        return web.json_response(report, status=200 if ok else 503)
