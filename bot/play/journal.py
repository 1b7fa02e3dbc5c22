"""The one way anything reaches the store.

Every change of a table (its row, its match's log entries, its next deadline) is
committed here before anything about it is shown; after the commit the journal arms the
table's next deadline. If a commit fails, the table is read back from the store (memory
never runs ahead of what is stored) and the error raised to the caller.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from bot.ops.clock import Clock
from bot.play.deadlines import Deadlines
from bot.play.entries import Ended, Entry, entry
from bot.play.registry import TableRegistry
from bot.play.table import MatchRun, Table
from bot.play.watch import TableWatch
from bot.store import (
    LeaseLost,
    LogEntry,
    MatchRow,
    StaleCopy,
    Store,
    StoreUnavailable,
    TableRow,
    Write,
)
from engine import Event

log = logging.getLogger(__name__)

#: After a failed commit, the table's next deadline comes at least this much later.
RETRY_AFTER = 5.0


class Journal:
    """Commits tables, matches and log entries; arms the next deadline after each."""

    def __init__(
        self,
        store: Store,
        clock: Clock,
        deadlines: Deadlines,
        registry: TableRegistry,
        on_shelved: Callable[[Table], None] | None = None,
        watch: TableWatch | None = None,
    ) -> None:
        self._store = store
        self._clock = clock
        self._deadlines = deadlines
        self._registry = registry
        self._on_shelved = on_shelved  # a table left memory: rebuild it when the store is back
        self._watch = watch or TableWatch()  # told after each commit (the web table's sockets)

    async def new_table_id(self) -> int:
        return await self._store.new_table_id()

    async def new_match_id(self) -> int:
        return await self._store.new_match_id()

    async def channel_rows(self, channel: str) -> list[TableRow]:
        """The channel's tables as stored: every process's, not only the ones run here."""
        return await self._store.channel_tables(channel)

    async def save(self, t: Table) -> None:
        """Commit the table's row (seats, status, settings)."""
        await self._store.write(Write(tables=[t.row(self._clock.now())]))
        self._watch.changed(t.id)

    async def start(self, t: Table, start: LogEntry, row: MatchRow) -> None:
        """Commit a new match (its row, its start entry, the table) and arm its first
        deadline; ``t.run`` is already the match the start entry makes."""
        dl = self._deadlines.next(t)
        w = Write(tables=[t.row(start.at)], new_matches=[row], logs=[start])
        w.deadlines[t.id] = dl
        await self._store.write(w)
        self._deadlines.arm(t, dl)
        self._watch.changed(t.id)

    async def record(
        self, t: Table, entries: list[Entry], *, save_table: bool = False
    ) -> list[Event]:
        """Apply entries to the match in memory, commit them, then arm the next deadline;
        returns the engine events they caused. A match that is over gets its end entry,
        and the table its new status, in the same commit."""
        run = t.run
        assert run is not None
        if not self._registry.is_current(t):
            # a copy that left memory (its lease was lost, or it was rebuilt) while a move
            # of it was under way: it is behind, or not ours; the table run here, if any,
            # is the one read from the log
            raise LeaseLost({t.id})
        now = self._clock.now()
        w = Write()
        events: list[Event] = []
        for e in entries:
            stored = entry(run.id, run.seq, now, e)
            events += run.apply(stored)
            w.logs.append(stored)
        if run.over and w.logs[-1].kind not in ("end", "abort"):
            m = run.match
            end = (
                Ended(m.winner, (m.scores[0], m.scores[1])) if m is not None else Ended(None, None)
            )
            stored = entry(run.id, run.seq, now, end)
            run.apply(stored)
            w.logs.append(stored)
        if run.over:
            w.ended_matches.append((run.id, now, "aborted" if run.aborted else "over"))
            t.last_match = run.id
            if t.status == "playing":
                t.status = "closed" if t.ref is not None else "open"  # tournament: one match
            save_table = True
        if save_table:
            w.tables.append(t.row(now))
        dl = self._deadlines.next(t)
        w.deadlines[t.id] = dl
        try:
            await self._store.write(w)
        except StaleCopy:
            # ours, but another process ran it past this copy while we had lost the lease:
            # nothing was written; the table is read back from its log, once, and goes on
            log.warning("table %s was behind its match log here: rebuilt from it", t.tid)
            if self._registry.is_current(t):
                fresh = await self.reload(t)
                if fresh is not None:
                    self._deadlines.arm(fresh, self._deadlines.next(fresh))
            raise
        except LeaseLost:
            raise  # another process runs it now (dropped here): nothing to reload or re-arm
        except Exception as exc:
            if not isinstance(exc, StoreUnavailable):  # an outage is logged once, by the store
                log.exception("could not store table %s; reloading it", t.tid)
            if not self._registry.is_current(t):
                raise  # left memory meanwhile: nothing of this copy to read back or re-arm
            try:
                fresh = await self.reload(t)
            except Exception:
                self._shelve(t)  # memory must not run ahead of the database
                raise exc from None
            if fresh is not None:
                self._deadlines.arm(fresh, self._deadlines.later(fresh, now + RETRY_AFTER))
            raise
        if self._registry.is_current(t):  # (dropped meanwhile: its timer stays cancelled)
            self._deadlines.arm(t, dl)
        self._watch.changed(t.id)
        return events

    async def reload(self, t: Table) -> Table | None:
        """Read the table back from the store into ``t`` (None: it is no longer there,
        and no longer run here)."""
        row = await self._store.table(t.id)
        if row is None:
            self._registry.drop(t.id)
            return None
        stored = Table.from_row(row)
        if row.match_id is not None:
            stored.run = MatchRun.replay(await self._store.log(row.match_id), t.id)
        t.reset_to(stored)
        self._watch.changed(t.id)
        return t

    def _shelve(self, t: Table) -> None:
        """A table that could not be stored nor read back (the database is down) leaves
        memory; it is rebuilt from the database once that answers again."""
        self._registry.drop(t.id)
        self._deadlines.disarm(t)
        if self._on_shelved is not None:
            self._on_shelved(t)
