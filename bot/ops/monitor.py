"""The operator's HTTP port (``--metrics-port``): ``/metrics``, ``/livez``, ``/readyz``
(``/healthz``) and the browser check of a match under ``/verify/``
(:mod:`bot.ops.verify_site`).

``/metrics`` is Prometheus's text format (every metric of :mod:`bot.ops.metrics`).
``/livez`` (liveness) answers 200 while the process's event loop runs: restart the
process only when it stops answering. ``/readyz`` (readiness; ``/healthz`` is the same)
answers 200 when the bot can do its job and 503 when not, with a short JSON body that says
which part is wrong, always within :data:`READY_BOUND` seconds, even while the database
is locked by another program or its disk stalls: the database answers a read and takes a
real write (a probe row, waiting at most the bound for a lock), each on a connection and a
thread of its own, never on the bot's own connection; its disk has room; every chat
platform the process runs is connected (the console has no connection to lose); the tables
have been resumed. Container health checks and load balancers ask it. /livez touches no
database at all.
"""

from __future__ import annotations

import asyncio
import logging
import os
import time
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from aiohttp import web
from prometheus_client import CONTENT_TYPE_LATEST, REGISTRY, generate_latest

from bot.ops import metrics, verify_site
from bot.ops.version import VERSION

log = logging.getLogger(__name__)

#: Seconds /readyz takes at most: each check is given this long, all run at once.
READY_BOUND = 2.0
DB_TIMEOUT = READY_BOUND  # the name the tests and older callers know
#: Free bytes under which the database's disk counts as full (a commit needs a few pages,
#: a checkpoint more).
MIN_FREE_BYTES = 1 << 20


class Checks:
    """The checks under way, one of each kind at a time: a check that outlasts the bound
    (a write waiting for a lock, a read on a stalled disk) is left to finish on its own
    and the next ask waits for that same one, so checks never pile up, however often
    /readyz is asked. A check is never cancelled: cancelling a call that sits on a
    queue (aiosqlite's) and waiting for the cancellation to finish is what would stretch
    the bound."""

    def __init__(self) -> None:
        self._running: dict[str, asyncio.Future[Any]] = {}
        self._disk_thread: ThreadPoolExecutor | None = None

    def in_thread(self, fn: Callable[..., Any], *args: Any) -> asyncio.Future[Any]:
        """``fn`` on a thread of the checks' own (the default pool may be busy drawing
        pictures or thinking for bots)."""
        if self._disk_thread is None:
            self._disk_thread = ThreadPoolExecutor(1, thread_name_prefix="belote-disk-check")
        return asyncio.get_running_loop().run_in_executor(self._disk_thread, fn, *args)

    def close(self) -> None:
        pool, self._disk_thread = self._disk_thread, None
        if pool is not None:
            pool.shutdown(wait=False, cancel_futures=True)

    def start(
        self, kind: str, make: Callable[[], Awaitable[Any]]
    ) -> tuple[asyncio.Future[Any], bool]:
        """The check of that kind under way, else a new one; and whether it is new."""
        fut = self._running.get(kind)
        if fut is not None and not fut.done():
            return fut, False
        fut = asyncio.ensure_future(make())
        fut.add_done_callback(_consume)
        self._running[kind] = fut
        return fut, True

    async def say(self, kind: str, make: Callable[[], Awaitable[Any]], what: str) -> str:
        """What a check of that kind says within :data:`READY_BOUND`. One that was
        already under way (started before this ask, when the database may have been
        locked) and failed is followed by a new one in the time left, so the answer is
        about now."""
        ends = time.monotonic() + READY_BOUND
        fut, new = self.start(kind, make)
        said = await _within(fut, what, READY_BOUND)
        left = ends - time.monotonic()
        if said != "ok" and not new and fut.done() and left > 0.05:
            fut, _ = self.start(kind, make)
            said = await _within(fut, what, left)
        return said


async def _within(check: asyncio.Future[Any], what: str, seconds: float) -> str:
    """What ``check`` says, or that it did not finish within :data:`READY_BOUND`: waits
    for it (``seconds`` at most) without cancelling it (see :class:`Checks`)."""
    done, _ = await asyncio.wait({check}, timeout=seconds)
    if not done:
        return f"{what} within {READY_BOUND:g} s"
    exc = check.exception()
    if exc is not None:
        return f"{what}: {type(exc).__name__}: {str(exc)[:200]}"
    return "ok"


def disk_report(store: Any) -> str:
    """``ok``, or why the database's disk will not take its writes (SQLite only: a
    PostgreSQL server watches its own disk)."""
    if getattr(store, "shared", False) or getattr(store, "path", ":memory:") == ":memory:":
        return "ok"
    folder = Path(store.path).resolve().parent
    try:
        st = os.statvfs(folder)
    except OSError as exc:
        return f"cannot be checked: {exc.strerror or exc}"
    free = st.f_bavail * st.f_frsize
    if free < MIN_FREE_BYTES:
        need = MIN_FREE_BYTES >> 20
        return f"full: {free // 1024} KiB free in {folder} (at least {need} MiB needed)"
    return "ok"


class DiskProblem(Exception):
    """What :func:`disk_report` said, when it is not ``ok``."""


def _disk_ok(store: Any) -> None:
    said = disk_report(store)
    if said != "ok":
        raise DiskProblem(said)


async def health(app: Any, checks: Checks | None = None) -> tuple[bool, dict[str, Any]]:
    """(ready, what each part says) for ``app`` (a BeloteApp), within :data:`READY_BOUND`
    whatever the database does: its read, its write and its disk are each checked off
    the event loop and off the bot's own database connection (a commit waiting there for
    another program's lock holds up every call behind it). ``checks``: the ones under way
    (the monitor's), else new ones."""
    store = app.store
    checks = checks or Checks()
    started = time.monotonic()
    read_said, write_said, disk_said = await asyncio.gather(
        checks.say("read", lambda: store.probe_read(READY_BOUND), "not answering"),
        checks.say("write", lambda: store.probe_write(READY_BOUND), "cannot write"),
        checks.say("disk", lambda: checks.in_thread(_disk_ok, store), "not answering"),
    )
    report: dict[str, Any] = {"version": VERSION}
    report["database"] = read_said if read_said != "ok" else write_said
    report["disk"] = disk_said.removeprefix("not answering: DiskProblem: ")
    if report["database"].startswith("cannot write") and "full" in report["database"]:
        report["disk"] = report["disk"] if report["disk"] != "ok" else "full (the database says)"
    metrics.database_up(report["database"] == "ok")
    platforms = metrics.connections()
    report["platform"] = {
        name: "connected" if up else "disconnected" for name, up in platforms.items()
    } or "console"
    report["started"] = bool(app.started)
    report["seconds"] = round(time.monotonic() - started, 3)
    ok = (
        report["database"] == "ok"
        and report["disk"] == "ok"
        and all(platforms.values())
        and report["started"]
    )
    return ok, report


class Monitor:
    """A small aiohttp server next to the bot, on its event loop."""

    def __init__(self, app: Any, port: int, host: str = "0.0.0.0") -> None:
        self.app = app
        self.port = port
        self.host = host
        self._runner: web.AppRunner | None = None
        self._checks = Checks()

    async def start(self) -> None:
        server = web.Application()
        server.router.add_get("/metrics", self._metrics)
        server.router.add_get("/healthz", self._healthz)
        server.router.add_get("/readyz", self._healthz)
        server.router.add_get("/livez", self._livez)
        verify_site.register(server.router)
        self._runner = web.AppRunner(server, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, self.host, self.port)
        try:
            await site.start()
        except OSError as exc:
            await self._runner.cleanup()
            self._runner = None
            from bot.ops.settings import Problem, StartRefused

            text = f"port {self.port} cannot be listened on ({exc.strerror or exc})"
            raise StartRefused(Problem("BELOTE_METRICS_PORT", text)) from None
        if self.port == 0:  # an ephemeral port (tests): say which one was given
            sockets = getattr(site._server, "sockets", None) or []
            if sockets:
                self.port = sockets[0].getsockname()[1]
        log.info("metrics and health on http://%s:%d/metrics and /healthz", self.host, self.port)

    async def stop(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None
        self._checks.close()

    async def _metrics(self, request: web.Request) -> web.Response:
        body = generate_latest(REGISTRY)
        return web.Response(body=body, headers={"Content-Type": CONTENT_TYPE_LATEST})

    async def _livez(self, request: web.Request) -> web.Response:
        return web.json_response({"status": "alive", "version": VERSION})

    async def _healthz(self, request: web.Request) -> web.Response:
        ok, report = await health(self.app, self._checks)
        report["status"] = "ok" if ok else "unhealthy"
        return web.json_response(report, status=200 if ok else 503)


def _consume(task: asyncio.Future[Any]) -> None:
    """A check's exception is reported by /readyz; never "exception was never retrieved"."""
    if not task.cancelled():
        task.exception()
