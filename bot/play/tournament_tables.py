"""The app as the tournament runner's ``TableHost`` (see docs/tournaments.md).

Tournament tables are reserved for two teams and start once the four are seated; their
result (and every rated match) goes back to the runner after the table's lock is
released, since the runner may call back into the app.
"""

from __future__ import annotations

import logging
from typing import Any

from bot.platform import Channel, Reply, User
from bot.play.table import BOT_NAMES, MatchRun, Seat, Table, TableSettings
from bot.store import Write

log = logging.getLogger(__name__)


class TournamentHost:
    """TableHost: open and close tournament tables; results and ratings back."""

    async def _tournament_command(
        self, user: User, channel: Channel, name: str, args: list[str]
    ) -> list[Reply]:
        try:
            from bot.tournaments.commands import COMMANDS
        except ImportError:
            return [self._refusal(user, "err-unknown-command", command=f"/{name}")]
        return await COMMANDS[name](self, user, channel, args)

    async def _tournament_seated(self, ref: str, user_id: str) -> None:
        if self.tournaments is not None:
            await self.tournaments.on_seated(ref, user_id)

    async def _match_ended(self, t: Table, run: MatchRun) -> None:
        """Tell the tournament runner (its table's result) and the ratings (rated match)."""
        service = self.tournaments
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

    async def open_tournament_table(self, request: Any) -> None:
        """TableHost: a table reserved for two teams (a in seats 1 and 3, b in 2 and 4).
        The same key gives the same table, also after a restart."""
        for t in self.tables.values():
            if t.ref == request.key:
                run = t.run
                if run is not None and run.over and not run.aborted:
                    self._hook(self._match_ended(t, run))  # the runner may have missed it
                return
        row = await self.store.table_by_ref(request.key)
        if row is not None:  # closed: its match ended (or was stopped) before a restart
            done = Table.from_row(row)
            if done.last_match is not None:
                entries = await self.store.log(done.last_match)
                if entries:
                    run = MatchRun.replay(entries, done.id)
                    if run.over and not run.aborted:
                        self._hook(self._match_ended(done, run))
            return
        now = self.clock.now()
        a, b = list(request.team_a), list(request.team_b)
        reserved: list[str | None] = [
            a[0] if a else None,
            b[0] if b else None,
            a[1] if len(a) > 1 else None,
            b[1] if len(b) > 1 else None,
        ]
        t = Table(
            id=await self.store.new_table_id(),
            channel=request.channel,
            host="tournament",
            settings=TableSettings(
                ruleset=request.ruleset,
                timer=self.settings.timer,
                seed_window=0.0 if self.settings.fast else self.settings.seed_window,
                ai_level=self.settings.ai_level,
                rated=True,
            ),
            seats=[None] * 4,
            created_at=now,
            ref=request.key,
            reserved=reserved,
            title=str(getattr(request, "title", "")),
        )
        for i, uid in enumerate(reserved):
            if uid is None:  # a team of one: a bot takes the partner's seat
                t.seats[i] = Seat("bot", BOT_NAMES[i], None, level=self.settings.ai_level)
        await self.store.write(Write(tables=[t.row(now)]))
        self.tables[t.id] = t
        await self._post_table(t)

    async def close_tournament_table(self, table_ref: str, reason: str) -> None:
        """TableHost: the match was decided without this table: stop it."""
        for t in list(self.tables.values()):
            if t.ref != table_ref or t.status == "closed":
                continue
            async with self._lock(t):
                run = t.run
                t.status = "closed"
                if run is not None and not run.over:
                    await self._record(t, [("abort", {"by": "tournament", "reason": reason})])
                    await self._after_change(t, [])
                else:
                    await self._save_table(t)
                    await self._post_table(t)
                self._disarm(t)
            self._forget(t)
