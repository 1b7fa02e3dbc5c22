"""The tournaments' own tables, on their own aiosqlite connection to the bot's database.

The core owns `bot/store.py` and its `user_version` migrations; tournaments keep a
separate list of migrations, numbered in a `tournament_schema` table, every statement
`IF NOT EXISTS`. A tournament is saved whole (its row, players, tables and deadlines) in
one transaction after every change, so a restart finds exactly what was last shown.
"""

from __future__ import annotations

import asyncio
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import aiosqlite

from bot.ratings import SCHEMA as RATINGS_SCHEMA
from bot.tournaments.event import Event
from bot.tournaments.formats import load_event
from bot.tournaments.model import Format, Numbers

MIGRATIONS: tuple[tuple[str, ...], ...] = (
    (
        """CREATE TABLE IF NOT EXISTS tournaments (
            id INTEGER PRIMARY KEY,
            channel TEXT NOT NULL,
            name TEXT NOT NULL,
            format TEXT NOT NULL,
            ruleset TEXT NOT NULL,
            numbers TEXT NOT NULL,
            creator TEXT NOT NULL,
            status TEXT NOT NULL,
            created_at REAL NOT NULL,
            opens_at REAL,
            closes_at REAL,
            state TEXT,
            teams TEXT NOT NULL,
            end_reason TEXT
        )""",
        """CREATE TABLE IF NOT EXISTS tournament_players (
            tournament_id INTEGER NOT NULL,
            user_id TEXT NOT NULL,
            name TEXT NOT NULL,
            joined_at REAL NOT NULL,
            rating REAL NOT NULL,
            status TEXT NOT NULL,
            left_at REAL,
            reason TEXT NOT NULL,
            entrant INTEGER,
            points INTEGER NOT NULL,
            wins INTEGER NOT NULL,
            draws INTEGER NOT NULL,
            losses INTEGER NOT NULL,
            PRIMARY KEY (tournament_id, user_id)
        )""",
        """CREATE TABLE IF NOT EXISTS tournament_tables (
            tournament_id INTEGER NOT NULL,
            match_id INTEGER NOT NULL,
            table_ref TEXT,
            opened_at REAL NOT NULL,
            seat_due REAL NOT NULL,
            round_due REAL NOT NULL,
            seated TEXT NOT NULL,
            done INTEGER NOT NULL,
            PRIMARY KEY (tournament_id, match_id)
        )""",
        """CREATE TABLE IF NOT EXISTS tournament_deadlines (
            key TEXT PRIMARY KEY,
            tournament_id INTEGER NOT NULL,
            kind TEXT NOT NULL,
            due REAL NOT NULL,
            match_id INTEGER
        )""",
        """CREATE TABLE IF NOT EXISTS tournament_audit (
            id INTEGER PRIMARY KEY,
            tournament_id INTEGER NOT NULL,
            at REAL NOT NULL,
            by_user TEXT NOT NULL,
            action TEXT NOT NULL,
            detail TEXT NOT NULL
        )""",
        """CREATE TABLE IF NOT EXISTS ladder_matches (
            tournament_id INTEGER NOT NULL,
            match_ref TEXT NOT NULL,
            PRIMARY KEY (tournament_id, match_ref)
        )""",
        *RATINGS_SCHEMA,
    ),
    ("ALTER TABLE tournaments ADD COLUMN locale TEXT NOT NULL DEFAULT 'en'",),
)


@dataclass
class Player:
    user_id: str
    name: str
    joined_at: float
    rating: float = 0.0
    status: str = "in"  # "in" | "withdrawn" | "out" (dropped, or missed a seat deadline)
    left_at: float | None = None
    reason: str = ""
    entrant: int | None = None
    points: int = 0  # ladder points (events with rounds keep theirs in the event)
    wins: int = 0
    draws: int = 0
    losses: int = 0


@dataclass
class TableSlot:
    """A tournament match's table: who has sat down, and its two deadlines."""

    match_id: int
    table_ref: str | None
    opened_at: float
    seat_due: float
    round_due: float
    seated: set[str] = field(default_factory=set)
    done: bool = False


@dataclass
class Deadline:
    key: str
    kind: str  # "seat" | "round" | "ladder-open" | "ladder-close"
    due: float
    match_id: int | None = None


@dataclass
class Tournament:
    id: int
    channel: str
    name: str
    format: Format
    ruleset: str
    numbers: Numbers
    creator: str
    status: str  # "open" | "scheduled" | "running" | "over"
    created_at: float
    opens_at: float | None = None
    closes_at: float | None = None
    event: Event | None = None
    teams: dict[int, list[str]] = field(default_factory=dict)
    end_reason: str | None = None
    players: dict[str, Player] = field(default_factory=dict)
    tables: dict[int, TableSlot] = field(default_factory=dict)
    deadlines: dict[str, Deadline] = field(default_factory=dict)
    locale: str = "en"  # the organiser's: the language of the event's posts

    @property
    def is_ladder(self) -> bool:
        return self.format is Format.LADDER

    def scope(self) -> str:
        return scope_of(self.channel)


def scope_of(channel: str) -> str:
    """The server a channel belongs to ("discord:guild/channel" -> "discord:guild"): a
    ladder counts the rated matches of its whole server's lobby."""
    return channel.split("/", 1)[0]


class TournamentDB:
    def __init__(self, conn: aiosqlite.Connection) -> None:
        self.conn = conn
        self.lock = asyncio.Lock()  # one transaction at a time on this connection
        self.closed = False

    @classmethod
    async def open(cls, path: str | Path) -> TournamentDB:
        path = str(path)
        if path != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        conn = await aiosqlite.connect(path, isolation_level=None)
        if path != ":memory:":
            await conn.execute("PRAGMA journal_mode=WAL")
        await conn.execute("PRAGMA synchronous=FULL")
        await conn.execute("PRAGMA busy_timeout=5000")
        db = cls(conn)
        await db.migrate()
        return db

    async def close(self) -> None:
        """Close the connection (a second call does nothing)."""
        async with self.lock:
            if not self.closed:
                self.closed = True
                await self.conn.close()

    async def migrate(self) -> int:
        async with self.lock:
            await self.conn.execute(
                "CREATE TABLE IF NOT EXISTS tournament_schema (version INTEGER NOT NULL)"
            )
            async with self.conn.execute("SELECT MAX(version) FROM tournament_schema") as cur:
                version = (await cur.fetchone())[0] or 0
            for n, statements in enumerate(MIGRATIONS, start=1):
                if n <= version:
                    continue
                await self.conn.execute("BEGIN IMMEDIATE")
                try:
                    for stmt in statements:
                        await self.conn.execute(stmt)
                    await self.conn.execute("INSERT INTO tournament_schema VALUES (?)", (n,))
                    await self.conn.execute("COMMIT")
                except BaseException:
                    await self.conn.execute("ROLLBACK")
                    raise
                version = n
            return version

    async def next_id(self) -> int:
        async with self.conn.execute("SELECT COALESCE(MAX(id), 0) FROM tournaments") as cur:
            return (await cur.fetchone())[0] + 1

    async def save(
        self,
        t: Tournament,
        *,
        audit: tuple[float, str, str, Any] | None = None,
        counted: str | None = None,
    ) -> None:
        """Write the whole tournament in one transaction, with its audit line (an
        organiser's change) or the ladder match it counted, if any."""
        async with self.lock:
            await self.conn.execute("BEGIN IMMEDIATE")
            try:
                await self._save(t)
                if audit is not None:
                    at, by_user, action, detail = audit
                    await self.conn.execute(
                        "INSERT INTO tournament_audit (tournament_id, at, by_user, action, detail)"
                        " VALUES (?, ?, ?, ?, ?)",
                        (t.id, at, by_user, action, json.dumps(detail, sort_keys=True)),
                    )
                if counted is not None:
                    await self.conn.execute(
                        "INSERT INTO ladder_matches VALUES (?, ?)", (t.id, counted)
                    )
                await self.conn.execute("COMMIT")
            except BaseException:
                await self.conn.execute("ROLLBACK")
                raise

    async def _save(self, t: Tournament) -> None:
        c = self.conn
        await c.execute(
            "INSERT OR REPLACE INTO tournaments (id, channel, name, format, ruleset, numbers,"
            " creator, status, created_at, opens_at, closes_at, state, teams, end_reason, locale)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                t.id,
                t.channel,
                t.name,
                t.format.value,
                t.ruleset,
                json.dumps(t.numbers.to_json()),
                t.creator,
                t.status,
                t.created_at,
                t.opens_at,
                t.closes_at,
                json.dumps(t.event.to_json()) if t.event is not None else None,
                json.dumps({str(k): v for k, v in t.teams.items()}),
                t.end_reason,
                t.locale,
            ),
        )
        await c.execute("DELETE FROM tournament_players WHERE tournament_id = ?", (t.id,))
        await c.executemany(
            "INSERT INTO tournament_players VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [
                (
                    t.id,
                    p.user_id,
                    p.name,
                    p.joined_at,
                    p.rating,
                    p.status,
                    p.left_at,
                    p.reason,
                    p.entrant,
                    p.points,
                    p.wins,
                    p.draws,
                    p.losses,
                )
                for p in t.players.values()
            ],
        )
        await c.execute("DELETE FROM tournament_tables WHERE tournament_id = ?", (t.id,))
        await c.executemany(
            "INSERT INTO tournament_tables VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            [
                (
                    t.id,
                    s.match_id,
                    s.table_ref,
                    s.opened_at,
                    s.seat_due,
                    s.round_due,
                    json.dumps(sorted(s.seated)),
                    int(s.done),
                )
                for s in t.tables.values()
            ],
        )
        await c.execute("DELETE FROM tournament_deadlines WHERE tournament_id = ?", (t.id,))
        await c.executemany(
            "INSERT INTO tournament_deadlines VALUES (?, ?, ?, ?, ?)",
            [(d.key, t.id, d.kind, d.due, d.match_id) for d in t.deadlines.values()],
        )

    async def load_all(self) -> list[Tournament]:
        out = []
        async with self.conn.execute(
            "SELECT id, channel, name, format, ruleset, numbers, creator, status, created_at,"
            " opens_at, closes_at, state, teams, end_reason, locale FROM tournaments ORDER BY id"
        ) as cur:
            rows = await cur.fetchall()
        for r in rows:
            t = Tournament(
                id=r[0],
                channel=r[1],
                name=r[2],
                format=Format(r[3]),
                ruleset=r[4],
                numbers=Numbers.from_json(json.loads(r[5])),
                creator=r[6],
                status=r[7],
                created_at=r[8],
                opens_at=r[9],
                closes_at=r[10],
                event=load_event(json.loads(r[11])) if r[11] else None,
                teams={int(k): v for k, v in json.loads(r[12]).items()},
                end_reason=r[13],
                locale=r[14],
            )
            await self._load_parts(t)
            out.append(t)
        return out

    async def _load_parts(self, t: Tournament) -> None:
        async with self.conn.execute(
            "SELECT user_id, name, joined_at, rating, status, left_at, reason, entrant, points,"
            " wins, draws, losses FROM tournament_players WHERE tournament_id = ?"
            " ORDER BY joined_at, user_id",
            (t.id,),
        ) as cur:
            for row in await cur.fetchall():
                t.players[row[0]] = Player(*row)
        async with self.conn.execute(
            "SELECT match_id, table_ref, opened_at, seat_due, round_due, seated, done"
            " FROM tournament_tables WHERE tournament_id = ?",
            (t.id,),
        ) as cur:
            for m, ref, opened, seat_due, round_due, seated, done in await cur.fetchall():
                t.tables[m] = TableSlot(
                    m, ref, opened, seat_due, round_due, set(json.loads(seated)), bool(done)
                )
        async with self.conn.execute(
            "SELECT key, kind, due, match_id FROM tournament_deadlines WHERE tournament_id = ?",
            (t.id,),
        ) as cur:
            for key, kind, due, match_id in await cur.fetchall():
                t.deadlines[key] = Deadline(key, kind, due, match_id)

    async def audit_trail(self, tid: int) -> list[tuple[float, str, str, dict[str, Any]]]:
        async with self.conn.execute(
            "SELECT at, by_user, action, detail FROM tournament_audit WHERE tournament_id = ?"
            " ORDER BY id",
            (tid,),
        ) as cur:
            return [(at, by, action, json.loads(d)) for at, by, action, d in await cur.fetchall()]

    async def counted(self, tid: int, match_ref: str) -> bool:
        """Has this ladder already counted that match?"""
        async with self.conn.execute(
            "SELECT 1 FROM ladder_matches WHERE tournament_id = ? AND match_ref = ?",
            (tid, match_ref),
        ) as cur:
            return await cur.fetchone() is not None
