"""Calls into another service, run after the table's lock is released.

The tournament runner is told when one of its tables is full or its match ended; it may
call back into the core (open the next table), so the call never runs under a table's
lock: it is a task of its own, awaited at stop.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable

log = logging.getLogger(__name__)


class Hooks:
    """Tasks started after a lock is released; ``wait`` until they are done."""

    def __init__(self) -> None:
        self._tasks: set[asyncio.Task[None]] = set()

    def run(self, call: Awaitable[None]) -> None:
        async def guarded() -> None:
            try:
                await call
            except Exception:
                log.exception("a match hook failed")

        task = asyncio.create_task(guarded())
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def pending(self) -> bool:
        return bool(self._tasks)

    async def wait(self) -> None:
        """Until every hook started so far (and any they start) has ended."""
        while self._tasks:
            await asyncio.gather(*list(self._tasks), return_exceptions=True)
