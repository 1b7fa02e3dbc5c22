"""BeloteApp: the composition root of the core, and the facade of its documented API.

It builds the rooms and wires them; it holds no game logic. ``command`` (typed text) and
``press`` (a button) are the two entry points (docs/bot-api.md); an input goes through
each room once: the router reads it, the turns (or the lobby, the ceremony) check and
apply it under the table's lock, the journal commits it, the engine says what changed,
the presenter makes the posts, the dispatch hands them on. The posts for the acting user
come back in the answer (``Reply.post``). See docs/architecture.md.
"""

from __future__ import annotations

import asyncio
import gc
import logging
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

from bot.commands.inputs import Ctx
from bot.commands.router import TOURNAMENT_COMMANDS, CommandRouter
from bot.community.registry import Defaults
from bot.community.service import PRESS as SETTINGS_PRESS
from bot.community.service import CommunitySettings
from bot.ops import lifecycle, metrics
from bot.ops.clock import Clock, Randomness, SystemClock, SystemRandomness
from bot.ops.cpu_wait import CrowdWatch
from bot.ops.scheduler import ApsScheduler, Scheduler, settle
from bot.platform import Channel, Choices, NullPlatform, Platform, Post, Reply, User
from bot.play import thinking
from bot.play.ceremony import Ceremony, keep_secrets
from bot.play.deadlines import Deadlines
from bot.play.hooks import Hooks
from bot.play.journal import Journal
from bot.play.lobby import Lobby, NewTables
from bot.play.registry import TableRegistry
from bot.play.remote import RemoteTables
from bot.play.seat_links import SeatLinks
from bot.play.stats import Stats
from bot.play.table import MatchRun, Table
from bot.play.tournament_tables import MatchResults, TournamentTables
from bot.play.turns import Think, Turns
from bot.play.watch import TableWatch
from bot.play.web_door import WebDoor
from bot.refused import Refused
from bot.show.dispatch import Dispatch, answer
from bot.show.i18n import _
from bot.show.posting import Presenter, Renderer
from bot.show.seat_view import TableView, seat_views, table_view
from bot.store import LeaseLost, LogEntry, Store, StoreUnavailable, TableDeadline, TableRow
from bot.store.leases import LeaseKeeper
from bot.tournaments.tables import TableRequest

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
    #: the key the web table's links are signed with (bot.play.seat_links.derive_key);
    #: None: no web table, ``/web`` says so
    web_key: bytes | None = field(default=None, repr=False)
    long_running: bool = False  # a bot process of its own: tune the garbage collector

    @property
    def pause(self) -> float:
        return 0.0 if self.fast else self.bot_delay


class Service(Protocol):
    """A service that runs next to the core and stops with it (the tournaments)."""

    async def stop(self) -> None: ...


class Attached(Protocol):
    """Something an adapter runs beside the core, started once the tables are resumed and
    stopped before the core (the web table's listener)."""

    async def start(self) -> None: ...

    async def stop(self) -> None: ...


GC_TUNE_AFTER = 3.0  # seconds after start: the collector is tuned once the first screen is up


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


class BeloteApp:
    """The core: built from its rooms, each named in its constructor with what it uses.

    ``think``: how bots decide (the process pool by default; tests pass their own)."""

    def __init__(
        self,
        store: Store,
        platform: Platform | None = None,
        clock: Clock | None = None,
        drand: Any | None = None,
        settings: Settings | None = None,
        scheduler: Scheduler | None = None,
        randomness: Randomness | None = None,
        think: Think | None = None,
    ) -> None:
        self.store = store
        self.platform: Platform = platform or NullPlatform()
        self.clock: Clock = clock or SystemClock()
        self.settings = s = settings or Settings()
        self.scheduler: Scheduler = scheduler or ApsScheduler()
        self.stats = Stats(record=s.record_latency)
        self.monitor: Any = None  # bot.ops.monitor.Monitor, with settings.metrics_port
        self.started = False
        self._service: Service | None = None
        self._attached: list[Attached] = []
        self._leases: LeaseKeeper | None = None
        self._crowd: CrowdWatch | None = None  # a long-running process: is the CPU crowded?
        self._gc_tuning: asyncio.TimerHandle | None = None
        window = 0.0 if s.fast else s.seed_window
        self.registry = registry = TableRegistry()
        self._hooks = hooks = Hooks()
        self._results = results = MatchResults(hooks)
        lags = self.stats.deadline_lags if s.record_latency else None
        deadlines = Deadlines(self.scheduler, self.clock, s.pause, self._on_due, lags)
        self._deadlines = deadlines
        #: told of every change of a table run here (``watch.listen``): the web table
        self.watch = TableWatch()
        journal = Journal(store, self.clock, deadlines, registry, self._shelved, self.watch)
        web_on = s.web_key is not None and s.public_url is not None
        presenter = Presenter(self.clock, Renderer() if s.render_images else None, web=web_on)
        dispatch = Dispatch(self.platform)
        self.ceremony = ceremony = Ceremony(
            registry,
            journal,
            deadlines,
            presenter,
            dispatch,
            store,
            self.clock,
            randomness or SystemRandomness(),
            drand,
            fast=s.fast,
            use_drand=s.drand,
            verify_page=s.verify_page,
        )
        self.turns = turns = Turns(
            registry,
            journal,
            presenter,
            dispatch,
            ceremony,
            results,
            think or thinking.think,
            self.stats,
        )
        defaults = NewTables(s.ruleset, s.timer, window, s.ai_level, s.max_tables_per_channel)
        #: each server's and group's own settings (``/settings``): new tables start from them
        self.community = community = CommunitySettings(
            store,
            self.clock,
            Defaults(s.ruleset, s.timer, s.ai_level, s.max_tables_per_channel),
        )
        lobby = Lobby(
            registry,
            journal,
            deadlines,
            presenter,
            dispatch,
            ceremony,
            turns,
            results,
            self.clock,
            defaults,
            community,
        )
        self.tournament_tables = TournamentTables(
            registry,
            journal,
            deadlines,
            presenter,
            dispatch,
            ceremony,
            turns,
            results,
            store,
            self.clock,
            timer=s.timer,
            seed_window=window,
            ai_level=s.ai_level,
        )
        self._presenter = presenter
        self._dispatch = dispatch
        self.router = CommandRouter(
            registry,
            lobby,
            ceremony,
            turns,
            presenter,
            store,
            default_ruleset=s.ruleset,
            tournament_command=self._tournament_command,
            tournament_press=self._tournament_press,
        )
        self.router.handle("settings", community.command)
        #: the web table's links (None: off); the web adapter checks the tokens with them
        self.links = SeatLinks(s.web_key) if web_on and s.web_key is not None else None
        self.web = WebDoor(registry, self.links, s.public_url, self.clock)
        self.router.handle("web", self.web.command)
        #: tables run by other processes, as sockets here show them, and their moves
        self.remote = RemoteTables(
            store, registry, self.watch, self.press, self._deliver, self.command
        )
        self.router.handle_press(SETTINGS_PRESS, community.press)

    # --- the documented entry points -------------------------------------------------------

    async def command(self, user: User, channel: Channel, text: str) -> list[Reply]:
        """A typed command (``/play TD``); returns the answers for ``user`` only, their
        own new posts (their hand) first.

        Never raises on what a user types: a bad input is refused (nothing changes), and an
        unexpected error is logged with its traceback (secrets redacted) and answered with
        the internal-error text, while every other table goes on."""
        try:
            user = await self.community.localised(user, channel)
            ctx = Ctx(user, channel)
            return answer(
                ctx, await self.router.command(ctx, text if isinstance(text, str) else "")
            )
        except Refused as r:
            return [self._refusal(user, r.key, **r.kwargs)]
        except LeaseLost:  # another process runs that table now: it is gone from here
            return [self._refusal(user, "err-table-gone")]
        except StoreUnavailable:  # locked or unreachable past the wait: the store said so
            return [self._refusal(user, "err-store-unavailable")]
        except Exception:
            log.exception("command %s by %s failed", _loggable(text), user.id)
            return [self._refusal(user, "err-internal")]

    async def press(self, user: User, channel: Channel, action: str) -> list[Reply]:
        """A button press; ``action`` is what a ``Button`` carried (or anything a forged
        or outdated client sends: the same guarantees as :meth:`command`)."""
        try:
            user = await self.community.localised(user, channel)
            ctx = Ctx(user, channel)
            return answer(
                ctx, await self.router.press(ctx, action if isinstance(action, str) else "")
            )
        except Refused as r:
            return [self._refusal(user, r.key, **r.kwargs)]
        except LeaseLost:
            return [self._refusal(user, "err-table-gone")]
        except StoreUnavailable:  # locked or unreachable past the wait: the store said so
            return [self._refusal(user, "err-store-unavailable")]
        except Exception:
            log.exception("press %r by %s failed", str(action)[:120], user.id)
            return [self._refusal(user, "err-internal")]

    async def choices(self, user: User, channel: Channel) -> Choices:
        """What ``user`` may pick in ``channel`` now (the tables, their cards and bids),
        read under the tables' locks: for a platform's autocomplete."""
        return await self.registry.choices(user.id, channel)

    def command_names(self) -> frozenset[str]:
        """The command words this core answers (``table``, ``join``, ``play``...), for an
        adapter's command menu; the tournament words when that service is attached."""
        names = self.router.names()
        return names | frozenset(TOURNAMENT_COMMANDS) if self.settings.tournaments else names

    def seated_tables(self, user_id: str, channel: Channel) -> list[Table]:
        """The tables of ``channel`` where ``user_id`` sits, oldest first (for an adapter
        that resumes a player's game, such as the terminal). Read only."""
        return self.registry.seated(user_id, channel)

    def table_views(self, user: User, channel: Channel) -> list[TableView]:
        """The tables of ``channel`` where ``user`` sits, each as they may see it now
        (``bot.show.seat_view``): what a full-screen client draws, oldest table first."""
        return seat_views(
            self.registry.seated(user.id, channel), user.id, user.locale, self.clock.now()
        )

    def table_view(self, user: User, table_id: int) -> TableView | None:
        """Table ``table_id`` as ``user`` may see it now, seated or not (the web table's
        snapshot), whichever process runs it (:meth:`find_table` first); None when it is
        neither run here nor known here."""
        t = self.remote.get(table_id)
        if t is None:
            return None
        return table_view(t, user.id, user.locale, self.clock.now())

    async def find_table(self, table_id: int) -> Table | None:
        """Table ``table_id``, read only: run here, or read from the database when another
        process runs it (several processes); None: no such table, or closed."""
        return await self.remote.load(table_id)

    def watching(self, table_id: int, sockets: int) -> None:
        """How many sockets of this process show ``table_id`` now (0: none any more)."""
        self.remote.watched(table_id, sockets)

    async def press_at(
        self, user: User, channel: Channel, table_id: int, action: str
    ) -> list[Reply]:
        """:meth:`press` for a client bound to one table (the web table): applied here
        when this process runs it, else by the process that does, through the database."""
        if table_id in self.registry or not self.store.shared:
            return await self.press(user, channel, action)
        try:
            return [await self.remote.press(user, channel, table_id, action)]
        except Exception:
            log.exception("a move for t%s could not be relayed", table_id)
            return [self._refusal(user, "err-store-unavailable")]

    async def command_at(
        self, user: User, channel: Channel, table_id: int, text: str
    ) -> list[Reply]:
        """:meth:`command` for a client bound to one table (the web table's seed), applied
        by whichever process runs the table, as :meth:`press_at`."""
        if table_id in self.registry or not self.store.shared:
            return await self.command(user, channel, text)
        try:
            return [await self.remote.press(user, channel, table_id, text)]
        except Exception:
            log.exception("a command for t%s could not be relayed", table_id)
            return [self._refusal(user, "err-store-unavailable")]

    async def _deliver(self, post: Post) -> None:
        await self.platform.deliver(post)

    @property
    def tables(self) -> Mapping[int, Table]:
        """The tables run here, by id, live and read only: for tests, benchmarks and
        operators (an adapter asks :meth:`choices`)."""
        return self.registry.view()

    async def transcript(self, match_id: int) -> Any:
        """The fair-deal transcript of a match (server seed only once it is over)."""
        return await self.ceremony.transcript(match_id)

    def _refusal(self, user: User, key: str, **kwargs: Any) -> Reply:
        return Reply(_(key, user.locale, **kwargs), ok=False, reason=key)

    # --- life ------------------------------------------------------------------------------

    async def start(self) -> None:
        """Run migrations, resume every unfinished table, arm its deadline."""
        if self.settings.metrics_port is not None:  # first: /healthz says "starting"
            from bot.ops.monitor import Monitor

            self.monitor = Monitor(self, self.settings.metrics_port)
            await self.monitor.start()
        await self.store.migrate()
        self.scheduler.start()
        await self.adopt_tables(await self.store.claim_tables(self.platform.serves))
        self.started = True
        if self.settings.long_running:
            # A few seconds on, not now: its full collection (0.1 s) would come before the
            # terminal's first screen; the resumed tables are frozen as well then.
            self._gc_tuning = asyncio.get_running_loop().call_later(GC_TUNE_AFTER, tune_gc)
            # a process of its own: on a crowded machine its bots play fewer moves at once
            self._crowd = CrowdWatch(self.turns.crowded)
            self._crowd.start()
        metrics.watch(self)
        self.registry.update_idle()
        if self.store.shared:  # other processes may take tables over, and leave theirs
            self.store.lease_lost = self.drop_tables
            self._leases = LeaseKeeper(self.store, self, self.platform.serves)
            self._leases.start()
            await self.remote.start()
        if self.settings.tournaments and self.store.path != ":memory:":
            try:
                from bot.tournaments.commands import attach_tournaments
            except ImportError:
                log.info("no tournaments package")
            else:
                await attach_tournaments(self, host=self.tournament_tables)
        for extra in self._attached:
            await extra.start()
        lifecycle.started(self)

    def attach(self, extra: Attached) -> None:
        """Start ``extra`` with the core (at the end of :meth:`start`) and stop it first."""
        self._attached.append(extra)

    @property
    def leases(self) -> LeaseKeeper | None:
        """The lease keeper (a shared database only): ``leases.status()`` says which
        tables this process holds and whether the database answers (health, admin)."""
        return self._leases

    async def adopt_tables(self, rows: list[TableRow]) -> None:
        """Run these tables from now on (at start, or taken over from a process whose
        lease ran out): each rebuilt from its log, its deadline armed again. Meanwhile
        fewer all-bot moves run at once (``Turns.rebuilding``): on a process short of CPU
        the tables that stopped come back first.

        A table claimed here that this process still holds a copy of (it ran it before,
        lost the lease in a stall, and took it back) is rebuilt all the same: another
        process may have played it meanwhile, so that copy is dropped, never trusted."""
        if not rows:
            return
        again = {r.id for r in rows if r.id in self.registry}
        if again:
            self.drop_tables(again, quiet=True)
        # until the lease keeper's next batch (it goes on at once while more wait)
        linger = self._leases.period if self._leases is not None else 0.0
        with self.turns.rebuilding(linger):
            if self.started:
                self.turns.taken_over({r.id for r in rows})
            await self._adopt(rows)
        self.remote.adopted({r.id for r in rows})

    async def _adopt(self, rows: list[TableRow]) -> None:
        stored = await self.store.deadlines([r.id for r in rows])
        logs = await self.store.logs([r.match_id for r in rows if r.match_id is not None])
        # replayed in a thread, the whole batch at once: the live tables' moves go on
        runs = await asyncio.to_thread(_replay, rows, logs)
        for row in rows:
            if row.id in self.registry:
                continue
            t = Table.from_row(row)
            run = runs.get(row.id)
            if run is not None:
                t.run = run
                if not run.over:
                    keep_secrets(run)
            self.registry.add(t)
            await self._resume(t, stored.get(t.id))
            await asyncio.sleep(0)  # a batch yields between its tables: the loop answers
        self.registry.update_idle()

    async def _resume(self, t: Table, stored: TableDeadline | None) -> None:
        run = t.run
        if run is not None and not run.over:
            self._deadlines.arm(t, self._deadlines.resumed(t, stored))
            if run.phase == "drand":
                self.ceremony.start_drand(t)
        posts = [await self._presenter.table(t)]
        if run is not None and not run.over and run.match is not None:
            posts += await self._presenter.hands(t, list(range(4)))
        await self._dispatch.send(posts)
        self.watch.changed(t.id)

    def drop_tables(self, ids: set[int], quiet: bool = False) -> None:
        """Another process holds these tables now: stop running them here at once
        (``quiet``: the lease keeper rebuilds them from the database at once)."""
        self.turns.forget(ids)
        gone = []
        for tid in sorted(ids):
            t = self.registry.drop(tid)
            if t is not None:
                self.watch.changed(tid)  # its watchers read it from the database now
                self._deadlines.disarm(t)
                self.ceremony.stop_drand(t)
                gone.append(t.tid)
        if gone and not quiet:  # one line for the lot: a stall loses tables by the dozen
            log.warning(
                "table%s %s %s run by another process now",
                "s" if len(gone) > 1 else "",
                ", ".join(gone),
                "are" if len(gone) > 1 else "is",
            )
        self.registry.update_idle()

    def _shelved(self, t: Table) -> None:
        """The journal let a table go (stored nor read back: the database is down): its
        drand wait stops, and the lease keeper rebuilds it once the database is back."""
        self.ceremony.stop_drand(t)
        if self._leases is not None:
            self._leases.rebuild_later({t.id})

    async def stop(self) -> None:
        for extra in reversed(self._attached):
            try:
                await extra.stop()
            except Exception:
                log.exception("%s did not stop cleanly", type(extra).__name__)
        metrics.unwatch(self)
        await self.remote.stop()
        if self._gc_tuning is not None:
            self._gc_tuning.cancel()
        if self._crowd is not None:
            await self._crowd.stop()
        if self._leases is not None:
            await self._leases.stop()
        await self.ceremony.stop()
        await self._hooks.wait()
        self.scheduler.shutdown()
        self.turns.stop_bots()
        await settle()  # a bot's move under way is committed before the leases go back
        await thinking.pool.shutdown()
        if self._service is not None:
            try:
                await self._service.stop()
            except Exception:
                log.exception("tournament service did not stop cleanly")
        if self._leases is not None:
            await self.store.flush()  # what was handed in is committed under our leases,
            await self.store.release_leases()  # then another process may take them at once
        await self.store.close()
        if self.monitor is not None:
            await self.monitor.stop()

    async def freeze_leases(self) -> None:
        """Stop renewing this process's table leases (as a process that froze): another
        process takes its tables over once they run out. For crash-recovery checks."""
        if self._leases is not None:
            await self._leases.stop()

    async def halt(self) -> None:
        """Stop at once as a killed process would: no more timers, fetches nor leases,
        and nothing written, released or cleaned up (the store is left open)."""
        self.scheduler.shutdown()
        self.turns.stop_bots()
        await self.remote.stop()  # a killed process hears nothing and answers nothing
        if self._crowd is not None:
            await self._crowd.stop()
        await self.freeze_leases()
        self.ceremony.cancel_drand()

    def busy(self) -> bool:
        """Is any match in progress?"""
        return self.registry.busy()

    async def wait_idle(self) -> None:
        """Until no match is in progress here, nor (on a shared database) at a table of
        ours that another process holds: a dead one's will be taken over and finished."""
        while True:
            await self.registry.until_idle()
            if self._leases is None:
                return
            serves = self.platform.serves
            elsewhere = await self.store.playing_elsewhere(serves, self.registry.ids())
            if not elsewhere:
                return
            await asyncio.sleep(self._leases.period)

    async def hooks_done(self) -> None:
        """Until the calls into other services started so far (after a match) have ended."""
        await self._hooks.wait()

    async def _on_due(self, dl: TableDeadline) -> None:
        await self.turns.on_deadline(dl)

    # --- the tournaments (bot.tournaments, when attached) ---------------------------------

    @property
    def tournaments(self) -> Any:
        """The running TournamentService, when attached (None otherwise)."""
        return self._service

    @tournaments.setter
    def tournaments(self, service: Any) -> None:
        self._service = service
        self._results.attach(service)

    async def open_tournament_table(self, request: TableRequest) -> None:
        await self.tournament_tables.open_tournament_table(request)

    async def close_tournament_table(self, table_ref: str, reason: str) -> None:
        await self.tournament_tables.close_tournament_table(table_ref, reason)

    async def _tournament_command(self, name: str, ctx: Ctx) -> list[Reply]:
        try:
            from bot.tournaments.commands import COMMANDS
        except ImportError:
            raise Refused("err-unknown-command", command=f"/{name}") from None
        return await COMMANDS[name](self, ctx.user, ctx.channel, ctx.args)

    async def _tournament_press(self, ctx: Ctx, action: str) -> list[Reply]:
        try:
            from bot.tournaments.commands import handle_tournament_press
        except ImportError:
            raise Refused("err-stale-button") from None
        return await handle_tournament_press(self, ctx.user, ctx.channel, action)


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
