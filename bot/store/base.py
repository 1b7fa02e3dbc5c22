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
import sqlite3
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any
from urllib.parse import quote

import aiosqlite

from bot.ops import metrics
from bot.store.availability import Availability
from bot.store.lock import DatabaseLock
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
    # 3: the readiness probe's one row (a write that proves the database takes writes)
    """
    CREATE TABLE health_probe (
        id INTEGER PRIMARY KEY,
        at REAL NOT NULL
    );
    """,
)


class StoreError(Exception):
    """The database cannot be used as asked: one line for the operator, never a password.
    ``fix_settings``: the operator must change something (the process exits 2); else it
    may pass by itself (a server down: exit 1, and a restart tries again)."""

    def __init__(self, text: str, *, fix_settings: bool = False) -> None:
        super().__init__(text)
        self.fix_settings = fix_settings


class NotOurs(StoreError):
    """A database with none of the bot's tables (opened to read: nothing to read)."""

    def __init__(self, where: str) -> None:
        super().__init__(
            f"{where} has none of the bot's tables (schema version 0): is it the bot's database?",
            fix_settings=True,
        )


class SchemaTooNew(StoreError):
    """The database was made by a newer bot: this one does not know its tables."""

    def __init__(self, found: int, known: int) -> None:
        super().__init__(
            f"the database's schema is version {found}, newer than this bot knows "
            f"({known}): run the newer bot, or restore a backup made for this one",
            fix_settings=True,
        )
        self.found = found
        self.known = known


class StoreUnavailable(RuntimeError):
    """The database could not be reached (after retries): nothing of the write was
    committed. Every write waiting with it fails at once, not one by one."""


Serves = Callable[[str], bool]  # does this process serve that channel (its shards)?


class Store(abc.ABC):
    """The interface both engines implement, and the group commit they share.

    An engine provides ``_commit`` (one transaction for a merged :class:`Write`), the ids,
    the reads, and the table leases (SQLite: one process, every table is its own).
    """

    shared = False  # can several processes use this database at once?
    read_only = False  # opened to read only (export, verify, admin tables)
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
        # the database's state as seen here: logged once per change, read by health checks
        self.availability = Availability()

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

    async def channel_tables(self, channel: str) -> list[TableRow]:
        """The channel's tables that are not closed, in the database: every process's,
        not only the ones this process runs."""
        return [r for r in await self.open_tables() if r.channel == channel]

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

    async def logs(self, match_ids: list[int]) -> dict[int, list[LogEntry]]:
        """Several matches' logs (a takeover's batch): match id -> its entries, in order."""
        return {m: await self.log(m) for m in match_ids}

    @abc.abstractmethod
    async def deadlines(self, table_ids: list[int] | None = None) -> dict[int, TableDeadline]:
        """The stored deadlines, of ``table_ids`` only when given (a takeover's batch reads
        its own, not every table's)."""

    async def probe_write(self, timeout: float) -> None:
        """Commit a tiny write within ``timeout`` (readiness), or raise."""
        raise NotImplementedError

    async def last_moves(self) -> dict[int, float]:
        """Each open table's last move (its match log's newest entry), for ``admin
        tables``' idle column; a table with no move yet is left out."""
        return {}

    async def lease_owners(self) -> dict[int, tuple[str, float]]:
        """table -> (owner, seconds its lease has left): PostgreSQL's leases."""
        return {}

    # --- table leases (one process: every unfinished table is its own) ----------------

    async def claim_tables(
        self, serves: Serves | None = None, mine: bool = True, limit: int | None = None
    ) -> list[TableRow]:
        """Take every unfinished table this process may run (one whose lease ran out, and
        with ``mine`` the ones it holds under its name), at most ``limit``; returns their
        rows, oldest first."""
        if not mine:
            return []
        return [r for r in await self.open_tables() if serves is None or serves(r.channel)]

    async def own_tables(self, ids: set[int]) -> list[TableRow]:
        """Which of these unfinished tables are still this process's (one process: all)."""
        return [r for r in await self.open_tables() if r.id in ids]

    async def playing_elsewhere(self, serves: Serves | None, here: set[int]) -> list[int]:
        """Tables with a match in progress (of the channels served) not in ``here``."""
        return []

    async def renew_leases(self, tables: set[int] | None = None) -> set[int] | None:
        """Extend this process's leases; which of ``tables`` (the ones it runs) it still
        holds (None: all of them)."""
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
            except StoreUnavailable as exc:
                # the database is down: the units alone would only fail again, one by one
                for _, fut in batch:
                    if not fut.done():
                        fut.set_exception(exc)
                continue
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


class SQLiteStore(Store):
    """One aiosqlite connection: one process owns the file."""

    def __init__(self, conn: aiosqlite.Connection, path: str) -> None:
        super().__init__(path)
        self._conn = conn
        self._lock: DatabaseLock | None = None
        self._probe: sqlite3.Connection | None = None
        self._probe_mutex = threading.Lock()

    @classmethod
    async def connect(
        cls, path: str | Path, *, read_only: bool = False, exclusive: bool = False
    ) -> SQLiteStore:
        """Open (and migrate) the database. ``exclusive``: hold its lock file for as long as
        the store is open (``belote run``: one writer per database; :class:`DatabaseInUse`
        when another process holds it). ``read_only``: open it ``mode=ro``, as export,
        verify and ``admin tables`` do: nothing is written, not even the journal mode.
        Whatever fails, nothing is left open (aiosqlite's thread would keep the process
        alive)."""
        path = str(path)
        if read_only:
            return await cls._connect_read_only(path)
        if path != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        lock = DatabaseLock(path) if exclusive and path != ":memory:" else None
        if lock is not None:
            lock.acquire()
        conn: aiosqlite.Connection | None = None
        try:
            conn = await aiosqlite.connect(path, isolation_level=None)
            await conn.execute("PRAGMA journal_mode=WAL")
            await conn.execute("PRAGMA synchronous=FULL")
            await conn.execute("PRAGMA foreign_keys=ON")
            await conn.execute("PRAGMA busy_timeout=5000")
            store = cls(conn, path)
            store._lock = lock
            await store.migrate()
            return store
        except BaseException as exc:
            if conn is not None:
                await conn.close()
            if lock is not None:
                lock.release()
            if isinstance(exc, sqlite3.Error):
                raise _sqlite_problem(path, exc) from exc
            if isinstance(exc, OSError):  # the lock file beside it
                reason = exc.strerror or str(exc)
                raise StoreError(
                    f"{path}.lock cannot be made ({reason})", fix_settings=True
                ) from exc
            raise

    @classmethod
    async def _connect_read_only(cls, path: str) -> SQLiteStore:
        uri = f"file:{quote(str(Path(path).resolve()))}?mode=ro"
        conn = await aiosqlite.connect(uri, uri=True, isolation_level=None)
        try:
            await conn.execute("PRAGMA query_only=1")
            await conn.execute("PRAGMA busy_timeout=5000")
            async with conn.execute("PRAGMA user_version") as cur:
                row = await cur.fetchone()
            version = row[0] if row is not None else 0
            if version > len(MIGRATIONS):
                raise SchemaTooNew(version, len(MIGRATIONS))
            if version == 0:
                raise NotOurs(path)
            store = cls(conn, path)
            store.read_only = True
            return store
        except BaseException as exc:
            await conn.close()
            if isinstance(exc, sqlite3.Error):
                raise _sqlite_problem(path, exc) from exc
            raise

    async def migrate(self) -> int:
        """Apply every migration newer than the database's ``user_version``; returns it.
        A database newer than this code is refused (:class:`SchemaTooNew`), untouched."""
        async with self._conn.execute("PRAGMA user_version") as cur:
            row = await cur.fetchone()
        (version,) = row if row is not None else (0,)
        if version > len(MIGRATIONS):
            raise SchemaTooNew(version, len(MIGRATIONS))
        if self.read_only:
            return int(version)
        for n, script in enumerate(MIGRATIONS, start=1):
            if n <= version:
                continue
            await self._conn.execute("BEGIN IMMEDIATE")
            try:
                for stmt in _statements(script):
                    await self._conn.execute(stmt)
                await self._conn.execute(f"PRAGMA user_version={n}")
                await self._conn.execute("COMMIT")
            except BaseException:
                await self._conn.execute("ROLLBACK")
                raise
            log.info("database migrated to version %d", n)
            version = n
        return version

    async def close(self) -> None:
        """Flush, close the connection (and the probe's), drop the lock: every time, even
        when the flush fails."""
        try:
            await self.flush()
        finally:
            try:
                await self._conn.close()
                if self._probe is not None:
                    await asyncio.to_thread(self._probe.close)
                    self._probe = None
            finally:
                if self._lock is not None:
                    self._lock.release()
                    self._lock = None

    # --- readiness: a real write, within a bound, on a connection of its own ----------

    async def probe_write(self, timeout: float) -> None:
        """Rewrite the probe's row and commit it, on a connection of its own (so a probe
        never waits behind the bot's queue), waiting at most ``timeout`` for a lock."""
        if self.read_only:
            raise StoreError("opened read-only")
        await asyncio.to_thread(self._probe_sync, timeout)

    def _probe_sync(self, timeout: float) -> None:
        with self._probe_mutex:
            if self._probe is None:
                self._probe = sqlite3.connect(
                    self.path, timeout=timeout, isolation_level=None, check_same_thread=False
                )
                self._probe.execute("PRAGMA synchronous=FULL")
            c = self._probe
            c.execute(f"PRAGMA busy_timeout={int(timeout * 1000)}")
            c.execute("BEGIN IMMEDIATE")
            try:
                c.execute(
                    "INSERT INTO health_probe (id, at) VALUES (1, ?)"
                    " ON CONFLICT (id) DO UPDATE SET at = excluded.at",
                    (time.time(),),
                )
                c.execute("COMMIT")
            except BaseException:
                if c.in_transaction:
                    c.execute("ROLLBACK")
                raise

    async def last_moves(self) -> dict[int, float]:
        async with self._conn.execute(LAST_MOVES_SQL) as cur:
            return {int(r[0]): float(r[1]) for r in await cur.fetchall()}

    # --- ids (from the database's counters, in their own short transaction) ----------

    async def new_table_id(self) -> int:
        return await self._next_id("tables")

    async def new_match_id(self) -> int:
        return await self._next_id("matches")

    async def _next_id(self, name: str) -> int:
        return await self._in_thread(self._next_id_sync, name)

    def _next_id_sync(self, name: str) -> int:
        c = self._conn._conn
        cur = c.execute(
            "UPDATE id_counters SET last = last + 1 WHERE name = ? RETURNING last", (name,)
        )
        (n,) = cur.fetchone()
        cur.close()
        return int(n)

    # --- writing ---------------------------------------------------------------------

    @metrics.timed_commit
    async def _commit(self, w: Write) -> None:
        """One transaction for ``w``, run in one trip to aiosqlite's thread (so a busy event
        loop does not stretch a commit over many hops)."""
        await self._in_thread(self._commit_sync, w)

    async def _in_thread(self, fn: Callable[..., Any], *args: Any) -> Any:
        return await self._conn._execute(fn, *args)

    def _commit_sync(self, w: Write) -> None:
        c = self._conn._conn  # the sqlite3 connection, used only from aiosqlite's thread
        c.execute("BEGIN IMMEDIATE")
        try:
            for sql, rows in write_statements(w):
                c.executemany(sql, rows)
            c.execute("COMMIT")
        except BaseException:
            # SQLite rolls back by itself on some errors (a full disk): a ROLLBACK then
            # would raise "no transaction is active" and hide what really failed
            if c.in_transaction:
                c.execute("ROLLBACK")
            raise

    # --- reading ---------------------------------------------------------------------

    async def open_tables(self) -> list[TableRow]:
        """Every table not closed, oldest first: what a restart resumes."""
        async with self._conn.execute(
            "SELECT * FROM tables WHERE status != 'closed' ORDER BY id"
        ) as cur:
            return [_table(r) for r in await cur.fetchall()]

    async def table(self, table_id: int) -> TableRow | None:
        async with self._conn.execute("SELECT * FROM tables WHERE id = ?", (table_id,)) as cur:
            r = await cur.fetchone()
        return _table(r) if r else None

    async def table_by_ref(self, ref: str) -> TableRow | None:
        """The tournament table with that key, closed or not (the newest)."""
        async with self._conn.execute(
            "SELECT * FROM tables WHERE json_extract(settings, '$.ref') = ? ORDER BY id DESC",
            (ref,),
        ) as cur:
            r = await cur.fetchone()
        return _table(r) if r else None

    async def match(self, match_id: int) -> MatchRow | None:
        async with self._conn.execute("SELECT * FROM matches WHERE id = ?", (match_id,)) as cur:
            r = await cur.fetchone()
        return MatchRow(*r) if r else None

    async def latest_match(
        self, channel: str | None = None, *, ended: bool = False
    ) -> MatchRow | None:
        sql, args = latest_match_sql(channel, ended)
        async with self._conn.execute(sql, args) as cur:
            r = await cur.fetchone()
        return MatchRow(*r) if r else None

    async def matches(self, status: str | None = None) -> list[MatchRow]:
        sql = "SELECT * FROM matches"
        args: tuple[str, ...] = ()
        if status is not None:
            sql, args = sql + " WHERE status = ?", (status,)
        async with self._conn.execute(sql + " ORDER BY id", args) as cur:
            return [MatchRow(*r) for r in await cur.fetchall()]

    async def log(self, match_id: int) -> list[LogEntry]:
        async with self._conn.execute(
            "SELECT match_id, seq, at, kind, data FROM match_log WHERE match_id = ? ORDER BY seq",
            (match_id,),
        ) as cur:
            rows = await cur.fetchall()
        return [LogEntry(m, s, a, k, json.loads(d)) for m, s, a, k, d in rows]

    async def deadlines(self, table_ids: list[int] | None = None) -> dict[int, TableDeadline]:
        async with self._conn.execute("SELECT table_id, kind, due, nonce FROM deadlines") as cur:
            found = {r[0]: TableDeadline(*r) for r in await cur.fetchall()}
        if table_ids is None:
            return found
        return {t: found[t] for t in table_ids if t in found}


#: Each open table's newest match-log entry (the same SQL for both engines).
LAST_MOVES_SQL = (
    "SELECT t.id, MAX(l.at) FROM tables t JOIN match_log l ON l.match_id = t.match_id"
    " WHERE t.status != 'closed' GROUP BY t.id"
)


def _sqlite_problem(path: str, exc: sqlite3.Error) -> StoreError:
    """What a SQLite error at open means for the operator, in one line."""
    text = str(exc)
    if "locked" in text or "busy" in text:  # another program's long write: it may pass
        return StoreError(
            f"{path} is locked by another program (a sqlite3 shell, a copy?) for more than 5 s"
        )
    if "not a database" in text:
        return StoreError(f"{path} is not a SQLite database", fix_settings=True)
    if "readonly" in text or "read-only" in text:
        return StoreError(
            f"{path} is not writable by this user: give it back (chown) to the bot's user",
            fix_settings=True,
        )
    if "unable to open" in text:
        return StoreError(
            f"{path} cannot be opened (does its folder exist, may this user write it?)",
            fix_settings=True,
        )
    return StoreError(f"{path}: {text}", fix_settings=True)


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


def _table(r: Any) -> TableRow:
    return TableRow(r[0], r[1], r[2], json.loads(r[3]), json.loads(r[4]), r[5], r[6], r[7], r[8])


def _statements(script: str) -> list[str]:
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
