"""Who administers a group, as its platform says, kept a short while.

A platform that does not send a member's rights with each input (Telegram) is asked for
a group's administrators (``getChatAdministrators``) through a small port, a function of
the group; the answer is trusted for ``ttl`` seconds (the list changes rarely, and asking
on every input would spend the bot's rate limit) and dropped at once when the platform
says a member's status changed (Telegram's ``chat_member`` update).
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable

log = logging.getLogger(__name__)

#: The port: a group's administrators' user ids (raises when the platform cannot say).
FetchAdmins = Callable[[int], Awaitable[frozenset[int]]]
TTL = 300.0  # seconds a group's list is trusted


class AdminLists:
    """A cache of each group's administrators in front of ``fetch``; ``now``: the clock
    (monotonic seconds; tests pass their own)."""

    def __init__(
        self, fetch: FetchAdmins, ttl: float = TTL, now: Callable[[], float] = time.monotonic
    ) -> None:
        self._fetch = fetch
        self._ttl = ttl
        self._now = now
        self._lists: dict[int, tuple[float, frozenset[int]]] = {}
        self._asking: dict[int, asyncio.Future[frozenset[int]]] = {}
        self.fetches = 0  # how many times the platform was asked (for tests and metrics)

    async def admins(self, group: int) -> frozenset[int]:
        """The group's administrators: from the cache while fresh, else asked once (inputs
        arriving meanwhile wait for that same answer). A platform that cannot answer
        gives an empty list, not kept: nobody is an admin until it can say."""
        hit = self._lists.get(group)
        if hit is not None and self._now() - hit[0] < self._ttl:
            return hit[1]
        pending = self._asking.get(group)
        if pending is not None:
            return await asyncio.shield(pending)
        fut: asyncio.Future[frozenset[int]] = asyncio.get_running_loop().create_future()
        self._asking[group] = fut
        try:
            self.fetches += 1
            found = await self._fetch(group)
            self._lists[group] = (self._now(), found)
        except Exception as exc:
            log.info("administrators of %s unknown: %s", group, type(exc).__name__)
            found = frozenset()
        finally:
            del self._asking[group]
        fut.set_result(found)
        return found

    async def is_admin(self, group: int, user: int) -> bool:
        return user in await self.admins(group)

    def knows(self, group: int) -> bool:
        """Is the group's list in the cache (fresh or not)?"""
        return group in self._lists

    def forget(self, group: int) -> None:
        """The group's list changed (a member promoted, demoted, gone): ask again."""
        self._lists.pop(group, None)
