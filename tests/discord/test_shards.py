"""Two bot processes on one PostgreSQL database, each on its own Discord shard: each hears
its own servers only, runs their tables, and takes over the tables of its shards only."""

from __future__ import annotations

import asyncio
from typing import Any

from adapters.discord import DiscordBot
from adapters.discord.shards import Shards
from bot.app import BeloteApp, Settings
from bot.ops.clock import FakeClock
from bot.ops.scheduler import FakeScheduler
from bot.platform import Platform
from bot.store import open_store
from tests.discord.conftest import TOKEN
from tests.fakes.discord import fake_discord

LEASE = 1.0


async def _process(url: str, owner: str, shard: int, tmp: Any) -> DiscordBot:
    async def factory(platform: Platform) -> Any:
        store = await open_store(url, owner=owner, lease_seconds=LEASE)
        clock = FakeClock()
        return BeloteApp(
            store=store,
            platform=platform,
            clock=clock,
            settings=Settings(fast=True, drand=False, bot_delay=0.0),
            scheduler=FakeScheduler(clock),
        )

    bot = DiscordBot(
        factory,
        TOKEN,
        shards=Shards((shard,), 2),
        messages_path=str(tmp / f"{owner}-messages.json"),
        guild_ready_timeout=0.05,
    )
    await bot.start()
    return bot


async def _die(bot: DiscordBot) -> None:
    """As a killed process: no lease given back, nothing cleaned up."""
    app = bot.app
    await app.halt()
    await app.store.close()
    bot.app = None
    await bot.close()


async def test_each_process_serves_the_servers_of_its_shard(pg_server, tmp_path):
    url = pg_server.create_database()
    async with fake_discord(token=TOKEN) as fake:
        rooms = []
        for shard in (0, 1):
            guild = fake.add_guild(f"club {shard}", shard=(shard, 2))
            rooms.append(fake.add_channel(guild, "belote"))
        alice, bob = fake.add_user("alice"), fake.add_user("bob")
        p0 = await _process(url, "p0", 0, tmp_path)
        p1 = await _process(url, "p1", 1, tmp_path)
        p0b = None
        try:
            await fake.wait_for(lambda: sum(s.identified for s in fake.sessions) == 2)
            assert sorted(s.shard for s in fake.sessions) == [(0, 2), (1, 2)]
            for who, room in ((alice, rooms[0]), (bob, rooms[1])):
                created = await fake.slash(who, room, "table", {}, subcommand="create")
                assert await created.response() == 4
            store = p0.app.store
            owners = {}
            for app in (p0.app, p1.app):
                for t in app.tables.values():
                    owners[t.channel] = (await store.lease_of(t.id))[0]
            assert owners == {
                f"discord:{rooms[0].guild_id}/{rooms[0].id}": "p0",
                f"discord:{rooms[1].guild_id}/{rooms[1].id}": "p1",
            }
            (t0,) = p0.app.tables

            await _die(p0)
            await asyncio.sleep(LEASE * 2.5)  # the lease ran out long ago
            assert t0 not in p1.app.tables  # not p1's shard: it leaves the table alone
            p0b = await _process(url, "p0-again", 0, tmp_path)  # shard 0 comes back
            assert t0 in p0b.app.tables
            assert (await p1.app.store.lease_of(t0))[0] == "p0-again"
        finally:
            for bot in (p0, p1, p0b):
                if bot is not None:
                    await bot.close()
