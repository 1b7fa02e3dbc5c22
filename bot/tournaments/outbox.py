"""One change at a time, and what a change shows or asks of the core only after it.

Every change of a tournament runs inside :meth:`Outbox.change`, which holds the one lock.
What the change wants shown (posts) or asked of the core (open or close a table) is queued
in that change's own batch and run after the lock is released, in order: the core may
call back into the service from inside `open_tournament_table` without a deadlock, and
no platform I/O or picture drawing ever waits under the lock. Pictures are drawn in a
worker thread (Pillow), so the event loop keeps moving.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from dataclasses import replace

from bot.platform import Platform, Post
from bot.tournaments.tables import TableHost, TableRequest

log = logging.getLogger(__name__)

Effect = Callable[[], Awaitable[None]]
Drawing = Callable[[], bytes | None]  # draws a picture; runs in a worker thread


async def drawn(draw: Drawing) -> bytes | None:
    """A picture drawn off the event loop; None (text only) when it cannot be drawn."""
    try:
        return await asyncio.to_thread(draw)
    except Exception:
        log.exception("a tournament picture could not be drawn")
        return None


class Outbox:
    def __init__(self, platform: Platform, host: TableHost) -> None:
        self._platform = platform
        self._host = host
        self._lock = asyncio.Lock()
        self._batch: list[Effect] = []  # the running change's; only its holder appends

    @asynccontextmanager
    async def change(self) -> AsyncIterator[None]:
        """Hold the lock for one change; run what it queued once the lock is released,
        also when it was refused half-way (what it queued before was decided)."""
        batch: list[Effect] = []
        try:
            async with self._lock:
                try:
                    yield
                finally:
                    batch, self._batch = self._batch, []
        finally:
            await self._run(batch)

    @asynccontextmanager
    async def quiet(self) -> AsyncIterator[None]:
        """Hold the lock for something that shows nothing (stopping)."""
        async with self._lock:
            yield

    def post(self, post: Post, draw: Drawing | None = None) -> None:
        """Deliver `post` after the change; its picture, when `draw` is given, is drawn
        then, off the loop."""

        async def deliver() -> None:
            if draw is None:
                await self._platform.deliver(post)
                return
            image = await drawn(draw)
            await self._platform.deliver(post if image is None else replace(post, image=image))

        self._batch.append(deliver)

    def open_table(self, request: TableRequest) -> None:
        self._batch.append(lambda: self._host.open_tournament_table(request))

    def close_table(self, table_ref: str, reason: str) -> None:
        self._batch.append(lambda: self._host.close_tournament_table(table_ref, reason))

    def discard(self) -> None:
        """Forget what this change queued (another process already did and showed it)."""
        self._batch.clear()

    async def _run(self, batch: list[Effect]) -> None:
        for effect in batch:
            try:
                await effect()
            except Exception:
                log.exception("a tournament effect failed")
