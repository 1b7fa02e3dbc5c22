"""Between processes on one PostgreSQL database: who changed which table, and the moves
of people whose socket sits on a process that does not run their table.

Nothing here is a broker of our own: a commit of a table ends with ``pg_notify`` on
:data:`TABLES` (the ids only: a payload holds 8,000 bytes at most), delivered to every
listening process when the transaction commits; a move made on another process is a row of
``relayed_moves``, announced on :data:`MOVES`, taken by the table's lease owner with
``FOR UPDATE SKIP LOCKED`` (so exactly one process applies it, once), answered in the same
row and announced on :data:`ANSWERS`. A process that missed a notice (its listening
connection broke) reads the rows again when it reconnects: the rows, not the notices, are
the truth.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

log = logging.getLogger(__name__)

TABLES = "belote_tables"
MOVES = "belote_moves"
ANSWERS = "belote_answers"

MIGRATION = """
CREATE TABLE relayed_moves (
    id BIGSERIAL PRIMARY KEY,
    table_id BIGINT NOT NULL,
    user_id TEXT NOT NULL,
    user_name TEXT NOT NULL,
    locale TEXT NOT NULL,
    channel TEXT NOT NULL,
    action TEXT NOT NULL,
    asked_at TIMESTAMPTZ NOT NULL DEFAULT clock_timestamp(),
    taken_by TEXT,
    answered BOOLEAN NOT NULL DEFAULT false,
    ok BOOLEAN,
    answer TEXT
);
CREATE INDEX relayed_moves_waiting ON relayed_moves(table_id) WHERE taken_by IS NULL;
"""

#: Seconds a relayed move waits to be taken before it is dropped as unanswered.
MOVE_LIFETIME = 30.0


@dataclass(frozen=True)
class RelayedMove:
    id: int
    table_id: int
    user_id: str
    user_name: str
    locale: str
    channel: str
    action: str


Notice = Callable[[list[int]], None]


class Relay:
    """The notices and the relayed moves of one process (``pool``: the store's;
    ``connect``: opens the listening connection of its own)."""

    def __init__(self, pool: Any, connect: Callable[[], Any], owner: str) -> None:
        self._pool = pool
        self._connect = connect
        self._owner = owner
        self._conn: Any = None
        self._task: asyncio.Task[None] | None = None
        self._handlers: dict[str, Notice] = {}
        self.on_reconnect: Callable[[], None] | None = None

    async def listen(self, on_tables: Notice, on_moves: Notice, on_answers: Notice) -> None:
        """Listen from now on (a connection of its own, opened again if it breaks)."""
        self._handlers = {TABLES: on_tables, MOVES: on_moves, ANSWERS: on_answers}
        await self._open()
        self._task = asyncio.create_task(self._keep(), name="relay-listener")

    async def _open(self) -> None:
        self._conn = await self._connect()
        for channel, handler in self._handlers.items():
            await self._conn.add_listener(channel, self._heard(handler))

    @staticmethod
    def _heard(handler: Notice) -> Callable[..., None]:
        def heard(_conn: Any, _pid: int, _channel: str, payload: str) -> None:
            ids = [int(x) for x in payload.split(",") if x.strip().isdigit()]
            if ids:
                handler(ids)

        return heard

    async def _keep(self) -> None:
        """Open the listening connection again when it breaks (the server restarted),
        then say so: what was missed meanwhile is read from the rows."""
        pause = 0.5
        while True:
            await asyncio.sleep(1.0)
            if self._conn is not None and not self._conn.is_closed():
                pause = 0.5
                continue
            try:
                await self._open()
            except Exception as exc:
                log.warning("the relay's listening connection is down: %s", type(exc).__name__)
                await asyncio.sleep(pause)
                pause = min(pause * 2, 10.0)
                continue
            if self.on_reconnect is not None:
                self.on_reconnect()

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        if self._conn is not None:
            with contextlib.suppress(Exception):
                await self._conn.close()

    # --- relayed moves ----------------------------------------------------------------

    async def ask(self, m: RelayedMove) -> int:
        """Queue a move for the table's owner; its row's id."""
        async with self._pool.acquire() as c, c.transaction():
            move_id: int = await c.fetchval(
                "INSERT INTO relayed_moves (table_id, user_id, user_name, locale, channel, action)"
                " VALUES ($1, $2, $3, $4, $5, $6) RETURNING id",
                m.table_id,
                m.user_id,
                m.user_name,
                m.locale,
                m.channel,
                m.action,
            )
            await c.execute("SELECT pg_notify($1, $2)", MOVES, str(m.table_id))
        return move_id

    async def take(self, table_ids: list[int]) -> list[RelayedMove]:
        """The moves waiting at these tables (this process runs them), oldest first, each
        taken by this process alone; moves older than :data:`MOVE_LIFETIME` are dropped
        (their asker has long answered the person)."""
        if not table_ids:
            return []
        rows = await self._pool.fetch(
            "UPDATE relayed_moves SET taken_by = $2 WHERE id IN ("
            " SELECT id FROM relayed_moves WHERE table_id = ANY($1::bigint[])"
            " AND taken_by IS NULL ORDER BY id FOR UPDATE SKIP LOCKED)"
            " RETURNING id, table_id, user_id, user_name, locale, channel, action,"
            " asked_at < clock_timestamp() - $3 * interval '1 second' AS old",
            table_ids,
            self._owner,
            MOVE_LIFETIME,
        )
        fresh = [r for r in rows if not r["old"]]
        return sorted((RelayedMove(*tuple(r)[:7]) for r in fresh), key=lambda m: m.id)

    async def answer(self, move_id: int, ok: bool, text: str) -> None:
        async with self._pool.acquire() as c, c.transaction():
            await c.execute(
                "UPDATE relayed_moves SET answered = true, ok = $2, answer = $3 WHERE id = $1",
                move_id,
                ok,
                text,
            )
            await c.execute("SELECT pg_notify($1, $2)", ANSWERS, str(move_id))

    async def answers(self, move_ids: list[int]) -> dict[int, tuple[bool, str]]:
        """The answers given so far, by move id (an answered move's row is then dropped)."""
        if not move_ids:
            return {}
        rows = await self._pool.fetch(
            "DELETE FROM relayed_moves WHERE id = ANY($1::bigint[]) AND answered"
            " RETURNING id, ok, answer",
            move_ids,
        )
        return {r[0]: (bool(r[1]), r[2] or "") for r in rows}

    async def forget(self, move_id: int) -> None:
        """A move nobody took in time: it is dropped, so it can never apply later."""
        await self._pool.execute(
            "DELETE FROM relayed_moves WHERE id = $1 AND taken_by IS NULL", move_id
        )


def notify_sql() -> str:
    """The statement a table's commit ends with (``$1``: the ids, comma-separated)."""
    return f"SELECT pg_notify('{TABLES}', $1)"
