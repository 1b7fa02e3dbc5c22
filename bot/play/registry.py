"""The tables this process runs, their locks, and who sits where.

Every room finds a table here and takes its lock here; nothing else keeps a table. A
table's lock serialises everything that changes it (a press, a bot's move, a deadline,
the lobby): the one who holds it decides, commits and makes the posts, in that order.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator, Mapping
from types import MappingProxyType

from bot.commands import parse
from bot.commands.inputs import Ctx
from bot.platform import Channel, Choices, TableChoice
from bot.play.table import Table
from bot.refused import Refused
from engine import card_text


class TableRegistry:
    """Tables by id, one lock each, and the questions every room asks about them."""

    def __init__(self) -> None:
        self._tables: dict[int, Table] = {}
        self._locks: dict[int, asyncio.Lock] = {}
        self._idle = asyncio.Event()
        self._idle.set()

    # --- membership ----------------------------------------------------------------------

    def get(self, table_id: int) -> Table | None:
        return self._tables.get(table_id)

    def __contains__(self, table_id: int) -> bool:
        return table_id in self._tables

    def __iter__(self) -> Iterator[Table]:
        return iter(list(self._tables.values()))

    def ids(self) -> set[int]:
        return set(self._tables)

    def view(self) -> Mapping[int, Table]:
        """The tables by id, live and read only: for tests, benchmarks and operators."""
        return MappingProxyType(self._tables)

    def add(self, t: Table) -> None:
        """Run ``t`` here (a new table, one rebuilt from the store, or a fresh copy)."""
        self._tables[t.id] = t

    def is_current(self, t: Table) -> bool:
        """Is ``t`` still the table run here under its id (not dropped nor re-read)?"""
        return self._tables.get(t.id) is t

    def drop(self, table_id: int) -> Table | None:
        """Stop running a table here (another process holds it, or it is closed)."""
        self._locks.pop(table_id, None)
        t = self._tables.pop(table_id, None)
        self.update_idle()
        return t

    def forget(self, t: Table) -> None:
        """A closed table leaves memory (its rows stay): presses on it get "closed"."""
        if t.status == "closed":
            self.drop(t.id)
        self.update_idle()

    def lock(self, t: Table) -> asyncio.Lock:
        lock = self._locks.get(t.id)
        if lock is None:
            lock = self._locks[t.id] = asyncio.Lock()
        return lock

    # --- counts --------------------------------------------------------------------------

    def busy(self) -> bool:
        """Is any match in progress here?"""
        return any(t.status == "playing" for t in self._tables.values())

    def live(self) -> int:
        """How many tables are not closed."""
        return sum(t.status != "closed" for t in self._tables.values())

    def playing(self) -> None:
        """A match started: not idle until it ends."""
        self._idle.clear()

    def update_idle(self) -> None:
        if not self.busy():
            self._idle.set()

    async def until_idle(self) -> None:
        """Until no match is in progress here."""
        while self.busy():
            self._idle.clear()
            await self._idle.wait()

    # --- lookups -------------------------------------------------------------------------

    def in_channel(self, channel: Channel) -> list[Table]:
        return [
            t for t in self._tables.values() if t.channel == channel.id and t.status != "closed"
        ]

    def seated(self, user_id: str, channel: Channel) -> list[Table]:
        """The tables of ``channel`` where ``user_id`` sits, oldest first."""
        return sorted(
            (t for t in self.in_channel(channel) if t.seat_of(user_id) is not None),
            key=lambda t: t.id,
        )

    def in_channel_by_id(self, table_id: int, channel: Channel) -> Table:
        """The open table ``table_id`` of ``channel`` (a button's), or a refusal."""
        t = self._tables.get(table_id)
        if t is None or t.status == "closed":
            raise Refused("err-table-gone")
        if t.channel != channel.id:
            raise Refused("err-wrong-channel", table=t.tid)
        return t

    def pick(self, ctx: Ctx, *, seated: bool = True) -> Table:
        """The table a command is about: named (``t3``), or the user's one in this channel.
        The name is taken out of ``ctx.args``; the table is noted in ``ctx.table``."""
        named = [parse.table_ref(a) for a in ctx.args if parse.is_table_ref(a)]
        if named:
            ctx.args = [a for a in ctx.args if not parse.is_table_ref(a)]
            tid = named[0]
            t = self._tables.get(tid) if tid is not None else None
            if t is None or t.status == "closed":
                raise Refused("err-no-such-table", table=f"t{tid}")
            if t.channel != ctx.channel.id:
                raise Refused("err-wrong-channel", table=t.tid)
            if seated and t.seat_of(ctx.user.id) is None:
                raise Refused("err-not-at-table", table=t.tid)
            ctx.table = t
            return t
        here = self.in_channel(ctx.channel)
        mine = [t for t in here if t.seat_of(ctx.user.id) is not None]
        if len(mine) == 1:
            ctx.table = mine[0]
            return mine[0]
        if len(mine) > 1:
            raise Refused("err-several-tables", tables=", ".join(t.tid for t in mine))
        if seated:
            elsewhere = [
                t
                for t in self._tables.values()
                if t.status != "closed" and t.seat_of(ctx.user.id) is not None
            ]
            if elsewhere:
                raise Refused("err-wrong-channel", table=elsewhere[0].tid)
            raise Refused("err-no-table-here" if not here else "err-not-seated")
        if len(here) == 1:
            ctx.table = here[0]
            return here[0]
        if not here:
            raise Refused("err-no-table-here")
        raise Refused("err-name-table", tables=", ".join(t.tid for t in here))

    def by_ref(self, ref: str) -> Table | None:
        """The tournament table of key ``ref`` run here, if any."""
        return next((t for t in self._tables.values() if t.ref == ref), None)

    async def choices(self, user_id: str, channel: Channel) -> Choices:
        """What ``user_id`` may pick in ``channel`` now: the tables (theirs first), and
        the cards and bids of the one where it is their move, read under its lock."""
        here = self.in_channel(channel)
        tables = tuple(
            TableChoice(t.tid, t.settings.ruleset, t.status, len(t.free_seats()), seated)
            for seated, t in sorted(
                ((t.seat_of(user_id) is not None, t) for t in here),
                key=lambda st: (not st[0], st[1].id),
            )
        )
        for t in here:
            async with self.lock(t):
                run = t.run
                seat = t.seat_of(user_id)
                if seat is None or run is None or run.match is None or run.over:
                    continue
                if run.to_move != seat:
                    continue
                legal = run.match.legal_actions(seat)
            cards = tuple(dict.fromkeys(card_text(a.card) for a in legal if a.card is not None))
            bids = tuple(  # as typed after /bid: "H", Coinche's "90 H", "coinche"
                a.text.removeprefix("bid ") if a.kind == "bid" else a.kind
                for a in legal
                if a.kind != "play"
            )
            return Choices(tables, cards, bids)
        return Choices(tables)
