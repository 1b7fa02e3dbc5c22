"""BeloteApp: the one entry point for everything a player can do, whatever the platform.

``command`` (typed text) and ``press`` (a button) end in the same handlers. Each table has a
lock; every change is written to the store (committed) before its effects are posted. The
scheduler only wakes a table up; what is due, and whether it is still current, comes from
the table's state, which is rebuilt from the store at start.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from bot.commands import parse
from bot.commands.inputs import Ctx as _Ctx
from bot.commands.inputs import Refused
from bot.ops import lifecycle, metrics
from bot.ops.clock import Clock, Randomness, SystemClock, SystemRandomness
from bot.ops.scheduler import ApsScheduler, Scheduler, settle
from bot.platform import Channel, NullPlatform, Platform, Reply, User
from bot.play import thinking
from bot.play.ceremony import DRAND_GRACE, Ceremony, keep_secrets
from bot.play.lobby import Lobby
from bot.play.table import MatchRun, Table, ai_seed
from bot.play.thinking import think
from bot.play.tournament_tables import TournamentHost
from bot.show import texts
from bot.show.i18n import _
from bot.show.posting import Posting, Renderer
from bot.show.seat_view import TableView, seat_views
from bot.store import Deadline, LeaseLost, LogEntry, Store, StoreUnavailable, TableRow, Write
from bot.store.leases import LeaseKeeper
from engine import Action, EngineError

log = logging.getLogger(__name__)


#: Where the docs publish web/verify, the page that checks a match in the player's browser.
VERIFY_PAGE = "https://belote-bot.github.io/belote-bot/proof/verify/"


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
    metrics_port: int | None = None  # serve /metrics and /healthz there (bot.ops.monitor)
    verify_page: str = VERIFY_PAGE  # the browser check /verify links to (web/verify)
    # the bot's public address (BELOTE_PUBLIC_URL): /verify then links to the page its own
    # HTTP server serves there, <public_url>/verify/ (bot.ops.verify_site)
    public_url: str | None = None
    long_running: bool = False  # a bot process of its own: tune the garbage collector

    @property
    def pause(self) -> float:
        return 0.0 if self.fast else self.bot_delay


Handler = Callable[[User, Channel, list[str]], Awaitable[list[Reply]]]
TOURNAMENT_COMMANDS = ("tournament", "ladder", "stats", "leaderboard")  # bot.tournaments


def tune_gc() -> None:
    """Shorter and rarer pauses of the garbage collector in a long-running bot process.

    At 1,000 tables a full collection walks every object of every match (about 100 ms,
    measured by bench/load.py), and with the default thresholds one came every few
    seconds, stalling all the tables at once. What exists once the tables are resumed
    (modules, the tables) lives as long as the process: frozen, no collection walks it
    again. Larger thresholds make the young collections rarer and a full one a matter
    of minutes; the objects of a match are seldom cyclic, so little waits for it.
    """
    gc.collect()
    gc.freeze()
    gc.set_threshold(10_000, 50, 100)


class BeloteApp(Lobby, Ceremony, TournamentHost, Posting):
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
        self._idle = asyncio.Event()
        self.latencies: list[float] = []  # seconds to handle each action (record_latency)
        self.think_times: list[tuple[str, float]] = []  # (level, seconds) of each decision
        self.deadline_lags: list[float] = []  # seconds a bot's timer fired after its due
        self.actions_applied = 0
        self._render = Renderer() if self.settings.render_images else None
        self._started = False
        self.tournaments: Any = None  # the TournamentService, when attached
        self._hooks: set[asyncio.Task[None]] = set()
        self.monitor: Any = None  # bot.ops.monitor.Monitor, with settings.metrics_port
        self._leases: LeaseKeeper | None = None

    async def start(self) -> None:
        """Run migrations, resume every unfinished table, arm its deadline."""
        if self.settings.metrics_port is not None:  # first: /healthz says "starting"
            from bot.ops.monitor import Monitor

            self.monitor = Monitor(self, self.settings.metrics_port)
            await self.monitor.start()
        await self.store.migrate()
        self.scheduler.start()
        serves = getattr(self.platform, "serves", None)  # a shard serves some channels only
        await self.adopt_tables(await self.store.claim_tables(serves))
        self._started = True
        if self.settings.long_running:
            tune_gc()
        metrics.watch(self)
        self._update_idle()
        if self.store.shared:  # other processes may take tables over, and leave theirs
            self.store.lease_lost = self.drop_tables
            self._leases = LeaseKeeper(self.store, self, serves)
            self._leases.start()
        if self.settings.tournaments and self.store.path != ":memory:":
            try:
                from bot.tournaments.commands import attach_tournaments
            except ImportError:
                log.info("no tournaments package")
            else:
                await attach_tournaments(self, host=self)
        lifecycle.started(self)

    @property
    def leases(self) -> LeaseKeeper | None:
        """The lease keeper (a shared database only): ``leases.status()`` says which
        tables this process holds and whether the database answers (health, admin)."""
        return self._leases

    async def adopt_tables(self, rows: list[TableRow]) -> None:
        """Run these tables from now on (at start, or taken over from a process whose
        lease ran out): each rebuilt from its log, its deadline armed again."""
        if not rows:
            return
        rows = [r for r in rows if r.id not in self.tables]
        deadlines = await self.store.deadlines()
        logs = await self.store.logs([r.match_id for r in rows if r.match_id is not None])
        # replayed in a thread, the whole batch at once: the live tables' moves go on
        runs = await asyncio.to_thread(_replay, rows, logs)
        for row in rows:
            if row.id in self.tables:
                continue
            t = Table.from_row(row)
            run = runs.get(row.id)
            if run is not None:
                t.run = run
                if not run.over:
                    keep_secrets(run)
            self.tables[t.id] = t
            await self._resume(t, deadlines.get(t.id))
        self._update_idle()

    def drop_tables(self, ids: set[int], quiet: bool = False) -> None:
        """Another process holds these tables now: stop running them here at once
        (``quiet``: the lease keeper rebuilds them from the database at once)."""
        for tid in ids:
            t = self.tables.pop(tid, None)
            if t is not None:
                self._disarm(t)
                self._locks.pop(tid, None)
                if not quiet:
                    log.warning("table %s is run by another process now", t.tid)
        self._update_idle()

    def _shelve(self, t: Table) -> None:
        """A table that could not be stored nor read back (the database is down) leaves
        memory; the lease keeper rebuilds it from the database once it is back."""
        self.tables.pop(t.id, None)
        self._disarm(t)
        self._locks.pop(t.id, None)
        if self._leases is not None:
            self._leases.rebuild_later({t.id})

    async def _resume(self, t: Table, stored: Deadline | None) -> None:
        run = t.run
        if run is None or run.over:
            await self._post_table(t)
            return
        dl = stored if stored is not None else self._next_deadline(t)
        if dl is not None and dl.kind == "turn":
            # the bot was down, not the player: their turn timer starts again now
            dl = Deadline(t.id, "turn", max(dl.due, self.clock.now() + run.timer), dl.nonce)
        self._arm(t, dl)
        if run.phase == "drand":
            self._start_drand(t)
        await self._post_table(t)
        if run.match is not None:
            await self._post_hands(t, list(range(4)))

    async def stop(self) -> None:
        if self._leases is not None:
            await self._leases.stop()
        for task in list(self._drand_tasks.values()):
            task.cancel()
        for task in list(self._drand_tasks.values()):
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        self._drand_tasks.clear()
        if self._hooks:
            await asyncio.gather(*self._hooks, return_exceptions=True)
        self.scheduler.shutdown()
        await settle()  # a bot's move under way is committed before the leases go back
        await thinking.pool.shutdown()
        service = self.tournaments
        if service is not None:
            close = getattr(service, "stop", None) or getattr(service, "close", None)
            if close is not None:
                try:
                    await close()
                except Exception:
                    log.exception("tournament service did not stop cleanly")
        if self._leases is not None:
            await self.store.flush()  # what was handed in is committed under our leases,
            await self.store.release_leases()  # then another process may take them at once
        await self.store.close()
        if self.monitor is not None:
            await self.monitor.stop()

    def busy(self) -> bool:
        """Is any match in progress?"""
        return any(t.status == "playing" for t in self.tables.values())

    async def wait_idle(self) -> None:
        """Until no match is in progress here, nor (on a shared database) at a table of
        ours that another process holds: a dead one's will be taken over and finished."""
        while True:
            while self.busy():
                self._idle.clear()
                await self._idle.wait()
            if self._leases is None:
                return
            serves = getattr(self.platform, "serves", None)
            elsewhere = await self.store.playing_elsewhere(serves, set(self.tables))
            if not elsewhere:
                return
            await asyncio.sleep(self._leases.period)

    def _update_idle(self) -> None:
        if not self.busy():
            self._idle.set()

    def _forget(self, t: Table) -> None:
        """A closed table leaves memory (its rows stay): presses on it get "closed"."""
        if t.status == "closed":
            self.tables.pop(t.id, None)
            self._locks.pop(t.id, None)
        self._update_idle()

    def _lock(self, t: Table) -> asyncio.Lock:
        lock = self._locks.get(t.id)
        if lock is None:
            lock = self._locks[t.id] = asyncio.Lock()
        return lock

    async def command(self, user: User, channel: Channel, text: str) -> list[Reply]:
        """A typed command (``/play TD``); returns the answers for ``user`` only.

        Never raises on what a user types: a bad input is refused (nothing changes), and an
        unexpected error is logged with its traceback (secrets redacted) and answered with
        the internal-error text, while every other table goes on."""
        try:
            return await self._command(user, channel, text if isinstance(text, str) else "")
        except Refused as r:
            return [self._refusal(user, r.key, **r.kwargs)]
        except Exception:
            log.exception("command %s by %s failed", _loggable(text), user.id)
            return [self._refusal(user, "err-internal")]

    async def _command(self, user: User, channel: Channel, text: str) -> list[Reply]:
        if len(text) > parse.MAX_TEXT:
            raise Refused("err-too-long", limit=parse.MAX_TEXT)
        words = text.strip().split()
        if not words:
            raise Refused("err-empty")
        name = words[0].lstrip("/").lower().split("@", 1)[0]
        args = words[1:]
        if name == "table" and args and args[0].lower() in ("create", "list", "close"):
            name = f"table-{args[0].lower()}"
            args = args[1:]
        elif name == "table":
            name = "table-list"
        handler = self._handlers().get(name)
        if handler is None and name in TOURNAMENT_COMMANDS:
            return await self._tournament_command(user, channel, name, args)
        if handler is None:
            raise Refused("err-unknown-command", command=parse.echo(words[0]))
        return await handler(_Ctx(user, channel, args))

    async def press(self, user: User, channel: Channel, action: str) -> list[Reply]:
        """A button press; ``action`` is what a ``Button`` carried (or anything a forged
        or outdated client sends: the same guarantees as :meth:`command`)."""
        try:
            return await self._press(_Ctx(user, channel), action if isinstance(action, str) else "")
        except Refused as r:
            return [self._refusal(user, r.key, **r.kwargs)]
        except Exception:
            log.exception("press %r by %s failed", str(action)[:120], user.id)
            return [self._refusal(user, "err-internal")]

    def _refusal(self, user: User, key: str, **kwargs: Any) -> Reply:
        return Reply(_(key, user.locale, **kwargs), ok=False)

    def command_names(self) -> frozenset[str]:
        """The command words this core answers (``table``, ``join``, ``play``...), for an
        adapter's command menu; the tournament words when that service is attached."""
        names = {name.split("-")[0] for name in self._handlers()}
        if self.settings.tournaments:
            names |= set(TOURNAMENT_COMMANDS)
        return frozenset(names)

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
            "replay": self._cmd_replay,
            "rules": self._cmd_rules,
            "help": self._cmd_help,
            "back": self._cmd_back,
            "kick": self._cmd_kick,
            "close": self._cmd_close,
        }

    def seated_tables(self, user_id: str, channel: Channel) -> list[Table]:
        """The tables of ``channel`` where ``user_id`` sits, oldest first (for an adapter
        that resumes a player's game, such as the terminal). Read only."""
        return sorted(
            (t for t in self._channel_tables(channel) if t.seat_of(user_id) is not None),
            key=lambda t: t.id,
        )

    def table_views(self, user: User, channel: Channel) -> list[TableView]:
        """The tables of ``channel`` where ``user`` sits, each as they may see it now
        (``bot.show.seat_view``): what a full-screen client draws, oldest table first."""
        return seat_views(
            self.seated_tables(user.id, channel), user.id, user.locale, self.clock.now()
        )

    def _channel_tables(self, channel: Channel) -> list[Table]:
        return [t for t in self.tables.values() if t.channel == channel.id and t.status != "closed"]

    def _pick_table(self, ctx: _Ctx, *, seated: bool = True) -> Table:
        """The table a command is about: named (``t3``), or the user's one in this channel."""
        named = [parse.table_ref(a) for a in ctx.args if parse.is_table_ref(a)]
        if named:
            ctx.args = [a for a in ctx.args if not parse.is_table_ref(a)]
            tid = named[0]
            t = self.tables.get(tid)
            if t is None or t.status == "closed":
                raise Refused("err-no-such-table", table=f"t{tid}")
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

    async def _cmd_bid(self, ctx: _Ctx) -> list[Reply]:
        t = self._pick_table(ctx)
        if not ctx.args:
            raise Refused("err-bid-format")
        action = parse.bid(ctx.args[0])
        if len(ctx.args) > 1:
            raise Refused("err-bid-format")
        return await self._player_action(ctx, t, action)

    async def _cmd_pass(self, ctx: _Ctx) -> list[Reply]:
        t = self._pick_table(ctx)
        return await self._player_action(ctx, t, Action.pass_())

    async def _cmd_play(self, ctx: _Ctx) -> list[Reply]:
        t = self._pick_table(ctx)
        if not ctx.args:
            raise Refused("err-play-format")
        card = parse.card(ctx.args[0])
        flags = {a.lower() for a in ctx.args[1:4]}
        if len(ctx.args) > 4:
            raise Refused("err-play-format")
        if not flags <= {"belote", "melds", "nomelds"}:
            raise Refused("err-play-format")
        seat = t.seat_of(ctx.user.id)
        intent = t.run is not None and seat is not None and t.run.belote_intent[seat]
        action = _choose_variant(
            t,
            seat,
            card,
            "belote" in flags or intent,
            "nomelds" not in flags,
            strict="belote" in flags,
        )
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
        async with self._lock(t):
            if t.run is run and not run.over and not run.belote_intent[seat]:
                # an input like any other: logged, so a restart keeps it
                await self._record(t, [("intent", {"seat": seat, "belote": True})])
                await self._post_hands(t, [seat])  # its buttons now carry the new position
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

    def _check_legal(
        self, ctx: _Ctx, run: MatchRun, seat: int, action: Action, *, pressed: bool = False
    ) -> None:
        """Refuse an action that is not legal now. ``pressed``: it came from a button (a
        disabled one pressed anyway): a short answer, fit for a notice under the button."""
        assert run.match is not None
        legal = run.match.legal_actions(seat)
        if action in legal:
            return
        if pressed and action.kind == "play" and action.card in run.match.hand(seat):
            if not any(a.card == action.card for a in legal):
                raise Refused("err-card-not-now", card=texts.card_text(action.card))
        elif pressed and action.kind != "play":
            raise Refused("err-bid-not-now", bid=texts.action_label(action, ctx.locale))
        choices = ", ".join(texts.choices(legal, belote=run.belote_intent[seat]))
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
        await self._after_change(t, events, actor=seat)
        self.actions_applied += 1
        took = time.perf_counter() - t0
        metrics.action(t.channel, t.settings.ruleset, by, took)
        if self.settings.record_latency:
            self.latencies.append(took)

    async def _after_change(self, t: Table, events: list[Any], actor: int | None = None) -> None:
        run = t.run
        assert run is not None
        await self._post_deal_results(t, events)
        if run.over:
            # the seed first: the table message and the hands show it too from now on
            await self._post_reveal(t)
            await self._post_table(t)
            await self._post_final_hands(t)
            self._update_idle()
            self._hook(self._match_ended(t, run))
            if t.status == "closed" and t.ref is not None:
                self._forget(t)  # a tournament table plays one match
            return
        await self._post_table(t)
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
        if run.timer <= 0:
            return None  # a table with no turn timer (/table create --timer off)
        return Deadline(t.id, "turn", run.last_at + run.timer, run.seq)

    def _arm(self, t: Table, dl: Deadline | None) -> None:
        key = f"table-{t.id}"
        if dl is None:
            self.scheduler.cancel(key)
            return

        async def fire() -> None:
            if self.settings.record_latency and dl.kind == "bot":
                self.deadline_lags.append(self.clock.now() - dl.due)
            # LeaseLost: another process runs the table now (dropped here, and logged)
            with contextlib.suppress(LeaseLost):
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
                return
            if kind == "drand" and run.phase == "drand":
                await self._drand_timeout(t)
                return
            if kind not in ("bot", "turn") or run.phase != "play" or run.seq != nonce:
                return
            seat = run.to_move
            if seat is None or (kind == "bot" and not run.is_auto(seat)):
                return
            by = "timeout" if kind == "turn" else "bot" if run.seats[seat].is_bot else "standin"
            assert run.match is not None
            view = run.match.view(seat)
            level = run.level_for(seat)
            seed = ai_seed(run.ai_root, run.seq)
        # The AI thinks (an expert for a second or more) without holding the table, so the
        # players' commands at this table are answered meanwhile.
        t0 = time.perf_counter()
        action = await think(view, level, seed)
        if self.settings.record_latency:
            self.think_times.append((level, time.perf_counter() - t0))
        async with self._lock(t):
            if t.run is not run or run.over or t.status != "playing" or run.seq != nonce:
                return  # someone acted first (a player beating their timer): theirs stands
            if self.tables.get(t.id) is not t:
                return  # dropped meanwhile (another process holds it, or it was re-read)
            await self._apply_action(t, seat, action, by)

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
        except LeaseLost:
            raise  # another process runs it now (dropped here): nothing to reload or re-arm
        except Exception as exc:
            if not isinstance(exc, StoreUnavailable):  # an outage is logged once, by the store
                log.exception("could not store table %s; reloading it", t.tid)
            try:
                await self._reload(t)
            except Exception:
                self._shelve(t)  # memory must not run ahead of the database
                raise exc from None
            retry = self._next_deadline(t)
            if retry is not None:  # nobody waits forever: try again a little later
                retry = Deadline(t.id, retry.kind, max(retry.due, now + 5.0), retry.nonce)
            self._arm(t, retry)
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
        p = parse.press(action)
        t = self.tables.get(p.table)
        if t is None or t.status == "closed":
            raise Refused("err-table-gone")
        if t.channel != ctx.channel.id:
            raise Refused("err-wrong-channel", table=t.tid)
        seq, code = p.seq, p.code
        ctx.table = t
        if code == "hand":
            return await self._cmd_hand(_Ctx(ctx.user, ctx.channel, [t.tid]))
        if code == "seed":
            return [Reply(_("seed-how", ctx.locale))]
        if code == "join":
            return await self._cmd_join(_Ctx(ctx.user, ctx.channel, [t.tid]))
        if code == "start":
            return await self._cmd_start(_Ctx(ctx.user, ctx.channel, [t.tid]))
        if code == "addbot":
            return await self._cmd_addbot(_Ctx(ctx.user, ctx.channel, [t.tid]))
        if code == "back":
            return await self._cmd_back(_Ctx(ctx.user, ctx.channel, [t.tid]))
        try:
            act = Action.parse(code)
        except EngineError:
            raise Refused("err-stale-button") from None
        my_seat = t.seat_of(ctx.user.id)
        if p.seat is not None and my_seat != p.seat:
            raise Refused("err-not-your-hand")
        async with self._lock(t):
            run = t.run
            if run is not None and run.over and seq <= run.seq and my_seat is not None:
                raise Refused("err-match-over", match=f"m{run.id}")  # a hand from before
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
            self._check_legal(ctx, run, my_seat, act, pressed=True)
            await self._apply_action(t, my_seat, act, "player")
        return []

    async def _cmd_hand(self, ctx: _Ctx) -> list[Reply]:
        t = self._pick_table(ctx)
        async with self._lock(t):  # never show a state whose commit is still on its way
            run = t.run
            seat = t.seat_of(ctx.user.id)
            if run is None or run.match is None or run.over or seat is None:
                raise Refused("err-not-dealt")
            post = await self._hand_post(t, seat)
        return [
            Reply(
                post.text,
                image=post.image,
                image_name=post.image_name,
                buttons=post.buttons,
                key=post.key,  # the adapter's later hand posts edit this very message
            )
        ]

    async def _cmd_score(self, ctx: _Ctx) -> list[Reply]:
        t = self._pick_table(ctx, seated=False)
        async with self._lock(t):
            run = t.run
            if run is None and t.last_match is not None:  # the match ended before a restart
                entries = await self.store.log(t.last_match)
                run = MatchRun.replay(entries, t.id) if entries else None
            if run is None or run.match is None:
                raise Refused("err-no-score")
            a, b = run.match.scores
        key = "score-final" if run.over else "score-reply"
        return [Reply(_(key, ctx.locale, table=t.tid, match=f"m{run.id}", a=a, b=b))]

    async def _cmd_rules(self, ctx: _Ctx) -> list[Reply]:
        ruleset = None
        for a in ctx.args:
            if not parse.is_table_ref(a):
                ruleset = parse.ruleset(a)
        if ruleset is None:
            here = self._channel_tables(ctx.channel)
            mine = [t for t in here if t.seat_of(ctx.user.id) is not None] or here
            ruleset = mine[0].settings.ruleset if mine else self.settings.ruleset
        return [Reply(_(f"rules-{ruleset}", ctx.locale))]

    async def _cmd_help(self, ctx: _Ctx) -> list[Reply]:
        return [Reply(_("help", ctx.locale))]

    def _mover_name(self, t: Table) -> str:
        run = t.run
        if run is None or run.to_move is None:
            return "-"
        return texts.seat_name(run.seats[run.to_move], self._loc(t))


def _choose_variant(
    t: Table, seat: int | None, card: int, belote: bool, melds: bool, strict: bool = True
) -> Action | None:
    """``/play KH``: the legal variant of that card the player means (melds declared by
    default, belote when asked). Falls back to the plain card so the legality check can
    explain what is wrong. ``strict``: belote was written with this card, so a card that
    cannot carry it is refused (an earlier ``/belote`` only applies where it can)."""
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
    if belote and strict and not best[1].belote:
        return Action.play(card, belote=True)  # refused below with a clear message
    return best[1]


def _replay(rows: list[TableRow], logs: dict[int, list[LogEntry]]) -> dict[int, MatchRun]:
    """Each table's match rebuilt from its log (tables without a match, or an empty log,
    have none)."""
    runs = {}
    for r in rows:
        entries = logs.get(r.match_id) if r.match_id is not None else None
        if entries:
            runs[r.id] = MatchRun.replay(entries, r.id)
    return runs


def _loggable(text: object) -> str:
    """A command for a log line: cut short, and a seed being sent never written (it is
    registered as a secret only once read)."""
    words = str(text)[:200].split()
    if words and words[0].lstrip("/").lower().startswith("seed"):
        words = words[:1] + ["[seed]"] * (len(words) > 1)
    return repr(" ".join(words))


__all__ = ["BeloteApp", "Refused", "Settings"]
