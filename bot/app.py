"""BeloteApp: the one entry point for everything a player can do, whatever the platform.

``command`` (typed text) and ``press`` (a button) end in the same handlers. Each table has a
lock; every change is written to the store (committed) before its effects are posted. The
scheduler only wakes a table up; what is due, and whether it is still current, comes from
the table's state, which is rebuilt from the store at start.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from bot import texts
from bot.bots import think
from bot.clock import Clock, Randomness, SystemClock, SystemRandomness
from bot.i18n import _, has_text
from bot.platform import Button, Channel, NullPlatform, Platform, Post, Reply, User
from bot.scheduler import ApsScheduler, Scheduler
from bot.store import Deadline, LogEntry, MatchRow, Store, Write
from bot.table import LEVELS, MatchRun, Seat, Table, TableSettings, ai_seed
from engine import RULESETS, Action, EngineError, IllegalAction, InvalidCard, parse_card
from engine.recipe import commitment as seed_commitment
from engine.recipe import parse_seed_hex

log = logging.getLogger(__name__)

DRAND_GRACE = 5.0
BOT_NAMES = ("Ada", "Bruno", "Chloe", "Dario")


@dataclass
class Settings:
    """Process-wide settings (a table's own settings are in ``TableSettings``)."""

    bot_delay: float = 1.0  # a bot's pause before it plays, so people can follow
    fast: bool = False  # no pause, no seed window
    drand: bool = True
    timer: float = 60.0  # default turn timer of new tables
    seed_window: float = 20.0  # default seed window of new tables
    ruleset: str = "club"
    ai_level: str = "normal"
    render_images: bool = True
    max_tables_per_channel: int = 20
    record_latency: bool = False
    tournaments: bool = False  # attach bot.tournaments (its own tables in the database)

    @property
    def pause(self) -> float:
        return 0.0 if self.fast else self.bot_delay


class Refused(Exception):
    """A bad input: its text goes back to the user and nothing changes."""

    def __init__(self, key: str, **kwargs: Any) -> None:
        super().__init__(key)
        self.key = key
        self.kwargs = kwargs


Handler = Callable[[User, Channel, list[str]], Awaitable[list[Reply]]]


@dataclass
class _Ctx:
    user: User
    channel: Channel
    args: list[str] = field(default_factory=list)
    table: Table | None = None

    @property
    def locale(self) -> str:
        return self.user.locale


class BeloteApp:
    def __init__(
        self,
        store: Store,
        platform: Platform | None = None,
        clock: Clock | None = None,
        drand: Any | None = None,
        settings: Settings | None = None,
        scheduler: Scheduler | None = None,
        randomness: Randomness | None = None,
    ) -> None:
        self.store = store
        self.platform: Platform = platform or NullPlatform()
        self.clock: Clock = clock or SystemClock()
        self.drand = drand
        self.settings = settings or Settings()
        self.scheduler: Scheduler = scheduler or ApsScheduler()
        self.random: Randomness = randomness or SystemRandomness()
        self.tables: dict[int, Table] = {}
        self._locks: dict[int, asyncio.Lock] = {}
        self._drand_tasks: dict[int, asyncio.Task[None]] = {}
        self._belote_intent: set[tuple[int, int]] = set()
        self._idle = asyncio.Event()
        self.latencies: list[float] = []
        self.actions_applied = 0
        self._render = _load_renderer() if self.settings.render_images else None
        self._started = False
        self.tournaments: Any = None  # the TournamentService, when attached
        self._hooks: set[asyncio.Task[None]] = set()

    # ------------------------------------------------------------------ lifecycle

    async def start(self) -> None:
        """Run migrations, resume every unfinished table, arm its deadline."""
        await self.store.migrate()
        self.scheduler.start()
        deadlines = await self.store.deadlines()
        for row in await self.store.open_tables():
            t = Table.from_row(row)
            self.tables[t.id] = t
            if row.match_id is not None:
                entries = await self.store.log(row.match_id)
                if entries:
                    t.run = MatchRun.replay(entries, t.id)
            await self._resume(t, deadlines.get(t.id))
        self._started = True
        self._update_idle()
        if self.settings.tournaments and self.store.path != ":memory:":
            try:
                from bot.tournaments.commands import attach_tournaments
            except ImportError:
                log.info("no tournaments package")
            else:
                await attach_tournaments(self, host=self)

    async def _resume(self, t: Table, stored: Deadline | None) -> None:
        run = t.run
        if run is None or run.over:
            await self._post_table(t)
            return
        dl = stored if stored is not None else self._next_deadline(t)
        self._arm(t, dl)
        if run.phase == "drand":
            self._start_drand(t)
        await self._post_table(t)
        if run.match is not None:
            await self._post_hands(t, list(range(4)))

    async def stop(self) -> None:
        for task in list(self._drand_tasks.values()):
            task.cancel()
        for task in list(self._drand_tasks.values()):
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        self._drand_tasks.clear()
        if self._hooks:
            await asyncio.gather(*self._hooks, return_exceptions=True)
        self.scheduler.shutdown()
        service = self.tournaments
        if service is not None:
            close = getattr(service, "stop", None) or getattr(service, "close", None)
            if close is not None:
                try:
                    await close()
                except Exception:
                    log.exception("tournament service did not stop cleanly")
        await self.store.close()

    def busy(self) -> bool:
        """Is any match in progress?"""
        return any(t.status == "playing" for t in self.tables.values())

    async def wait_idle(self) -> None:
        while self.busy():
            self._idle.clear()
            await self._idle.wait()

    def _update_idle(self) -> None:
        if not self.busy():
            self._idle.set()

    def _lock(self, t: Table) -> asyncio.Lock:
        lock = self._locks.get(t.id)
        if lock is None:
            lock = self._locks[t.id] = asyncio.Lock()
        return lock

    # ------------------------------------------------------------------ entry points

    async def command(self, user: User, channel: Channel, text: str) -> list[Reply]:
        """A typed command (``/play TD``); returns the answers for ``user`` only."""
        words = (text or "").strip().split()
        if not words:
            return [self._refusal(user, "err-empty")]
        name = words[0].lstrip("/").lower().split("@", 1)[0]
        args = words[1:]
        if name == "table" and args and args[0].lower() in ("create", "list", "close"):
            name = f"table-{args[0].lower()}"
            args = args[1:]
        elif name == "table":
            name = "table-list"
        handler = self._handlers().get(name)
        if handler is None and name in ("tournament", "ladder", "stats", "leaderboard"):
            return await self._tournament_command(user, channel, name, args)
        if handler is None:
            return [self._refusal(user, "err-unknown-command", command=words[0][:30])]
        ctx = _Ctx(user, channel, args)
        try:
            return await handler(ctx)
        except Refused as r:
            return [Reply(_(r.key, user.locale, **r.kwargs), ok=False)]

    async def press(self, user: User, channel: Channel, action: str) -> list[Reply]:
        """A button press; ``action`` is what a ``Button`` carried."""
        try:
            return await self._press(_Ctx(user, channel), action or "")
        except Refused as r:
            return [Reply(_(r.key, user.locale, **r.kwargs), ok=False)]

    def _refusal(self, user: User, key: str, **kwargs: Any) -> Reply:
        return Reply(_(key, user.locale, **kwargs), ok=False)

    def _handlers(self) -> dict[str, Callable[[_Ctx], Awaitable[list[Reply]]]]:
        return {
            "table-create": self._cmd_create,
            "table-list": self._cmd_list,
            "table-close": self._cmd_close,
            "tables": self._cmd_list,
            "join": self._cmd_join,
            "sit": self._cmd_join,
            "leave": self._cmd_leave,
            "addbot": self._cmd_addbot,
            "start": self._cmd_start,
            "bid": self._cmd_bid,
            "pass": self._cmd_pass,
            "play": self._cmd_play,
            "belote": self._cmd_belote,
            "hand": self._cmd_hand,
            "score": self._cmd_score,
            "seed": self._cmd_seed,
            "verify": self._cmd_verify,
            "rules": self._cmd_rules,
            "help": self._cmd_help,
            "back": self._cmd_back,
            "kick": self._cmd_kick,
            "close": self._cmd_close,
        }

    # ------------------------------------------------------------------ finding the table

    def _channel_tables(self, channel: Channel) -> list[Table]:
        return [t for t in self.tables.values() if t.channel == channel.id and t.status != "closed"]

    def _pick_table(self, ctx: _Ctx, *, seated: bool = True) -> Table:
        """The table a command is about: named (``t3``), or the user's one in this channel."""
        named = [a for a in ctx.args if _is_table_id(a)]
        if named:
            ctx.args = [a for a in ctx.args if not _is_table_id(a)]
            tid = int(named[0][1:])
            t = self.tables.get(tid)
            if t is None or t.status == "closed":
                raise Refused("err-no-such-table", table=named[0].lower())
            if t.channel != ctx.channel.id:
                raise Refused("err-wrong-channel", table=t.tid)
            if seated and t.seat_of(ctx.user.id) is None:
                raise Refused("err-not-at-table", table=t.tid)
            ctx.table = t
            return t
        here = self._channel_tables(ctx.channel)
        mine = [t for t in here if t.seat_of(ctx.user.id) is not None]
        if len(mine) == 1:
            ctx.table = mine[0]
            return mine[0]
        if len(mine) > 1:
            raise Refused("err-several-tables", tables=", ".join(t.tid for t in mine))
        if seated:
            elsewhere = [
                t
                for t in self.tables.values()
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

    def _check_host(self, ctx: _Ctx, t: Table) -> None:
        if ctx.user.id != t.host and not ctx.user.is_admin:
            raise Refused("err-host-only", table=t.tid)

    # ------------------------------------------------------------------ lobby commands

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
            a = args.pop(0).lower()
            if a in RULESETS:
                settings.ruleset = a
            elif a == "--rated":
                settings.rated = True
            elif a in ("--target", "--timer", "--window", "--ai"):
                if not args:
                    raise Refused("err-option-value", option=a)
                value = args.pop(0)
                if a == "--ai":
                    if value.lower() not in LEVELS:
                        raise Refused("err-level", levels=", ".join(LEVELS))
                    settings.ai_level = value.lower()
                    continue
                n = _number(value)
                if a == "--target":
                    if n is None or n != int(n) or not 1 <= n <= 100_000:
                        raise Refused("err-target")
                    settings.target = int(n)
                elif a == "--timer":
                    if n is None or not 5 <= n <= 3600:
                        raise Refused("err-timer")
                    settings.timer = float(n)
                else:
                    if n is None or not 0 <= n <= 600:
                        raise Refused("err-window")
                    settings.seed_window = float(n)
            else:
                raise Refused("err-create-arg", arg=a[:30], rulesets=", ".join(RULESETS))
        if len(self._channel_tables(ctx.channel)) >= self.settings.max_tables_per_channel:
            raise Refused("err-too-many-tables")
        now = self.clock.now()
        seat = Seat("human", ctx.user.name, ctx.user.id, locale=ctx.user.locale)
        t = Table(
            id=self.store.new_table_id(),
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
            if t.seat_of(ctx.user.id) is not None:
                raise Refused("err-already-seated", table=t.tid)
            if t.status != "open":
                raise Refused("err-match-running", table=t.tid)
            if t.ref is not None:
                if ctx.user.id not in t.reserved:
                    raise Refused("err-reserved", table=t.tid)
                seat = t.reserved.index(ctx.user.id)
            else:
                seat = self._seat_arg(ctx, t)
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
            n = _number(ctx.args[0])
            if n is None or n != int(n) or not 1 <= n <= 4:
                raise Refused("err-seat-number")
            seat = int(n) - 1
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

    async def _cmd_addbot(self, ctx: _Ctx) -> list[Reply]:
        level = self.settings.ai_level
        rest = []
        for a in ctx.args:
            if a.lower() in LEVELS:
                level = a.lower()
            elif _is_table_id(a) or _number(a) is not None:
                rest.append(a)
            else:
                raise Refused("err-level", levels=", ".join(LEVELS))
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
        n = _number(ctx.args[0])
        if n is None or n != int(n) or not 1 <= n <= 4:
            raise Refused("err-seat-number")
        seat = int(n) - 1
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
        self._update_idle()
        return [Reply(_("ok-closed", ctx.locale, table=t.tid))]

    # ------------------------------------------------------------------ the match: start

    async def _cmd_start(self, ctx: _Ctx) -> list[Reply]:
        t = self._pick_table(ctx, seated=False)
        async with self._lock(t):
            self._check_host(ctx, t)
            if t.status == "playing":
                raise Refused("err-match-running", table=t.tid)
            if t.free_seats():
                raise Refused("err-seats-free", free=len(t.free_seats()))
            await self._start_match(t)
        return [Reply(_("ok-started", ctx.locale, table=t.tid, match=f"m{t.run.id}"))]

    async def _start_match(self, t: Table) -> None:
        mid = self.store.new_match_id()
        server_seed = self.random.token_bytes(32, f"server-seed/m{mid}")
        ai_root = self.random.token_bytes(16, f"ai-seed/m{mid}")
        commit = seed_commitment(server_seed)
        seats = [s for s in t.seats if s is not None]
        any_human = any(not s.is_bot for s in seats)
        window = 0.0 if (self.settings.fast or not any_human) else t.settings.seed_window
        use_drand = self.settings.drand and self.drand is not None
        now = self.clock.now()
        data = MatchRun.start_data(
            seats, t.settings, server_seed, commit, ai_root, window, use_drand
        )
        start = LogEntry(mid, 0, now, "start", data)
        run = MatchRun.from_start(start, t.id)
        t.run = run
        t.status = "playing"
        self._idle.clear()
        row = MatchRow(mid, t.id, t.channel, t.settings.ruleset, commit, now, None, "playing")
        dl = self._next_deadline(t)
        await self.store.write(
            Write(tables=[t.row(now)], new_matches=[row], logs=[start], deadlines={t.id: dl})
        )
        # the commitment is the first thing of the match anyone sees
        await self._post(
            t,
            f"commit:{mid}",
            _(
                "commit-post" if window > 0 else "commit-post-nowindow",
                self._loc(t),
                match=f"m{mid}",
                table=t.tid,
                commitment=commit,
                seconds=int(window),
            ),
            buttons=((Button(_("label-seed", self._loc(t)), self._code(t, "seed")),),)
            if window > 0
            else (),
        )
        self._arm(t, dl)
        await self._post_table(t)
        if window <= 0:
            await self._close_seeds(t)

    # ------------------------------------------------------------------ the ceremony

    async def _cmd_seed(self, ctx: _Ctx) -> list[Reply]:
        t = self._pick_table(ctx)
        async with self._lock(t):
            run = t.run
            if run is None or run.phase != "seeds":
                raise Refused("err-no-seed-now")
            seat = t.seat_of(ctx.user.id)
            assert seat is not None
            if not ctx.args:
                raise Refused("err-seed-format")
            try:
                seed = parse_seed_hex(ctx.args[0], 16)
            except EngineError:
                raise Refused("err-seed-format") from None
            if run.seat_seeds[seat] is not None:
                raise Refused("err-seed-twice")
            await self._record(t, [("seed", {"seat": seat, "seed": seed.hex()})])
            if not run.waiting_for_seeds():
                await self._close_seeds(t)
            else:
                await self._post_table(t)
        return [Reply(_("ok-seed", ctx.locale, match=f"m{run.id}"))]

    async def _close_seeds(self, t: Table) -> None:
        """The window is over: show each seat's seed, then name drand's round (or deal)."""
        run = t.run
        assert run is not None and run.phase == "seeds"
        data: dict[str, Any] = {"round": None, "due": None}
        if run.use_drand:
            from bot.drand import first_round_after, time_of_round

            r = first_round_after(self.clock.now())
            data = {"round": r, "due": time_of_round(r)}
        await self._record(t, [("seeds_closed", data)])
        await self._post(t, f"seeds:{run.id}", texts.seeds_text(run, self._loc(t)))
        if run.phase == "drand":
            await self._post_drand(t)
            self._start_drand(t)
            await self._post_table(t)
        else:
            await self._after_deal(t)

    async def _post_drand(self, t: Table) -> None:
        run = t.run
        assert run is not None
        loc = self._loc(t)
        if run.drand_status == "pending":
            text = _("drand-named", loc, round=run.drand_round)
        elif run.drand_status == "ok":
            text = _("drand-ok", loc, round=run.drand_round, value=(run.drand_value or b"").hex())
        else:
            text = _("drand-timeout", loc, round=run.drand_round)
        await self._post(t, f"drand:{run.id}", text)

    def _start_drand(self, t: Table) -> None:
        run = t.run
        if run is None or run.drand_round is None or self.drand is None:
            return
        old = self._drand_tasks.get(t.id)
        if old is not None and not old.done():
            return
        self._drand_tasks[t.id] = asyncio.create_task(self._fetch_drand(t, run.id))

    async def _fetch_drand(self, t: Table, match_id: int) -> None:
        run = t.run
        assert run is not None and run.drand_round is not None and run.drand_due is not None
        try:
            beacon = await self.drand.fetch_until(
                run.drand_round, deadline=run.drand_due + DRAND_GRACE, clock=self.clock
            )
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("drand fetch failed")
            beacon = None
        async with self._lock(t):
            run = t.run
            if run is None or run.id != match_id or run.phase != "drand":
                return
            if beacon is not None and beacon.round == run.drand_round:
                await self._record(
                    t,
                    [
                        (
                            "drand",
                            {
                                "round": beacon.round,
                                "randomness": beacon.randomness.hex(),
                                "signature": beacon.signature.hex(),
                            },
                        )
                    ],
                )
            else:
                await self._record(t, [("drand_timeout", {"round": run.drand_round})])
            await self._post_drand(t)
            await self._after_deal(t)

    async def _drand_timeout(self, t: Table) -> None:
        run = t.run
        assert run is not None
        await self._record(t, [("drand_timeout", {"round": run.drand_round})])
        task = self._drand_tasks.pop(t.id, None)
        if task is not None and task is not asyncio.current_task():
            task.cancel()
        await self._post_drand(t)
        await self._after_deal(t)

    async def _after_deal(self, t: Table) -> None:
        await self._post_table(t)
        await self._post_hands(t, list(range(4)))

    # ------------------------------------------------------------------ the match: play

    async def _cmd_bid(self, ctx: _Ctx) -> list[Reply]:
        t = self._pick_table(ctx)
        if not ctx.args:
            raise Refused("err-bid-format")
        word = ctx.args[0].lower()
        if word in ("pass", "take", "contre", "recontre"):
            action = Action.parse(word)
        elif word.upper() in ("C", "D", "H", "S", "NT", "AT"):
            action = Action.bid(word.upper())
        else:
            raise Refused("err-bid-format")
        return await self._player_action(ctx, t, action)

    async def _cmd_pass(self, ctx: _Ctx) -> list[Reply]:
        t = self._pick_table(ctx)
        return await self._player_action(ctx, t, Action.pass_())

    async def _cmd_play(self, ctx: _Ctx) -> list[Reply]:
        t = self._pick_table(ctx)
        if not ctx.args:
            raise Refused("err-play-format")
        try:
            card = parse_card(ctx.args[0].upper())
        except InvalidCard:
            raise Refused("err-card", card=ctx.args[0][:10]) from None
        flags = {a.lower() for a in ctx.args[1:]}
        if not flags <= {"belote", "melds", "nomelds"}:
            raise Refused("err-play-format")
        seat = t.seat_of(ctx.user.id)
        want_belote = "belote" in flags or (t.id, seat) in self._belote_intent
        action = _choose_variant(t, seat, card, want_belote, "nomelds" not in flags)
        if action is None:
            raise Refused("err-play-format")
        return await self._player_action(ctx, t, action)

    async def _cmd_belote(self, ctx: _Ctx) -> list[Reply]:
        t = self._pick_table(ctx)
        run = t.run
        seat = t.seat_of(ctx.user.id)
        if run is None or run.match is None or run.over or seat is None:
            raise Refused("err-no-match")
        v = run.match.view(seat)
        can = [a for a in v.legal if a.kind == "play" and a.belote]
        holds = v.contract is not None and any(
            texts.card_text(c)[1] == v.contract.trump and texts.card_text(c)[0] in "KQ"
            for c in v.hand
        )
        if can and len({a.card for a in can}) == 1:
            return await self._player_action(ctx, t, can[0])
        if not can and not holds:
            raise Refused("err-no-belote")
        self._belote_intent.add((t.id, seat))
        return [Reply(_("ok-belote-noted", ctx.locale))]

    async def _player_action(self, ctx: _Ctx, t: Table, action: Action) -> list[Reply]:
        async with self._lock(t):
            run = t.run
            seat = t.seat_of(ctx.user.id)
            if run is None or run.over or seat is None:
                raise Refused("err-no-match")
            if run.phase != "play" or run.match is None:
                raise Refused("err-not-dealt")
            if run.to_move != seat:
                raise Refused("err-not-your-turn", name=self._mover_name(t))
            self._check_legal(ctx, run, seat, action)
            await self._apply_action(t, seat, action, "player")
        return []

    def _check_legal(self, ctx: _Ctx, run: MatchRun, seat: int, action: Action) -> None:
        assert run.match is not None
        legal = run.match.legal_actions(seat)
        if action in legal:
            return
        choices = ", ".join(texts.action_command(a) for a in legal)
        if action.kind == "play":
            if action.card not in run.match.hand(seat):
                raise Refused("err-card-not-held", card=texts.card_text(action.card))
            if any(a.card == action.card for a in legal):
                raise Refused("err-flag-not-allowed", choices=choices)
            raise Refused("err-card-illegal", card=texts.card_text(action.card), choices=choices)
        raise Refused("err-action-illegal", choices=choices)

    async def _apply_action(self, t: Table, seat: int, action: Action, by: str) -> None:
        """Commit one action, then show it; the caller holds the table's lock."""
        t0 = time.perf_counter()
        run = t.run
        assert run is not None
        events = await self._record(
            t, [("action", {"seat": seat, "action": action.text, "by": by})]
        )
        self._belote_intent.discard((t.id, seat))
        await self._after_change(t, events, actor=seat)
        self.actions_applied += 1
        if self.settings.record_latency:
            self.latencies.append(time.perf_counter() - t0)

    async def _after_change(self, t: Table, events: list[Any], actor: int | None = None) -> None:
        run = t.run
        assert run is not None
        await self._post_table(t)
        if run.over:
            await self._post_reveal(t)
            self._update_idle()
            self._hook(self._match_ended(t, run))
            return
        if run.match is None:
            return
        whole_hand = any(e.kind in ("deal", "contract", "redeal", "deal_end") for e in events)
        who = list(range(4)) if whole_hand or actor is None else [actor, run.to_move]
        await self._post_hands(t, [s for s in dict.fromkeys(who) if s is not None])
        if actor is not None and run.last_action is not None and run.last_action[2] == "timeout":
            await self._tell_timeout(t, actor)

    async def _tell_timeout(self, t: Table, seat: int) -> None:
        run = t.run
        assert run is not None
        s = run.seats[seat]
        if s.user_id is None:
            return
        key = "timeout-replaced" if run.replaced[seat] else "timeout-played"
        await self._post(
            t,
            f"notice:{t.id}:{s.user_id}",
            _(key, s.locale, action=texts.action_command(Action.parse(run.last_action[1]))),
            to_user=s.user_id,
        )

    async def _cmd_back(self, ctx: _Ctx) -> list[Reply]:
        t = self._pick_table(ctx)
        async with self._lock(t):
            run = t.run
            seat = t.seat_of(ctx.user.id)
            if run is None or run.over or seat is None:
                raise Refused("err-no-match")
            if not run.replaced[seat] and run.timeouts[seat] == 0:
                raise Refused("err-not-away")
            await self._record(t, [("back", {"seat": seat})])
            await self._post_table(t)
            await self._post_hands(t, [seat])
        return [Reply(_("ok-back", ctx.locale))]

    # ------------------------------------------------------------------ tournaments

    def _hook(self, coro: Awaitable[None]) -> None:
        """Run a call into another service after the table's lock is released (that
        service may call back into the app)."""

        async def guarded() -> None:
            try:
                await coro
            except Exception:
                log.exception("a match hook failed")

        task = asyncio.create_task(guarded())
        self._hooks.add(task)
        task.add_done_callback(self._hooks.discard)

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
        now = self.clock.now()
        a, b = list(request.team_a), list(request.team_b)
        reserved: list[str | None] = [
            a[0] if a else None,
            b[0] if b else None,
            a[1] if len(a) > 1 else None,
            b[1] if len(b) > 1 else None,
        ]
        t = Table(
            id=self.store.new_table_id(),
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
            self._update_idle()

    # ------------------------------------------------------------------ deadlines

    def _next_deadline(self, t: Table) -> Deadline | None:
        run = t.run
        if run is None or run.over:
            return None
        if run.phase == "seeds":
            return Deadline(t.id, "seeds", run.started_at + run.seed_window, run.seq)
        if run.phase == "drand":
            return Deadline(t.id, "drand", (run.drand_due or run.last_at) + DRAND_GRACE, run.seq)
        mover = run.to_move
        if mover is None:
            return None
        if run.is_auto(mover):
            return Deadline(t.id, "bot", run.last_at + self.settings.pause, run.seq)
        return Deadline(t.id, "turn", run.last_at + run.timer, run.seq)

    def _arm(self, t: Table, dl: Deadline | None) -> None:
        key = f"table-{t.id}"
        if dl is None:
            self.scheduler.cancel(key)
            return

        async def fire() -> None:
            await self._on_deadline(t.id, dl.kind, dl.nonce)

        self.scheduler.schedule(key, dl.due, fire)

    def _disarm(self, t: Table) -> None:
        self.scheduler.cancel(f"table-{t.id}")
        task = self._drand_tasks.pop(t.id, None)
        if task is not None and task is not asyncio.current_task():
            task.cancel()

    async def _on_deadline(self, table_id: int, kind: str, nonce: int) -> None:
        t = self.tables.get(table_id)
        if t is None:
            return
        async with self._lock(t):
            run = t.run
            if run is None or run.over or t.status != "playing":
                return
            if kind == "seeds" and run.phase == "seeds":
                await self._close_seeds(t)
            elif kind == "drand" and run.phase == "drand":
                await self._drand_timeout(t)
            elif kind in ("bot", "turn") and run.phase == "play" and run.seq == nonce:
                seat = run.to_move
                if seat is None:
                    return
                if kind == "bot" and not run.is_auto(seat):
                    return
                by = "bot" if run.seats[seat].is_bot else "standin"
                if kind == "turn":
                    by = "timeout"
                assert run.match is not None
                seed = ai_seed(run.ai_root, run.seq)
                action = await think(run.match.view(seat), run.level_for(seat), seed)
                await self._apply_action(t, seat, action, by)

    # ------------------------------------------------------------------ recording

    async def _record(
        self, t: Table, items: list[tuple[str, dict[str, Any]]], *, save_table: bool = False
    ) -> list[Any]:
        """Apply entries to the match in memory, commit them, then arm the next deadline.

        Nothing is shown before the commit returns; if it fails, the table is rebuilt from
        the database (so memory never runs ahead of what is stored) and the error raised.
        """
        run = t.run
        assert run is not None
        now = self.clock.now()
        w = Write()
        events: list[Any] = []
        for kind, data in items:
            e = LogEntry(run.id, run.seq, now, kind, data)
            events += run.apply(e)
            w.logs.append(e)
        if run.over and w.logs[-1].kind not in ("end", "abort"):
            m = run.match
            data = {"winner": m.winner, "scores": list(m.scores)} if m is not None else {}
            e = LogEntry(run.id, run.seq, now, "end", data)
            run.apply(e)
            w.logs.append(e)
        if run.over:
            w.ended_matches.append((run.id, now, "aborted" if run.aborted else "over"))
            t.last_match = run.id
            if t.status == "playing":
                t.status = "closed" if t.ref is not None else "open"  # tournament: one match
            save_table = True
        if save_table:
            w.tables.append(t.row(now))
        dl = self._next_deadline(t)
        w.deadlines[t.id] = dl
        try:
            await self.store.write(w)
        except Exception:
            log.exception("could not store table %s; reloading it", t.tid)
            await self._reload(t)
            raise
        self._arm(t, dl)
        return events

    async def _reload(self, t: Table) -> None:
        row = await self.store.table(t.id)
        if row is None:
            self.tables.pop(t.id, None)
            return
        fresh = Table.from_row(row)
        if row.match_id is not None:
            fresh.run = MatchRun.replay(await self.store.log(row.match_id), t.id)
        t.__dict__.update(fresh.__dict__)

    async def _save_table(self, t: Table) -> None:
        await self.store.write(Write(tables=[t.row(self.clock.now())]))

    # ------------------------------------------------------------------ presses

    def _code(self, t: Table, code: str, seat: int | None = None) -> str:
        """A button's action: table, log position (stale presses), seat (whose hand), what."""
        seq = t.run.seq if t.run is not None else 0
        return f"t{t.id}:{seq}:{'-' if seat is None else seat}:{code}"

    async def _press(self, ctx: _Ctx, action: str) -> list[Reply]:
        if action.startswith("tn:"):
            try:
                from bot.tournaments.commands import handle_tournament_press
            except ImportError:
                raise Refused("err-stale-button") from None
            return await handle_tournament_press(self, ctx.user, ctx.channel, action)
        parts = action.split(":", 3)
        if len(parts) != 4 or not _is_table_id(parts[0]) or not parts[1].isdigit():
            raise Refused("err-stale-button")
        t = self.tables.get(int(parts[0][1:]))
        if t is None or t.status == "closed":
            raise Refused("err-table-gone")
        if t.channel != ctx.channel.id:
            raise Refused("err-wrong-channel", table=t.tid)
        seq, seat_text, code = int(parts[1]), parts[2], parts[3]
        ctx.table = t
        if code == "hand":
            return await self._cmd_hand(_Ctx(ctx.user, ctx.channel, [t.tid]))
        if code == "seed":
            return [Reply(_("seed-how", ctx.locale))]
        if code == "join":
            return await self._cmd_join(_Ctx(ctx.user, ctx.channel, [t.tid]))
        if code == "start":
            return await self._cmd_start(_Ctx(ctx.user, ctx.channel, [t.tid]))
        if code == "back":
            return await self._cmd_back(_Ctx(ctx.user, ctx.channel, [t.tid]))
        try:
            act = Action.parse(code)
        except EngineError:
            raise Refused("err-stale-button") from None
        my_seat = t.seat_of(ctx.user.id)
        if seat_text != "-" and (my_seat is None or str(my_seat) != seat_text):
            raise Refused("err-not-your-hand")
        async with self._lock(t):
            run = t.run
            if run is None or run.over or run.match is None or my_seat is None:
                raise Refused("err-stale-button")
            if seq != run.seq:
                e = run.entries[seq] if seq < len(run.entries) else None
                if (
                    e is not None
                    and e.kind == "action"
                    and e.data["seat"] == my_seat
                    and e.data["action"] == act.text
                ):
                    raise Refused("err-double-press")
                raise Refused("err-stale-button")
            if run.to_move != my_seat:
                raise Refused("err-not-your-turn", name=self._mover_name(t))
            self._check_legal(ctx, run, my_seat, act)
            await self._apply_action(t, my_seat, act, "player")
        return []

    # ------------------------------------------------------------------ information

    async def _cmd_hand(self, ctx: _Ctx) -> list[Reply]:
        t = self._pick_table(ctx)
        async with self._lock(t):  # never show a state whose commit is still on its way
            run = t.run
            seat = t.seat_of(ctx.user.id)
            if run is None or run.match is None or run.over or seat is None:
                raise Refused("err-not-dealt")
            post = await self._hand_post(t, seat)
        return [
            Reply(post.text, image=post.image, image_name=post.image_name, buttons=post.buttons)
        ]

    async def _cmd_score(self, ctx: _Ctx) -> list[Reply]:
        t = self._pick_table(ctx, seated=False)
        async with self._lock(t):
            run = t.run
            if run is None or run.match is None:
                raise Refused("err-no-score")
            a, b = run.match.scores
        return [Reply(_("score-reply", ctx.locale, table=t.tid, match=f"m{run.id}", a=a, b=b))]

    async def _cmd_rules(self, ctx: _Ctx) -> list[Reply]:
        ruleset = None
        for a in ctx.args:
            if a.lower() in RULESETS:
                ruleset = a.lower()
        if ruleset is None:
            here = self._channel_tables(ctx.channel)
            mine = [t for t in here if t.seat_of(ctx.user.id) is not None] or here
            ruleset = mine[0].settings.ruleset if mine else self.settings.ruleset
        return [Reply(_(f"rules-{ruleset}", ctx.locale))]

    async def _cmd_help(self, ctx: _Ctx) -> list[Reply]:
        return [Reply(_("help", ctx.locale))]

    async def _cmd_verify(self, ctx: _Ctx) -> list[Reply]:
        mid: int | None = None
        for a in ctx.args:
            s = a.lower().lstrip("m")
            if s.isdigit():
                mid = int(s)
            elif not _is_table_id(a):
                raise Refused("err-match-id")
        if mid is None:
            row = await self.store.latest_match(ctx.channel.id, ended=True)
        else:
            row = await self.store.match(mid)
        if row is None or row.channel != ctx.channel.id:
            raise Refused("err-no-match-to-verify")
        if row.status == "playing":
            raise Refused("err-match-not-over", match=f"m{row.id}")
        transcript = await self.transcript(row.id)
        from bot.verify import verify_transcript

        report = await verify_transcript(transcript)
        loc = ctx.locale
        if report.ok:
            return [Reply(_("verify-ok", loc, match=f"m{row.id}", checks=len(report.checks)))]
        failed = ", ".join(c.name for c in report.failed)
        return [Reply(_("verify-failed", loc, match=f"m{row.id}", failed=failed), ok=False)]

    async def transcript(self, match_id: int) -> Any:
        """The fair-deal transcript of a match (server seed only once it is over)."""
        from bot.drand import Beacon
        from bot.transcript import transcript_from_match

        entries = await self.store.log(match_id)
        if not entries:
            raise LookupError(f"no match m{match_id}")
        run = MatchRun.replay(entries, 0)
        if run.match is None:
            raise LookupError(f"match m{match_id} was never dealt")
        beacon = None
        for e in entries:
            if e.kind == "drand":
                beacon = Beacon(
                    e.data["round"],
                    bytes.fromhex(e.data["randomness"]),
                    bytes.fromhex(e.data["signature"]),
                )
        return transcript_from_match(
            run.match,
            match_id=f"m{match_id}",
            names=[s.name for s in run.seats],
            bots=[s.is_bot for s in run.seats],
            drand=beacon,
            reveal=run.over,
            target=run.target,
        )

    def _mover_name(self, t: Table) -> str:
        run = t.run
        if run is None or run.to_move is None:
            return "-"
        return texts.seat_name(run.seats[run.to_move], self._loc(t))

    # ------------------------------------------------------------------ posting

    def _loc(self, t: Table) -> str:
        """The channel's language: the host's."""
        for s in t.seats:
            if s is not None and s.user_id == t.host:
                return s.locale
        return "en"

    async def _post(
        self,
        t: Table,
        key: str,
        text: str,
        *,
        to_user: str | None = None,
        image: bytes | None = None,
        image_name: str = "table.png",
        buttons: tuple[tuple[Button, ...], ...] = (),
    ) -> None:
        post = Post(
            channel=Channel(t.channel),
            key=key,
            text=text,
            image=image,
            image_name=image_name,
            buttons=buttons,
            to_user=to_user,
        )
        await self._deliver(post)

    async def _deliver(self, post: Post) -> None:
        try:
            await self.platform.deliver(post)
        except Exception:
            log.exception("could not deliver post %s", post.key)

    async def _picture(self, draw: Callable[..., bytes], *args: Any, **kwargs: Any) -> bytes | None:
        """A picture drawn in a worker thread (Pillow), so the tables keep moving."""
        try:
            return await asyncio.to_thread(draw, *args, **kwargs)
        except Exception:
            log.exception("a picture could not be drawn")
            return None

    async def _post_table(self, t: Table) -> None:
        loc = self._loc(t)
        text = texts.table_text(t, loc, self.clock.now())
        image = None
        run = t.run
        if self._render is not None and run is not None and run.match is not None:
            mover = run.to_move
            left = None
            if mover is not None and not run.is_auto(mover):
                left = max(0.0, run.last_at + run.timer - self.clock.now())
            image = await self._picture(
                self._render.render_table,
                run.match.view(None),
                table_id=t.tid,
                names=[texts.seat_name(s, loc) for s in run.seats],
                time_left=left,
                show_last_trick=not run.match.current_trick,
                tr=self._render.tr(loc),
            )
        buttons: tuple[tuple[Button, ...], ...] = ()
        if t.status == "open":
            row = [Button(_("label-join", loc), self._code(t, "join"))]
            if not t.free_seats():
                row.append(Button(_("label-start", loc), self._code(t, "start"), style="primary"))
            buttons = (tuple(row),)
        elif run is not None and run.match is not None and not run.over:
            buttons = ((Button(_("label-hand", loc), self._code(t, "hand")),),)
        await self._post(t, f"table:{t.id}", text, image=image, buttons=buttons)

    async def _hand_post(self, t: Table, seat: int) -> Post:
        run = t.run
        assert run is not None and run.match is not None
        s = run.seats[seat]
        loc = s.locale
        text = texts.hand_text(run, seat, loc)
        buttons: list[tuple[Button, ...]] = []
        if run.to_move == seat and not run.is_auto(seat):
            row: list[Button] = []
            for a in run.match.legal_actions(seat):
                row.append(
                    Button(
                        texts.action_label(a, loc),
                        self._code(t, a.text, seat),
                        style="primary" if a.kind != "pass" else "secondary",
                    )
                )
                if len(row) == 5:
                    buttons.append(tuple(row))
                    row = []
            if row:
                buttons.append(tuple(row))
        elif run.replaced[seat]:
            buttons.append((Button(_("label-back", loc), self._code(t, "back")),))
        image = None
        if self._render is not None:
            image = await self._picture(
                self._render.render_hand,
                run.match.view(seat),
                table_id=t.tid,
                seat_name=s.name,
                tr=self._render.tr(loc),
            )
        return Post(
            channel=Channel(t.channel),
            key=f"hand:{t.id}:{s.user_id}",
            text=text,
            image=image,
            image_name="hand.png",
            buttons=tuple(buttons),
            to_user=s.user_id,
        )

    async def _post_hands(self, t: Table, seats: list[int]) -> None:
        run = t.run
        if run is None or run.match is None:
            return
        for seat in seats:
            s = run.seats[seat]
            if s.is_bot or s.user_id is None or run.left[seat]:
                continue
            await self._deliver(await self._hand_post(t, seat))

    async def _post_reveal(self, t: Table) -> None:
        run = t.run
        assert run is not None
        loc = self._loc(t)
        await self._post(
            t,
            f"reveal:{run.id}",
            _(
                "reveal-post",
                loc,
                match=f"m{run.id}",
                seed=run.server_seed.hex(),
                commitment=run.commitment,
            ),
        )


def _choose_variant(
    t: Table, seat: int | None, card: int, belote: bool, melds: bool
) -> Action | None:
    """``/play KH``: the legal variant of that card the player means (melds declared by
    default, belote when asked). Falls back to the plain card so the legality check can
    explain what is wrong."""
    run = t.run
    plain = Action.play(card)
    if run is None or run.match is None or seat is None:
        return plain
    variants = [a for a in run.match.legal_actions(seat) if a.kind == "play" and a.card == card]
    if not variants:
        return Action.play(card, belote=belote)
    best = None
    for a in variants:
        score = (a.belote == belote) * 2 + (a.melds == melds)
        if best is None or score > best[0]:
            best = (score, a)
    assert best is not None
    if belote and not best[1].belote:
        return Action.play(card, belote=True)  # refused below with a clear message
    return best[1]


def _is_table_id(text: str) -> bool:
    return len(text) >= 2 and text[0] in "tT" and text[1:].isdigit()


def _number(text: str) -> float | None:
    try:
        n = float(text)
    except ValueError:
        return None
    if n != n or n in (float("inf"), float("-inf")):
        return None
    return n


class _Renderer:
    def __init__(self, mod: Any) -> None:
        self.render_table = mod.render_table
        self.render_hand = mod.render_hand
        self._translator = getattr(mod, "translator", None)

    def tr(self, locale: str) -> Any:
        """The renderer's by-English-text translation, through the one catalog."""
        if self._translator is None:
            return lambda text: text
        return self._translator(
            lambda key: _(key, locale) if has_text(key, locale) or has_text(key) else key
        )


def _load_renderer() -> _Renderer | None:
    try:
        import bot.render as mod

        if hasattr(mod, "render_table") and hasattr(mod, "render_hand"):
            return _Renderer(mod)
    except Exception:
        log.info("no renderer: posts go out as text only")
    return None


__all__ = ["BeloteApp", "IllegalAction", "Refused", "Settings"]
