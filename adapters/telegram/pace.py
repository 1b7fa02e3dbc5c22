"""Telegram's pace in a group: fewer than 20 new messages a minute, whatever comes in.

Telegram lets a bot put about 20 new messages a minute in one group and answers more with
429 ("retry after N", up to a minute). PTB's rate limiter is a leaky bucket (a burst of 20,
then one every 3 s), so it lets through about 40 in the first minute, and a bot that relies
on the retries leaves a busy group waiting. So the adapter counts the new messages it put
in each group over the last minute itself, and never asks for more than :data:`BUDGET`:

- the table's posts (a new table, a deal's result, a notice) wait for room: they are
  coalesced in their chat's lane meanwhile, so the group sees the latest state when room
  comes back;
- answers to commands use the budget only down to :data:`RESERVE` (room kept for the
  tables' posts); past that, an answer is *folded*: the bot's latest answer in that group
  is edited to carry the new one below it (an edit puts no new message in the group).
"""

from __future__ import annotations

import asyncio
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

BUDGET = 18  # new messages a group may receive from the bot within PERIOD (Telegram: ~20)
PERIOD = 60.0  # seconds
RESERVE = 5  # of BUDGET, kept for the tables' posts: answers fold past BUDGET - RESERVE


@dataclass
class Folded:
    """The bot's latest answer in a group (or forum topic), that later answers fold into."""

    message_id: int
    parts: list[str] = field(default_factory=list)
    at: float = 0.0
    shown: int = 1  # how many of ``parts`` the message shows now
    markup: Any = None  # the link keyboard it carries (the latest folded answer's)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)


class GroupPace:
    """The new messages of the last :data:`PERIOD` seconds, per group chat."""

    def __init__(
        self,
        budget: int = BUDGET,
        period: float = PERIOD,
        reserve: int = RESERVE,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.budget = budget
        self.period = period
        self.reserve = min(reserve, budget - 1)
        self._clock = clock
        self._sent: dict[int, deque[float]] = {}
        #: (chat, topic) -> the latest answer there, for folding
        self.folded: dict[tuple[int, int | None], Folded] = {}

    @staticmethod
    def is_group(chat_id: int) -> bool:
        return chat_id < 0

    def _window(self, chat_id: int) -> deque[float]:
        window = self._sent.setdefault(chat_id, deque())
        now = self._clock()
        while window and now - window[0] >= self.period:
            window.popleft()
        return window

    def used(self, chat_id: int) -> int:
        """New messages put in that group within the last period."""
        return len(self._window(chat_id)) if self.is_group(chat_id) else 0

    def room_for_answer(self, chat_id: int) -> bool:
        """May an answer to a command be a new message now (else it is folded)?"""
        return self.used(chat_id) < self.budget - self.reserve

    def take(self, chat_id: int) -> None:
        """One new message is going out to that chat now."""
        if self.is_group(chat_id):
            self._window(chat_id).append(self._clock())

    def wait_time(self, chat_id: int) -> float:
        """Seconds until the group has room for a post (0: now)."""
        if not self.is_group(chat_id):
            return 0.0
        window = self._window(chat_id)
        if len(window) < self.budget:
            return 0.0
        return max(0.0, window[len(window) - self.budget] + self.period - self._clock())

    async def turn(self, chat_id: int) -> None:
        """Wait for room in that group, then take it (a post that must be a new message)."""
        while (wait := self.wait_time(chat_id)) > 0:
            await asyncio.sleep(wait + 0.05)
        self.take(chat_id)

    # --- folding ---------------------------------------------------------------------

    def fold_target(self, chat_id: int, thread: int | None) -> Folded | None:
        """The latest answer in that group or topic, if it is recent enough to fold into
        (an older one has scrolled away, and the group has room again anyway)."""
        found = self.folded.get((chat_id, thread))
        if found is None or self._clock() - found.at >= self.period:
            return None
        return found

    def answered(
        self, chat_id: int, thread: int | None, message_id: int, part: str, markup: Any = None
    ) -> None:
        """A new answer went out: later ones may fold into it."""
        if len(self.folded) > 10_000:
            self.folded.clear()
        self.folded[(chat_id, thread)] = Folded(message_id, [part], self._clock(), markup=markup)
