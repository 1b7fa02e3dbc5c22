"""What the adapter must remember across restarts, next to the core's tables.

- which Telegram message shows which post key, so a restarted bot edits the table and
  the hands in place instead of posting them again (and old buttons keep working:
  their callback data is the core's action, which the core decodes from its own state);
- who has opened the private chat with the bot, and in which groups a player was
  already told to do so (once is kind, twice is nagging);
- which groups became supergroups (a new chat id): the core keeps the table's first
  channel, the adapter posts to the new chat and maps its updates back;
- for each message in a private chat, the table's channel it belongs to: a button pressed
  there is the core's action *at that table*, so it must reach the core with that channel.

Its own aiosqlite connection on the same database file (WAL), own ``telegram_*`` tables.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import aiosqlite

SCHEMA = """
CREATE TABLE IF NOT EXISTS telegram_messages (
    mkey TEXT PRIMARY KEY,
    chat_id INTEGER NOT NULL,
    message_id INTEGER NOT NULL,
    kind TEXT NOT NULL,
    digest TEXT NOT NULL,
    image_digest TEXT NOT NULL,
    markup_digest TEXT NOT NULL,
    caption_digest TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS telegram_users (
    user_id INTEGER PRIMARY KEY,
    started INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS telegram_notices (
    user_id INTEGER NOT NULL,
    chat_id INTEGER NOT NULL,
    PRIMARY KEY (user_id, chat_id)
);
CREATE TABLE IF NOT EXISTS telegram_migrations (
    old INTEGER PRIMARY KEY,
    new INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS telegram_origins (
    chat_id INTEGER NOT NULL,
    message_id INTEGER NOT NULL,
    channel TEXT NOT NULL,
    PRIMARY KEY (chat_id, message_id)
);
"""


@dataclass
class Shown:
    """The Telegram message that shows a post key, and digests of what it shows."""

    chat_id: int
    message_id: int
    kind: str  # "photo" | "text"
    digest: str  # everything: text, picture, keyboard
    image_digest: str = ""
    markup_digest: str = ""
    caption_digest: str = ""


class Memory:
    def __init__(self, conn: aiosqlite.Connection) -> None:
        self._conn = conn
        self.shown: dict[str, Shown] = {}
        self.started: set[int] = set()
        self.notices: set[tuple[int, int]] = set()
        self.origins: dict[tuple[int, int], str] = {}
        self.moves: dict[int, int] = {}  # old chat id -> new (group -> supergroup)

    @classmethod
    async def open(cls, path: str | Path) -> Memory:
        path = str(path)
        conn = await aiosqlite.connect(path, isolation_level=None)
        if path != ":memory:":
            await conn.execute("PRAGMA journal_mode=WAL")
        await conn.execute("PRAGMA busy_timeout=5000")
        await conn.executescript(SCHEMA)
        memory = cls(conn)
        await memory._load()
        return memory

    async def _load(self) -> None:
        async with self._conn.execute(
            "SELECT mkey, chat_id, message_id, kind, digest, image_digest, markup_digest,"
            " caption_digest FROM telegram_messages"
        ) as cur:
            async for row in cur:
                self.shown[row[0]] = Shown(*row[1:])
        async with self._conn.execute("SELECT user_id FROM telegram_users WHERE started") as cur:
            self.started = {row[0] async for row in cur}
        async with self._conn.execute("SELECT user_id, chat_id FROM telegram_notices") as cur:
            self.notices = {(row[0], row[1]) async for row in cur}
        async with self._conn.execute(
            "SELECT chat_id, message_id, channel FROM telegram_origins"
        ) as cur:
            self.origins = {(row[0], row[1]): row[2] async for row in cur}

    async def close(self) -> None:
        await self._conn.close()

    async def remember(self, mkey: str, shown: Shown) -> None:
        self.shown[mkey] = shown
        await self._conn.execute(
            "INSERT OR REPLACE INTO telegram_messages VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (
                mkey,
                shown.chat_id,
                shown.message_id,
                shown.kind,
                shown.digest,
                shown.image_digest,
                shown.markup_digest,
                shown.caption_digest,
            ),
        )

    async def forget(self, mkey: str) -> None:
        self.shown.pop(mkey, None)
        await self._conn.execute("DELETE FROM telegram_messages WHERE mkey = ?", (mkey,))

    async def migrate(self, old: int, new: int) -> None:
        """A group became a supergroup: from now on ``old`` means ``new``."""
        if old == new or self.moves.get(old) == new:
            return
        self.moves[old] = new
        await self._conn.execute(
            "INSERT OR REPLACE INTO telegram_migrations VALUES (?, ?)", (old, new)
        )

    def current_chat(self, chat: int) -> int:
        """Where to post for a chat the core knows (after any migration)."""
        for _ in range(8):
            if chat not in self.moves:
                break
            chat = self.moves[chat]
        return chat

    def first_chat(self, chat: int) -> int:
        """The chat id the core knows for a chat that may have migrated."""
        back = {new: old for old, new in self.moves.items()}
        for _ in range(8):
            if chat not in back:
                break
            chat = back[chat]
        return chat

    async def set_origin(self, chat_id: int, message_id: int, channel: str) -> None:
        self.origins[(chat_id, message_id)] = channel
        await self._conn.execute(
            "INSERT OR REPLACE INTO telegram_origins VALUES (?, ?, ?)",
            (chat_id, message_id, channel),
        )

    def origin(self, chat_id: int, message_id: int) -> str | None:
        """The channel of the table a private message belongs to, if it is one of ours."""
        return self.origins.get((chat_id, message_id))

    def latest_origin(self, chat_id: int) -> str | None:
        """The table channel of the newest message we sent to this private chat."""
        mine = [(mid, ch) for (cid, mid), ch in self.origins.items() if cid == chat_id]
        return max(mine)[1] if mine else None

    async def set_started(self, user: int, started: bool) -> None:
        if started == (user in self.started):
            return
        if started:
            self.started.add(user)
        else:
            self.started.discard(user)
        await self._conn.execute(
            "INSERT OR REPLACE INTO telegram_users (user_id, started) VALUES (?, ?)",
            (user, int(started)),
        )

    async def mark_notified(self, user: int, chat: int) -> bool:
        """True the first time only: the player is told once per group."""
        if (user, chat) in self.notices:
            return False
        self.notices.add((user, chat))
        await self._conn.execute(
            "INSERT OR IGNORE INTO telegram_notices VALUES (?, ?)", (user, chat)
        )
        return True
