"""``adapters.discord.run``: what ``belote run --platform discord`` calls, on the fake."""

from __future__ import annotations

import asyncio
import contextlib
import json
from typing import Any

import pytest

from adapters.discord import run
from bot.app import BeloteApp, Settings
from bot.platform import Platform
from bot.store import open_store
from tests.discord.conftest import TOKEN, World


def factory_for(world: World) -> Any:
    async def factory(platform: Platform) -> BeloteApp:
        store = await open_store(world.tmp / "run.sqlite")
        return BeloteApp(store, platform, drand=None, settings=Settings(fast=True, drand=False))

    return factory


async def test_run_reads_the_token_and_keeps_the_message_map_by_the_database(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("DISCORD_TOKEN", TOKEN)
    monkeypatch.setenv("DISCORD_GUILD_IDS", world.channel.guild_id)
    task = asyncio.create_task(run(factory_for(world)))
    try:
        fake = world.fake
        await fake.wait_for(lambda: fake.guild_commands.get(world.channel.guild_id))
        await fake.wait_for(lambda: any(s.identified for s in fake.sessions))
        created = await fake.slash(world.alice, world.channel, "table", {}, subcommand="create")
        assert await created.response() == 4
        await fake.wait_for(lambda: world.public())
        saved = json.loads((world.tmp / "run.sqlite.discord.json").read_text())
        assert saved["table:1"] == [int(world.channel.id), int(world.public()[0]["id"])]
        assert not fake.global_commands  # guild commands only, as asked
    finally:
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task


async def test_run_without_or_with_a_wrong_token_says_so_without_printing_it(
    world: World,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
    tmp_path: Any,
) -> None:
    """Both say so in one log record (the log stream holds only log records), exit
    status 2: the operator must fix the token."""
    monkeypatch.delenv("DISCORD_TOKEN", raising=False)
    monkeypatch.chdir(tmp_path)  # no .env here
    assert await run(factory_for(world)) == 2
    assert "DISCORD_TOKEN" in caplog.text
    caplog.clear()
    assert await run(factory_for(world), "wrong-secret-value") == 2
    said = [r.getMessage() for r in caplog.records if r.levelname == "ERROR"]
    assert len(said) == 1 and "refused" in said[0]
    assert "wrong-secret-value" not in caplog.text


def test_belote_run_platform_discord_needs_a_token(
    tmp_path: Any, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from adapters.cli import main

    monkeypatch.delenv("DISCORD_TOKEN", raising=False)
    monkeypatch.chdir(tmp_path)
    code = main(["run", "--platform", "discord", "--db", str(tmp_path / "b.db"), "--no-drand"])
    assert code == 2
    assert "DISCORD_TOKEN" in capsys.readouterr().err
