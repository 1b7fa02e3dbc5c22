"""Keeping this process's table leases alive, and taking over the tables of a process that
died.

A thread and two tasks, so that none can hold another back:

- the **renewal**, every ``lease_seconds / 3`` (at most a second), extends every lease
  this process holds, from a thread of its own (:class:`RenewalThread`: its own event
  loop and database connection), so that neither a claim, a rebuild, the pool's commits
  nor a slow event loop (a burst of moves, a machine short of CPU) can make it late; its
  statement skips locked rows instead of waiting on them. It extends them only while the
  event loop shows it runs: a loop stalled longer than a lease lets them run out. On the
  loop, a task asks on the same period which of the tables run here are still ours and
  drops at once the ones another process holds now. A renewal that comes late (the
  process or the machine stalled) is logged once, with how late, and whether the leases
  may have run out meanwhile;
- the **takeover**, on the same period, claims the unfinished tables whose lease ran
  out (their process was killed, or stalled past its lease) among the channels this
  process serves, at most ``batch`` a round, and hands them to the app, which rebuilds
  each from its log and arms its deadline again; while there is more to take it goes on
  at once, a batch at a time, so the live tables' moves go on between two batches.

The database's clock decides what has run out, so the processes' clocks need not agree.
During an outage both back off (up to half a lease) and the store's
:class:`~bot.store.availability.Availability` logs one line per change of state, not a
traceback per try.

Safety does not rest on this loop's timing: every commit checks its tables' leases, and
their match logs' last positions, in its own transaction (``bot/store/postgres.py``): a
copy of a table left behind by a stall writes nothing, even once the table is ours again.
The loop only decides how soon a dead process's tables come back: within one lease time
and one period of this loop (a lease runs out at most ``lease_seconds`` after its
process's last commit or renewal), plus the time to rebuild them.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from bot.store.availability import describe, is_outage
from bot.store.base import Serves, Store
from bot.store.records import TableRow

log = logging.getLogger(__name__)

CLAIM_BATCH = 50  # tables taken over (and rebuilt) a round, at most


class TableRunner(Protocol):
    @property
    def tables(self) -> Mapping[int, Any]: ...

    async def adopt_tables(self, rows: list[TableRow]) -> None: ...

    def drop_tables(self, ids: set[int], quiet: bool = False) -> None: ...


@dataclass(frozen=True)
class LeaseStatus:
    """What this process holds and whether it can tell: for health checks and admin."""

    held: frozenset[int]  # the tables it runs whose lease the last renewal confirmed
    database_up: bool
    down_for: float | None  # seconds the database has been unreachable, if it is
    renewed_ago: float | None  # seconds since the last renewal that reached the database
    lease_seconds: float
    taken_over: int  # tables taken over from other processes since the start


class LeaseKeeper:
    def __init__(
        self,
        store: Store,
        runner: TableRunner,
        serves: Serves | None = None,
        *,
        batch: int = CLAIM_BATCH,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.store = store
        self.runner = runner
        self.serves = serves
        self.batch = batch
        self.clock = clock
        self.period = max(0.05, min(1.0, store.lease_seconds / 3))
        self.max_backoff = max(self.period, store.lease_seconds / 2)
        self._tasks: list[asyncio.Task[None]] = []
        self._held: frozenset[int] = frozenset()
        self._renewed_at: float | None = None
        self._late = False  # a late renewal was logged and none on time came since
        self._errors: dict[str, str] = {}  # the last error logged, by task
        self.taken_over = 0
        self._rebuild: set[int] = set()  # our own tables to read back (after an outage)
        self.worst_late = 0.0  # the latest a renewal came, seconds past its period
        self._thread: RenewalThread | None = None  # extends the leases, off the event loop
        self._beat = 0.0  # when the event loop last showed it runs (the loop's renewal)

    def start(self) -> None:
        if not self._tasks:
            self._renewed_at = self._beat = self.clock()
            self._tasks = [
                asyncio.create_task(self._every(self.renew, "renewal")),
                asyncio.create_task(self._every(self.take_over, "takeover")),
            ]
            if self.store.shared:
                self._thread = RenewalThread(self)
                self._thread.start()

    async def stop(self) -> None:
        tasks, self._tasks = self._tasks, []
        thread, self._thread = self._thread, None
        if thread is not None:
            await asyncio.to_thread(thread.stop)
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError):
                await task

    def status(self) -> LeaseStatus:
        a = self.store.availability
        now = self.clock()
        return LeaseStatus(
            held=self._held & frozenset(self.runner.tables),
            database_up=a.up,
            down_for=None if a.down_since is None else now - a.down_since,
            renewed_ago=None if self._renewed_at is None else now - self._renewed_at,
            lease_seconds=self.store.lease_seconds,
            taken_over=self.taken_over,
        )

    async def _every(self, step: Callable[[], Any], name: str) -> None:
        """Run ``step`` every period; at once again when it says there is more; after a
        failure, back off (doubling, up to half a lease), logging each new error once."""
        delay, failures = self.period, 0
        while True:
            await asyncio.sleep(delay)
            try:
                more = await step()
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                failures += 1
                delay = min(self.max_backoff, self.period * 2 ** (failures - 1))
                self._failed(name, exc)
                continue
            failures = 0
            self._errors.pop(name, None)
            delay = 0.0 if more else self.period

    def _failed(self, name: str, exc: Exception) -> None:
        if is_outage(exc):
            self.store.availability.failed(exc)  # logs the changes of state only
            return
        said = describe(exc)
        if self._errors.get(name) != said:  # a statement's error: once, with its traceback
            self._errors[name] = said
            log.error("lease %s failed: %s", name, said, exc_info=exc)

    async def renew(self) -> bool:
        """Extend this process's leases; drop the tables another process holds now."""
        before = dict(self.runner.tables)  # committed before the renewal is asked
        thread = self._thread
        if thread is not None and thread.is_alive():  # it extends them: only ask which
            self._loop_beat()
            held = await self.store.renew_leases(set(before), extend=False)
        else:
            held = await self.store.renew_leases(set(before))
            self._on_time()
        self.store.availability.ok()
        if held is None:  # one process: every table is its own
            self._held = frozenset(before)
            return False
        self._held = frozenset(held)
        # only the copies the renewal asked about: a table taken back meanwhile (claimed
        # and rebuilt by the takeover while this renewal was on its way) is ours, and a
        # new copy, not to be dropped on what the database said before its claim
        tables = self.runner.tables
        lost = {tid for tid in before.keys() - held if tid in tables and tables[tid] is before[tid]}
        if lost:
            self.runner.drop_tables(lost)
        return False

    def _loop_beat(self) -> None:
        """The event loop runs: the renewal thread may go on extending the leases."""
        self._beat = self.clock()

    def loop_alive(self) -> bool:
        """Has the event loop shown it runs within a lease? (Thread-safe: a float read.)
        A loop stalled longer than that does not keep its tables: the thread stops
        extending them, and another process takes them over."""
        return self.clock() - self._beat < self.store.lease_seconds

    def _on_time(self) -> None:
        """Notice a renewal that came late (the loop, the machine or the database stalled
        longer than a period): one line when it starts, none while it stays late."""
        now = self.clock()
        last, self._renewed_at = self._renewed_at, now
        if last is None:
            return
        late = now - last - self.period
        self.worst_late = max(self.worst_late, late)
        if late <= self.period:
            self._late = False
            return
        if self._late:
            return
        self._late = True
        lease = self.store.lease_seconds
        log.warning(
            "lease renewal came %.1f s late (due every %.1f s, leases of %.0f s)%s",
            late,
            self.period,
            lease,
            ": the leases had run out, another process may have taken tables"
            if now - last >= lease
            else "",
        )

    def rebuild_later(self, ids: set[int]) -> None:
        """These tables of ours left memory (they could not be stored nor read back): run
        them again, rebuilt from the database, once it answers, if they are still ours."""
        self._rebuild |= ids

    async def take_over(self) -> bool:
        """Claim a batch of tables whose lease ran out and run them; True if there may be
        more waiting."""
        if self._rebuild:
            wanted = set(self._rebuild)
            rows = await self.store.own_tables(wanted)
            self._rebuild -= wanted
            back = [r for r in rows if r.id not in self.runner.tables]
            if back:
                log.warning("running tables %s again", ", ".join(f"t{r.id}" for r in back))
                await self.runner.adopt_tables(back)
        rows = await self.store.claim_tables(self.serves, mine=False, limit=self.batch)
        again = {r.id for r in rows if r.id in self.runner.tables}
        if again:
            # our lease on these ran out (a long stall) before we claimed them back: another
            # process may have run them meanwhile, so memory may be behind the database
            log.warning(
                "tables %s were ours again after their lease ran out: rebuilt",
                ", ".join(f"t{i}" for i in sorted(again)),
            )
            self.runner.drop_tables(again, quiet=True)
        fresh = [r for r in rows if r.id not in self.runner.tables]
        if fresh:
            log.warning("taking over tables %s", ", ".join(f"t{r.id}" for r in fresh))
            await self.runner.adopt_tables(fresh)
            self.taken_over += len(fresh)
        return len(rows) >= self.batch

    async def tick(self) -> None:
        """One renewal and one takeover round (tests drive the keeper with it)."""
        await self.renew()
        while await self.take_over():
            pass


class RenewalThread(threading.Thread):
    """Extends this process's leases every period from a thread of its own, with its own
    event loop and database connection: a bot process whose event loop is slow (a burst
    of moves, a rebuild, a garbage collection, a machine short of CPU where the loop's
    queue waits) still renews on time, since this thread needs the interpreter for a few
    microseconds a period, not a turn of the loop. It only extends: which tables are
    still ours, and dropping the others, stays with the loop's renewal (``renew``).

    It extends only while the event loop has shown it runs within a lease
    (``loop_alive``): a loop wedged for longer gives its tables up, the thread letting
    their leases run out, rather than holding tables nobody plays."""

    def __init__(self, keeper: LeaseKeeper) -> None:
        super().__init__(name="lease-renewal", daemon=True)
        self.keeper = keeper
        self._stopping = threading.Event()
        self._said: str | None = None  # the last error logged (once each)

    def stop(self, timeout: float = 5.0) -> None:
        self._stopping.set()
        self.join(timeout)

    def run(self) -> None:
        asyncio.run(self._main())

    async def _main(self) -> None:
        keeper, store = self.keeper, self.keeper.store
        session: Any = None
        try:
            while not self._stopping.is_set():
                if keeper.loop_alive():
                    try:
                        if session is None:
                            session = await store.open_lease_session()
                        await store.extend_leases(session)
                    except Exception as exc:
                        self._drop(session)
                        session = None
                        self._failed(exc)
                    else:
                        self._said = None
                        keeper._on_time()
                self._stopping.wait(keeper.period)  # this loop has nothing else to run
        finally:
            if session is not None:  # a clean stop: the connection closed, not cut
                try:
                    await session.close(timeout=1.0)
                except Exception:
                    self._drop(session)

    def _drop(self, session: Any) -> None:
        if session is not None:
            with contextlib.suppress(Exception):
                session.terminate()

    def _failed(self, exc: Exception) -> None:
        """Once per new error, in one line (an outage is logged by the loop's side)."""
        said = describe(exc)
        if said != self._said and not is_outage(exc):
            log.warning("lease renewal thread: %s", said)
        self._said = said
