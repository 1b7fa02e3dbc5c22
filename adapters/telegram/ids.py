"""Platform-scoped ids: how Telegram chats, topics and users look to the core.

A table lives in a chat, or in one topic of a forum supergroup, so the topic's
``message_thread_id`` travels inside the Channel id and comes back out when posting.
"""

from __future__ import annotations

from bot.platform import Channel

PREFIX = "telegram:"


def user_id(telegram_id: int) -> str:
    return f"{PREFIX}{telegram_id}"


def telegram_user(user: str) -> int | None:
    """The Telegram user id inside a core User.id, or None if it is not a Telegram one."""
    if not user.startswith(PREFIX):
        return None
    try:
        return int(user.removeprefix(PREFIX))
    except ValueError:
        return None


def channel(chat_id: int, thread_id: int | None = None) -> Channel:
    """``telegram:-100123`` for a chat, ``telegram:-100123/45`` for a forum topic."""
    if thread_id:
        return Channel(f"{PREFIX}{chat_id}/{thread_id}")
    return Channel(f"{PREFIX}{chat_id}")


def chat_of(ch: Channel) -> tuple[int, int | None]:
    """(chat id, topic thread id or None) of a Telegram channel; ValueError otherwise."""
    if not ch.id.startswith(PREFIX):
        raise ValueError(f"not a Telegram channel: {ch.id!r}")
    chat, _, thread = ch.id.removeprefix(PREFIX).partition("/")
    return int(chat), (int(thread) if thread else None)
