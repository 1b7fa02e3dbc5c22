"""Stopping on SIGTERM and SIGINT: how every long-running platform is told to stop.

A deploy or a restart sends SIGTERM, a person at the terminal Ctrl-C (SIGINT). Either only
sets an ``asyncio.Event``: the running platform then stops in its own way (answer what is
in flight, flush its queued edits, close the connection and the database) and the process
exits 0, instead of dying wherever the signal caught it.
"""

from __future__ import annotations

import asyncio
import contextlib
import signal
from collections.abc import Awaitable, Iterator

STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM)


@contextlib.contextmanager
def stop_on_signals(stop: asyncio.Event) -> Iterator[None]:
    """While in the block, SIGINT and SIGTERM set ``stop`` (a second one too: stopping is
    already under way and bounded). Where the loop cannot take signal handlers (not the
    main thread, Windows), nothing is installed and ``stop`` is set only by its owner."""
    loop = asyncio.get_running_loop()
    installed: list[signal.Signals] = []
    for sig in STOP_SIGNALS:
        with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):
            loop.add_signal_handler(sig, stop.set)
            installed.append(sig)
    try:
        yield
    finally:
        for sig in installed:
            loop.remove_signal_handler(sig)


async def wait_for_stop(stop: asyncio.Event, *also: Awaitable[object]) -> None:
    """Wait until ``stop`` is set or any of ``also`` ends (say, the connection closing on
    its own); what ``also`` raised is raised here."""
    waiters = [asyncio.ensure_future(stop.wait()), *(asyncio.ensure_future(a) for a in also)]
    try:
        done, _pending = await asyncio.wait(waiters, return_when=asyncio.FIRST_COMPLETED)
    finally:
        for waiter in waiters:
            if not waiter.done():
                waiter.cancel()
        await asyncio.gather(*waiters, return_exceptions=True)
    for waiter in done:
        waiter.result()
