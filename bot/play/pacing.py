"""Turns for the bots' moves: at most so many under way at once, the longest due first.

A process short of CPU (a busy machine, a noisy neighbour: beside N busy programs on C
cores it gets about C/(N+1) of a core) cannot make every move as soon as it is due. If
every due move starts at once, each one's callbacks queue behind all the others' in the
event loop, and every answer, a person's included, waits for all of them. Letting only a
few bot moves run at once keeps the loop's queue short: the moves that wait, wait asleep
here, and a person's command is answered as soon as the process has the CPU.

The waiting moves enter by due time, the oldest first, so a table that has waited longest
(one just taken over from a process that died, whose move was due before the death)
moves before the tables that moved a second ago. On a crowded machine (the process waits
for the CPU, ``bot.ops.cpu_wait``) fewer run at once than on a quiet one: on a quiet one
more at once cost nothing and let a slow disk's group commits carry more. While the
tables of a dead process are rebuilt (``narrowed``), fewer of the other moves run at once,
so the rebuild gets the CPU first; the first move of a table taken over is ``urgent``: it
goes ahead of them all and is not held back.
"""

from __future__ import annotations

import asyncio
import heapq
import itertools
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, contextmanager


class Closed(Exception):
    """The process is stopping: a move still waiting for its turn is not made."""


class TakeTurns:
    """At most ``at_once`` holders (``when_crowded`` while the CPU is crowded; ``while_busy``
    while narrowed, except for the urgent); those that wait get in urgent first, then
    earliest ``due`` first."""

    def __init__(self, at_once: int, while_busy: int = 2, when_crowded: int | None = None) -> None:
        crowded = at_once if when_crowded is None else when_crowded
        if min(at_once, while_busy, crowded) < 1:
            raise ValueError("at least one move must be allowed at once")
        self._at_once = at_once
        self._while_busy = min(while_busy, at_once)
        self._when_crowded = min(crowded, at_once)
        self._crowded = False
        self._narrowed = 0
        self._holding = 0
        self._waiting: list[tuple[bool, float, int, asyncio.Future[None]]] = []
        self._order = itertools.count()  # equal dues: first come, first in
        self._closed = False

    @property
    def waiting(self) -> int:
        return sum(1 for *_, f in self._waiting if not f.done())

    @asynccontextmanager
    async def turn(self, due: float, urgent: bool = False) -> AsyncIterator[None]:
        """Hold one of the places while the block runs; wait for one, by ``due`` (the
        ``urgent`` first, and they are not held back by ``narrowed``). Raises
        :class:`Closed` once :meth:`close` was called (before the block runs)."""
        if self._closed:
            raise Closed
        fut: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        heapq.heappush(self._waiting, (not urgent, due, next(self._order), fut))
        self._wake()
        try:
            await fut  # at once when a place was free
        except asyncio.CancelledError:
            if fut.done() and not fut.cancelled() and fut.exception() is None:
                self._release()  # handed a place, then cancelled: pass it on
            raise
        try:
            yield
        finally:
            self._release()

    @contextmanager
    def narrowed(self, linger: float = 0.0) -> Iterator[None]:
        """Fewer moves at once while the block runs and ``linger`` seconds after (a
        takeover's rebuild, batch after batch: the tables that stopped come back before
        the ones that did not stop get their next move)."""
        self._narrowed += 1
        try:
            yield
        finally:
            if linger > 0:
                asyncio.get_running_loop().call_later(linger, self._widen)
            else:
                self._widen()

    @property
    def crowded(self) -> bool:
        return self._crowded

    @crowded.setter
    def crowded(self, crowded: bool) -> None:
        """The process waits for the CPU (``bot.ops.cpu_wait``): fewer moves at once."""
        self._crowded = crowded
        self._wake()

    def close(self) -> None:
        """Stop handing out places: whoever waits gets :class:`Closed` (the process stops,
        and a move it has not begun must not be committed as its leases go back)."""
        self._closed = True
        waiting, self._waiting = self._waiting, []
        for *_, fut in waiting:
            if not fut.done():
                fut.set_exception(Closed())

    def _widen(self) -> None:
        self._narrowed -= 1
        self._wake()

    def _release(self) -> None:
        self._holding -= 1
        self._wake()

    def _wake(self) -> None:
        """Hand the free places to the first waiters still waiting."""
        while self._waiting:
            later, *_, fut = self._waiting[0]
            if fut.done():  # cancelled while it waited
                heapq.heappop(self._waiting)
                continue
            if later:
                limit = self._when_crowded if self._crowded else self._at_once
                if self._narrowed:
                    limit = min(limit, self._while_busy)
            else:  # a table taken over: its players saw it stop; as many at once as quiet
                limit = self._at_once
            if self._holding >= limit:
                return
            heapq.heappop(self._waiting)
            self._holding += 1
            fut.set_result(None)
