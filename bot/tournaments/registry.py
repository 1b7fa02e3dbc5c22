"""The tournaments this process holds, as the database last had them.

Looked up by id (a command's `#N`), by channel (the newest of a channel or, for ladders,
of its server) and by table key (a call from the core about one of its tables). When this
process is one shard of several, it holds only the tournaments of the servers it serves.
"""

from __future__ import annotations

from collections.abc import Callable

from bot.refused import Refused
from bot.tournaments.deadlines import Deadlines
from bot.tournaments.model import Match
from bot.tournaments.store import TableSlot, Tournament, TournamentDB, scope_of

Serves = Callable[[str], bool]  # channel -> whether this process runs its events


class Registry:
    def __init__(self, db: TournamentDB, deadlines: Deadlines, serves: Serves | None) -> None:
        self._db = db
        self._deadlines = deadlines
        self._serves = serves
        self.tournaments: dict[int, Tournament] = {}
        self._refs: dict[str, tuple[int, int]] = {}  # table key -> (tournament, match)

    async def load_all(self) -> list[Tournament]:
        """Load every tournament this process serves and arm its stored deadlines."""
        for t in await self._db.load_all():
            if self._serves is None or self._serves(t.channel):
                self.add(t)
        for t in self.tournaments.values():
            self._deadlines.rearm(t)
        return list(self.tournaments.values())

    async def reload(self, tid: int) -> None:
        """Take the tournament as another process last saved it (its deadlines too)."""
        old = self.tournaments.get(tid)
        if old is not None:
            self._deadlines.cancel(old)
        t = await self._db.load(tid)
        if t is None:
            self.tournaments.pop(tid, None)
            return
        self.add(t)
        self._deadlines.rearm(t)

    def add(self, t: Tournament) -> None:
        self.tournaments[t.id] = t
        for slot in t.tables.values():
            self.index(t, slot)

    def index(self, t: Tournament, slot: TableSlot) -> None:
        """Remember which match a table key belongs to."""
        if slot.table_ref is not None:
            self._refs[slot.table_ref] = (t.id, slot.match_id)

    def get(self, tid: int) -> Tournament:
        t = self.tournaments.get(tid)
        if t is None:
            raise Refused("tour-err-unknown", tid=tid)
        return t

    def in_channel(self, channel: str, *, ladder: bool | None = None) -> list[Tournament]:
        """Tournaments of this channel, newest first (ladders: of this server)."""
        out = []
        for t in self.tournaments.values():
            if ladder is not None and t.is_ladder != ladder:
                continue
            here = scope_of(t.channel) == scope_of(channel) if t.is_ladder else t.channel == channel
            if here:
                out.append(t)
        return sorted(out, key=lambda t: (t.status == "over", -t.id))

    def slot(self, table_ref: str) -> tuple[Tournament, TableSlot, Match] | None:
        """The running tournament, table and match of a table key; None when stale."""
        ids = self._refs.get(table_ref)
        if ids is None:
            return None
        t = self.tournaments.get(ids[0])
        if t is None or t.event is None or t.status != "running":
            return None
        try:
            return t, t.tables[ids[1]], t.event.match(ids[1])
        except KeyError:
            return None
