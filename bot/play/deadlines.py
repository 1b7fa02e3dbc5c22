"""When each table is due to move next, and the scheduler's timer for it.

The store holds every table's next deadline (the journal writes it with each change);
the scheduler only wakes a table up. What is due, and whether it is still current, the
turns decide from the table's state when the timer fires (the nonce is the log position
it was armed at).
"""

from __future__ import annotations

import contextlib
from collections.abc import Awaitable, Callable

from bot.ops.clock import Clock
from bot.ops.scheduler import Scheduler
from bot.play.table import Table
from bot.store import LeaseLost, TableDeadline

#: Seconds after drand's round is due; then the deal goes on without it.
DRAND_GRACE = 5.0

OnDue = Callable[[TableDeadline], Awaitable[None]]


class Deadlines:
    """Computes, arms and disarms each table's one timer.

    ``pause``: a bot's wait before it moves, so people can follow; ``on_due``: what
    runs when a timer fires (the turns); ``lags``: where to note how late a bot's timer
    fired, when measuring (None: not measured)."""

    def __init__(
        self,
        scheduler: Scheduler,
        clock: Clock,
        pause: float,
        on_due: OnDue,
        lags: list[float] | None = None,
    ) -> None:
        self._scheduler = scheduler
        self._clock = clock
        self._pause = pause
        self._on_due = on_due
        self._lags = lags

    def next(self, t: Table) -> TableDeadline | None:
        """The table's next deadline from its state (None: nothing is due)."""
        run = t.run
        if run is None or run.over:
            return None
        if run.phase == "seeds":
            return TableDeadline(t.id, "seeds", run.started_at + run.seed_window, run.seq)
        if run.phase == "drand":
            due = (run.drand_due or run.last_at) + DRAND_GRACE
            return TableDeadline(t.id, "drand", due, run.seq)
        mover = run.to_move
        if mover is None:
            return None
        if run.is_auto(mover):
            return TableDeadline(t.id, "bot", run.last_at + self._pause, run.seq)
        if run.timer <= 0:
            return None  # a table with no turn timer (/table create --timer off)
        return TableDeadline(t.id, "turn", run.last_at + run.timer, run.seq)

    def resumed(self, t: Table, stored: TableDeadline | None) -> TableDeadline | None:
        """The deadline of a table taken up again (at start, or from another process):
        the stored one, except that a person's turn timer starts again now (the bot was
        down, not the player)."""
        run = t.run
        dl = stored if stored is not None else self.next(t)
        if run is not None and dl is not None and dl.kind == "turn":
            due = max(dl.due, self._clock.now() + run.timer)
            dl = TableDeadline(t.id, "turn", due, dl.nonce)
        return dl

    def later(self, t: Table, at_least: float) -> TableDeadline | None:
        """The next deadline, not before ``at_least`` (after a failed commit: nobody
        waits forever, and the retry comes a little later)."""
        dl = self.next(t)
        if dl is None:
            return None
        return TableDeadline(t.id, dl.kind, max(dl.due, at_least), dl.nonce)

    def arm(self, t: Table, dl: TableDeadline | None) -> None:
        key = f"table-{t.id}"
        if dl is None:
            self._scheduler.cancel(key)
            return
        due = dl

        async def fire() -> None:
            if self._lags is not None and due.kind == "bot":
                self._lags.append(self._clock.now() - due.due)
            # LeaseLost: another process runs the table now (dropped here, and logged)
            with contextlib.suppress(LeaseLost):
                await self._on_due(due)

        self._scheduler.schedule(key, dl.due, fire)

    def disarm(self, t: Table) -> None:
        self._scheduler.cancel(f"table-{t.id}")
