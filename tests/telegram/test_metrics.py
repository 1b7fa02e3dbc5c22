"""The Telegram adapter's rate limiter counts Telegram's flood waits and API errors, as
the real PTB meets them on the fake Bot API."""

from __future__ import annotations

import contextlib

from telegram.error import NetworkError
from telegram.ext import ExtBot

from adapters.telegram.metering import MeteredRateLimiter
from tests.fakes.telegram import FakeTelegram
from tests.ops.samples import sample


async def test_flood_waits_and_errors_are_counted() -> None:
    async with FakeTelegram(group_limit=(2, 1.0)) as tg:
        group = tg.add_group("belote")
        limiter = MeteredRateLimiter(group_max_rate=100, group_time_period=1, max_retries=2)
        async with ExtBot(tg.token, base_url=tg.api_url, rate_limiter=limiter) as bot:
            waits = sample("belote_platform_rate_limit_waits_total", platform="telegram")
            waited = sample("belote_platform_rate_limit_wait_seconds_total", platform="telegram")
            for n in range(3):  # the third is refused: "retry after 1", then goes through
                await bot.send_message(group.id, f"message {n}")
            assert len(tg.chat_messages(group)) == 3
            assert sample("belote_platform_rate_limit_waits_total", platform="telegram") > waits
            assert (
                sample("belote_platform_rate_limit_wait_seconds_total", platform="telegram")
                >= waited + 1
            )

            errors = sample("belote_platform_api_errors_total", platform="telegram")
            tg.fail_next("sendMessage", times=1)  # a 502 from the Bot API
            with contextlib.suppress(NetworkError):
                await bot.send_message(group.id, "lost")
            assert sample("belote_platform_api_errors_total", platform="telegram") == errors + 1
