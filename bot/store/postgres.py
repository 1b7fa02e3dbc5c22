"""The store on PostgreSQL (asyncpg): several bot processes share one database.

The same migrations as SQLite (numbered in ``schema_version``), the same statements for a
:class:`~bot.store.Write`, the same group commit. What several processes add:

- ids come from sequences (``table_ids``, ``match_ids``), so no two processes hand out
  the same one;
- each unfinished table has one lease row (owner, expiry, in the database's own clock).
  A table's id is handed out together with its lease to the process that asked. Every
  commit renews the leases of the tables it changes with a conditional ``UPDATE ...
  WHERE owner = me`` in the same transaction, and writes nothing unless every one of them
  is still this process's (:class:`~bot.store.LeaseLost`): a process that stalled past
  its lease cannot write over the one that took its tables, not even for a moment. The
  owner is what excludes: a takeover changes it, and a lease that ran out with nobody
  taking it is still this process's to renew (after an outage, a long pause);
- the match log refuses ``UPDATE``, ``DELETE`` and ``TRUNCATE`` (a trigger).

No lease statement waits on another process's locks. A takeover claims with ``FOR UPDATE
SKIP LOCKED`` (a row that a commit holds, even one of a paused process, is skipped, not
waited on), the renewal skips what is locked too (the commit that holds it renews it),
and every connection has a ``lock_timeout``: a commit whose wait runs out is retried, then
reported, and writes nothing. A transaction left open by a paused process is ended by the
server (``idle_in_transaction_session_timeout``, one lease), so its row locks go back and
its tables can be taken over; the paused process's commit then fails and writes nothing.
The renewal has a connection of its own, so it never queues behind a claim, a rebuild's
reads or a burst of commits for one of the pool's connections.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import secrets
import socket
import time
from pathlib import Path
from typing import Any

import asyncpg

from bot.ops import metrics
from bot.store import relay
from bot.store.availability import is_outage
from bot.store.base import (
    BUSY_WAIT,
    LAST_MOVES_SQL,
    LockWait,
    NotOurs,
    SchemaTooNew,
    Serves,
    Store,
    StoreError,
    StoreUnavailable,
    latest_match_sql,
    write_statements,
)
from bot.store.community import (
    LOG_LIMIT,
    SETTINGS_MIGRATION,
    SettingChange,
    SettingsWrite,
    StoredSetting,
)
from bot.store.records import (
    LeaseLost,
    LogEntry,
    MatchRow,
    StaleCopy,
    TableDeadline,
    TableRow,
    Write,
)
from bot.store.sql import dollar

log = logging.getLogger(__name__)

LEASE_SECONDS = 10.0
LOCK_TIMEOUT = 0.5  # seconds: the longest any statement of the store waits for a lock
COMMIT_TRIES = 4  # a commit whose lock wait ran out (or whose connection broke) is retried
# Tests only: a directory; a commit that finds ``arm`` there removes it, writes ``held``
# (its tables) and stalls inside its transaction, row locks held, for the seconds ``arm``
# says, so a test can SIGSTOP the process at that point for certain
# (tests/console/test_chaos.py). Unset, it costs nothing; not a setting (no BELOTE_ name).
HOLD_COMMIT_ENV = "TEST_HOLD_COMMIT_DIR"
_RETRIED = (
    asyncpg.exceptions.LockNotAvailableError,  # lock_timeout
    asyncpg.exceptions.DeadlockDetectedError,
    asyncpg.exceptions.SerializationError,
    # the server ended this transaction (its process stalled longer than a lease in it)
    asyncpg.exceptions.IdleInTransactionSessionTimeoutError,
)

MIGRATIONS: tuple[str, ...] = (
    # 1: tables, matches, the append-only log, deadlines
    """
    CREATE TABLE tables (
        id BIGINT PRIMARY KEY,
        channel TEXT NOT NULL,
        host TEXT NOT NULL,
        settings TEXT NOT NULL,
        seats TEXT NOT NULL,
        status TEXT NOT NULL,
        match_id BIGINT,
        created_at DOUBLE PRECISION NOT NULL,
        updated_at DOUBLE PRECISION NOT NULL
    );
    CREATE INDEX tables_by_status ON tables(status);
    CREATE TABLE matches (
        id BIGINT PRIMARY KEY,
        table_id BIGINT NOT NULL REFERENCES tables(id),
        channel TEXT NOT NULL,
        ruleset TEXT NOT NULL,
        commitment TEXT NOT NULL,
        started_at DOUBLE PRECISION NOT NULL,
        ended_at DOUBLE PRECISION,
        status TEXT NOT NULL
    );
    CREATE INDEX matches_by_channel ON matches(channel, id);
    CREATE TABLE match_log (
        match_id BIGINT NOT NULL REFERENCES matches(id),
        seq INTEGER NOT NULL,
        at DOUBLE PRECISION NOT NULL,
        kind TEXT NOT NULL,
        data TEXT NOT NULL,
        PRIMARY KEY (match_id, seq)
    );
    CREATE FUNCTION match_log_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN RAISE EXCEPTION 'match_log is append-only'; END $$;
    CREATE TRIGGER match_log_no_change BEFORE UPDATE OR DELETE ON match_log
        FOR EACH ROW EXECUTE FUNCTION match_log_append_only();
    CREATE TRIGGER match_log_no_truncate BEFORE TRUNCATE ON match_log
        FOR EACH STATEMENT EXECUTE FUNCTION match_log_append_only();
    CREATE TABLE deadlines (
        table_id BIGINT PRIMARY KEY,
        kind TEXT NOT NULL,
        due DOUBLE PRECISION NOT NULL,
        nonce INTEGER NOT NULL
    );
    """,
    # 2: ids handed out by the database, and table leases
    """
    CREATE SEQUENCE table_ids;
    SELECT setval('table_ids', COALESCE((SELECT MAX(id) FROM tables), 0) + 1, false);
    CREATE SEQUENCE match_ids;
    SELECT setval('match_ids', COALESCE((SELECT MAX(id) FROM matches), 0) + 1, false);
    CREATE TABLE leases (
        table_id BIGINT PRIMARY KEY,
        owner TEXT NOT NULL,
        expires TIMESTAMPTZ NOT NULL
    );
    CREATE INDEX leases_by_owner ON leases(owner);
    INSERT INTO leases (table_id, owner, expires)
        SELECT id, '', 'epoch' FROM tables WHERE status != 'closed';
    """,
    # 3: the readiness probe's one row (a write that proves the database takes writes)
    """
    CREATE TABLE health_probe (
        id INTEGER PRIMARY KEY,
        at DOUBLE PRECISION NOT NULL
    );
    """,
    # 4: each community's settings and the log of their changes (bot/store/community.py)
    SETTINGS_MIGRATION,
    # 5: moves made on one process for a table another runs (bot/store/relay.py)
    relay.MIGRATION,
)

#: Seconds to reach the server at start: an unreachable one is said at once, not in 60 s.
CONNECT_TIMEOUT = 5.0

# an advisory lock number for "migrating": two processes starting at once migrate once
_MIGRATION_LOCK = 0x62656C6F7465


def default_owner() -> str:
    """A name no other live process has: host, pid, and a random part."""
    return f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(3)}"


def session_settings(owner: str, lease_seconds: float) -> dict[str, str]:
    """Every connection of the store: named after its process (``pg_stat_activity`` and
    the server's log say which bot holds what), lock waits bounded, and a transaction
    left open longer than a lease (its process paused) ended by the server."""
    return {
        "application_name": owner[:63],
        "lock_timeout": f"{int(min(LOCK_TIMEOUT, lease_seconds / 4) * 1000)}ms",
        "idle_in_transaction_session_timeout": f"{max(1000, int(lease_seconds * 1000))}ms",
    }


# Every statement that changes several leases locks their rows in one order (by table id)
# before it updates them: a commit and a takeover running at once would otherwise lock
# the same rows in different orders and deadlock. The claim and the renewal skip what is
# locked; a commit waits, at most LOCK_TIMEOUT.
_LOCKED_IN_ORDER = "WITH locked AS ({which} ORDER BY table_id{lock}) UPDATE leases"
_WAIT = " FOR UPDATE"  # a commit: waits for the row, at most LOCK_TIMEOUT
_SKIP = " LIMIT $5 FOR UPDATE SKIP LOCKED"  # a claim: what is locked is not waited on


class PostgresStore(Store):
    shared = True

    def __init__(self, pool: asyncpg.Pool, url: str, owner: str, lease_seconds: float) -> None:
        super().__init__(url)
        self._pool = pool
        self._url = url
        self.owner = owner
        self.lease_seconds = lease_seconds
        self._renewer: asyncpg.Connection | None = None  # the renewal's own connection
        self._relay: relay.Relay | None = None
        self.busy_wait = BUSY_WAIT  # seconds a commit waits for another session's lock
        hold = os.environ.get(HOLD_COMMIT_ENV)
        self._hold = Path(hold) if hold else None

    @classmethod
    async def connect(
        cls,
        url: str,
        *,
        owner: str | None = None,
        lease_seconds: float = LEASE_SECONDS,
        pool_size: int = 4,
        read_only: bool = False,
        busy_wait: float = BUSY_WAIT,
    ) -> PostgresStore:
        """Connect and migrate (``read_only``: every transaction read-only, no migration,
        only the schema's version checked). :class:`StoreError` in one line when the
        server cannot be reached or refuses; nothing is left open."""
        owner = owner or default_owner()
        server_settings = session_settings(owner, lease_seconds)
        if read_only:
            server_settings["default_transaction_read_only"] = "on"
        pool = await asyncpg.create_pool(
            url,
            min_size=0,  # no floor to restore: the driver would log a traceback a try
            max_size=pool_size,
            timeout=CONNECT_TIMEOUT,
            server_settings=server_settings,
        )
        try:
            try:  # min_size=0 opened nothing: a first connection proves the server answers
                async with pool.acquire(timeout=CONNECT_TIMEOUT):
                    pass
            except BaseException:
                await pool.close()
                raise
        except asyncpg.InvalidPasswordError:
            raise StoreError("PostgreSQL refused the password", fix_settings=True) from None
        except (
            asyncpg.InvalidCatalogNameError,
            asyncpg.InvalidAuthorizationSpecificationError,
        ) as exc:
            raise StoreError(f"PostgreSQL refused: {exc}", fix_settings=True) from None
        except (OSError, TimeoutError, asyncpg.PostgresError, asyncpg.InterfaceError) as exc:
            where = _where(url)
            reason = getattr(exc, "strerror", None) or str(exc) or type(exc).__name__
            raise StoreError(f"PostgreSQL at {where} cannot be reached: {reason}") from None
        store = cls(pool, url, owner, lease_seconds)
        store.read_only = read_only
        store.busy_wait = busy_wait
        try:
            await store.migrate()
        except BaseException:
            await pool.close()
            raise
        return store

    @property
    def relay(self) -> relay.Relay:
        """The notices and relayed moves between this store's processes."""
        if self._relay is None:
            url, settings = self._url, session_settings(self.owner, self.lease_seconds)

            async def connect() -> asyncpg.Connection:
                return await asyncpg.connect(url, timeout=CONNECT_TIMEOUT, server_settings=settings)

            self._relay = relay.Relay(self._pool, connect, self.owner)
        return self._relay

    def __repr__(self) -> str:  # never the URL (it may carry a password)
        return f"PostgresStore(owner={self.owner!r})"

    async def migrate(self) -> int:
        """Apply the newer migrations; a database newer than this code is refused."""
        if self.read_only:
            async with self._pool.acquire() as c:
                version = 0
                if await c.fetchval("SELECT to_regclass('schema_version')") is not None:
                    version = await c.fetchval(
                        "SELECT COALESCE(MAX(version), 0) FROM schema_version"
                    )
            if version > len(MIGRATIONS):
                raise SchemaTooNew(version, len(MIGRATIONS))
            if version == 0:
                raise NotOurs(_where(self.target))
            return int(version)
        async with self._pool.acquire() as c, c.transaction():
            await c.execute("SELECT pg_advisory_xact_lock($1)", _MIGRATION_LOCK)
            await c.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")
            version = await c.fetchval("SELECT COALESCE(MAX(version), 0) FROM schema_version")
            if version > len(MIGRATIONS):
                raise SchemaTooNew(version, len(MIGRATIONS))
            for n, script in enumerate(MIGRATIONS, start=1):
                if n <= version:
                    continue
                await c.execute(script)
                await c.execute("INSERT INTO schema_version (version) VALUES ($1)", n)
                log.info("database migrated to version %d", n)
                version = n
        return int(version)

    async def close(self) -> None:
        try:
            await self.flush()
        finally:
            renewer, self._renewer = self._renewer, None
            if renewer is not None:
                renewer.terminate()
            if self._relay is not None:
                await self._relay.stop()
            await self._pool.close()

    async def probe_write(self, timeout: float) -> None:
        """Rewrite the probe's row in a transaction bounded by ``timeout`` (its locks and
        its statement both)."""
        ms = max(1, int(timeout * 1000))
        async with self._pool.acquire(timeout=timeout) as c, c.transaction():
            await c.execute(f"SET LOCAL lock_timeout = {ms}")
            await c.execute(f"SET LOCAL statement_timeout = {ms}")
            await c.execute(
                "INSERT INTO health_probe (id, at) VALUES (1, $1)"
                " ON CONFLICT (id) DO UPDATE SET at = excluded.at",
                time.time(),
            )

    async def last_moves(self) -> dict[int, float]:
        return {int(r[0]): float(r[1]) for r in await self._pool.fetch(LAST_MOVES_SQL)}

    async def lease_owners(self) -> dict[int, tuple[str, float]]:
        rows = await self._pool.fetch(
            "SELECT table_id, owner, EXTRACT(EPOCH FROM expires - clock_timestamp())::float8"
            " FROM leases"
        )
        return {int(r[0]): (r[1], float(r[2])) for r in rows}

    async def take_lease(self, table_id: int, owner: str) -> bool:
        """Take one table's lease under ``owner`` if nobody holds it (it ran out): what
        ``belote admin close`` does before it closes a table of a stopped bot."""
        row = await self._pool.fetchrow(
            "UPDATE leases SET owner = $2, expires = clock_timestamp() + $3 * interval '1 second'"
            " WHERE table_id = $1 AND (expires <= clock_timestamp() OR owner = $2)"
            " RETURNING table_id",
            table_id,
            owner,
            self.lease_seconds,
        )
        return row is not None

    # --- ids: a table's id comes with its lease --------------------------------------

    async def new_table_id(self) -> int:
        return int(
            await self._pool.fetchval(
                "INSERT INTO leases (table_id, owner, expires)"
                " VALUES (nextval('table_ids'), $1, clock_timestamp() + $2 * interval '1 second')"
                " RETURNING table_id",
                self.owner,
                self.lease_seconds,
            )
        )

    async def new_match_id(self) -> int:
        return int(await self._pool.fetchval("SELECT nextval('match_ids')"))

    # --- writing ---------------------------------------------------------------------

    @metrics.timed_commit
    async def _commit(self, w: Write) -> None:
        """One transaction; retried when a lock wait ran out, a deadlock was broken or the
        connection broke (each try all or nothing: a failed try is rolled back before the
        next), then reported: never half written.

        A lock another session holds (a row of a lease or of the log, a table locked by
        an operator's script) ends each try after ``lock_timeout`` with
        ``LockNotAvailableError`` (55P03); those tries go on for up to ``busy_wait``
        seconds, then the commit fails as :class:`StoreUnavailable`."""
        touched = sorted(w.touched())
        wait = LockWait(self.busy_wait, "a lock held by another session", self.availability)
        others = 0  # tries that failed otherwise (a deadlock, a broken connection)
        while True:
            try:
                await self._commit_once(w, touched)
            except asyncpg.exceptions.LockNotAvailableError as exc:
                await wait.pause(exc)
                continue
            except _RETRIED as exc:
                others += 1
                if others == COMMIT_TRIES:
                    raise
                log.info("commit retried (%s)", type(exc).__name__)
            except Exception as exc:
                if not is_outage(exc):
                    raise
                others += 1
                if others > 1 or self.availability.down_since is not None:
                    self.availability.failed(exc)
                else:  # one broken connection (the server ended the transaction of a
                    # process that stalled in it) is no outage: a fresh one, quietly
                    log.info("commit retried on a new connection (%s)", type(exc).__name__)
                if others == COMMIT_TRIES:
                    raise StoreUnavailable(str(exc) or type(exc).__name__) from exc
            else:
                wait.over()
                self.availability.ok()
                return
            await asyncio.sleep(0.05 * 2**others)

    async def _commit_once(self, w: Write, touched: list[int]) -> None:
        async with self._pool.acquire() as c, c.transaction():
            if touched:
                held = await c.fetch(
                    _LOCKED_IN_ORDER.format(
                        which="SELECT table_id FROM leases WHERE table_id = ANY($1::bigint[])"
                        " AND owner = $2",
                        lock=_WAIT,
                    )
                    + " SET expires = clock_timestamp() + $3 * interval '1 second'"
                    " FROM locked WHERE leases.table_id = locked.table_id"
                    " RETURNING leases.table_id",
                    touched,
                    self.owner,
                    self.lease_seconds,
                )
                if len(held) != len(touched):
                    lost = set(touched) - {r[0] for r in held}
                    if self.lease_lost is not None:
                        self.lease_lost(lost)
                    raise LeaseLost(lost)
                if self._hold is not None:
                    self._held_here(touched)
            if w.logs:
                await self._check_positions(c, w)
            try:
                for sql, rows in write_statements(w):
                    await c.executemany(dollar(sql), rows)
            except asyncpg.exceptions.UniqueViolationError as exc:
                if exc.constraint_name != "match_log_pkey":
                    raise
                raise StaleCopy(set(touched)) from None  # the check above makes it unreachable
            if touched:  # every process's web table hears of it once this commits
                await c.execute(relay.notify_sql(), ",".join(map(str, touched)))

    async def _check_positions(self, c: asyncpg.Connection, w: Write) -> None:
        """Each match's new entries start right after its log's last one, or nothing is
        written (:class:`StaleCopy`). Run after the lease check: the lease rows are locked
        by this transaction, so no other process can append meanwhile, and a copy that
        another process ran past while this one had lost the lease (then took it back) is
        refused before any insert: PostgreSQL never sees a duplicate position."""
        first: dict[int, int] = {}
        for e in w.logs:
            first[e.match_id] = min(e.seq, first.get(e.match_id, e.seq))
        owner_of = {m.id: m.table_id for m in w.new_matches}
        rows = await c.fetch(
            "SELECT m.id, m.table_id,"
            " (SELECT max(g.seq) FROM match_log g WHERE g.match_id = m.id)"
            " FROM matches m WHERE m.id = ANY($1::bigint[])",
            sorted(first),
        )
        last = {r[0]: r[2] for r in rows}
        owner_of.update({r[0]: r[1] for r in rows})
        behind = {
            owner_of[m]
            for m, seq in first.items()
            if m in owner_of and seq != (-1 if last.get(m) is None else last[m]) + 1
        }
        if behind:
            raise StaleCopy(behind)

    def _held_here(self, touched: list[int]) -> None:
        """The test hook (HOLD_COMMIT_ENV): stall inside this transaction, once."""
        assert self._hold is not None
        arm = self._hold / "arm"
        try:
            seconds = float(arm.read_text() or 5)
            arm.unlink()
        except (FileNotFoundError, ValueError):
            return
        (self._hold / "held").write_text(" ".join(map(str, touched)))
        time.sleep(seconds)  # blocks the loop, on purpose: the process is "paused" here

    # --- leases ----------------------------------------------------------------------

    async def claim_tables(
        self, serves: Serves | None = None, mine: bool = True, limit: int | None = None
    ) -> list[TableRow]:
        """Take the unfinished tables whose lease has run out (and with ``mine``, the ones
        held under this process's name: the same process restarted), of the channels it
        serves, at most ``limit`` of them. This process's own that ran out are not taken
        again here (nobody else ran them: its renewal extends them); a table another live
        process holds is left alone, and one whose row is locked (a commit in progress, a
        paused process's open transaction, another process claiming it) is skipped, never
        waited on.

        The tables where people sit come first, then the ones whose deadline came
        longest ago: with ``limit``, what players wait for is taken first."""
        rows = await self._pool.fetch(
            "SELECT t.id, t.channel FROM tables t JOIN leases l ON l.table_id = t.id"
            " LEFT JOIN deadlines d ON d.table_id = t.id"
            " WHERE t.status != 'closed'"
            " AND ((l.owner = $1 AND $2) OR (l.expires <= clock_timestamp() AND l.owner != $1))"
            ' ORDER BY t.seats::jsonb @> \'[{"kind": "human"}]\' DESC,'
            " d.due NULLS LAST, t.id",
            self.owner,
            mine,
        )
        wanted = [r["id"] for r in rows if serves is None or serves(r["channel"])]
        if limit is not None:
            wanted = wanted[:limit]  # the first in that order: the claim takes these
        if not wanted:
            return []
        claimed = await self._pool.fetch(
            _LOCKED_IN_ORDER.format(
                which="SELECT table_id FROM leases WHERE table_id = ANY($1::bigint[])"
                " AND ((owner = $2 AND $4) OR (expires <= clock_timestamp() AND owner != $2))",
                lock=_SKIP,
            )
            + " SET owner = $2, expires = clock_timestamp() + $3 * interval '1 second'"
            " FROM locked WHERE leases.table_id = locked.table_id RETURNING leases.table_id",
            wanted,
            self.owner,
            self.lease_seconds,
            mine,
            limit,
        )
        ids = sorted(r[0] for r in claimed)
        if not ids:
            return []
        got = await self._pool.fetch("SELECT * FROM tables WHERE id = ANY($1::bigint[])", ids)
        return sorted((_table(r) for r in got), key=lambda r: r.id)

    async def own_tables(self, ids: set[int]) -> list[TableRow]:
        rows = await self._pool.fetch(
            "SELECT t.* FROM tables t JOIN leases l ON l.table_id = t.id"
            " WHERE t.id = ANY($1::bigint[]) AND l.owner = $2 AND t.status != 'closed'"
            " ORDER BY t.id",
            sorted(ids),
            self.owner,
        )
        return [_table(r) for r in rows]

    async def playing_elsewhere(self, serves: Serves | None, here: set[int]) -> list[int]:
        rows = await self._pool.fetch("SELECT id, channel FROM tables WHERE status = 'playing'")
        return [
            r["id"]
            for r in rows
            if r["id"] not in here and (serves is None or serves(r["channel"]))
        ]

    _EXTEND = (
        "WITH locked AS (SELECT table_id FROM leases WHERE owner = $1"
        " AND table_id IN (SELECT id FROM tables WHERE status != 'closed')"
        " ORDER BY table_id FOR UPDATE SKIP LOCKED),"
        " renewed AS (UPDATE leases"
        " SET expires = clock_timestamp() + $2 * interval '1 second'"
        " FROM locked WHERE leases.table_id = locked.table_id RETURNING 1)"
    )

    async def renew_leases(
        self, tables: set[int] | None = None, *, extend: bool = True
    ) -> set[int] | None:
        """Extend this process's leases, on the renewal's own connection; returns which of
        ``tables`` (those it runs) are still its own. A lease that ran out while nobody
        took it (the database was down, the process paused) is renewed too: the owner is
        what excludes. A row that is locked is skipped, not waited on: a commit of ours
        renews it itself, and another process's claim decides it (seen next time).
        ``extend=False``: only which are still ours (the renewal thread extends them)."""
        conn = await self._renewal_connection()
        try:
            rows = await conn.fetch(
                (self._EXTEND if extend else "WITH x AS (SELECT $2::float8)")
                + " SELECT table_id FROM leases WHERE owner = $1 AND table_id = ANY($3::bigint[])",
                self.owner,
                self.lease_seconds,
                sorted(tables or ()),
                timeout=max(1.0, self.lease_seconds / 3),
            )
        except Exception:
            self._renewer = None
            conn.terminate()
            raise
        return {r[0] for r in rows}

    async def open_lease_session(self) -> asyncpg.Connection:
        """A connection of its own for the renewal thread (on that thread's event loop)."""
        return await asyncpg.connect(
            self._url,
            server_settings=session_settings(self.owner, self.lease_seconds),
            timeout=max(1.0, self.lease_seconds / 3),
        )

    async def extend_leases(self, session: Any) -> None:
        """Extend every lease of this process (the renewal thread's one statement)."""
        await session.execute(
            self._EXTEND + " SELECT 1",
            self.owner,
            self.lease_seconds,
            timeout=max(1.0, self.lease_seconds / 3),
        )

    async def _renewal_connection(self) -> asyncpg.Connection:
        conn = self._renewer
        if conn is None or conn.is_closed():
            conn = self._renewer = await asyncpg.connect(
                self._url,
                server_settings=session_settings(self.owner, self.lease_seconds),
                timeout=max(1.0, self.lease_seconds / 3),
            )
        return conn

    async def release_leases(self) -> None:
        await self._pool.execute(
            "UPDATE leases SET expires = clock_timestamp() WHERE owner = $1 AND expires >"
            " clock_timestamp()",
            self.owner,
        )

    async def lease_of(self, table_id: int) -> tuple[str, float] | None:
        """(owner, seconds left) of a table's lease: for tests and operators."""
        r = await self._pool.fetchrow(
            "SELECT owner, EXTRACT(EPOCH FROM expires - clock_timestamp())::float8"
            " FROM leases WHERE table_id = $1",
            table_id,
        )
        return (r[0], r[1]) if r is not None else None

    # --- each community's settings --------------------------------------------------

    async def community_settings(self, scopes: list[str]) -> list[StoredSetting]:
        rows = await self._pool.fetch(
            "SELECT scope, key, value FROM community_settings WHERE scope = ANY($1::text[])",
            scopes,
        )
        return [StoredSetting(r[0], r[1], r[2]) for r in rows]

    async def change_community_settings(self, w: SettingsWrite) -> list[SettingChange]:
        """One transaction, serialised per group by an advisory lock (so the old values
        logged are exact, even for a key two processes insert at once); a lock wait that
        runs out is tried again, as a commit is."""
        for attempt in range(COMMIT_TRIES):
            try:
                async with self._pool.acquire() as c, c.transaction():
                    await c.execute("SELECT pg_advisory_xact_lock(hashtext($1))", w.grp)
                    done = []
                    for key, new in w.changes:
                        old = await c.fetchval(
                            "SELECT value FROM community_settings WHERE scope = $1 AND key = $2",
                            w.scope,
                            key,
                        )
                        if new is None:
                            await c.execute(
                                "DELETE FROM community_settings WHERE scope = $1 AND key = $2",
                                w.scope,
                                key,
                            )
                        else:
                            await c.execute(
                                "INSERT INTO community_settings VALUES ($1, $2, $3, $4, $5, $6)"
                                " ON CONFLICT (scope, key) DO UPDATE SET value = excluded.value,"
                                " updated_at = excluded.updated_at,"
                                " updated_by = excluded.updated_by",
                                w.grp, w.scope, key, new, w.at, w.by_user,
                            )  # fmt: skip
                        await c.execute(
                            "INSERT INTO community_settings_log"
                            " VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
                            w.grp, w.scope, key, old, new, w.by_user, w.by_name, w.at,
                        )  # fmt: skip
                        done.append(
                            SettingChange(w.scope, key, old, new, w.by_user, w.by_name, w.at)
                        )
                    return done
            except _RETRIED:
                if attempt == COMMIT_TRIES - 1:
                    raise
                await asyncio.sleep(0.05 * (attempt + 1))
        raise AssertionError("unreachable")

    async def community_log(self, grp: str, limit: int = LOG_LIMIT) -> list[SettingChange]:
        rows = await self._pool.fetch(
            "SELECT scope, key, old, new, by_user, by_name, at FROM community_settings_log"
            " WHERE grp = $1 ORDER BY at DESC, ctid DESC LIMIT $2",
            grp,
            min(limit, LOG_LIMIT),
        )
        return [SettingChange(*r) for r in rows]

    # --- reading ---------------------------------------------------------------------

    async def open_tables(self) -> list[TableRow]:
        rows = await self._pool.fetch("SELECT * FROM tables WHERE status != 'closed' ORDER BY id")
        return [_table(r) for r in rows]

    async def channel_tables(self, channel: str) -> list[TableRow]:
        rows = await self._pool.fetch(
            "SELECT * FROM tables WHERE channel = $1 AND status != 'closed' ORDER BY id", channel
        )
        return [_table(r) for r in rows]

    async def table(self, table_id: int) -> TableRow | None:
        r = await self._pool.fetchrow("SELECT * FROM tables WHERE id = $1", table_id)
        return _table(r) if r else None

    async def table_by_ref(self, ref: str) -> TableRow | None:
        r = await self._pool.fetchrow(
            "SELECT * FROM tables WHERE settings::jsonb ->> 'ref' = $1 ORDER BY id DESC LIMIT 1",
            ref,
        )
        return _table(r) if r else None

    async def match(self, match_id: int) -> MatchRow | None:
        r = await self._pool.fetchrow("SELECT * FROM matches WHERE id = $1", match_id)
        return MatchRow(*r) if r else None

    async def latest_match(
        self, channel: str | None = None, *, ended: bool = False
    ) -> MatchRow | None:
        sql, args = latest_match_sql(channel, ended)
        r = await self._pool.fetchrow(dollar(sql), *args)
        return MatchRow(*r) if r else None

    async def matches(self, status: str | None = None) -> list[MatchRow]:
        if status is None:
            rows = await self._pool.fetch("SELECT * FROM matches ORDER BY id")
        else:
            rows = await self._pool.fetch(
                "SELECT * FROM matches WHERE status = $1 ORDER BY id", status
            )
        return [MatchRow(*r) for r in rows]

    async def log(self, match_id: int) -> list[LogEntry]:
        rows = await self._pool.fetch(
            "SELECT match_id, seq, at, kind, data FROM match_log WHERE match_id = $1 ORDER BY seq",
            match_id,
        )
        return [LogEntry(m, s, a, k, json.loads(d)) for m, s, a, k, d in rows]

    async def logs(self, match_ids: list[int]) -> dict[int, list[LogEntry]]:
        """In one query: a takeover of 50 tables is one round trip, not 50."""
        out: dict[int, list[LogEntry]] = {m: [] for m in match_ids}
        if not match_ids:
            return out
        rows = await self._pool.fetch(
            "SELECT match_id, seq, at, kind, data FROM match_log"
            " WHERE match_id = ANY($1::bigint[]) ORDER BY match_id, seq",
            match_ids,
        )
        for m, s, a, k, d in rows:
            out[m].append(LogEntry(m, s, a, k, json.loads(d)))
        return out

    async def deadlines(self, table_ids: list[int] | None = None) -> dict[int, TableDeadline]:
        if table_ids is None:
            rows = await self._pool.fetch("SELECT table_id, kind, due, nonce FROM deadlines")
        else:
            rows = await self._pool.fetch(
                "SELECT table_id, kind, due, nonce FROM deadlines"
                " WHERE table_id = ANY($1::bigint[])",
                table_ids,
            )
        return {r[0]: TableDeadline(*r) for r in rows}


def _where(url: str) -> str:
    """host:port/database of a URL, never its password."""
    from urllib.parse import urlsplit

    try:
        parts = urlsplit(url)
        return f"{parts.hostname or 'localhost'}:{parts.port or 5432}{parts.path or ''}"
    except ValueError:
        return "the configured URL"


def _table(r: Any) -> TableRow:
    return TableRow(r[0], r[1], r[2], json.loads(r[3]), json.loads(r[4]), r[5], r[6], r[7], r[8])
