"""The logs of a whole match, on each platform, at DEBUG (every library's chatter too),
never show a secret: the bot's token, the server seed before its reveal, a player's seed
before the seeds are shown. And each event is one line (one JSON object with
``--log-format json``).

The logging is set up as ``belote run`` sets it up (:func:`bot.ops.logs.setup`, with the
platform's token in the settings); the console runs the real ``belote`` command.
"""

from __future__ import annotations

import io
import json
import logging
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from bot.app import BeloteApp, Settings
from bot.ops import logs, redact
from bot.ops.clock import FakeClock, SeededRandomness
from bot.ops.scheduler import FakeScheduler
from bot.play.ceremony import Ceremony
from bot.proof.transcript import loads
from bot.store import open_store
from tests.console.test_console import run_belote

PLAYER_SEED = "5eed" * 8  # 32 hex digits: alice's own seed


class Tape:
    """Everything logged during a test, with the places where secrets became public."""

    def __init__(self) -> None:
        self.stream = io.StringIO()
        self.marks: dict[str, int] = {}

    def mark(self, name: str) -> None:
        self.marks.setdefault(name, len(self.stream.getvalue()))

    def text(self, until: str | None = None) -> str:
        text = self.stream.getvalue()
        return text if until is None else text[: self.marks[until]]

    def events(self) -> list[dict[str, Any]]:
        """Each line, parsed: a line that is not one JSON object fails here."""
        return [json.loads(line) for line in self.text().splitlines()]


@pytest.fixture
def tape(monkeypatch: pytest.MonkeyPatch) -> Iterator[Tape]:
    """Logging as ``belote run --log-level DEBUG --log-format json`` sets it up, into a
    buffer; marks where the seeds are shown and where the server seed is revealed."""
    tape = Tape()
    close_seeds, reveal = Ceremony.close_seeds, Ceremony.reveal

    async def seeds_shown(self: Any, t: Any, ctx: Any = None) -> None:
        tape.mark("seeds shown")
        await close_seeds(self, t, ctx)

    def revealed(self: Any, t: Any) -> Any:
        tape.mark("reveal")
        return reveal(self, t)

    monkeypatch.setattr(Ceremony, "close_seeds", seeds_shown)
    monkeypatch.setattr(Ceremony, "reveal", revealed)
    root = logging.getLogger()
    level = root.level
    yield tape
    root.setLevel(level)
    logs.teardown()


def start_tape(tape: Tape, token: str, setting: str) -> None:
    logs.setup("DEBUG", "json", env={setting: token}, stream=tape.stream)


def assert_no_secret(tape: Tape, token: str, server_seed: bytes, player_seed: str) -> None:
    events = tape.events()
    assert len(events) > 50, "a match at DEBUG logs plenty: the scan has something to read"
    assert leaks(tape.text(), token) == []
    assert leaks(tape.text("reveal"), server_seed.hex()) == [], "server seed before its reveal"
    assert leaks(tape.text("seeds shown"), player_seed) == [], "a player's seed, early"


def leaks(text: str, secret: str) -> list[str]:
    """The loggers and messages (cut short) of the events that show ``secret``."""
    forms = {secret, secret.lower(), secret.upper()}
    found = []
    for line in text.splitlines():
        if any(f in line for f in forms):
            event = json.loads(line)
            found.append(f"{event['logger']}: {event['message'][:120]}")
    return found


def forget_token(token: str) -> None:
    redact.forget(token)  # the registry is process-wide: leave it as the test found it


# --- the terminal ------------------------------------------------------------------------


def test_console_logs_keep_the_secrets(tmp_path: Path) -> None:
    """The real ``belote run`` in a subprocess: its stderr is the log."""
    db = tmp_path / "c.db"
    script = "\n".join(
        [
            "alice: /table create --target 1 --window 30 --timer 5",
            "alice: /addbot",
            "alice: /addbot",
            "alice: /addbot",
            "alice: /start",
            f"alice: /seed {PLAYER_SEED}",
            "",
        ]
    )
    args = ["run", "--platform", "console", "--db", str(db), "--no-drand", "--bot-delay", "0"]
    args += ["--log-level", "DEBUG", "--log-format", "json"]
    res = run_belote(args, script)
    assert res.returncode == 0, res.stderr[-2000:]
    events = [json.loads(line) for line in res.stderr.splitlines()]
    assert events and all({"time", "level", "logger", "message"} <= e.keys() for e in events)
    exported = run_belote(["export", "m1", "--db", str(db)], "")
    transcript = loads(exported.stdout)
    assert transcript.server_seed is not None and transcript.result is not None
    assert PLAYER_SEED in res.stdout  # the seeds were shown to the table: alice's was used
    for secret in (transcript.server_seed, PLAYER_SEED):
        assert secret not in res.stderr and secret.upper() not in res.stderr


# --- Discord (the fake, real discord.py) -------------------------------------------------


async def test_discord_logs_keep_the_secrets(tape: Tape, tmp_path: Path) -> None:
    from adapters.discord import DiscordBot
    from tests.discord.conftest import TOKEN
    from tests.fakes.discord import fake_discord

    start_tape(tape, TOKEN, "DISCORD_TOKEN")
    clock = FakeClock(1_800_000_000.0)
    scheduler = FakeScheduler(clock)

    async def factory(platform: Any) -> BeloteApp:
        store = await open_store(tmp_path / "belote.sqlite")
        settings = Settings(drand=False, bot_delay=0.0, seed_window=30.0)
        return BeloteApp(store, platform, clock=clock, settings=settings, scheduler=scheduler)

    try:
        async with fake_discord(token=TOKEN) as fake:
            guild = fake.add_guild()
            channel = fake.add_channel(guild, "belote")
            alice = fake.add_user("alice")
            bot = DiscordBot(factory, TOKEN, guild_ready_timeout=0.05)
            await bot.start()
            try:
                slash = fake.slash
                await (
                    await slash(alice, channel, "table", {"target": 1}, subcommand="create")
                ).response()
                for _n in range(3):
                    await (await slash(alice, channel, "table", {}, subcommand="addbot")).response()
                await (await slash(alice, channel, "table", {}, subcommand="start")).response()
                await (await slash(alice, channel, "seed", {"hex": PLAYER_SEED})).response()
                run = bot.app.tables[1].run
                assert run.seat_seeds[0] == bytes.fromhex(PLAYER_SEED)
                for _turn in range(300):
                    await scheduler.advance(0)
                    if run.over:
                        break
                    if run.to_move == 0:
                        hand = await fake.wait_for(lambda: _live_hand(fake, alice))
                        button = next(b for b in fake.buttons(hand["id"]) if not b.get("disabled"))
                        await (await fake.click(alice, hand["id"], button["custom_id"])).response()
                assert run.over
                server_seed = run.server_seed
            finally:
                await bot.close()
        assert_no_secret(tape, TOKEN, server_seed, PLAYER_SEED)
    finally:
        forget_token(TOKEN)


def _live_hand(fake: Any, user: Any) -> dict[str, Any] | None:
    found = [
        m
        for m in fake.ephemeral_messages(user)
        if any(not b.get("disabled") for b in fake.buttons(m["id"]))
    ]
    return max(found, key=lambda m: fake.meta[m["id"]].updated) if found else None


# --- Telegram (the fake Bot API, real python-telegram-bot) --------------------------------


async def test_telegram_logs_keep_the_secrets(tape: Tape, tmp_path: Path) -> None:
    from adapters.telegram import TelegramAdapter, TelegramConfig
    from tests.fakes.telegram import FakeTelegram
    from tests.telegram.conftest import FAKE_GROUP_LIMIT, TEST_LIMITS
    from tests.telegram.test_match import command, hand_msg, play_turns, reveal

    async with FakeTelegram(group_limit=FAKE_GROUP_LIMIT) as tg:
        start_tape(tape, tg.token, "TELEGRAM_TOKEN")
        alice = tg.add_user("Alice", language_code="en")
        group = tg.add_group("Belote club", admins=(alice,))

        async def factory(platform: Any) -> BeloteApp:
            store = await open_store(tmp_path / "belote.db")
            settings = Settings(drand=False, bot_delay=0.0, seed_window=30.0)
            return BeloteApp(
                store, platform, settings=settings, randomness=SeededRandomness("logs")
            )

        config = TelegramConfig(token=tg.token, api_url=tg.api_url)
        adapter = TelegramAdapter(config, factory, rate_limits=TEST_LIMITS, poll_timeout=5)
        await adapter.start()
        try:
            await command(tg, adapter, alice, group, "/table create --target 1")
            for _n in range(3):
                await command(tg, adapter, alice, group, "/addbot")
            await command(tg, adapter, alice, group, "/start")
            await command(tg, adapter, alice, group, f"/seed {PLAYER_SEED}")
            run = adapter.core.tables[1].run
            assert run.seat_seeds[0] == bytes.fromhex(PLAYER_SEED)
            table = await tg.wait_for(lambda: _table_with_hand_link(tg, group))
            tg.open_deep_link(alice, table.button("hand")["url"])
            await tg.wait_for(lambda: hand_msg(tg, adapter, alice))
            await play_turns(tg, adapter, alice, group)
            await adapter.flush()
            assert reveal(tg, group) is not None
            server_seed = run.server_seed
        finally:
            await adapter.stop()
        assert_no_secret(tape, tg.token, server_seed, PLAYER_SEED)
        forget_token(tg.token)


def _table_with_hand_link(tg: Any, group: Any) -> Any:
    for m in reversed(tg.chat_messages(group)):
        button = m.button("hand") if m.buttons() else None
        if button and re.match(r"https://t\.me/.+\?start=t1_", button.get("url", "")):
            return m
    return None
