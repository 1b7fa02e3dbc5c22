"""One way to speak SQL to either engine, for the parts that keep their own tables
(tournaments, ratings) on the bot's database.

Statements are written once, portably: ``?`` placeholders (PostgreSQL's ``$1, $2`` are
made from them), upserts as ``INSERT ... ON CONFLICT (key) DO UPDATE``, ``DOUBLE
PRECISION`` for real numbers. :func:`connect` opens a SQLite file (aiosqlite) or a
``postgresql://`` URL (an asyncpg pool) behind the same small :class:`Database`.
"""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import aiosqlite

from bot.store.base import BUSY_TIMEOUT, BUSY_WAIT, LOCK_TRY, LockWait, is_busy

Row = tuple[Any, ...]


def dollar(sql: str) -> str:
    """``?`` placeholders as PostgreSQL's ``$1, $2, ...`` (none sits inside a quoted
    literal in this project's statements; a literal ``?`` is left alone)."""
    out, n, quoted = [], 0, False
    for ch in sql:
        if ch == "'":
            quoted = not quoted
        if ch == "?" and not quoted:
            n += 1
            out.append(f"${n}")
        else:
            out.append(ch)
    return "".join(out)


class Database:
    """What a part of the bot needs of its database: reads, and transactions."""

    dialect = ""

    async def fetch(self, sql: str, *args: Any) -> list[Row]:
        raise NotImplementedError

    async def fetchone(self, sql: str, *args: Any) -> Row | None:
        rows = await self.fetch(sql, *args)
        return rows[0] if rows else None

    async def execute(self, sql: str, *args: Any) -> None:
        """One statement on its own (autocommit)."""
        raise NotImplementedError

    def transaction(self) -> Any:
        """``async with db.transaction() as tx``: ``tx`` has ``fetch``, ``fetchone``,
        ``execute`` and ``executemany``; committed at the end, rolled back on an error.
        Transactions of one process run one at a time."""
        raise NotImplementedError

    async def close(self) -> None:
        raise NotImplementedError

    @property
    def for_update(self) -> str:
        """Row locks for a read-modify-write (SQLite's BEGIN IMMEDIATE already locks)."""
        return " FOR UPDATE" if self.dialect == "postgresql" else ""


class SQLiteDatabase(Database):
    dialect = "sqlite"

    def __init__(self, conn: aiosqlite.Connection) -> None:
        self.conn = conn
        self.lock = asyncio.Lock()

    @classmethod
    async def open(cls, path: str) -> SQLiteDatabase:
        if path != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        conn = await aiosqlite.connect(path, isolation_level=None)
        if path != ":memory:":
            await conn.execute("PRAGMA journal_mode=WAL")
        await conn.execute("PRAGMA synchronous=FULL")
        await conn.execute(f"PRAGMA busy_timeout={int(BUSY_TIMEOUT * 1000)}")
        return cls(conn)

    async def fetch(self, sql: str, *args: Any) -> list[Row]:
        async with self.conn.execute(sql, args) as cur:
            return [tuple(r) for r in await cur.fetchall()]

    async def execute(self, sql: str, *args: Any) -> None:
        await self.conn.execute(sql, args)

    async def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        await self.conn.executemany(sql, rows)

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[SQLiteDatabase]:
        async with self.lock:
            await self._begin()
            try:
                yield self
            except BaseException:
                await self.conn.execute("ROLLBACK")
                raise
            await self.conn.execute("COMMIT")

    async def _begin(self) -> None:
        """``BEGIN IMMEDIATE``, tried again while another program holds the write lock
        (a try that finds it taken has begun nothing), in short tries so this connection's
        reads run in between; :class:`StoreUnavailable` after ``BUSY_WAIT`` seconds."""
        wait = LockWait(BUSY_WAIT, "database locked by another program")
        while True:
            await self.conn.execute(f"PRAGMA busy_timeout={int(LOCK_TRY * 1000)}")
            try:
                await self.conn.execute("BEGIN IMMEDIATE")
                wait.over()
                return
            except sqlite3.OperationalError as exc:
                if not is_busy(exc):
                    raise
                busy = exc
            finally:
                await self.conn.execute(f"PRAGMA busy_timeout={int(BUSY_TIMEOUT * 1000)}")
            await wait.pause(busy)

    async def close(self) -> None:
        await self.conn.close()


class _PgTx:
    """The statements of one PostgreSQL transaction, on its connection."""

    def __init__(self, conn: Any) -> None:
        self.conn = conn

    async def fetch(self, sql: str, *args: Any) -> list[Row]:
        return [tuple(r) for r in await self.conn.fetch(dollar(sql), *args)]

    async def fetchone(self, sql: str, *args: Any) -> Row | None:
        r = await self.conn.fetchrow(dollar(sql), *args)
        return tuple(r) if r is not None else None

    async def execute(self, sql: str, *args: Any) -> None:
        await self.conn.execute(dollar(sql), *args)

    async def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        if rows:
            await self.conn.executemany(dollar(sql), rows)


class PostgresDatabase(Database):
    dialect = "postgresql"

    def __init__(self, pool: Any) -> None:
        self.pool = pool
        self.lock = asyncio.Lock()

    @classmethod
    async def open(cls, url: str) -> PostgresDatabase:
        import asyncpg

        # no floor of connections: during an outage the driver would try to restore it
        # and log a traceback each time
        return cls(await asyncpg.create_pool(url, min_size=0, max_size=4))

    async def fetch(self, sql: str, *args: Any) -> list[Row]:
        return [tuple(r) for r in await self.pool.fetch(dollar(sql), *args)]

    async def execute(self, sql: str, *args: Any) -> None:
        await self.pool.execute(dollar(sql), *args)

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[_PgTx]:
        async with self.lock, self.pool.acquire() as conn, conn.transaction():
            yield _PgTx(conn)

    async def close(self) -> None:
        await self.pool.close()


async def connect(target: str | Path) -> Database:
    """A SQLite file (or ``:memory:``), or a ``postgresql://`` URL."""
    target = str(target)
    if target.startswith(("postgresql://", "postgres://")):
        return await PostgresDatabase.open(target)
    return await SQLiteDatabase.open(target)
