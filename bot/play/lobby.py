"""Lobby commands: create, list, join, leave, bots, kick, close."""

from __future__ import annotations

import logging

from bot.commands import parse
from bot.commands.inputs import Ctx as _Ctx
from bot.commands.inputs import Refused
from bot.platform import Reply
from bot.play.table import BOT_NAMES, Seat, Table, TableSettings
from bot.show import texts
from bot.show.i18n import _
from bot.store import TableRow, Write
from engine import RULESETS

log = logging.getLogger(__name__)


class Lobby:
    """Seats, bots and the table's life before and between matches."""

    async def _cmd_create(self, ctx: _Ctx) -> list[Reply]:
        s = self.settings
        settings = TableSettings(
            ruleset=s.ruleset,
            timer=s.timer,
            seed_window=0.0 if s.fast else s.seed_window,
            ai_level=s.ai_level,
        )
        args = list(ctx.args)
        while args:
            word = args.pop(0)
            a = word.lower()
            if a in RULESETS:
                settings.ruleset = a
            elif a == "--rated":
                settings.rated = True
            elif a in ("--target", "--timer", "--window", "--ai"):
                if not args:
                    raise Refused("err-option-value", option=a)
                value = args.pop(0)
                if a == "--ai":
                    settings.ai_level = parse.level(value)
                elif a == "--target":
                    settings.target = parse.target(value)
                elif a == "--timer":
                    settings.timer = parse.table_timer(value)
                else:
                    settings.seed_window = parse.seed_window(value)
            else:
                raise Refused("err-create-arg", arg=parse.echo(word), rulesets=", ".join(RULESETS))
        if await self._live_tables(ctx.channel.id) >= self.settings.max_tables_per_channel:
            raise Refused("err-too-many-tables")
        now = self.clock.now()
        seat = Seat("human", ctx.user.name, ctx.user.id, locale=ctx.user.locale)
        t = Table(
            id=await self.store.new_table_id(),
            channel=ctx.channel.id,
            host=ctx.user.id,
            settings=settings,
            seats=[seat, None, None, None],
            created_at=now,
        )
        await self.store.write(Write(tables=[t.row(now)]))
        self.tables[t.id] = t
        await self._post_table(t)
        return [Reply(_("ok-created", ctx.locale, table=t.tid, ruleset=settings.ruleset))]

    async def _live_tables(self, channel: str) -> int:
        """The channel's live tables, counted in the database (every process's, so the
        answer does not depend on which process a player reaches): a match in progress,
        or a table someone sits at or is still setting up; not a table whose match is
        over and where nobody sits any more."""
        rows = await self.store.channel_tables(channel)
        return sum(1 for r in rows if is_live(r))

    async def _cmd_list(self, ctx: _Ctx) -> list[Reply]:
        here = self._channel_tables(ctx.channel)
        if not here:
            return [Reply(_("list-none", ctx.locale))]
        lines = [_("list-header", ctx.locale)]
        for t in here:
            lines.append(
                _(
                    "list-line",
                    ctx.locale,
                    table=t.tid,
                    ruleset=t.settings.ruleset,
                    free=len(t.free_seats()),
                    status=_(f"status-{t.status}", ctx.locale),
                )
            )
        return [Reply("\n".join(lines))]

    async def _cmd_join(self, ctx: _Ctx) -> list[Reply]:
        t = self._pick_table(ctx, seated=False)
        async with self._lock(t):
            now_at = t.seat_of(ctx.user.id)
            if now_at is not None and (not ctx.args or t.status != "open" or t.ref is not None):
                raise Refused("err-already-seated", table=t.tid)
            if t.status != "open":
                raise Refused("err-match-running", table=t.tid)
            if t.ref is not None:
                if ctx.user.id not in t.reserved:
                    raise Refused("err-reserved", table=t.tid)
                seat = t.reserved.index(ctx.user.id)
            else:
                seat = self._seat_arg(ctx, t)
            if now_at is not None:  # between matches, ``/join SEAT`` moves to that seat
                t.seats[now_at] = None
            t.seats[seat] = Seat("human", ctx.user.name, ctx.user.id, locale=ctx.user.locale)
            await self._save_table(t)
            full = t.ref is not None and not t.free_seats()
            if full:
                await self._start_match(t)  # a tournament table starts once all are seated
        if t.ref is not None:
            self._hook(self._tournament_seated(t.ref, ctx.user.id))
        if not full:
            await self._post_table(t)
        return [Reply(_("ok-joined", ctx.locale, table=t.tid, seat=texts.seat_label(seat)))]

    def _seat_arg(self, ctx: _Ctx, t: Table) -> int:
        free = t.free_seats()
        if not free:
            raise Refused("err-table-full", table=t.tid)
        if ctx.args:
            seat = parse.seat_number(ctx.args[0])
            if seat not in free:
                raise Refused("err-seat-taken", seat=texts.seat_label(seat))
            return seat
        return free[0]

    async def _cmd_leave(self, ctx: _Ctx) -> list[Reply]:
        t = self._pick_table(ctx)
        async with self._lock(t):
            seat = t.seat_of(ctx.user.id)
            assert seat is not None
            await self._unseat(t, seat, kicked=False)
        return [Reply(_("ok-left", ctx.locale, table=t.tid))]

    async def _unseat(self, t: Table, seat: int, *, kicked: bool) -> None:
        """Free a seat; during a match, an AI plays it to the end (nobody waits)."""
        run = t.run
        if run is not None and not run.over:
            t.seats[seat] = None
            await self._record(t, [("leave", {"seat": seat, "kicked": kicked})], save_table=True)
            await self._after_change(t, [])
            return
        t.seats[seat] = None
        if all(s is None for s in t.seats):
            t.status = "closed"  # the creator stays host: a table of bots can still start
            self._disarm(t)
        await self._save_table(t)
        await self._post_table(t)
        if t.status == "closed":
            self._forget(t)

    async def _cmd_addbot(self, ctx: _Ctx) -> list[Reply]:
        level = self.settings.ai_level
        rest = []
        for a in ctx.args:
            if parse.is_table_ref(a) or parse.is_number(a):
                rest.append(a)
            else:
                level = parse.level(a)
        ctx.args = rest
        t = self._pick_table(ctx, seated=False)
        async with self._lock(t):
            self._check_host(ctx, t)
            if t.status != "open":
                raise Refused("err-match-running", table=t.tid)
            seat = self._seat_arg(ctx, t)
            used = {s.name for s in t.seats if s is not None}
            name = next((n for n in BOT_NAMES if n not in used), f"Bot {seat + 1}")
            t.seats[seat] = Seat("bot", name, None, level=level)
            await self._save_table(t)
        await self._post_table(t)
        return [Reply(_("ok-bot-added", ctx.locale, table=t.tid, seat=texts.seat_label(seat)))]

    async def _cmd_kick(self, ctx: _Ctx) -> list[Reply]:
        t = self._pick_table(ctx, seated=False)
        self._check_host(ctx, t)
        if not ctx.args:
            raise Refused("err-seat-number")
        seat = parse.seat_number(ctx.args[0])
        async with self._lock(t):
            if t.seats[seat] is None:
                raise Refused("err-seat-empty", seat=texts.seat_label(seat))
            await self._unseat(t, seat, kicked=True)
        return [Reply(_("ok-kicked", ctx.locale, table=t.tid, seat=texts.seat_label(seat)))]

    async def _cmd_close(self, ctx: _Ctx) -> list[Reply]:
        t = self._pick_table(ctx, seated=False)
        self._check_host(ctx, t)
        async with self._lock(t):
            if t.status == "closed":
                raise Refused("err-no-such-table", table=t.tid)
            run = t.run
            if run is not None and not run.over:
                t.status = "closed"
                await self._record(t, [("abort", {"by": ctx.user.id})], save_table=True)
                await self._after_change(t, [])
            else:
                t.status = "closed"
                await self._save_table(t)
                await self._post_table(t)
            self._disarm(t)
        self._forget(t)
        return [Reply(_("ok-closed", ctx.locale, table=t.tid))]


def is_live(row: TableRow) -> bool:
    """Does this table count against the channel's limit?"""
    if row.status == "playing":
        return True
    if row.status != "open":
        return False
    seated = any(s is not None and s.get("kind") != "bot" for s in row.seats)
    return seated or row.settings.get("last_match") is None
