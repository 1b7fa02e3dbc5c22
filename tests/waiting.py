"""Waiting in a test for something another process or task makes true."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from typing import Any


async def until(what: Callable[[], Awaitable[Any]], timeout: float, step: float = 0.02) -> Any:
    """``what()``'s first truthy answer, asked every ``step`` seconds; fails the test
    after ``timeout`` seconds, naming what it waited for."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        got = await what()
        if got:
            return got
        await asyncio.sleep(step)
    raise AssertionError(f"timed out after {timeout} s waiting for {what.__name__}")
