"""How long the event loop's thread waited for a CPU: the sign of a crowded machine.

Linux counts, for each thread, the time it spent runnable but waiting in a run queue
(``/proc/thread-self/schedstat``, the second field, in nanoseconds). A thread that has
work and gets its share at once waits little; beside N busy programs on C cores it gets
about C/(N+1) of a core and waits most of the time. The loop's own clock cannot tell
these apart from slow I/O (a commit waiting on a slow disk also takes long), this can.

Read from the loop's thread, a few times a second: it costs a small read of procfs.
Elsewhere (no procfs, another OS) :meth:`RunQueueWait.sample` answers None.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable

log = logging.getLogger(__name__)

SCHEDSTAT = "/proc/thread-self/schedstat"


def waited_seconds(path: str = SCHEDSTAT) -> float | None:
    """This thread's time spent waiting for a CPU since it started (None: unknown)."""
    try:
        with open(path) as f:
            return int(f.read().split()[1]) / 1e9
    except (OSError, IndexError, ValueError):
        return None


class RunQueueWait:
    """The share of wall time the calling thread waited for a CPU between two samples."""

    def __init__(
        self,
        read: Callable[[], float | None] = waited_seconds,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._read = read
        self._clock = clock
        self._last: tuple[float, float] | None = None

    def sample(self) -> float | None:
        """The share (0 to 1) since the previous sample; None the first time, or if the
        system does not say."""
        waited, now = self._read(), self._clock()
        if waited is None:
            return None
        last, self._last = self._last, (waited, now)
        if last is None or now <= last[1]:
            return None
        return max(0.0, min(1.0, (waited - last[0]) / (now - last[1])))


class CrowdWatch:
    """Samples the loop thread's wait for the CPU every ``period`` and says when the
    machine becomes crowded (the thread waited ``enter`` of the time or more) and when it
    is no longer (below ``leave``), logging each change once."""

    def __init__(
        self,
        on_change: Callable[[bool], None],
        *,
        period: float = 0.5,
        enter: float = 0.2,
        leave: float = 0.05,
        waits: RunQueueWait | None = None,
    ) -> None:
        self._on_change = on_change
        self.period = period
        self.enter = enter
        self.leave = leave
        self._waits = waits or RunQueueWait()
        self.crowded = False
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        if self._task is None:
            self._waits.sample()  # the baseline
            self._task = asyncio.create_task(self._run())

    async def stop(self) -> None:
        task, self._task = self._task, None
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task

    async def _run(self) -> None:
        while True:
            await asyncio.sleep(self.period)
            self.saw(self._waits.sample())

    def saw(self, share: float | None) -> None:
        """One sample: the share of the time the loop's thread waited for the CPU."""
        if share is None:
            return
        if not self.crowded and share >= self.enter:
            self.crowded = True
            log.info(
                "the CPU is crowded (the event loop waited for it %.0f%% of the time):"
                " fewer bot moves at once",
                share * 100,
            )
            self._on_change(True)
        elif self.crowded and share < self.leave:
            self.crowded = False
            log.info("the CPU is free again: bot moves at the usual pace")
            self._on_change(False)
