"""Keeping this process's table leases alive, and taking over the tables of a process that
died.

Every ``lease_seconds / 3`` (at most a second) the keeper renews the leases this process
holds (a table whose lease could not be renewed is another process's now: it is dropped
here at once), then claims the unfinished tables whose lease ran out (their process was
killed, or stalled past its lease) among the channels this process serves, and hands them
to the app, which rebuilds each from its log and arms its deadline again. The database's
clock decides what has run out, so the processes' clocks need not agree.

Safety does not rest on this loop's timing: every commit checks its tables' leases in its
own transaction (``bot/store/postgres.py``). The loop only decides how soon a dead
process's tables come back: within one lease time and one period of this loop (a lease
runs out at most ``lease_seconds`` after its process's last commit or renewal).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Mapping
from typing import Any, Protocol

from bot.store.base import Serves, Store, TableRow

log = logging.getLogger(__name__)


class TableRunner(Protocol):
    @property
    def tables(self) -> Mapping[int, Any]: ...

    async def adopt_tables(self, rows: list[TableRow]) -> None: ...

    def drop_tables(self, ids: set[int]) -> None: ...


class LeaseKeeper:
    def __init__(self, store: Store, runner: TableRunner, serves: Serves | None = None) -> None:
        self.store = store
        self.runner = runner
        self.serves = serves
        self.period = max(0.05, min(1.0, store.lease_seconds / 3))
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        if self._task is None:
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
            try:
                await self.tick()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("could not renew or claim table leases")

    async def tick(self) -> None:
        """Renew, drop what was lost, take over what ran out."""
        before = set(self.runner.tables)  # committed before the renewal is asked
        held = await self.store.renew_leases()
        if held is not None:
            lost = {tid for tid in before - held if tid in self.runner.tables}
            if lost:
                self.runner.drop_tables(lost)
        rows = await self.store.claim_tables(self.serves, mine=False)
        fresh = [r for r in rows if r.id not in self.runner.tables]
        if fresh:
            log.warning("taking over tables %s", ", ".join(f"t{r.id}" for r in fresh))
            await self.runner.adopt_tables(fresh)
