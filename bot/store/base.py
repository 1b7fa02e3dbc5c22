"""The database: one interface, two engines, versioned migrations, an append-only match log.

:func:`open_store` picks the engine from its target: a file path (or ``:memory:``) opens
SQLite through aiosqlite in WAL mode, the zero-setup default for one process; a
``postgresql://`` URL opens PostgreSQL through asyncpg (``bot/store/postgres.py``), which
several bot processes share, each table leased to one of them at a time.

What is true about a match is its log: one row per input (the server seed's commitment,
each seat's seed, drand's round and value) and per action, in order, never updated or
deleted (triggers refuse it). Tables, matches' summaries and deadlines are plain rows kept
next to it so a restart finds every unfinished table, its timers included.

Writes are grouped: every caller awaits its own :class:`Write`, and all the writes waiting
at that moment go into one transaction (group commit). A caller shows an action's effects
only after its ``await`` returns, i.e. after the commit: nothing shown is ever lost.
Every commit goes through :meth:`Store._commit` (one place to time or check it).

Ids (tables, matches) are handed out by the database, never counted in memory, so two
processes on one database never hand out the same id.
"""

from __future__ import annotations

import abc
import asyncio
import json
import logging
from collections.abc import Callable
from typing import Any

from bot.store.records import LogEntry, MatchRow, TableDeadline, TableRow, Write

log = logging.getLogger(__name__)

MIGRATIONS: tuple[str, ...] = (
    # 1: tables, matches, the append-only log, deadlines
    """
    CREATE TABLE tables (
        id INTEGER PRIMARY KEY,
        channel TEXT NOT NULL,
        host TEXT NOT NULL,
        settings TEXT NOT NULL,
        seats TEXT NOT NULL,
        status TEXT NOT NULL,
        match_id INTEGER,
        created_at REAL NOT NULL,
        updated_at REAL NOT NULL
    );
    CREATE INDEX tables_by_status ON tables(status);
    CREATE TABLE matches (
        id INTEGER PRIMARY KEY,
        table_id INTEGER NOT NULL REFERENCES tables(id),
        channel TEXT NOT NULL,
        ruleset TEXT NOT NULL,
        commitment TEXT NOT NULL,
        started_at REAL NOT NULL,
        ended_at REAL,
        status TEXT NOT NULL
    );
    CREATE INDEX matches_by_channel ON matches(channel, id);
    CREATE TABLE match_log (
        match_id INTEGER NOT NULL REFERENCES matches(id),
        seq INTEGER NOT NULL,
        at REAL NOT NULL,
        kind TEXT NOT NULL,
        data TEXT NOT NULL,
        PRIMARY KEY (match_id, seq)
    ) WITHOUT ROWID;
    CREATE TRIGGER match_log_no_update BEFORE UPDATE ON match_log
        BEGIN SELECT RAISE(ABORT, 'match_log is append-only'); END;
    CREATE TRIGGER match_log_no_delete BEFORE DELETE ON match_log
        BEGIN SELECT RAISE(ABORT, 'match_log is append-only'); END;
    CREATE TABLE deadlines (
        table_id INTEGER PRIMARY KEY,
        kind TEXT NOT NULL,
        due REAL NOT NULL,
        nonce INTEGER NOT NULL
    );
    """,
    # 2: ids handed out by the database (PostgreSQL: sequences, and table leases)
    """
    CREATE TABLE id_counters (
        name TEXT PRIMARY KEY,
        last INTEGER NOT NULL
    );
    INSERT INTO id_counters (name, last)
        SELECT 'tables', COALESCE(MAX(id), 0) FROM tables;
    INSERT INTO id_counters (name, last)
        SELECT 'matches', COALESCE(MAX(id), 0) FROM matches;
    """,
)


Serves = Callable[[str], bool]  # does this process serve that channel (its shards)?


class Store(abc.ABC):
    """The interface both engines implement, and the group commit they share.

    An engine provides ``_commit`` (one transaction for a merged :class:`Write`), the ids,
    the reads, and the table leases (SQLite: one process, every table is its own).
    """

    shared = False  # can several processes use this database at once?
    owner = "local"  # who this process is, in the table leases
    lease_seconds = 0.0
    # told at once when a commit finds tables another process holds now (the app drops them)
    lease_lost: Callable[[set[int]], None] | None = None

    def __init__(self, target: str) -> None:
        self.target = target
        self.path = target  # the tournaments' tables live in the same database
        self._pending: list[tuple[Write, asyncio.Future[None]]] = []
        self._flusher: asyncio.Task[None] | None = None
        self.commits = 0

    # --- what an engine provides -----------------------------------------------------

    @abc.abstractmethod
    async def migrate(self) -> int: ...

    @abc.abstractmethod
    async def close(self) -> None: ...

    @abc.abstractmethod
    async def new_table_id(self) -> int:
        """A new table's id, from the database (with its lease, where there are leases)."""

    @abc.abstractmethod
    async def new_match_id(self) -> int: ...

    @abc.abstractmethod
    async def _commit(self, w: Write) -> None:
        """One transaction for ``w``: all of it or nothing (``LeaseLost`` when a table of
        it is another process's now). The one place every change is written."""

    @abc.abstractmethod
    async def open_tables(self) -> list[TableRow]: ...

    @abc.abstractmethod
    async def table(self, table_id: int) -> TableRow | None: ...

    @abc.abstractmethod
    async def table_by_ref(self, ref: str) -> TableRow | None: ...

    @abc.abstractmethod
    async def match(self, match_id: int) -> MatchRow | None: ...

    @abc.abstractmethod
    async def latest_match(
        self, channel: str | None = None, *, ended: bool = False
    ) -> MatchRow | None: ...

    @abc.abstractmethod
    async def matches(self, status: str | None = None) -> list[MatchRow]: ...

    @abc.abstractmethod
    async def log(self, match_id: int) -> list[LogEntry]: ...

    @abc.abstractmethod
    async def deadlines(self) -> dict[int, TableDeadline]: ...

    # --- table leases (one process: every unfinished table is its own) ----------------

    async def claim_tables(self, serves: Serves | None = None, mine: bool = True) -> list[TableRow]:
        """Take every unfinished table this process may run (one whose lease ran out, and
        with ``mine`` the ones it holds under its name); returns their rows, oldest first."""
        if not mine:
            return []
        return [r for r in await self.open_tables() if serves is None or serves(r.channel)]

    async def playing_elsewhere(self, serves: Serves | None, here: set[int]) -> list[int]:
        """Tables with a match in progress (of the channels served) not in ``here``."""
        return []

    async def renew_leases(self) -> set[int] | None:
        """Extend this process's leases; the tables it still holds (None: all of them)."""
        return None

    async def release_leases(self) -> None:  # noqa: B027 (one process: nothing to give up)
        """Give this process's tables up at once (a clean stop), for another to take."""

    # --- writing ---------------------------------------------------------------------

    async def write(self, unit: Write) -> None:
        """Commit ``unit``; returns once it is durable. Raises if it could not be written."""
        fut: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._pending.append((unit, fut))
        if self._flusher is None or self._flusher.done():
            self._flusher = asyncio.create_task(self._flush_loop())
        await fut

    async def _flush_loop(self) -> None:
        while self._pending:
            batch, self._pending = self._pending, []
            merged = Write()
            for unit, _ in batch:
                merged.merge(unit)
            try:
                await self._commit(merged)
                self.commits += 1
            except Exception:
                # one bad unit (or a lost lease) must not sink the others: each on its own
                for unit, fut in batch:
                    try:
                        await self._commit(unit)
                        self.commits += 1
                    except Exception as exc:
                        if not fut.done():
                            fut.set_exception(exc)
                    else:
                        if not fut.done():
                            fut.set_result(None)
                continue
            for _, fut in batch:
                if not fut.done():
                    fut.set_result(None)

    async def flush(self) -> None:
        """Wait until every write handed in so far is committed (or has failed)."""
        if self._flusher is not None:
            await asyncio.shield(self._flusher)


def latest_match_sql(channel: str | None, ended: bool) -> tuple[str, list[Any]]:
    """The newest match (of a channel; ended ones only): SQL with ``?`` placeholders."""
    sql = "SELECT * FROM matches"
    where, args = [], []
    if channel is not None:
        where.append("channel = ?")
        args.append(channel)
    if ended:
        where.append("status != 'playing'")
    if where:
        sql += " WHERE " + " AND ".join(where)
    return sql + " ORDER BY id DESC LIMIT 1", args


def write_statements(w: Write) -> list[tuple[str, list[tuple[Any, ...]]]]:
    """The SQL of one Write, in an order that respects foreign keys: written once for both
    engines (``?`` placeholders, upserts as ``ON CONFLICT ... DO UPDATE``)."""
    out: list[tuple[str, list[tuple[Any, ...]]]] = []
    if w.tables:
        out.append(
            (
                "INSERT INTO tables (id, channel, host, settings, seats, status,"
                " match_id, created_at, updated_at) VALUES (?,?,?,?,?,?,?,?,?)"
                " ON CONFLICT (id) DO UPDATE SET channel = excluded.channel,"
                " host = excluded.host, settings = excluded.settings, seats = excluded.seats,"
                " status = excluded.status, match_id = excluded.match_id,"
                " updated_at = excluded.updated_at",
                [
                    (
                        t.id,
                        t.channel,
                        t.host,
                        json.dumps(t.settings),
                        json.dumps(t.seats),
                        t.status,
                        t.match_id,
                        t.created_at,
                        t.updated_at,
                    )
                    for t in w.tables
                ],
            )
        )
    if w.new_matches:
        out.append(
            (
                "INSERT INTO matches (id, table_id, channel, ruleset, commitment,"
                " started_at, ended_at, status) VALUES (?,?,?,?,?,?,?,?)",
                [
                    (
                        m.id,
                        m.table_id,
                        m.channel,
                        m.ruleset,
                        m.commitment,
                        m.started_at,
                        m.ended_at,
                        m.status,
                    )
                    for m in w.new_matches
                ],
            )
        )
    if w.logs:
        out.append(
            (
                "INSERT INTO match_log (match_id, seq, at, kind, data) VALUES (?,?,?,?,?)",
                [
                    (e.match_id, e.seq, e.at, e.kind, json.dumps(e.data, sort_keys=True))
                    for e in w.logs
                ],
            )
        )
    if w.ended_matches:
        out.append(
            (
                "UPDATE matches SET ended_at = ?, status = ? WHERE id = ?",
                [(at, status, mid) for mid, at, status in w.ended_matches],
            )
        )
    clears = [(tid,) for tid, d in w.deadlines.items() if d is None]
    sets = [(d.table_id, d.kind, d.due, d.nonce) for d in w.deadlines.values() if d]
    if clears:
        out.append(("DELETE FROM deadlines WHERE table_id = ?", clears))
    if sets:
        out.append(
            (
                "INSERT INTO deadlines (table_id, kind, due, nonce) VALUES (?,?,?,?)"
                " ON CONFLICT (table_id) DO UPDATE SET kind = excluded.kind,"
                " due = excluded.due, nonce = excluded.nonce",
                sets,
            )
        )
    return out


def table_row_of(r: Any) -> TableRow:
    """A ``tables`` row (either engine's) as a :class:`TableRow`."""
    return TableRow(r[0], r[1], r[2], json.loads(r[3]), json.loads(r[4]), r[5], r[6], r[7], r[8])


def statements(script: str) -> list[str]:
    """Split a migration into statements, keeping trigger bodies whole."""
    out, buf = [], []
    for line in script.strip().splitlines():
        buf.append(line)
        text = "\n".join(buf).strip()
        if text.endswith(";") and (
            "BEGIN" not in text.upper().split("CREATE TRIGGER")[-1] or text.upper().endswith("END;")
        ):
            out.append(text)
            buf = []
    if "".join(buf).strip():
        out.append("\n".join(buf))
    return out
