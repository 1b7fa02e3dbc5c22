"""Telegram's side of the operator's metrics: API errors and flood-limit waits.

Every Bot API call but ``getUpdates`` passes through PTB's rate limiter once per attempt,
so a limiter that counts is the one place to see them all.
"""

from __future__ import annotations

import time
from typing import Any

from telegram.error import RetryAfter, TelegramError
from telegram.ext import AIORateLimiter

from bot.ops import metrics


class MeteredRateLimiter(AIORateLimiter):
    """PTB's rate limiter, counting what it does: the time a call waited for the flood
    limits before it went out, each 429 (Telegram's "retry after N"), and every API error.
    Every Bot API call passes here once per attempt."""

    async def process_request(self, callback: Any, *args: Any, **kwargs: Any) -> Any:
        asked = time.perf_counter()
        attempts = 0

        async def metered(*call_args: Any, **call_kwargs: Any) -> Any:
            nonlocal attempts
            attempts += 1
            if attempts == 1 and (waited := time.perf_counter() - asked) > 0.01:
                metrics.rate_limited("telegram", waited)
            try:
                return await callback(*call_args, **call_kwargs)
            except RetryAfter as exc:
                wait = exc.retry_after  # seconds, or a timedelta with PTB_TIMEDELTA set
                metrics.rate_limited("telegram", getattr(wait, "total_seconds", lambda: wait)())
                raise
            except TelegramError as exc:
                metrics.api_error("telegram", type(exc).__name__)
                raise

        return await super().process_request(metered, *args, **kwargs)
