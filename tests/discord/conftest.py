"""A fake Discord, a guild with a #belote channel, people, and the real bot on top of it."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from adapters.discord import DiscordBot
from bot.app import BeloteApp, Settings
from bot.ops.clock import FakeClock
from bot.ops.scheduler import FakeScheduler
from bot.platform import Platform
from bot.store import open_store
from tests.fakes.discord import EPHEMERAL, FakeChannel, FakeDiscord, FakeUser, fake_discord

TOKEN = "fake-bot-token-for-tests"


@dataclass
class World:
    """Everything a test needs: the fake, the channel, the people, the running bot."""

    fake: FakeDiscord
    channel: FakeChannel
    alice: FakeUser
    bob: FakeUser
    mod: FakeUser
    tmp: Path
    clock: FakeClock = field(default_factory=FakeClock)
    bot: DiscordBot | None = None
    scheduler: FakeScheduler | None = None
    defer_after: float = 2.0
    database: str | None = None  # a PostgreSQL URL; by default a SQLite file in tmp
    settings: dict[str, Any] = field(default_factory=dict)  # more of the core's Settings
    tournaments: bool = False  # the tournament service runs in the bot

    async def start_bot(self, scheduler: Any = None) -> DiscordBot:
        """A new discord.py client and a new core on the same database (a restart).

        By default the bots move only when the test calls :meth:`bots_play` (a fake
        scheduler in fake time); pass a real scheduler to let them move on their own."""
        if scheduler is None:
            scheduler = self.scheduler = FakeScheduler(self.clock)
        clock = self.clock if isinstance(scheduler, FakeScheduler) else None

        async def factory(platform: Platform) -> Any:
            # one name across restarts: the restarted bot takes its tables back at once
            target = self.database or self.tmp / "belote.sqlite"
            store = await open_store(target, owner="discord-tests")
            settings = Settings(
                fast=True,
                drand=False,
                bot_delay=0.0,
                tournaments=self.tournaments,
                **self.settings,
            )
            return BeloteApp(
                store=store,
                platform=platform,
                clock=clock,
                drand=None,
                settings=settings,
                scheduler=scheduler,
            )

        bot = DiscordBot(
            factory,
            TOKEN,
            messages_path=str(self.tmp / "discord-messages.json"),
            guild_ready_timeout=0.05,
            defer_after=self.defer_after,
        )
        await bot.start()
        self.bot = bot
        return bot

    async def open_table(self, options: dict[str, Any], scheduler: Any = None) -> tuple[str, int]:
        """Start the bot; alice creates a table with ``options``, three bots join and she
        starts: the table message id and the callback type that answered her Start."""
        fake, alice, channel = self.fake, self.alice, self.channel
        await self.start_bot(scheduler=scheduler)
        created = await fake.slash(alice, channel, "table", options, subcommand="create")
        await created.response()
        for _n in range(3):
            await (await fake.slash(alice, channel, "table", {}, subcommand="addbot")).response()
        await self.settle()
        table_id = self.table_messages()[0]["id"]
        start = next(b for b in fake.buttons(table_id) if b["custom_id"].endswith(":start"))
        answered = await (await fake.click(alice, table_id, start["custom_id"])).response()
        return table_id, answered

    async def stop_bot(self) -> None:
        if self.bot is not None:
            await self.bot.close()
            self.bot = None

    async def bots_play(self) -> None:
        """Let the bots make every move that is due now (no pause: fast settings)."""
        assert self.scheduler is not None
        await self.scheduler.advance(0)
        await self.settle(public=False)

    async def settle(self, public: bool = True) -> None:
        """Wait until the bot has shown every post queued so far (``public=False``: the
        private ones; the table message follows at the channel's rate limit)."""
        if self.bot is not None:
            await self.bot.adapter.flush(public=public)

    # --- what people see ---------------------------------------------------------------

    def public(self) -> list[dict[str, Any]]:
        return [m for m in self.fake.channel_messages(self.channel) if not m["flags"] & EPHEMERAL]

    def table_messages(self) -> list[dict[str, Any]]:
        return [m for m in self.public() if m["content"].startswith(("Table", "**Table"))]

    def live_hand(self, user: FakeUser) -> dict[str, Any] | None:
        """The ephemeral message of ``user`` with enabled buttons, most recently changed."""
        found = [
            m
            for m in self.fake.ephemeral_messages(user)
            if any(not b.get("disabled") for b in self.fake.buttons(m["id"]))
        ]
        if not found:
            return None
        return max(found, key=lambda m: self.fake.meta[m["id"]].updated)


@pytest.fixture
async def world(tmp_path: Path) -> AsyncIterator[World]:
    async with fake_discord(token=TOKEN) as fake:
        guild = fake.add_guild()
        channel = fake.add_channel(guild, "belote")
        w = World(
            fake=fake,
            channel=channel,
            alice=fake.add_user("alice"),
            bob=fake.add_user("bob"),
            mod=fake.add_user("mod", admin=True),
            tmp=tmp_path,
        )
        try:
            yield w
        finally:
            await w.stop_bot()
