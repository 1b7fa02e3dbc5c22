"""Is the database reachable? One log line per change of state, not one per failed call.

During an outage every lease renewal and every commit fails; logging each one (with its
traceback) buries the one fact an operator needs. :class:`Availability` is told of each
success and failure and logs only the changes: "down" once (with the error's kind and
message, no traceback), "still down" once a minute, and "back" with how long it lasted.
It is also what health checks and admin commands read (``up``, ``down_since``).

:func:`is_outage` tells the errors of an unreachable or restarting server (connection
refused or lost, the server shutting down or starting up, a call that timed out) from the
errors of a statement, which are bugs and keep their tracebacks.
"""

from __future__ import annotations

import asyncio
import logging
import sys
import time
from collections.abc import Callable

log = logging.getLogger(__name__)

STILL_DOWN_EVERY = 60.0  # seconds between two "still down" lines

_OUTAGE_ERRORS: tuple[type[BaseException], ...] = (
    OSError,  # refused, reset, unreachable
    asyncio.TimeoutError,
)


def _asyncpg_outages() -> tuple[type[BaseException], ...]:
    """asyncpg's errors that mean the server is out of reach. Read from ``sys.modules``, not
    imported: an error of asyncpg's exists only once asyncpg is loaded, and a SQLite bot (the
    terminal's first screen) should not pay asyncpg's import (0.05 s)."""
    asyncpg = sys.modules.get("asyncpg")
    if asyncpg is None:
        return ()
    return (
        asyncpg.PostgresConnectionError,  # SQLSTATE class 08
        asyncpg.InterfaceError,  # the connection was closed under the call
        asyncpg.InternalClientError,  # a connection the server ended, used again
        asyncpg.exceptions.OperatorInterventionError,  # 57: shutdown, starting up, terminated
    )


def is_outage(exc: BaseException) -> bool:
    """Is ``exc`` the database being unreachable (not a statement's own error)?"""
    return isinstance(exc, _OUTAGE_ERRORS + _asyncpg_outages())


def describe(exc: BaseException) -> str:
    """The error in one line, for the log: its kind and its message (no traceback)."""
    text = " ".join(str(exc).split())
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


class Availability:
    """The database's state as this process sees it, logged once per change."""

    def __init__(self, what: str = "database", clock: Callable[[], float] = time.monotonic):
        self.what = what
        self.clock = clock
        self.down_since: float | None = None
        self._said_at = 0.0  # when "down" or "still down" was last logged
        self.outages = 0

    @property
    def up(self) -> bool:
        return self.down_since is None

    def failed(self, exc: BaseException) -> None:
        now = self.clock()
        if self.down_since is None:
            self.down_since = self._said_at = now
            self.outages += 1
            log.error("%s unreachable: %s", self.what, describe(exc))
        elif now - self._said_at >= STILL_DOWN_EVERY:
            self._said_at = now
            log.error(
                "%s still unreachable after %.0f s: %s",
                self.what,
                now - self.down_since,
                describe(exc),
            )

    def ok(self) -> None:
        if self.down_since is not None:
            down = self.clock() - self.down_since
            log.warning("%s reachable again after %.1f s", self.what, down)
            self.down_since = None
