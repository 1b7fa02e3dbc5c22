"""SQLite through aiosqlite, in WAL mode: the zero-setup default, one process per file."""

from __future__ import annotations

import json
import logging
from collections.abc import Callable
from pathlib import Path
from typing import Any

import aiosqlite

from bot.ops import metrics
from bot.store.base import (
    MIGRATIONS,
    Store,
    latest_match_sql,
    statements,
    table_row_of,
    write_statements,
)
from bot.store.records import LogEntry, MatchRow, TableDeadline, TableRow, Write

log = logging.getLogger(__name__)


class SQLiteStore(Store):
    """One aiosqlite connection: one process owns the file."""

    def __init__(self, conn: aiosqlite.Connection, path: str) -> None:
        super().__init__(path)
        self._conn = conn

    @classmethod
    async def connect(cls, path: str | Path) -> SQLiteStore:
        path = str(path)
        if path != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        conn = await aiosqlite.connect(path, isolation_level=None)
        await conn.execute("PRAGMA journal_mode=WAL")
        await conn.execute("PRAGMA synchronous=FULL")
        await conn.execute("PRAGMA foreign_keys=ON")
        await conn.execute("PRAGMA busy_timeout=5000")
        store = cls(conn, path)
        await store.migrate()
        return store

    async def migrate(self) -> int:
        """Apply every migration newer than the database's ``user_version``; returns it."""
        async with self._conn.execute("PRAGMA user_version") as cur:
            row = await cur.fetchone()
        (version,) = row if row is not None else (0,)
        for n, script in enumerate(MIGRATIONS, start=1):
            if n <= version:
                continue
            await self._conn.execute("BEGIN IMMEDIATE")
            try:
                for stmt in statements(script):
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
        await self.flush()
        await self._conn.close()

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
            c.execute("ROLLBACK")
            raise

    # --- reading ---------------------------------------------------------------------

    async def open_tables(self) -> list[TableRow]:
        """Every table not closed, oldest first: what a restart resumes."""
        async with self._conn.execute(
            "SELECT * FROM tables WHERE status != 'closed' ORDER BY id"
        ) as cur:
            return [table_row_of(r) for r in await cur.fetchall()]

    async def table(self, table_id: int) -> TableRow | None:
        async with self._conn.execute("SELECT * FROM tables WHERE id = ?", (table_id,)) as cur:
            r = await cur.fetchone()
        return table_row_of(r) if r else None

    async def table_by_ref(self, ref: str) -> TableRow | None:
        """The tournament table with that key, closed or not (the newest)."""
        async with self._conn.execute(
            "SELECT * FROM tables WHERE json_extract(settings, '$.ref') = ? ORDER BY id DESC",
            (ref,),
        ) as cur:
            r = await cur.fetchone()
        return table_row_of(r) if r else None

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

    async def deadlines(self) -> dict[int, TableDeadline]:
        async with self._conn.execute("SELECT table_id, kind, due, nonce FROM deadlines") as cur:
            return {r[0]: TableDeadline(*r) for r in await cur.fetchall()}
