"""A running adapter (real PTB, real core) against the fake Bot API, on a temp database."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import pytest

from adapters.telegram import RateLimits, TelegramAdapter, TelegramConfig
from tests.fakes.telegram import FakeTelegram

# The fake refuses more than 60 group requests a second; the adapter's limiter allows a
# burst of 25 then 25 a second, so a game that respects it never sees a 429. New messages
# in a group, likewise, at a pace per second rather than Telegram's per minute (the pace
# of a real minute is tests/telegram/test_group_pace.py's, on the fake's own defaults).
FAKE_GROUP_LIMIT = (60, 1.0)
FAKE_NEW_MESSAGES = (60, 1.0)
TEST_LIMITS = RateLimits(
    overall_per_second=200,
    group_per_period=25,
    group_period=1,
    group_new_messages=25,
    group_new_period=1,
)


def core_factory(db: Path) -> Callable[[Any], Any]:
    async def factory(platform: Any) -> Any:
        from bot.app import BeloteApp, Settings
        from bot.ops.clock import SeededRandomness
        from bot.store import open_store

        store = await open_store(db, owner="telegram-tests")  # a restart takes its tables
        settings = Settings(fast=True, drand=False, bot_delay=0.0, render_images=True)
        return BeloteApp(
            store,
            platform,
            settings=settings,
            randomness=SeededRandomness("telegram-tests"),
        )

    return factory


@pytest.fixture
async def tg() -> AsyncIterator[FakeTelegram]:
    async with FakeTelegram(
        group_limit=FAKE_GROUP_LIMIT, new_message_limit=FAKE_NEW_MESSAGES
    ) as fake:
        yield fake


@pytest.fixture
async def start_adapter(tg: FakeTelegram, tmp_path: Path) -> AsyncIterator[Any]:
    """``await start_adapter()`` -> a started adapter; stopped at the end of the test."""
    started: list[TelegramAdapter] = []

    async def start(db: Path | None = None) -> TelegramAdapter:
        config = TelegramConfig(token=tg.token, api_url=tg.api_url)
        adapter = TelegramAdapter(
            config,
            core_factory(db or tmp_path / "belote.db"),
            rate_limits=TEST_LIMITS,
            poll_timeout=5,
        )
        await adapter.start()
        started.append(adapter)
        return adapter

    yield start
    for adapter in started:
        await adapter.stop()
