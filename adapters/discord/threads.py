"""Which channel each thread belongs to, as Discord's gateway says, kept current.

A thread (channel types 10, 11, 12) and a forum or media channel's post (a thread whose
parent is of type 15 or 16) take their parent channel's settings, then their own. The
parent comes from what Discord sends, never from a REST call per command: the threads of
``GUILD_CREATE``, ``THREAD_CREATE``, ``THREAD_UPDATE``, ``THREAD_LIST_SYNC`` (each
carries ``parent_id``), ``THREAD_DELETE`` (forgotten), and the channel object of every
interaction (a thread's carries its ``parent_id`` too). An archived thread stays known
(discord.py drops it from its cache, yet it may be unarchived and its tables' buttons
clicked in a direct message), so the adapter keeps its own map rather than discord.py's
cache alone.
"""

from __future__ import annotations

from typing import Any

import discord

from adapters.discord.ids import PREFIX, guild_snowflake
from bot.platform import Channel

#: The threads remembered at most (the oldest learned are forgotten first): a few
#: megabytes even for a bot in many busy servers.
MAX_THREADS = 200_000


class ThreadParents:
    """thread id -> its parent channel's id, from the gateway's events."""

    def __init__(self, most: int = MAX_THREADS) -> None:
        self._parent: dict[int, int] = {}
        self._most = most

    def __len__(self) -> int:
        return len(self._parent)

    def learn(self, thread_id: int, parent_id: int | None) -> None:
        if parent_id is None:
            return
        self._parent.pop(thread_id, None)  # the newest learned is the last forgotten
        self._parent[thread_id] = parent_id
        while len(self._parent) > self._most:
            del self._parent[next(iter(self._parent))]

    def learn_thread(self, thread: discord.Thread) -> None:
        self.learn(thread.id, thread.parent_id)

    def learn_payload(self, data: dict[str, Any]) -> None:
        """A thread as the gateway writes it (``THREAD_UPDATE``'s raw data)."""
        try:
            thread_id = int(data["id"])
            parent = data.get("parent_id")
            self.learn(thread_id, int(parent) if parent is not None else None)
        except (KeyError, TypeError, ValueError):
            return

    def learn_guild(self, guild: discord.Guild) -> None:
        """The active threads of a server (``GUILD_CREATE``, ``THREAD_LIST_SYNC``)."""
        for thread in guild.threads:
            self.learn_thread(thread)

    def forget(self, thread_id: int) -> None:
        self._parent.pop(thread_id, None)

    def parent_of(self, channel_id: int) -> int | None:
        return self._parent.get(channel_id)

    def placed(self, channel: Channel, interaction: discord.Interaction | None = None) -> Channel:
        """``channel`` with its parent, when it is a thread: from the gateway's events,
        else from the interaction's own channel object (learned for next time)."""
        if not channel.id.startswith(PREFIX) or channel.parent is not None:
            return channel
        guild = guild_snowflake(channel)
        head, _, tail = channel.id.rpartition("/")
        if guild is None or not tail.isdigit():
            return channel
        thread_id = int(tail)
        if interaction is not None and interaction.channel_id == thread_id:
            here = interaction.channel
            if isinstance(here, discord.Thread) and self.parent_of(thread_id) is None:
                self.learn(thread_id, here.parent_id)
        parent = self.parent_of(thread_id)
        if parent is None:
            return channel
        return Channel(channel.id, parent=f"{head}/{parent}")
