"""Every Prometheus metric of the bot, and the small hooks that move them.

One module so an operator reads here what is measured, and each place in the code where a
thing happens calls one hook (a function, or a decorator on the one function that does
it). The metrics live in prometheus-client's default registry (which also carries the
process's CPU, memory and open files); :mod:`bot.ops.monitor` serves them on
``--metrics-port``. Labels are few and bounded: a platform, a ruleset, a bot level, a
kind of picture, an HTTP status, never a table or a user (those would grow without end).
"""

from __future__ import annotations

import functools
import time
import weakref
from collections.abc import Awaitable, Callable, Coroutine, Iterator, Mapping
from typing import Any, ParamSpec, Protocol, TypeVar

from prometheus_client import REGISTRY, Counter, Gauge, Histogram, Info
from prometheus_client.core import GaugeMetricFamily
from prometheus_client.registry import Collector

from bot.ops.version import VERSION

P = ParamSpec("P")
R = TypeVar("R")

# Seconds: from a millisecond (a commit on a quiet SQLite) to a minute (an expert's search
# on a loaded machine). One set of buckets, so the panels compare alike.
BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0)

ACTIONS = Counter(
    "belote_actions",
    "Actions applied to matches (bids and cards), by who made them",
    ["platform", "ruleset", "by"],
)
ACTION_SECONDS = Histogram(
    "belote_action_seconds",
    "Handling one action: its commit, then the posts it changes",
    ["platform"],
    buckets=BUCKETS,
)
COMMIT_SECONDS = Histogram(
    "belote_commit_seconds",
    "One database transaction (a group commit of every write waiting)",
    buckets=BUCKETS,
)
THINK_SECONDS = Histogram(
    "belote_bot_think_seconds",
    "A bot choosing its action, by level",
    ["level"],
    buckets=BUCKETS,
)
COMMIT_FAILURES = Counter(
    "belote_commit_failures",
    "Database transactions that failed (disk full, database gone, locked too long); a "
    "table lost to another process is not a failure",
)
DATABASE_UP = Gauge(
    "belote_database_up",
    "1 while the database takes writes (the last commit or readiness probe succeeded)",
)
BUILD_INFO = Info("belote_build", "The running bot's version")
BUILD_INFO.info({"version": VERSION})
PICTURE_SECONDS = Histogram(
    "belote_picture_seconds",
    "Drawing one picture (table, hand, replay); its count is the pictures drawn",
    ["kind"],
    buckets=BUCKETS,
)
PICTURE_FAILURES = Counter("belote_picture_failures", "Pictures that could not be drawn", ["kind"])
API_ERRORS = Counter(
    "belote_platform_api_errors",
    "Platform API calls that failed (HTTP status, or the error's type)",
    ["platform", "status"],
)
RATE_LIMIT_WAITS = Counter(
    "belote_platform_rate_limit_waits",
    "Times a platform's rate limit made the bot wait",
    ["platform"],
)
RATE_LIMIT_SECONDS = Counter(
    "belote_platform_rate_limit_wait_seconds",
    "Seconds spent waiting for a platform's rate limit",
    ["platform"],
)
PLATFORM_CONNECTED = Gauge(
    "belote_platform_connected", "1 while the platform's connection is up", ["platform"]
)
DRAND_BEACONS = Counter(
    "belote_drand_beacons",
    "drand beacons: fetched from a relay, verified, rejected (bad signature), "
    "fallback (a deal made without drand's value)",
    ["outcome"],
)
DRAND_OUTCOMES = ("fetched", "verified", "rejected", "fallback")
WEB_SOCKETS = Gauge(
    "belote_web_sockets", "Web table sockets signed in, seated or watching", ["kind"]
)
WEB_REFUSED = Counter(
    "belote_web_refused",
    "Web table sockets and frames refused: a sign-in (refused, gone, timeout), another "
    "site's page (origin), a frame not understood (frame), a flood (flood)",
    ["why"],
)


def platform_of(channel_id: str) -> str:
    """The platform of a core channel id (``"discord:1/2"`` -> ``"discord"``)."""
    head, sep, _ = channel_id.partition(":")
    return head if sep and head else "other"


# --- tables and matches: read from the running apps when scraped -----------------------


class CountedSettings(Protocol):
    """What the gauges read of a table's settings."""

    @property
    def ruleset(self) -> str: ...


class CountedTable(Protocol):
    """What the gauges read of a table: where it is, what it plays, how far it got."""

    @property
    def channel(self) -> str: ...

    @property
    def settings(self) -> CountedSettings: ...

    @property
    def status(self) -> str: ...


class WatchedApp(Protocol):
    """What the gauges read of a running app (the core's ``BeloteApp``): its tables, in
    memory, by id. A Protocol so that ops/ names what it reads without importing the core."""

    @property
    def tables(self) -> Mapping[int, CountedTable]: ...


_apps: weakref.WeakSet[WatchedApp] = weakref.WeakSet()


class _TablesCollector(Collector):
    """Open tables and matches in progress, counted from the apps' memory at each scrape
    (a gauge kept by hand would drift from the truth at the first missed path)."""

    def collect(self) -> Iterator[GaugeMetricFamily]:
        tables = GaugeMetricFamily(
            "belote_tables_open", "Tables not closed", labels=["platform", "ruleset"]
        )
        matches = GaugeMetricFamily(
            "belote_matches_in_progress", "Matches being played", labels=["platform", "ruleset"]
        )
        open_: dict[tuple[str, str], int] = {}
        playing: dict[tuple[str, str], int] = {}
        for app in list(_apps):
            for t in list(app.tables.values()):
                if t.status == "closed":
                    continue
                key = (platform_of(t.channel), t.settings.ruleset)
                open_[key] = open_.get(key, 0) + 1
                if t.status == "playing":
                    playing[key] = playing.get(key, 0) + 1
        for key, n in sorted(open_.items()):
            tables.add_metric(list(key), n)
        for key, n in sorted(playing.items()):
            matches.add_metric(list(key), n)
        yield tables
        yield matches

    def describe(self) -> list[Any]:
        return []  # computed at scrape time: nothing to check at registration


REGISTRY.register(_TablesCollector())


def watch(app: WatchedApp) -> None:
    """Count ``app``'s tables in the gauges (called once it has started)."""
    _apps.add(app)


def unwatch(app: WatchedApp) -> None:
    """Count ``app``'s tables no more (it stopped)."""
    _apps.discard(app)


# --- the hooks ---------------------------------------------------------------------------


def action(channel_id: str, ruleset: str, by: str, seconds: float) -> None:
    """One action applied (``by``: player, bot, standin, timeout) and how long it took."""
    platform = platform_of(channel_id)
    ACTIONS.labels(platform, ruleset, by).inc()
    ACTION_SECONDS.labels(platform).observe(seconds)


def timed_commit(
    commit: Callable[P, Coroutine[Any, Any, R]],
) -> Callable[P, Coroutine[Any, Any, R]]:
    """Decorates a store's one write path: each transaction's time."""

    @functools.wraps(commit)
    async def timed(*args: P.args, **kwargs: P.kwargs) -> R:
        start = time.perf_counter()
        try:
            result = await commit(*args, **kwargs)
        except Exception as exc:
            # (imported here: the store imports this module to time its commits)
            from bot.store.records import LeaseLost

            if isinstance(exc, LeaseLost):  # a lost lease: the database answered
                raise
            COMMIT_FAILURES.inc()
            DATABASE_UP.set(0)
            raise
        finally:
            COMMIT_SECONDS.observe(time.perf_counter() - start)
        DATABASE_UP.set(1)
        return result

    return timed


def timed_think(think: Callable[..., Awaitable[R]]) -> Callable[..., Awaitable[R]]:
    """Decorates ``think(view, level, seed)``: the time of each decision, by level."""

    @functools.wraps(think)
    async def timed(view: Any, level: str, *args: Any, **kwargs: Any) -> R:
        start = time.perf_counter()
        try:
            return await think(view, level, *args, **kwargs)
        finally:
            THINK_SECONDS.labels(level).observe(time.perf_counter() - start)

    return timed


def timed_picture(
    picture: Callable[..., Awaitable[bytes | None]],
) -> Callable[..., Awaitable[bytes | None]]:
    """Decorates ``_picture(self, draw, ...)``: each picture's time, by what was drawn
    (``render_table`` -> ``table``); a None result (it could not be drawn) is a failure."""

    @functools.wraps(picture)
    async def timed(self: Any, draw: Callable[..., bytes], *args: Any, **kwargs: Any) -> Any:
        kind = getattr(draw, "__name__", "picture").removeprefix("render_")
        start = time.perf_counter()
        image = await picture(self, draw, *args, **kwargs)
        if image is None:
            PICTURE_FAILURES.labels(kind).inc()
        else:
            PICTURE_SECONDS.labels(kind).observe(time.perf_counter() - start)
        return image

    return timed


def database_up(up: bool) -> None:
    """What the readiness probe found: the database takes writes, or not."""
    DATABASE_UP.set(1 if up else 0)


def api_error(platform: str, status: int | str) -> None:
    """A platform API call failed (``status``: HTTP status, or an error's type name)."""
    API_ERRORS.labels(platform, str(status)).inc()


def rate_limited(platform: str, seconds: float) -> None:
    """The platform's rate limit made the bot wait ``seconds``."""
    RATE_LIMIT_WAITS.labels(platform).inc()
    RATE_LIMIT_SECONDS.labels(platform).inc(max(0.0, seconds))


_connected: dict[str, bool] = {}


def connected(platform: str, up: bool) -> None:
    """The platform's connection went up or down (what ``/healthz`` reports)."""
    _connected[platform] = up
    PLATFORM_CONNECTED.labels(platform).set(1 if up else 0)


def connections() -> dict[str, bool]:
    """Each platform that reported its connection, and whether it is up."""
    return dict(_connected)


def drand_beacon(outcome: str) -> None:
    """A beacon ``fetched``, ``verified``, ``rejected``, or a deal's ``fallback``."""
    DRAND_BEACONS.labels(outcome).inc()


for _outcome in DRAND_OUTCOMES:  # every outcome shows from the start, at zero
    DRAND_BEACONS.labels(_outcome)
