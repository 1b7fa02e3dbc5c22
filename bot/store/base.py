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
import concurrent.futures
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
from bot.store.community import (
    LOG_LIMIT,
    SETTINGS_MIGRATION,
    SettingChange,
    SettingsWrite,
    StoredSetting,
)
from bot.store.lock import DatabaseLock
from bot.store.records import (
    LeaseLost,
    LogEntry,
    MatchRow,
    StaleCopy,
    TableDeadline,
    TableRow,
    Write,
)

log = logging.getLogger(__name__)

#: Seconds one SQLite statement waits inside SQLite for another connection's lock
#: (``PRAGMA busy_timeout``) before it fails with "database is locked".
BUSY_TIMEOUT = 5.0
#: Seconds a write keeps trying while another program holds the database's write lock
#: (a backup script, the ``sqlite3`` shell); after that it fails as
#: :class:`StoreUnavailable` and nothing of it is written.
BUSY_WAIT = 60.0
#: Seconds one try of a write waits inside SQLite for the lock: short, so the bot's
#: connection is free for its reads between two tries.
LOCK_TRY = 0.2
#: Seconds between two tries, on the event loop.
LOCK_PAUSE = 0.05

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
    # 4: each community's settings and the log of their changes (bot/store/community.py)
    SETTINGS_MIGRATION,
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


class LockWait:
    """One write's wait for a lock another program holds: said in the log once when it
    starts and once when it ends, and given up, whole, after ``limit`` seconds.

    The SQLite and PostgreSQL stores and the tournaments' connection wait alike: each
    failed try calls :meth:`pause`, the try that goes through calls :meth:`over`."""

    def __init__(self, limit: float, holder: str, availability: Availability | None = None):
        self.limit = limit
        self.holder = holder  # "database locked by another program", ...
        self.availability = availability
        self.first: float | None = None

    async def pause(self, exc: BaseException) -> None:
        """After a try that found the lock taken: wait a moment, or fail the write as
        :class:`StoreUnavailable` once the wait has lasted ``limit`` seconds."""
        now = time.monotonic()
        if self.first is None:
            self.first = now
            log.warning("%s: writes wait (up to %.0f s)", self.holder, self.limit)
        if now - self.first >= self.limit:
            if self.availability is not None:
                self.availability.failed(exc)
            raise StoreUnavailable(f"{self.holder} for {now - self.first:.0f} s") from exc
        await asyncio.sleep(LOCK_PAUSE)

    def over(self) -> None:
        """The write went through: say so if it had to wait."""
        if self.first is None:
            return
        log.warning("lock released: writes go on after %.1f s", time.monotonic() - self.first)
        if self.availability is not None:
            self.availability.ok()


def is_busy(exc: BaseException) -> bool:
    """Is ``exc`` SQLite's "database is locked" (another connection holds the lock)? Such
    a write was not applied and may be tried again."""
    code = getattr(exc, "sqlite_errorcode", None)
    if isinstance(exc, sqlite3.OperationalError) and code is not None:
        return code & 0xFF in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED)
    return isinstance(exc, sqlite3.OperationalError) and "locked" in str(exc)


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

    @abc.abstractmethod
    async def channel_tables(self, channel: str) -> list[TableRow]:
        """The channel's tables that are not closed, in the database: every process's,
        not only the ones this process runs (asked at every ``/table create``)."""

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

    async def probe_read(self, timeout: float) -> None:
        """Read the database within ``timeout`` (readiness), or raise; never on a queue
        that a blocked commit holds up."""
        await self.match(0)  # row 0 never exists

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

    async def renew_leases(
        self, tables: set[int] | None = None, *, extend: bool = True
    ) -> set[int] | None:
        """Extend this process's leases (``extend``); which of ``tables`` (the ones it
        runs) it still holds (None: all of them)."""
        return None

    async def open_lease_session(self) -> Any:
        """A session of its own for a renewal thread (None: no leases to renew)."""
        return None

    async def extend_leases(self, session: Any) -> None:  # noqa: B027 (no leases: nothing)
        """Extend every lease of this process on ``session`` (the renewal thread's)."""

    async def release_leases(self) -> None:  # noqa: B027 (one process: nothing to give up)
        """Give this process's tables up at once (a clean stop), for another to take."""

    # --- each community's settings (bot/store/community.py) ---------------------------

    async def community_settings(self, scopes: list[str]) -> list[StoredSetting]:
        """What these scopes (a group, one of its channels) have set."""
        raise NotImplementedError

    async def change_community_settings(self, w: SettingsWrite) -> list[SettingChange]:
        """Apply ``w`` and log it, in one transaction; returns the changes as logged."""
        raise NotImplementedError

    async def community_log(self, grp: str, limit: int = LOG_LIMIT) -> list[SettingChange]:
        """The latest changes in a group and its channels, newest first."""
        raise NotImplementedError

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
            except LeaseLost as exc:
                # the units of the tables refused (lost, or behind their log here) fail at
                # once, with the same fault; the others go in again together, at once: a
                # unit of a refused table never waits behind them to be tried later, when
                # the table may be this process's again (taken back, rebuilt from its log)
                refused = [(u, f) for u, f in batch if u.touched() & exc.table_ids]
                if not refused:
                    await self._one_by_one(batch)
                    continue
                out = {id(f) for _, f in refused}
                self._pending = [(u, f) for u, f in batch if id(f) not in out] + self._pending
                if isinstance(exc, StaleCopy):  # which unit of the table is behind: alone
                    await self._one_by_one(refused)
                    continue
                for unit, fut in refused:
                    if not fut.done():
                        fut.set_exception(LeaseLost(unit.touched() & exc.table_ids))
                continue
            except StoreUnavailable as exc:
                # the database is down: the units alone would only fail again, one by one
                for _, fut in batch:
                    if not fut.done():
                        fut.set_exception(exc)
                continue
            except Exception:
                await self._one_by_one(batch)  # one bad unit must not sink the others
                continue
            for _, fut in batch:
                if not fut.done():
                    fut.set_result(None)

    async def _one_by_one(self, batch: list[tuple[Write, asyncio.Future[None]]]) -> None:
        """Each unit of a batch that failed together committed on its own."""
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
        self.busy_timeout = BUSY_TIMEOUT
        self.busy_wait = BUSY_WAIT
        # readiness: connections and threads of their own, never the bot's queue
        self._probe: sqlite3.Connection | None = None
        self._probe_mutex = threading.Lock()
        self._reader: sqlite3.Connection | None = None
        self._reader_mutex = threading.Lock()
        self._health_pool: concurrent.futures.ThreadPoolExecutor | None = None

    @classmethod
    async def connect(
        cls,
        path: str | Path,
        *,
        read_only: bool = False,
        exclusive: bool = False,
        busy_timeout: float = BUSY_TIMEOUT,
        busy_wait: float = BUSY_WAIT,
    ) -> SQLiteStore:
        """Open (and migrate) the database. ``exclusive``: hold its lock file for as long as
        the store is open (``belote run``: one writer per database; :class:`DatabaseInUse`
        when another process holds it). ``read_only``: open it ``mode=ro``, as export,
        verify and ``admin tables`` do: nothing is written, not even the journal mode.
        Whatever fails, nothing is left open (aiosqlite's thread would keep the process
        alive). ``busy_timeout``: how long one statement waits for another connection's
        lock inside SQLite; ``busy_wait``: how long a write keeps trying while another
        program holds the write lock (see :meth:`_write_in_thread`)."""
        path = str(path)
        if read_only:
            store = await cls._connect_read_only(path, busy_timeout)
            store.busy_timeout, store.busy_wait = busy_timeout, busy_wait
            return store
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
            await conn.execute(f"PRAGMA busy_timeout={int(busy_timeout * 1000)}")
            store = cls(conn, path)
            store.busy_timeout, store.busy_wait = busy_timeout, busy_wait
            store._lock = lock
            await store.migrate()
            if path != ":memory:":
                await store._can_write()
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
    async def _connect_read_only(cls, path: str, busy_timeout: float) -> SQLiteStore:
        uri = f"file:{quote(str(Path(path).resolve()))}?mode=ro"
        conn = await aiosqlite.connect(uri, uri=True, isolation_level=None)
        try:
            await conn.execute("PRAGMA query_only=1")
            await conn.execute(f"PRAGMA busy_timeout={int(busy_timeout * 1000)}")
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

    async def _can_write(self) -> None:
        """Take the write lock once and give it back, waiting ``busy_timeout`` at most: a
        start beside a sqlite3 shell left in a write transaction says so in one line
        (``sqlite3.OperationalError``, made readable by the caller) instead of letting
        its first move wait a whole ``busy_wait``."""
        await self._conn.execute("BEGIN IMMEDIATE")
        await self._conn.execute("ROLLBACK")

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
        """Flush, close the connection (and the probes'), drop the lock: every time, even
        when the flush fails."""
        try:
            await self.flush()
        finally:
            try:
                await self._conn.close()
                await asyncio.to_thread(self._close_probes)
            finally:
                if self._lock is not None:
                    self._lock.release()
                    self._lock = None

    def _close_probes(self) -> None:
        """The readiness connections (each under its mutex: a probe may be under way) and
        their threads. A probe stuck on a dead disk is not waited for."""
        for mutex, name in ((self._probe_mutex, "_probe"), (self._reader_mutex, "_reader")):
            if mutex.acquire(timeout=self.busy_timeout):
                try:
                    conn = getattr(self, name)
                    setattr(self, name, None)
                    if conn is not None:
                        conn.close()
                finally:
                    mutex.release()
        pool, self._health_pool = self._health_pool, None
        if pool is not None:
            pool.shutdown(wait=False, cancel_futures=True)

    # --- readiness: a read and a real write, each on a connection of its own ---------

    def _in_health_thread(self, fn: Callable[..., Any], *args: Any) -> asyncio.Future[Any]:
        """Run ``fn`` on the probes' own threads: never behind the bot's connection (a
        commit waiting for a lock), nor behind pictures or the AI in the default pool."""
        if self._health_pool is None:
            self._health_pool = concurrent.futures.ThreadPoolExecutor(
                max_workers=2, thread_name_prefix="belote-health"
            )
        return asyncio.get_running_loop().run_in_executor(self._health_pool, fn, *args)

    async def probe_read(self, timeout: float) -> None:
        """Read the database on a connection of its own (WAL: a reader never waits for a
        writer, another program's included), after checking that the bot's own
        connection is open, without queueing on it (a commit may be waiting there)."""
        conn = self._conn
        if conn._connection is None or not conn._thread.is_alive():
            raise StoreError("the bot's own connection to the database is closed")
        if self.path == ":memory:":  # nothing else can open it: the bot's own connection
            await self.match(0)
            return
        await self._in_health_thread(self._read_sync, timeout)

    def _read_sync(self, timeout: float) -> None:
        with self._reader_mutex:
            if self._reader is None:
                uri = f"file:{quote(str(Path(self.path).resolve()))}?mode=ro"
                self._reader = sqlite3.connect(
                    uri, uri=True, timeout=timeout, isolation_level=None, check_same_thread=False
                )
            self._reader.execute("SELECT id FROM matches WHERE id = 0").fetchall()

    async def probe_write(self, timeout: float) -> None:
        """Rewrite the probe's row and commit it, on a connection of its own (so a probe
        never waits behind the bot's queue), waiting at most ``timeout`` for a lock."""
        if self.read_only:
            raise StoreError("opened read-only")
        await self._in_health_thread(self._probe_sync, timeout)

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
        return int(await self._write_in_thread(self._next_id_sync, name))

    def _next_id_sync(self, name: str) -> int:
        c = self._conn._conn
        c.execute("BEGIN IMMEDIATE")
        try:
            cur = c.execute(
                "UPDATE id_counters SET last = last + 1 WHERE name = ? RETURNING last", (name,)
            )
            (n,) = cur.fetchone()
            cur.close()
            c.execute("COMMIT")
        except BaseException:
            if c.in_transaction:
                c.execute("ROLLBACK")
            raise
        return int(n)

    # --- writing ---------------------------------------------------------------------

    @metrics.timed_commit
    async def _commit(self, w: Write) -> None:
        """One transaction for ``w``, run in one trip to aiosqlite's thread (so a busy event
        loop does not stretch a commit over many hops)."""
        await self._write_in_thread(self._commit_sync, w)

    async def _in_thread(self, fn: Callable[..., Any], *args: Any) -> Any:
        return await self._conn._execute(fn, *args)

    async def _write_in_thread(self, fn: Callable[..., Any], *args: Any) -> Any:
        """Run the write ``fn`` (one transaction that starts with ``BEGIN IMMEDIATE``) on
        the bot's connection; while another program holds the write lock, try again.

        Each try waits at most :data:`LOCK_TRY` inside SQLite, then gives the connection
        back (the bot's reads run between two tries) and pauses on the event loop. A try
        that found the lock taken wrote nothing, and ``fn``'s arguments still hold the
        whole write: trying again neither loses nor doubles any of it. After
        ``busy_wait`` seconds the write fails as :class:`StoreUnavailable`, at once for
        every write waiting with it."""
        wait = LockWait(self.busy_wait, "database locked by another program", self.availability)
        while True:
            try:
                result = await self._in_thread(self._one_try, fn, *args)
            except sqlite3.OperationalError as exc:
                if not is_busy(exc):
                    raise
                await wait.pause(exc)
                continue
            wait.over()
            return result

    def _one_try(self, fn: Callable[..., Any], *args: Any) -> Any:
        """``fn`` with SQLite's lock wait cut to one short try (aiosqlite's thread)."""
        c = self._conn._conn
        c.execute(f"PRAGMA busy_timeout={int(min(LOCK_TRY, self.busy_timeout) * 1000)}")
        try:
            return fn(*args)
        finally:
            c.execute(f"PRAGMA busy_timeout={int(self.busy_timeout * 1000)}")

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

    # --- each community's settings --------------------------------------------------

    async def community_settings(self, scopes: list[str]) -> list[StoredSetting]:
        marks = ", ".join("?" * len(scopes))
        async with self._conn.execute(
            f"SELECT scope, key, value FROM community_settings WHERE scope IN ({marks})",
            scopes,
        ) as cur:
            return [StoredSetting(r[0], r[1], r[2]) for r in await cur.fetchall()]

    async def change_community_settings(self, w: SettingsWrite) -> list[SettingChange]:
        """One ``BEGIN IMMEDIATE`` transaction (writers queue for it, none is lost), run
        in one trip to aiosqlite's thread like every commit here."""
        return list(await self._in_thread(self._change_settings_sync, w))

    def _change_settings_sync(self, w: SettingsWrite) -> list[SettingChange]:
        c = self._conn._conn
        c.execute("BEGIN IMMEDIATE")
        try:
            done = []
            for key, new in w.changes:
                row = c.execute(
                    "SELECT value FROM community_settings WHERE scope = ? AND key = ?",
                    (w.scope, key),
                ).fetchone()
                old = row[0] if row is not None else None
                if new is None:
                    c.execute(
                        "DELETE FROM community_settings WHERE scope = ? AND key = ?",
                        (w.scope, key),
                    )
                else:
                    c.execute(
                        "INSERT INTO community_settings VALUES (?, ?, ?, ?, ?, ?)"
                        " ON CONFLICT (scope, key) DO UPDATE SET value = excluded.value,"
                        " updated_at = excluded.updated_at, updated_by = excluded.updated_by",
                        (w.grp, w.scope, key, new, w.at, w.by_user),
                    )
                c.execute(
                    "INSERT INTO community_settings_log VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                    (w.grp, w.scope, key, old, new, w.by_user, w.by_name, w.at),
                )
                done.append(SettingChange(w.scope, key, old, new, w.by_user, w.by_name, w.at))
            c.execute("COMMIT")
            return done
        except BaseException:
            if c.in_transaction:
                c.execute("ROLLBACK")
            raise

    async def community_log(self, grp: str, limit: int = LOG_LIMIT) -> list[SettingChange]:
        async with self._conn.execute(
            "SELECT scope, key, old, new, by_user, by_name, at FROM community_settings_log"
            " WHERE grp = ? ORDER BY at DESC, rowid DESC LIMIT ?",
            (grp, min(limit, LOG_LIMIT)),
        ) as cur:
            return [SettingChange(*r) for r in await cur.fetchall()]

    # --- reading ---------------------------------------------------------------------

    async def open_tables(self) -> list[TableRow]:
        """Every table not closed, oldest first: what a restart resumes."""
        async with self._conn.execute(
            "SELECT * FROM tables WHERE status != 'closed' ORDER BY id"
        ) as cur:
            return [_table(r) for r in await cur.fetchall()]

    async def channel_tables(self, channel: str) -> list[TableRow]:
        async with self._conn.execute(
            "SELECT * FROM tables WHERE channel = ? AND status != 'closed' ORDER BY id", (channel,)
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
