"""A deploy stops the bot with SIGTERM in the middle of a match: nothing pending is lost.

A real ``belote run --platform discord`` process (tests/fakes/discord/run_bot.py) plays
against the fake Discord of this test: Alice opens a table with three bots and plays; she
clicks a card and the process gets SIGTERM at once. It must answer her click, show what
it had queued (the table message ends as the database says), close the gateway and the
database, and exit 0. Started again on the same database, it resumes: the same table
message is edited, her hand comes back, and her next click plays.
"""

from __future__ import annotations

import asyncio
import os
import re
import signal
import sys
from pathlib import Path
from typing import Any

from bot.app import BeloteApp, Settings
from bot.ops.clock import FakeClock
from bot.ops.scheduler import FakeScheduler
from bot.platform import RecordingPlatform
from bot.store import open_store
from tests.fakes.discord import EPHEMERAL, FakeDiscord, FakeUser, fake_discord

TOKEN = "fake-token-for-the-stop-test"
ROOT = Path(__file__).resolve().parents[2]


async def start_process(fake: FakeDiscord, db: Path, log: Path) -> asyncio.subprocess.Process:
    env = {**os.environ, "FAKE_DISCORD_URL": fake.base_url, "DISCORD_TOKEN": TOKEN}
    env.pop("DISCORD_GUILD_IDS", None)
    identified = fake.identify_count
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "tests.fakes.discord.run_bot",
        "run",
        "--platform",
        "discord",
        "--db",
        str(db),
        "--fast",
        "--no-drand",
        "--log-level",
        "INFO",
        cwd=str(ROOT),
        env=env,
        stdout=asyncio.subprocess.DEVNULL,
        stderr=log.open("ab"),
    )
    await fake.wait_for(lambda: fake.identify_count > identified, timeout=60)
    await fake.wait_for(lambda: any(s.identified for s in fake.sessions), timeout=30)
    return process


async def stop_process(process: asyncio.subprocess.Process) -> int:
    process.send_signal(signal.SIGTERM)
    return await asyncio.wait_for(process.wait(), timeout=40)


def untimed(text: str) -> str:
    """A table text without the turn timer's seconds (they depend on when it was drawn)."""
    return re.sub(r"\(\d+ s left\)", "", text)


def private(fake: FakeDiscord, user: FakeUser) -> list[dict[str, Any]]:
    found = fake.ephemeral_messages(user) + fake.dm_messages(user)
    return sorted(found, key=lambda m: int(m["id"]))


def newest_offer(fake: FakeDiscord, user: FakeUser) -> tuple[str, str] | None:
    """The newest private message of ``user`` and its first enabled button, if it has one."""
    messages = [m for m in private(fake, user) if fake.buttons(m["id"])]
    if not messages:
        return None
    newest = messages[-1]
    enabled = [b for b in fake.buttons(newest["id"]) if not b.get("disabled")]
    return (newest["id"], enabled[0]["custom_id"]) if enabled else None


async def stored_table_text(db: Path) -> tuple[str, int]:
    """What the core says the table message is, from the database alone (no Discord, no
    move made: a fake scheduler never fires); and how many entries the match log has."""
    store = await open_store(str(db))
    platform = RecordingPlatform()
    app = BeloteApp(
        store,
        platform,
        clock=FakeClock(),
        settings=Settings(fast=True, drand=False, render_images=False),
        scheduler=FakeScheduler(FakeClock()),
    )
    await app.start()
    try:
        posts = [p for p in platform.posts if p.key == "table:1"]
        return posts[-1].text, len(app.tables[1].run.entries)
    finally:
        await app.stop()


async def test_sigterm_mid_match_loses_nothing_and_the_next_start_resumes(tmp_path: Path) -> None:
    db, log = tmp_path / "belote.db", tmp_path / "bot.log"
    async with fake_discord(token=TOKEN) as fake:
        guild = fake.add_guild()
        channel = fake.add_channel(guild, "belote")
        alice = fake.add_user("alice")
        process = await start_process(fake, db, log)
        try:
            await fake.wait_for(lambda: fake.global_commands, timeout=30)
            created = await fake.slash(alice, channel, "table", {}, subcommand="create")
            await created.response()
            for _n in range(3):
                await (
                    await fake.slash(alice, channel, "table", {}, subcommand="addbot")
                ).response()
            await (await fake.slash(alice, channel, "table", {}, subcommand="start")).response()
            # she plays a few moves, then clicks and the deploy stops the bot at once
            for _move in range(4):
                where, button = await fake.wait_for(lambda: newest_offer(fake, alice), 60)
                click = await fake.click(alice, where, button)
                await click.response()
            where, button = await fake.wait_for(lambda: newest_offer(fake, alice), 60)
            click = await fake.click(alice, where, button)
            await asyncio.sleep(0.05)  # the bot is reading it, or handling it
            code = await stop_process(process)
        finally:
            if process.returncode is None:
                process.kill()
                await process.wait()
        text = log.read_text(errors="replace")
        assert code == 0, text[-3000:]
        assert TOKEN not in text
        # the click in flight was answered: played (its hand updated) or, if it came once
        # the bot was stopping, told to try again in a minute (nothing done)
        assert click.callback_type in (4, 6, 7), "the click in flight was answered"
        assert all(i.callback_type is not None for i in fake.interactions.values())
        assert not [s for s in fake.sessions if s.identified], "the gateway was closed"
        tables = [
            m
            for m in fake.channel_messages(channel)
            if not m["flags"] & EPHEMERAL and m["content"].startswith(("Table", "**Table"))
        ]
        assert len(tables) == 1
        table_id = tables[0]["id"]
        stored, entries = await stored_table_text(db)
        shown = fake.messages[table_id]["content"]
        assert untimed(shown) == untimed(stored), "the queued edits were shown"

        # the next start resumes: the same table message, her hand back, her click plays
        versions = len(fake.meta[table_id].versions)
        process = await start_process(fake, db, log)
        try:
            where, button = await fake.wait_for(lambda: newest_offer(fake, alice), 60)
            again = await fake.click(alice, where, button)
            assert await again.response() in (6, 7)
            await fake.wait_for(lambda: len(fake.meta[table_id].versions) > versions, 30)
            code = await stop_process(process)
        finally:
            if process.returncode is None:
                process.kill()
                await process.wait()
        assert code == 0, log.read_text(errors="replace")[-3000:]
        _text, after = await stored_table_text(db)
        assert after > entries, "the match went on from where it stopped"
        tables = [
            m
            for m in fake.channel_messages(channel)
            if not m["flags"] & EPHEMERAL and m["content"].startswith(("Table", "**Table"))
        ]
        assert [m["id"] for m in tables] == [table_id]
