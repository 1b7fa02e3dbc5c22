"""Deadlines run by a scheduler rebuilt from the database at start.

The store is the truth about deadlines (turn timers, the seed window, drand's grace); the
scheduler only holds one timer per key so the callback fires when one is due. Two
implementations: :class:`ApsScheduler` (APScheduler 3.11, real time, production) and
:class:`FakeScheduler` (fake time: tests run whole matches with timeouts in milliseconds).
"""

from __future__ import annotations

import asyncio
import contextlib
import heapq
import logging
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from typing import Protocol

from bot.clock import FakeClock

log = logging.getLogger(__name__)

Callback = Callable[[], Awaitable[None]]


class Scheduler(Protocol):
    def start(self) -> None: ...
    def shutdown(self) -> None: ...
    def schedule(self, key: str, due: float, callback: Callback) -> None: ...
    def cancel(self, key: str) -> None: ...


async def _guarded(key: str, callback: Callback) -> None:
    try:
        await callback()
    except Exception:
        log.exception("deadline %s failed", key)


_running: set[asyncio.Task[None]] = set()


async def _spawn(key: str, callback: Callback) -> None:
    """APScheduler's job: hand the callback to its own task and return at once, so a
    callback that re-arms its own key is never "still running" when the next one is due."""
    task = asyncio.create_task(_guarded(key, callback))
    _running.add(task)
    task.add_done_callback(_running.discard)


class ApsScheduler:
    """APScheduler's AsyncIOScheduler with one date job per key (replaced when re-armed).

    ``misfire_grace_time=None`` and ``coalesce=True``: a deadline already past at start
    fires at once, and exactly once; the callback itself checks it is still current.
    """

    def __init__(self) -> None:
        from apscheduler.schedulers.asyncio import AsyncIOScheduler

        self._aps = AsyncIOScheduler(
            timezone=UTC,
            job_defaults={"misfire_grace_time": None, "coalesce": True, "max_instances": 1},
        )

    def start(self) -> None:
        if not self._aps.running:
            self._aps.start()

    def shutdown(self) -> None:
        if self._aps.running:
            self._aps.shutdown(wait=False)

    def schedule(self, key: str, due: float, callback: Callback) -> None:
        from apscheduler.triggers.date import DateTrigger

        when = datetime.fromtimestamp(due, UTC)
        self._aps.add_job(
            _spawn,
            DateTrigger(run_date=when, timezone=UTC),
            args=(key, callback),
            id=key,
            replace_existing=True,
        )

    def cancel(self, key: str) -> None:
        from apscheduler.jobstores.base import JobLookupError

        with contextlib.suppress(JobLookupError):
            self._aps.remove_job(key)


class FakeScheduler:
    """Deadlines in fake time: ``await advance(s)`` fires every due callback in order."""

    def __init__(self, clock: FakeClock) -> None:
        self.clock = clock
        self._jobs: dict[str, tuple[float, int, Callback]] = {}
        self._heap: list[tuple[float, int, str]] = []
        self._n = 0

    def start(self) -> None:
        pass

    def shutdown(self) -> None:
        self._jobs.clear()
        self._heap.clear()

    def schedule(self, key: str, due: float, callback: Callback) -> None:
        self._n += 1
        self._jobs[key] = (due, self._n, callback)
        heapq.heappush(self._heap, (due, self._n, key))

    def cancel(self, key: str) -> None:
        self._jobs.pop(key, None)

    def pending(self) -> dict[str, float]:
        return {k: v[0] for k, v in self._jobs.items()}

    def _pop_due(self, until: float) -> tuple[str, Callback] | None:
        while self._heap and self._heap[0][0] <= until:
            due, n, key = heapq.heappop(self._heap)
            job = self._jobs.get(key)
            if job is None or job[1] != n:
                continue  # cancelled or replaced
            del self._jobs[key]
            self.clock.set(due)
            return key, job[2]
        return None

    async def advance(self, seconds: float = 0.0, max_jobs: int = 1_000_000) -> int:
        """Move fake time forward, firing each due job at its own time; returns how many."""
        until = self.clock.now() + seconds
        fired = 0
        await asyncio.sleep(0)
        while fired < max_jobs:
            job = self._pop_due(until)
            if job is None:
                break
            await _guarded(*job)
            fired += 1
            await asyncio.sleep(0)
        self.clock.set(until)
        return fired

    async def run_until_idle(self, max_seconds: float = 1e7) -> int:
        """Fire jobs (moving time) until none is left or ``max_seconds`` have passed."""
        start = self.clock.now()
        fired = 0
        while self._jobs:
            nxt = min(v[0] for v in self._jobs.values())
            if nxt - start > max_seconds:
                break
            fired += await self.advance(max(0.0, nxt - self.clock.now()))
        return fired
