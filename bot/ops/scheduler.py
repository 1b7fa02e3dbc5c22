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
import time
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from typing import Protocol

from bot.ops.clock import FakeClock

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


def _start_task(key: str, callback: Callback) -> None:
    """Run the callback in its own task (kept referenced until it ends)."""
    task = asyncio.create_task(_guarded(key, callback))
    _running.add(task)
    task.add_done_callback(_running.discard)


async def settle(timeout: float = 5.0) -> None:
    """Wait, a bounded time, for the deadline callbacks already running: a stop that gave
    the tables' leases back or closed the store under them would orphan their commit."""
    tasks = [t for t in _running if t is not asyncio.current_task()]
    if tasks:
        await asyncio.wait(tasks, timeout=timeout)


async def _spawn(key: str, callback: Callback) -> None:
    """APScheduler's job: hand the callback to its own task and return at once, so a
    callback that re-arms its own key is never "still running" when the next one is due."""
    _start_task(key, callback)


class ApsScheduler:
    """Real-time deadlines: near ones on the event loop's own timer heap, far ones in
    APScheduler 3.11.

    A table re-arms its one timer on every action, so arming must cost microseconds: a
    deadline due within :attr:`NEAR` seconds is one ``loop.call_at`` handle per key
    (re-arming cancels the old handle, which asyncio drops lazily from its heap). An
    APScheduler ``add_job`` costs ~100 us of the loop's time (a ``Job``, its signature
    checked, the job store's sorted list, a wake-up), which at 1,000 tables was a large
    share of the loop. Deadlines further away (tournament rounds, ladder windows that
    close days later) stay APScheduler date jobs, which is what it is good at:
    ``misfire_grace_time=None`` and ``coalesce=True``, so a deadline already past at start
    fires at once, and exactly once; the callback itself checks it is still current.

    The loop's clock is monotonic and deadlines are wall-clock times: a timer that wakes
    before its wall-clock due (the system clock was set back) waits for the rest.
    """

    NEAR = 3600.0  # seconds: nearer deadlines go on the event loop's timer heap
    EARLY = 0.005  # seconds a loop timer may fire before its wall-clock due

    def __init__(self, wall: Callable[[], float] = time.time) -> None:
        """``wall``: the wall clock deadlines are written in (the system's; a test sets
        it back to see a timer wait for its due)."""
        from apscheduler.schedulers.asyncio import AsyncIOScheduler

        self._wall = wall
        self._aps = AsyncIOScheduler(
            timezone=UTC,
            job_defaults={"misfire_grace_time": None, "coalesce": True, "max_instances": 1},
        )
        self._started = False
        self._timers: dict[str, asyncio.TimerHandle] = {}
        self._far: set[str] = set()
        self._waiting: dict[str, tuple[float, Callback]] = {}  # armed before start()

    def start(self) -> None:
        if not self._aps.running:
            self._aps.start()
        self._started = True
        waiting, self._waiting = self._waiting, {}
        for key, (due, callback) in waiting.items():
            self.schedule(key, due, callback)

    def shutdown(self) -> None:
        for handle in self._timers.values():
            handle.cancel()
        self._timers.clear()
        self._far.clear()
        self._waiting.clear()
        self._started = False
        if self._aps.running:
            self._aps.shutdown(wait=False)

    def schedule(self, key: str, due: float, callback: Callback) -> None:
        self.cancel(key)
        if not self._started:
            self._waiting[key] = (due, callback)
            return
        delay = due - self._wall()
        if delay > self.NEAR:
            self._schedule_far(key, due, callback)
            return
        loop = asyncio.get_running_loop()
        self._timers[key] = loop.call_at(loop.time() + delay, self._due, key, due, callback)

    def _due(self, key: str, due: float, callback: Callback) -> None:
        del self._timers[key]
        early = due - self._wall()
        if early > self.EARLY:  # the wall clock was set back meanwhile: wait for the rest
            self.schedule(key, due, callback)
            return
        _start_task(key, callback)

    def _schedule_far(self, key: str, due: float, callback: Callback) -> None:
        from apscheduler.triggers.date import DateTrigger

        when = datetime.fromtimestamp(due, UTC)
        self._aps.add_job(
            _spawn,
            DateTrigger(run_date=when, timezone=UTC),
            args=(key, callback),
            id=key,
            replace_existing=True,
        )
        self._far.add(key)

    def cancel(self, key: str) -> None:
        handle = self._timers.pop(key, None)
        if handle is not None:
            handle.cancel()
        self._waiting.pop(key, None)
        if key in self._far:
            from apscheduler.jobstores.base import JobLookupError

            self._far.discard(key)
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
