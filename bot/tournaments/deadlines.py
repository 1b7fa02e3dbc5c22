"""A tournament's deadlines: 3 minutes to take a seat, a round's time limit, a ladder's
opening and closing.

They live in the tournament (`Tournament.deadlines`, saved with it) and are armed on the
project's scheduler (`bot.ops.scheduler`: APScheduler in production, fake time in tests),
one job per key; at start they are armed again from the database, so a deadline that
passed while the bot was down fires at once. What a deadline does when it fires is the
service's to say (`on_due`): it checks the deadline is still current first.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from bot.ops.scheduler import Scheduler
from bot.tournaments.store import Deadline, Tournament

OnDue = Callable[[int, str], Awaitable[None]]  # (tournament id, deadline key)


def deadline_key(tid: int, kind: str, match_id: int | None = None) -> str:
    """`tournament:7:seat:12`, `tournament:7:ladder-close:`: also the scheduler's job id."""
    return f"tournament:{tid}:{kind}:{match_id if match_id is not None else ''}"


class Deadlines:
    def __init__(self, scheduler: Scheduler, on_due: OnDue) -> None:
        self._scheduler = scheduler
        self._on_due = on_due

    def arm(self, t: Tournament, kind: str, due: float, match_id: int | None = None) -> None:
        d = Deadline(deadline_key(t.id, kind, match_id), kind, due, match_id)
        t.deadlines[d.key] = d
        self._schedule(t.id, d)

    def disarm(self, t: Tournament, kind: str, match_id: int | None = None) -> None:
        key = deadline_key(t.id, kind, match_id)
        if t.deadlines.pop(key, None) is not None:
            self._scheduler.cancel(key)

    def disarm_all(self, t: Tournament) -> None:
        for key in list(t.deadlines):
            del t.deadlines[key]
            self._scheduler.cancel(key)

    def rearm(self, t: Tournament) -> None:
        """Arm the stored deadlines of a tournament just loaded (none once it is over,
        nor before it opens)."""
        if t.status in ("over", "open"):
            return
        for d in t.deadlines.values():
            self._schedule(t.id, d)

    def cancel(self, t: Tournament) -> None:
        """Take its jobs off the scheduler; the stored deadlines stay (stopping, reloading)."""
        for key in t.deadlines:
            self._scheduler.cancel(key)

    def _schedule(self, tid: int, d: Deadline) -> None:
        key = d.key

        async def fire() -> None:
            await self._on_due(tid, key)

        self._scheduler.schedule(key, d.due, fire)
