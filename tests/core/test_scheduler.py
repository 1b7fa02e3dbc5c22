"""The real-time scheduler: one timer per key, re-armed cheaply, fired once, in real time.

Near deadlines ride on the event loop's own timer heap; far ones are APScheduler date
jobs. Both keep the same promises: re-arming a key replaces its timer, cancelling it
means it never fires, and a deadline already past fires at once.
"""

from __future__ import annotations

import asyncio
import time

import pytest

from bot.ops.scheduler import ApsScheduler


class Calls:
    def __init__(self) -> None:
        self.fired: list[tuple[str, float]] = []
        self.event = asyncio.Event()

    def callback(self, name: str):
        async def fire() -> None:
            self.fired.append((name, time.time()))
            self.event.set()

        return fire

    async def wait(self, n: int, timeout: float = 5.0) -> None:
        async def until() -> None:
            while len(self.fired) < n:
                self.event.clear()
                await self.event.wait()

        await asyncio.wait_for(until(), timeout)


@pytest.fixture
async def scheduler():
    s = ApsScheduler()
    s.start()
    yield s
    s.shutdown()


async def test_a_deadline_fires_once_at_its_time(scheduler: ApsScheduler) -> None:
    calls = Calls()
    due = time.time() + 0.05
    scheduler.schedule("table-1", due, calls.callback("a"))
    await calls.wait(1)
    await asyncio.sleep(0.05)
    assert [name for name, _ in calls.fired] == ["a"]
    assert calls.fired[0][1] >= due - ApsScheduler.EARLY


async def test_rearming_a_key_replaces_its_timer(scheduler: ApsScheduler) -> None:
    calls = Calls()
    now = time.time()
    scheduler.schedule("table-1", now + 0.03, calls.callback("first"))
    scheduler.schedule("table-1", now + 0.06, calls.callback("second"))
    scheduler.schedule("table-2", now + 0.01, calls.callback("other"))
    await calls.wait(2)
    await asyncio.sleep(0.08)
    assert [name for name, _ in calls.fired] == ["other", "second"]


async def test_a_cancelled_deadline_never_fires(scheduler: ApsScheduler) -> None:
    calls = Calls()
    scheduler.schedule("table-1", time.time() + 0.02, calls.callback("a"))
    scheduler.cancel("table-1")
    scheduler.cancel("table-9")  # never armed: nothing to do
    await asyncio.sleep(0.08)
    assert calls.fired == []


async def test_a_deadline_already_past_fires_at_once(scheduler: ApsScheduler) -> None:
    calls = Calls()
    scheduler.schedule("table-1", time.time() - 3600, calls.callback("late"))
    await calls.wait(1, timeout=1.0)
    assert [name for name, _ in calls.fired] == ["late"]


async def test_a_callback_may_rearm_its_own_key(scheduler: ApsScheduler) -> None:
    """A bot's move re-arms the table's timer from inside the timer's own callback."""
    calls = Calls()

    def chain(n: int):
        async def fire() -> None:
            calls.fired.append((f"move {n}", time.time()))
            calls.event.set()
            if n < 3:
                scheduler.schedule("table-1", time.time() + 0.01, chain(n + 1))

        return fire

    scheduler.schedule("table-1", time.time(), chain(1))
    await calls.wait(3)
    assert [name for name, _ in calls.fired] == ["move 1", "move 2", "move 3"]


async def test_far_deadlines_are_apscheduler_jobs_and_replaced_like_near_ones(
    scheduler: ApsScheduler,
) -> None:
    """A ladder window closing in a week is an APScheduler job; moved near, it becomes a
    loop timer and the far job is gone (it fires once)."""
    calls = Calls()
    scheduler.schedule("ladder-1", time.time() + 7 * 86_400, calls.callback("far"))
    assert scheduler._aps.get_job("ladder-1") is not None
    scheduler.schedule("ladder-1", time.time() + 0.02, calls.callback("near"))
    assert scheduler._aps.get_job("ladder-1") is None
    await calls.wait(1)
    scheduler.schedule("ladder-2", time.time() + 7 * 86_400, calls.callback("cancelled"))
    scheduler.cancel("ladder-2")
    assert scheduler._aps.get_job("ladder-2") is None
    await asyncio.sleep(0.05)
    assert [name for name, _ in calls.fired] == ["near"]


async def test_deadlines_armed_before_start_fire_after_it() -> None:
    s = ApsScheduler()
    calls = Calls()
    s.schedule("table-1", time.time() - 1, calls.callback("waited"))
    await asyncio.sleep(0.03)
    assert calls.fired == []
    s.start()
    try:
        await calls.wait(1, timeout=1.0)
    finally:
        s.shutdown()
    assert [name for name, _ in calls.fired] == ["waited"]


async def test_shutdown_drops_every_timer() -> None:
    s = ApsScheduler()
    s.start()
    calls = Calls()
    s.schedule("table-1", time.time() + 0.02, calls.callback("a"))
    s.schedule("ladder-1", time.time() + 7 * 86_400, calls.callback("b"))
    s.shutdown()
    await asyncio.sleep(0.06)
    assert calls.fired == []


async def test_a_timer_woken_before_its_wall_clock_due_waits_for_the_rest() -> None:
    """The loop's clock is monotonic, deadlines are wall-clock: if the system clock is set
    back while a timer waits, the timer fires at the wall-clock due, not before."""
    calls = Calls()
    real = time.time
    back = 0.0

    def wall() -> float:
        return real() - back

    scheduler = ApsScheduler(wall=wall)
    scheduler.start()
    try:
        scheduler.schedule("table-1", real() + 0.02, calls.callback("a"))
        back = 0.1  # clock set back 100 ms
        await asyncio.sleep(0.06)
        assert calls.fired == []
        back = 0.0
        await calls.wait(1)
    finally:
        scheduler.shutdown()
