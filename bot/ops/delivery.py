"""A delivery queue: platform I/O after the table's lock, in order, coalesced.

The core commits and decides under a table's lock, then hands its posts to the platform.
An adapter whose sending may wait (a channel's rate limit, a slow network) puts them in a
:class:`DeliveryQueue` instead of sending at once, so the lock is released at once and
every interaction of that table is answered meanwhile.

Posts go into *lanes* (one worker each): a channel's public messages, one player's
private messages. Within a lane items go out in the order their keys first came, and a
newer item of a key that is still waiting replaces it where it stands: when a table moves
faster than its channel may be edited, its message jumps to its latest state instead of
replaying every card. Different lanes never wait for each other.

Platform-neutral: the adapter says what a lane is and how one item is sent. Counters for
metrics are on :attr:`DeliveryQueue.stats`.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Hashable
from dataclasses import dataclass, field
from typing import Generic, TypeVar

log = logging.getLogger(__name__)

Item = TypeVar("Item")


@dataclass
class DeliveryStats:
    """What went through a queue, for metrics: read it, or replace ``observe`` to hook in."""

    queued: int = 0
    coalesced: int = 0  # items dropped because a newer one of their key came first
    sent: int = 0
    failed: int = 0
    waited: float = 0.0  # seconds items spent queued, in total
    slowest: float = 0.0  # the longest one item waited

    def observe(self, waited: float) -> None:
        self.waited += waited
        self.slowest = max(self.slowest, waited)


@dataclass
class _Lane(Generic[Item]):
    items: OrderedDict[Hashable, tuple[float, Item]] = field(default_factory=OrderedDict)
    worker: asyncio.Task[None] | None = None


class DeliveryQueue(Generic[Item]):
    """Lanes of keyed items, each lane sent by its own worker task.

    ``send(lane, key, item)`` shows one item; an exception it raises is logged and counted,
    and the lane goes on with the next item (one bad post must not stop a channel).
    """

    def __init__(
        self, send: Callable[[Hashable, Hashable, Item], Awaitable[None]], *, name: str = "posts"
    ) -> None:
        self._send = send
        self._name = name
        self._lanes: dict[Hashable, _Lane[Item]] = {}
        self.stats = DeliveryStats()

    def put(self, lane: Hashable, key: Hashable, item: Item) -> None:
        """Queue ``item``; a waiting item of the same key in that lane is replaced in place.

        Synchronous on purpose: the caller (holding a table's lock) never waits here."""
        queue = self._lanes.setdefault(lane, _Lane())
        self.stats.queued += 1
        old = queue.items.get(key)
        if old is not None:
            self.stats.coalesced += 1
            queue.items[key] = (old[0], item)  # keeps its place and how long it waited
        else:
            queue.items[key] = (time.monotonic(), item)
        if queue.worker is None:
            queue.worker = asyncio.get_running_loop().create_task(self._work(lane, queue))

    def waiting(self, lane: Hashable, key: Hashable) -> bool:
        """Is a (newer) item of ``key`` waiting in ``lane``?"""
        queue = self._lanes.get(lane)
        return queue is not None and key in queue.items

    def pending(self) -> int:
        """Items queued and not yet taken by a worker."""
        return sum(len(q.items) for q in self._lanes.values())

    def busy(self) -> bool:
        return any(q.worker is not None for q in self._lanes.values())

    async def flush(
        self, timeout: float | None = None, lanes: Callable[[Hashable], bool] | None = None
    ) -> bool:
        """Wait until every queued item (of the ``lanes`` that pass, if given) has been sent
        or has failed; False if ``timeout`` seconds passed first (what is left keeps going:
        call :meth:`cancel` to drop it)."""
        deadline = None if timeout is None else time.monotonic() + timeout
        while workers := [
            q.worker
            for lane, q in self._lanes.items()
            if q.worker is not None and (lanes is None or lanes(lane))
        ]:
            left = None if deadline is None else deadline - time.monotonic()
            if left is not None and left <= 0:
                return False
            await asyncio.wait(workers, timeout=left)
        return True

    async def cancel(self) -> int:
        """Stop every worker and drop what waits (a bounded shutdown); how many were left."""
        dropped = self.pending()
        workers = [q.worker for q in self._lanes.values() if q.worker is not None]
        for queue in self._lanes.values():
            queue.items.clear()
        for worker in workers:
            worker.cancel()
        await asyncio.gather(*workers, return_exceptions=True)
        return dropped

    async def _work(self, lane: Hashable, queue: _Lane[Item]) -> None:
        try:
            while queue.items:
                key, (since, item) = queue.items.popitem(last=False)
                self.stats.observe(time.monotonic() - since)
                try:
                    await self._send(lane, key, item)
                    self.stats.sent += 1
                except asyncio.CancelledError:
                    raise
                except Exception:
                    self.stats.failed += 1
                    log.exception("%s: could not deliver %s", self._name, key)
        finally:
            queue.worker = None
            if not queue.items:
                self._lanes.pop(lane, None)
