"""Turns for the bots' moves: at most so many under way at once, the longest due first.

A process short of CPU (a busy machine, a noisy neighbour: beside N busy programs on C
cores it gets about C/(N+1) of a core) cannot make every move as soon as it is due. If
every due move starts at once, each one's callbacks queue behind all the others' in the
event loop, and every answer, a person's included, waits for all of them. Letting only a
few bot moves run at once keeps the loop's queue short: the moves that wait, wait asleep
here, and a person's command is answered as soon as the process has the CPU.

The waiting moves enter by due time, the oldest first, so a table that has waited longest
(one just taken over from a process that died, whose move was due before the death)
moves before the tables that moved a second ago.
"""

from __future__ import annotations

import asyncio
import heapq
import itertools
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager


class Closed(Exception):
    """The process is stopping: a move still waiting for its turn is not made."""


class TakeTurns:
    """At most ``at_once`` holders; those that wait get in earliest ``due`` first."""

    def __init__(self, at_once: int) -> None:
        if at_once < 1:
            raise ValueError("at least one move must be allowed at once")
        self._free = at_once
        self._waiting: list[tuple[float, int, asyncio.Future[None]]] = []
        self._order = itertools.count()  # equal dues: first come, first in
        self._closed = False

    @property
    def waiting(self) -> int:
        return sum(1 for _, _, f in self._waiting if not f.done())

    @asynccontextmanager
    async def turn(self, due: float) -> AsyncIterator[None]:
        """Hold one of the places while the block runs; wait for one, by ``due``. Raises
        :class:`Closed` once :meth:`close` was called (before the block runs)."""
        if self._closed:
            raise Closed
        if self._free > 0 and not self._waiting:
            self._free -= 1
        else:
            fut: asyncio.Future[None] = asyncio.get_running_loop().create_future()
            heapq.heappush(self._waiting, (due, next(self._order), fut))
            try:
                await fut
            except asyncio.CancelledError:
                if fut.done() and not fut.cancelled() and fut.exception() is None:
                    self._release()  # handed a place, then cancelled: pass it on
                raise
        try:
            yield
        finally:
            self._release()

    def close(self) -> None:
        """Stop handing out places: whoever waits gets :class:`Closed` (the process stops,
        and a move it has not begun must not be committed as its leases go back)."""
        self._closed = True
        waiting, self._waiting = self._waiting, []
        for _, _, fut in waiting:
            if not fut.done():
                fut.set_exception(Closed())

    def _release(self) -> None:
        """Hand the place to the earliest waiter still waiting, or free it."""
        while self._waiting:
            _, _, fut = heapq.heappop(self._waiting)
            if not fut.done():
                fut.set_result(None)
                return
        self._free += 1
