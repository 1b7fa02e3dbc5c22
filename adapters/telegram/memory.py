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

Its own connection to the bot's database (the SQLite file, or PostgreSQL: ``bot.store.sql``),
own ``telegram_*`` tables. Telegram ids go beyond 32 bits: BIGINT columns.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from bot.store.sql import Database, connect

SCHEMA = """
CREATE TABLE IF NOT EXISTS telegram_messages (
    mkey TEXT PRIMARY KEY,
    chat_id BIGINT NOT NULL,
    message_id BIGINT NOT NULL,
    kind TEXT NOT NULL,
    digest TEXT NOT NULL,
    image_digest TEXT NOT NULL,
    markup_digest TEXT NOT NULL,
    caption_digest TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS telegram_users (
    user_id BIGINT PRIMARY KEY,
    started INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS telegram_notices (
    user_id BIGINT NOT NULL,
    chat_id BIGINT NOT NULL,
    PRIMARY KEY (user_id, chat_id)
);
CREATE TABLE IF NOT EXISTS telegram_migrations (
    old BIGINT PRIMARY KEY,
    new BIGINT NOT NULL
);
CREATE TABLE IF NOT EXISTS telegram_origins (
    chat_id BIGINT NOT NULL,
    message_id BIGINT NOT NULL,
    channel TEXT NOT NULL,
    PRIMARY KEY (chat_id, message_id)
);
"""


@dataclass
class ShownMessage:
    """The Telegram message that shows a post key, and digests of what it shows."""

    chat_id: int
    message_id: int
    kind: str  # "photo" | "text"
    digest: str  # everything: text, picture, keyboard
    image_digest: str = ""
    markup_digest: str = ""
    caption_digest: str = ""


class Memory:
    def __init__(self, sql: Database) -> None:
        self._sql = sql
        self.shown: dict[str, ShownMessage] = {}
        self.started: set[int] = set()
        self.notices: set[tuple[int, int]] = set()
        self.origins: dict[tuple[int, int], str] = {}
        self.moves: dict[int, int] = {}  # old chat id -> new (group -> supergroup)

    @classmethod
    async def open(cls, path: str | Path) -> Memory:
        sql = await connect(str(path))
        for statement in SCHEMA.split(";"):
            if statement.strip():
                await sql.execute(statement)
        memory = cls(sql)
        await memory._load()
        return memory

    async def _load(self) -> None:
        for row in await self._sql.fetch(
            "SELECT mkey, chat_id, message_id, kind, digest, image_digest, markup_digest,"
            " caption_digest FROM telegram_messages"
        ):
            self.shown[row[0]] = ShownMessage(*row[1:])
        rows = await self._sql.fetch("SELECT user_id FROM telegram_users WHERE started = 1")
        self.started = {row[0] for row in rows}
        rows = await self._sql.fetch("SELECT user_id, chat_id FROM telegram_notices")
        self.notices = {(row[0], row[1]) for row in rows}
        rows = await self._sql.fetch("SELECT chat_id, message_id, channel FROM telegram_origins")
        self.origins = {(row[0], row[1]): row[2] for row in rows}

    async def close(self) -> None:
        await self._sql.close()

    async def remember(self, mkey: str, shown: ShownMessage) -> None:
        self.shown[mkey] = shown
        await self._sql.execute(
            "INSERT INTO telegram_messages VALUES (?, ?, ?, ?, ?, ?, ?, ?)"
            " ON CONFLICT (mkey) DO UPDATE SET chat_id = excluded.chat_id,"
            " message_id = excluded.message_id, kind = excluded.kind, digest = excluded.digest,"
            " image_digest = excluded.image_digest, markup_digest = excluded.markup_digest,"
            " caption_digest = excluded.caption_digest",
            mkey,
            shown.chat_id,
            shown.message_id,
            shown.kind,
            shown.digest,
            shown.image_digest,
            shown.markup_digest,
            shown.caption_digest,
        )

    async def forget(self, mkey: str) -> None:
        self.shown.pop(mkey, None)
        await self._sql.execute("DELETE FROM telegram_messages WHERE mkey = ?", mkey)

    async def migrate(self, old: int, new: int) -> None:
        """A group became a supergroup: from now on ``old`` means ``new``."""
        if old == new or self.moves.get(old) == new:
            return
        self.moves[old] = new
        await self._sql.execute(
            "INSERT INTO telegram_migrations VALUES (?, ?)"
            " ON CONFLICT (old) DO UPDATE SET new = excluded.new",
            old,
            new,
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
        await self._sql.execute(
            "INSERT INTO telegram_origins VALUES (?, ?, ?)"
            " ON CONFLICT (chat_id, message_id) DO UPDATE SET channel = excluded.channel",
            chat_id,
            message_id,
            channel,
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
        await self._sql.execute(
            "INSERT INTO telegram_users (user_id, started) VALUES (?, ?)"
            " ON CONFLICT (user_id) DO UPDATE SET started = excluded.started",
            user,
            int(started),
        )

    async def mark_notified(self, user: int, chat: int) -> bool:
        """True the first time only: the player is told once per group."""
        if (user, chat) in self.notices:
            return False
        self.notices.add((user, chat))
        await self._sql.execute(
            "INSERT INTO telegram_notices VALUES (?, ?) ON CONFLICT DO NOTHING", user, chat
        )
        return True
