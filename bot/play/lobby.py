"""Lobby commands: create, list, join, leave, bots, kick, close."""

from __future__ import annotations

import logging
from dataclasses import dataclass

from bot.commands import parse
from bot.commands.inputs import Ctx
from bot.community.service import CommunitySettings
from bot.ops.clock import Clock
from bot.platform import Reply
from bot.play.ceremony import Ceremony
from bot.play.deadlines import Deadlines
from bot.play.entries import Aborted, Left
from bot.play.journal import Journal
from bot.play.registry import TableRegistry
from bot.play.table import BOT_NAMES, Seat, Table, TableSettings
from bot.play.tournament_tables import Closing, MatchResults
from bot.refused import Refused
from bot.show import texts
from bot.show.dispatch import Dispatch
from bot.show.i18n import _
from bot.show.posting import Presenter
from bot.store import TableRow
from engine import OPTION_NAMES, RULESETS, options_of

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class NewTables:
    """What a new table gets unless its creator says otherwise."""

    ruleset: str = "club"
    timer: float = 60.0
    seed_window: float = 20.0
    ai_level: str = "normal"
    max_per_channel: int = 20


def _check_options(settings: TableSettings) -> None:
    """Refuse a table option its ruleset does not have, naming the ones it has."""
    for name in settings.options:
        known = [spec.name for spec in options_of(settings.ruleset)]
        if name not in known:
            flags = ", ".join("--" + n.replace("_", "-") for n in known)
            raise Refused(
                "err-option-ruleset",
                option="--" + name.replace("_", "-"),
                ruleset=settings.ruleset,
                options=flags or "-",
            )


class Lobby:
    """Seats, bots and the table's life before and between matches.

    ``closing``: how a running match is stopped when its last player leaves or its host
    closes the table (the turns); ``results``: told when a tournament table's seat is
    taken."""

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
        clock: Clock,
        defaults: NewTables,
        community: CommunitySettings,
    ) -> None:
        self._registry = registry
        self._journal = journal
        self._deadlines = deadlines
        self._presenter = presenter
        self._dispatch = dispatch
        self._ceremony = ceremony
        self._closing = closing
        self._results = results
        self._clock = clock
        self._defaults = defaults
        self._community = community

    async def _show_table(self, t: Table, ctx: Ctx) -> None:
        await self._dispatch.send([await self._presenter.table(t)], ctx)

    def _check_host(self, ctx: Ctx, t: Table) -> None:
        if ctx.user.id != t.host and not ctx.user.is_admin:
            raise Refused("err-host-only", table=t.tid)

    async def create(self, ctx: Ctx) -> list[Reply]:
        """A new table with the community's settings as they are now (read from the
        database, so a change made a moment ago in any process counts); its host may
        change its rules within what the community allows."""
        s = self._defaults
        here = await self._community.values(ctx.channel)
        if not here["tables"]:
            raise Refused("err-settings-no-tables")
        settings = TableSettings(
            ruleset=here["ruleset"],
            target=here["target"],
            timer=here["timer"],
            seed_window=s.seed_window,
            ai_level=here.level(s.ai_level),
            spectators=here["spectators"],
        )
        chosen: dict[str, bool] = {}
        args = list(ctx.args)
        own_rules = False
        while args:
            word = args.pop(0)
            a = word.lower()
            if a in RULESETS:
                settings.ruleset = a
                own_rules = True
            elif a == "--rated":
                settings.rated = True
            elif a.startswith("--") and a[2:].replace("-", "_") in OPTION_NAMES:
                chosen[a[2:].replace("-", "_")] = True
                own_rules = True
            elif a in ("--target", "--timer", "--window", "--ai"):
                if not args:
                    raise Refused("err-option-value", option=a)
                value = args.pop(0)
                if a == "--ai":
                    settings.ai_level = parse.level(value)
                    if settings.ai_level not in here["levels"]:
                        raise Refused("err-settings-level", levels=", ".join(here["levels"]))
                elif a == "--target":
                    settings.target = parse.target(value)
                    own_rules = True
                elif a == "--timer":
                    settings.timer = parse.table_timer(value)
                    own_rules = True
                else:
                    settings.seed_window = parse.seed_window(value)
            else:
                raise Refused("err-create-arg", arg=parse.echo(word), rulesets=", ".join(RULESETS))
        if own_rules and not here["host_rules"]:
            raise Refused("err-settings-host-rules")
        settings.options = {**here.options_for(settings.ruleset), **chosen}
        _check_options(settings)
        if await self._live_tables(ctx.channel.id) >= here["max_tables"]:
            raise Refused("err-too-many-tables")
        now = self._clock.now()
        seat = Seat("human", ctx.user.name, ctx.user.id, locale=ctx.user.locale)
        t = Table(
            id=await self._journal.new_table_id(),
            channel=ctx.channel.id,
            host=ctx.user.id,
            settings=settings,
            seats=[seat, None, None, None],
            created_at=now,
        )
        await self._journal.save(t)
        self._registry.add(t)
        await self._show_table(t, ctx)
        return [Reply(_("ok-created", ctx.locale, table=t.tid, ruleset=settings.ruleset))]

    async def _live_tables(self, channel: str) -> int:
        """The channel's live tables, counted in the database (every process's, so the
        answer does not depend on which process a player reaches): a match in progress,
        or a table someone sits at or is still setting up; not a table whose match is
        over and where nobody sits any more."""
        rows = await self._journal.channel_rows(channel)
        return sum(1 for r in rows if is_live(r))

    async def list_tables(self, ctx: Ctx) -> list[Reply]:
        here = self._registry.in_channel(ctx.channel)
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

    async def join(self, ctx: Ctx) -> list[Reply]:
        t = self._registry.pick(ctx, seated=False)
        async with self._registry.lock(t):
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
            await self._journal.save(t)
            full = t.ref is not None and not t.free_seats()
            if full:  # a tournament table starts once all are seated
                await self._ceremony.start_match(t, ctx)
        if t.ref is not None:
            self._results.seated(t.ref, ctx.user.id)
        if not full:
            await self._show_table(t, ctx)
        return [Reply(_("ok-joined", ctx.locale, table=t.tid, seat=texts.seat_label(seat)))]

    def _seat_arg(self, ctx: Ctx, t: Table) -> int:
        free = t.free_seats()
        if not free:
            raise Refused("err-table-full", table=t.tid)
        if ctx.args:
            seat = parse.seat_number(ctx.args[0])
            if seat not in free:
                raise Refused("err-seat-taken", seat=texts.seat_label(seat))
            return seat
        return free[0]

    async def leave(self, ctx: Ctx) -> list[Reply]:
        t = self._registry.pick(ctx)
        async with self._registry.lock(t):
            seat = t.seat_of(ctx.user.id)
            assert seat is not None
            await self._unseat(ctx, t, seat, kicked=False)
        return [Reply(_("ok-left", ctx.locale, table=t.tid))]

    async def _unseat(self, ctx: Ctx, t: Table, seat: int, *, kicked: bool) -> None:
        """Free a seat; during a match, an AI plays it to the end (nobody waits)."""
        run = t.run
        if run is not None and not run.over:
            t.seats[seat] = None
            await self._journal.record(t, [Left(seat, kicked)], save_table=True)
            await self._closing.changed(t, [], None, ctx)
            return
        t.seats[seat] = None
        if all(s is None for s in t.seats):
            t.status = "closed"  # the creator stays host: a table of bots can still start
            self._deadlines.disarm(t)
            self._ceremony.stop_drand(t)
        await self._journal.save(t)
        await self._show_table(t, ctx)
        if t.status == "closed":
            self._registry.forget(t)

    async def addbot(self, ctx: Ctx) -> list[Reply]:
        allowed = (await self._community.values(ctx.channel, fresh=False))["levels"]
        level = self._defaults.ai_level if self._defaults.ai_level in allowed else allowed[0]
        rest = []
        for a in ctx.args:
            if parse.is_table_ref(a) or parse.is_number(a):
                rest.append(a)
            else:
                level = parse.level(a)
                if level not in allowed:
                    raise Refused("err-settings-level", levels=", ".join(allowed))
        ctx.args = rest
        t = self._registry.pick(ctx, seated=False)
        async with self._registry.lock(t):
            self._check_host(ctx, t)
            if t.status != "open":
                raise Refused("err-match-running", table=t.tid)
            seat = self._seat_arg(ctx, t)
            used = {s.name for s in t.seats if s is not None}
            name = next((n for n in BOT_NAMES if n not in used), f"Bot {seat + 1}")
            t.seats[seat] = Seat("bot", name, None, level=level)
            await self._journal.save(t)
        await self._show_table(t, ctx)
        return [Reply(_("ok-bot-added", ctx.locale, table=t.tid, seat=texts.seat_label(seat)))]

    async def kick(self, ctx: Ctx) -> list[Reply]:
        t = self._registry.pick(ctx, seated=False)
        self._check_host(ctx, t)
        if not ctx.args:
            raise Refused("err-seat-number")
        seat = parse.seat_number(ctx.args[0])
        async with self._registry.lock(t):
            if t.seats[seat] is None:
                raise Refused("err-seat-empty", seat=texts.seat_label(seat))
            await self._unseat(ctx, t, seat, kicked=True)
        return [Reply(_("ok-kicked", ctx.locale, table=t.tid, seat=texts.seat_label(seat)))]

    async def close(self, ctx: Ctx) -> list[Reply]:
        t = self._registry.pick(ctx, seated=False)
        self._check_host(ctx, t)
        async with self._registry.lock(t):
            if t.status == "closed":
                raise Refused("err-no-such-table", table=t.tid)
            run = t.run
            if run is not None and not run.over:
                t.status = "closed"
                await self._journal.record(t, [Aborted(ctx.user.id)], save_table=True)
                await self._closing.changed(t, [], None, ctx)
            else:
                t.status = "closed"
                await self._journal.save(t)
                await self._show_table(t, ctx)
            self._deadlines.disarm(t)
            self._ceremony.stop_drand(t)
        self._registry.forget(t)
        return [Reply(_("ok-closed", ctx.locale, table=t.tid))]


def is_live(row: TableRow) -> bool:
    """Does this table count against the channel's limit?"""
    if row.status == "playing":
        return True
    if row.status != "open":
        return False
    seated = any(s is not None and s.get("kind") != "bot" for s in row.seats)
    return seated or row.settings.get("last_match") is None
