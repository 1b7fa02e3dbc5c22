"""A running adapter (real PTB, real core) against the fake Bot API, on a temp database."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

from adapters.telegram import RateLimits, TelegramAdapter, TelegramConfig
from bot.scheduler import _guarded
from tests.fakes.telegram import FakeTelegram

# The fake refuses more than 60 group requests a second; the adapter's limiter allows a
# burst of 25 then 25 a second, so a game that respects it never sees a 429.
FAKE_GROUP_LIMIT = (60, 1.0)
TEST_LIMITS = RateLimits(overall_per_second=200, group_per_period=25, group_period=1)


class LoopScheduler:
    """Deadlines on the event loop, in real time (the core's Scheduler protocol).

    ApsScheduler skips a job re-armed under the same key while that job still runs
    ("maximum number of running instances reached"), which stalls bots that play at
    once (reported to the core); these tests only need the event loop's timers.
    """

    def __init__(self) -> None:
        self._handles: dict[str, asyncio.TimerHandle] = {}
        self._tasks: set[asyncio.Task[None]] = set()

    def start(self) -> None:
        pass

    def shutdown(self) -> None:
        for handle in self._handles.values():
            handle.cancel()
        self._handles.clear()

    def schedule(self, key: str, due: float, callback: Callable[[], Awaitable[None]]) -> None:
        self.cancel(key)
        loop = asyncio.get_running_loop()
        delay = max(0.0, due - time.time())

        def fire() -> None:
            self._handles.pop(key, None)
            task = loop.create_task(_guarded(key, callback))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

        self._handles[key] = loop.call_later(delay, fire)

    def cancel(self, key: str) -> None:
        handle = self._handles.pop(key, None)
        if handle is not None:
            handle.cancel()


def core_factory(db: Path) -> Callable[[Any], Any]:
    async def factory(platform: Any) -> Any:
        from bot.app import BeloteApp, Settings
        from bot.clock import SeededRandomness
        from bot.store import Store

        store = await Store.open(db)
        settings = Settings(fast=True, drand=False, bot_delay=0.0, render_images=True)
        return BeloteApp(
            store,
            platform,
            settings=settings,
            scheduler=LoopScheduler(),
            randomness=SeededRandomness("telegram-tests"),
        )

    return factory


@pytest.fixture
async def tg() -> AsyncIterator[FakeTelegram]:
    async with FakeTelegram(group_limit=FAKE_GROUP_LIMIT) as fake:
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
