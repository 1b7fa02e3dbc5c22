"""Which servers this process serves when the bot runs as several processes.

Discord splits a bot's gateway traffic into shards by server: the events of server ``g``
go to shard ``(g >> 22) % shard_count``, direct messages to shard 0. A process started
with ``--shard-ids 0,1 --shard-count 4`` connects those two shards (discord.py's
``AutoShardedClient``), so it hears the interactions of their servers only, and it runs
(and takes over, when another process dies) the tables of those servers only.
"""

from __future__ import annotations

from dataclasses import dataclass

from adapters.discord.ids import PREFIX


def shard_of(guild_id: int | None, shard_count: int) -> int:
    return 0 if guild_id is None else (guild_id >> 22) % shard_count


def parse_shard_ids(text: str) -> tuple[int, ...]:
    """``"0,1"`` -> (0, 1); ValueError with a clear message otherwise."""
    parts = [part for part in text.replace(" ", "").split(",") if part]
    if not parts or not all(p.isascii() and p.isdigit() and len(p) <= 5 for p in parts):
        raise ValueError("--shard-ids takes shard numbers separated by commas, like 0,1")
    return tuple(sorted({int(p) for p in parts}))


@dataclass(frozen=True)
class Shards:
    ids: tuple[int, ...]
    count: int

    def __post_init__(self) -> None:
        if self.count < 1 or not self.ids or not all(0 <= i < self.count for i in self.ids):
            raise ValueError(
                f"shards {list(self.ids)} are not all below --shard-count {self.count}"
            )

    def serves(self, channel_id: str) -> bool:
        """Is this core channel (``discord:<guild>/<channel>``) in one of our shards?"""
        if not channel_id.startswith(PREFIX):
            return False
        guild, _, _ = channel_id[len(PREFIX) :].rpartition("/")
        return shard_of(int(guild) if guild.isdigit() else None, self.count) in self.ids
