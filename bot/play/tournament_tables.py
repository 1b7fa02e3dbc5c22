"""Tournament tables: the core as the tournament runner's ``TableHost`` (see
docs/tournaments.md), and the results that go back to it.

Tournament tables are reserved for two teams and start once the four are seated; their
result (and every rated match) goes back to the runner after the table's lock is
released, since the runner may call back into the core.
"""

from __future__ import annotations

import logging
from typing import Protocol

from bot.commands.inputs import Ctx
from bot.ops.clock import Clock
from bot.play.ceremony import Ceremony
from bot.play.deadlines import Deadlines
from bot.play.entries import Aborted
from bot.play.hooks import Hooks
from bot.play.journal import Journal
from bot.play.registry import TableRegistry
from bot.play.table import BOT_NAMES, MatchRun, Seat, Table, TableSettings
from bot.show.dispatch import Dispatch
from bot.show.posting import Presenter
from bot.store import Store
from bot.tournaments.tables import TableRequest, TournamentCalls
from engine import Event

log = logging.getLogger(__name__)


class MatchResults:
    """Tells the tournament service (once attached) who sat down and how matches ended,
    each call after the table's lock is released (through ``hooks``). What it may call is
    :class:`bot.tournaments.tables.TournamentCalls`, the one statement of it."""

    def __init__(self, hooks: Hooks) -> None:
        self._hooks = hooks
        self._service: TournamentCalls | None = None

    def attach(self, service: TournamentCalls | None) -> None:
        self._service = service

    def seated(self, ref: str, user_id: str) -> None:
        if self._service is not None:
            self._hooks.run(self._service.on_seated(ref, user_id))

    def ended(self, t: Table, run: MatchRun) -> None:
        self._hooks.run(self._ended(t, run))

    async def _ended(self, t: Table, run: MatchRun) -> None:
        """Tell the tournament runner (its table's result) and the ratings (rated match)."""
        service = self._service
        if service is None or run.aborted or run.match is None:
            return
        m = run.match
        if t.ref is not None:
            await service.on_match_end(t.ref, m.winner, m.scores[0], m.scores[1])
        if (t.settings.rated or t.ref is not None) and not any(s.is_bot for s in run.seats):
            teams = [
                [(run.seats[i].user_id or "", run.seats[i].name) for i in (0, 2)],
                [(run.seats[i].user_id or "", run.seats[i].name) for i in (1, 3)],
            ]
            left = tuple(run.seats[i].user_id or "" for i in range(4) if run.left[i])
            await service.on_rated_match(
                f"m{run.id}",
                t.channel,
                run.ruleset,
                teams[0],
                teams[1],
                m.winner,
                left,
                from_lobby=t.ref is None,
            )


class Closing(Protocol):
    """How a table's running match is stopped (the turns: commit, then show the end)."""

    async def changed(
        self, t: Table, events: list[Event], actor: int | None = None, ctx: Ctx | None = None
    ) -> None: ...


class TournamentTables:
    """TableHost: open and close tournament tables. ``store``: read only (a table's row
    by its key, a finished match's log); every write goes through ``journal``."""

    def __init__(
        self,
        registry: TableRegistry,
        journal: Journal,
        deadlines: Deadlines,
        presenter: Presenter,
        dispatch: Dispatch,
        ceremony: Ceremony,
        closing: Closing,
        results: MatchResults,
        store: Store,
        clock: Clock,
        *,
        timer: float,
        seed_window: float,
        ai_level: str,
    ) -> None:
        self._registry = registry
        self._journal = journal
        self._deadlines = deadlines
        self._presenter = presenter
        self._dispatch = dispatch
        self._ceremony = ceremony
        self._closing = closing
        self._results = results
        self._store = store
        self._clock = clock
        self._timer = timer
        self._seed_window = seed_window
        self._ai_level = ai_level

    async def open_tournament_table(self, request: TableRequest) -> None:
        """A table reserved for two teams (a in seats 1 and 3, b in 2 and 4). The same
        key gives the same table, also after a restart."""
        here = self._registry.by_ref(request.key)
        if here is not None:
            run = here.run
            if run is not None and run.over and not run.aborted:
                self._results.ended(here, run)  # the runner may have missed it
            return
        row = await self._store.table_by_ref(request.key)
        if row is not None:  # closed: its match ended (or was stopped) before a restart
            done = Table.from_row(row)
            if done.last_match is not None:
                entries = await self._store.log(done.last_match)
                if entries:
                    run = MatchRun.replay(entries, done.id)
                    if run.over and not run.aborted:
                        self._results.ended(done, run)
            return
        now = self._clock.now()
        a, b = list(request.team_a), list(request.team_b)
        reserved: list[str | None] = [
            a[0] if a else None,
            b[0] if b else None,
            a[1] if len(a) > 1 else None,
            b[1] if len(b) > 1 else None,
        ]
        t = Table(
            id=await self._journal.new_table_id(),
            channel=request.channel,
            host="tournament",
            settings=TableSettings(
                ruleset=request.ruleset,
                timer=self._timer,
                seed_window=self._seed_window,
                ai_level=self._ai_level,
                rated=True,
            ),
            seats=[None] * 4,
            created_at=now,
            ref=request.key,
            reserved=reserved,
            title=request.title,
        )
        for i, uid in enumerate(reserved):
            if uid is None:  # a team of one: a bot takes the partner's seat
                t.seats[i] = Seat("bot", BOT_NAMES[i], None, level=self._ai_level)
        await self._journal.save(t)
        self._registry.add(t)
        await self._dispatch.send([await self._presenter.table(t)])

    async def close_tournament_table(self, table_ref: str, reason: str) -> None:
        """The match was decided without this table: stop it."""
        for t in self._registry:
            if t.ref != table_ref or t.status == "closed":
                continue
            async with self._registry.lock(t):
                run = t.run
                t.status = "closed"
                if run is not None and not run.over:
                    await self._journal.record(t, [Aborted("tournament", reason)])
                    await self._closing.changed(t, [])
                else:
                    await self._journal.save(t)
                    await self._dispatch.send([await self._presenter.table(t)])
                self._deadlines.disarm(t)
                self._ceremony.stop_drand(t)
            self._registry.forget(t)
