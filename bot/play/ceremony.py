"""The fair-deal ceremony of a match: commitment, the seed window, drand, the reveal.

Every step is a log entry committed (through the journal) before anything about it is
shown. ``/verify`` and ``/replay`` read finished matches back from the store.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Any

from bot.commands import parse
from bot.commands.inputs import Ctx
from bot.ops import metrics, redact
from bot.ops.clock import Clock, Randomness
from bot.platform import Button, Post, Reply
from bot.play.deadlines import DRAND_GRACE, Deadlines
from bot.play.entries import (
    DrandReceived,
    DrandTimedOut,
    EntryKind,
    SeedGiven,
    SeedsClosed,
    Started,
    entry,
)
from bot.play.journal import Journal
from bot.play.registry import TableRegistry
from bot.play.table import MatchRun, Table
from bot.refused import Refused
from bot.show import alt, texts
from bot.show.dispatch import Dispatch
from bot.show.i18n import _
from bot.show.posting import Presenter, button_code, table_locale
from bot.store import MatchRow, Store
from engine.recipe import commitment as seed_commitment

log = logging.getLogger(__name__)

__all__ = ["DRAND_GRACE", "Ceremony", "keep_secrets"]


def keep_secrets(run: MatchRun) -> None:
    """Keep a running match's secrets out of the logs: its server seed until the reveal,
    and the players' seeds received while the seed window is still open."""
    redact.register(run.server_seed)
    if run.phase == "seeds":
        for seed in run.seat_seeds:
            if seed is not None:
                redact.register(seed)


class Ceremony:
    """Start, seeds, drand, dealing, reveal, /verify and transcripts.

    ``store``: read only (finished matches for /verify and /replay); every write goes
    through ``journal``. ``drand``: the beacon client (None: no drand). ``fast``: no
    seed window; ``use_drand``: name a drand round for each deal."""

    def __init__(
        self,
        registry: TableRegistry,
        journal: Journal,
        deadlines: Deadlines,
        presenter: Presenter,
        dispatch: Dispatch,
        store: Store,
        clock: Clock,
        randomness: Randomness,
        drand: Any | None,
        *,
        fast: bool,
        use_drand: bool,
        verify_page: str,
    ) -> None:
        self._registry = registry
        self._journal = journal
        self._deadlines = deadlines
        self._presenter = presenter
        self._dispatch = dispatch
        self._store = store
        self._clock = clock
        self._random = randomness
        self._drand = drand
        self._fast = fast
        self._use_drand = use_drand and drand is not None
        self._verify_page = verify_page
        self._drand_tasks: dict[int, asyncio.Task[None]] = {}

    # --- the match begins --------------------------------------------------------------

    async def start(self, ctx: Ctx) -> list[Reply]:
        """``/start`` (or the Start button): the host starts a full table's match."""
        t = self._registry.pick(ctx, seated=False)
        async with self._registry.lock(t):
            if ctx.user.id != t.host and not ctx.user.is_admin:
                raise Refused("err-host-only", table=t.tid)
            if t.status == "playing":
                raise Refused("err-match-running", table=t.tid)
            if t.free_seats():
                raise Refused("err-seats-free", free=len(t.free_seats()))
            await self.start_match(t, ctx)
            assert t.run is not None
        return [Reply(_("ok-started", ctx.locale, table=t.tid, match=f"m{t.run.id}"))]

    async def start_match(self, t: Table, ctx: Ctx | None = None) -> None:
        """A new match at a full table; the caller holds the table's lock."""
        mid = await self._journal.new_match_id()
        server_seed = self._random.token_bytes(32, f"server-seed/m{mid}")
        ai_root = self._random.token_bytes(16, f"ai-seed/m{mid}")
        commit = seed_commitment(server_seed)
        seats = [s for s in t.seats if s is not None]
        any_human = any(not s.is_bot for s in seats)
        window = 0.0 if (self._fast or not any_human) else t.settings.seed_window
        now = self._clock.now()
        data = MatchRun.start_data(
            seats, t.settings, server_seed, commit, ai_root, window, self._use_drand
        )
        start = entry(mid, 0, now, Started(data))
        run = MatchRun.from_start(start, t.id)
        keep_secrets(run)
        t.run = run
        t.status = "playing"
        self._registry.playing()
        row = MatchRow(mid, t.id, t.channel, t.settings.ruleset, commit, now, None, "playing")
        await self._journal.start(t, start, row)
        loc = table_locale(t)
        # the commitment is the first thing of the match anyone sees
        commitment = self._presenter.post(
            t,
            f"commit:{mid}",
            _(
                "commit-post" if window > 0 else "commit-post-nowindow",
                loc,
                match=f"m{mid}",
                table=t.tid,
                commitment=commit,
                seconds=int(window),
            ),
            buttons=((Button(_("label-seed", loc), button_code(t, "seed")),),)
            if window > 0
            else (),
        )
        await self._dispatch.send([commitment, await self._presenter.table(t)], ctx)
        if window <= 0:
            await self.close_seeds(t, ctx)

    async def seed(self, ctx: Ctx) -> list[Reply]:
        """``/seed HEX``: a player's own seed for the deal, during the window."""
        t = self._registry.pick(ctx)
        async with self._registry.lock(t):
            run = t.run
            if run is None or run.phase != "seeds":
                raise Refused("err-no-seed-now")
            seat = t.seat_of(ctx.user.id)
            assert seat is not None
            if not ctx.args:
                raise Refused("err-seed-format")
            seed = parse.seed_hex(ctx.args[0], 16)
            if run.seat_seeds[seat] is not None:
                raise Refused("err-seed-twice")
            redact.register(seed)  # public once the window closes (the seeds post)
            await self._journal.record(t, [SeedGiven(seat, seed.hex())])
            if not run.waiting_for_seeds():
                await self.close_seeds(t, ctx)
            else:
                await self._dispatch.send([await self._presenter.table(t)], ctx)
        return [Reply(_("ok-seed", ctx.locale, match=f"m{run.id}"))]

    async def close_seeds(self, t: Table, ctx: Ctx | None = None) -> None:
        """The window is over: show each seat's seed, then name drand's round (or deal)."""
        run = t.run
        assert run is not None and run.phase == "seeds"
        closed = SeedsClosed(None, None)
        if run.use_drand:
            from bot.proof.drand import first_round_after, time_of_round

            r = first_round_after(self._clock.now())
            closed = SeedsClosed(r, time_of_round(r))
        await self._journal.record(t, [closed])
        for seed in run.seat_seeds:  # shown on the seeds post from now on
            if seed is not None:
                redact.forget(seed)
        loc = table_locale(t)
        posts: list[Post] = []
        if run.seed_window > 0:  # the window is shut: the commitment keeps no seed button
            text = _(
                "commit-post-nowindow",
                loc,
                match=f"m{run.id}",
                table=t.tid,
                commitment=run.commitment,
            )
            posts.append(self._presenter.post(t, f"commit:{run.id}", text))
        posts.append(self._presenter.post(t, f"seeds:{run.id}", texts.seeds_text(run, loc)))
        if run.phase == "drand":
            posts += [self._drand_post(t), await self._presenter.table(t)]
            await self._dispatch.send(posts, ctx)
            self.start_drand(t)
        else:
            await self._dispatch.send(posts + await self._dealt(t), ctx)

    # --- drand -------------------------------------------------------------------------

    def _drand_post(self, t: Table) -> Post:
        run = t.run
        assert run is not None
        loc = table_locale(t)
        if run.drand_status == "pending":
            text = _("drand-named", loc, round=run.drand_round)
        elif run.drand_status == "ok":
            text = _("drand-ok", loc, round=run.drand_round, value=(run.drand_value or b"").hex())
        else:
            text = _("drand-timeout", loc, round=run.drand_round)
        return self._presenter.post(t, f"drand:{run.id}", text)

    def start_drand(self, t: Table) -> None:
        """Fetch the named round in the background (at most one fetch per table)."""
        run = t.run
        if run is None or run.drand_round is None or self._drand is None:
            return
        old = self._drand_tasks.get(t.id)
        if old is not None and not old.done():
            return
        self._drand_tasks[t.id] = asyncio.create_task(self._fetch_drand(t, run.id))

    def drand_done(self, table_id: int) -> bool:
        """Has the table's drand fetch (if one was started) ended?"""
        task = self._drand_tasks.get(table_id)
        return task is None or task.done()

    def stop_drand(self, t: Table) -> None:
        """The table is closed or run elsewhere: its fetch stops."""
        task = self._drand_tasks.pop(t.id, None)
        if task is not None and task is not asyncio.current_task():
            task.cancel()

    def cancel_drand(self) -> None:
        """Every fetch is cancelled, not awaited (the bot halts)."""
        for task in self._drand_tasks.values():
            task.cancel()

    async def stop(self) -> None:
        """Every fetch stops (the bot stops)."""
        tasks = list(self._drand_tasks.values())
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        self._drand_tasks.clear()

    async def _fetch_drand(self, t: Table, match_id: int) -> None:
        run = t.run
        assert run is not None and run.drand_round is not None and run.drand_due is not None
        assert self._drand is not None  # started only with a drand client
        try:
            beacon = await self._drand.fetch_until(
                run.drand_round, deadline=run.drand_due + DRAND_GRACE, clock=self._clock
            )
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("drand fetch failed")
            beacon = None
        async with self._registry.lock(t):
            run = t.run
            if run is None or run.id != match_id or run.phase != "drand":
                return
            if beacon is not None and beacon.round == run.drand_round:
                received = DrandReceived(
                    beacon.round, beacon.randomness.hex(), beacon.signature.hex()
                )
                await self._journal.record(t, [received])
            else:
                metrics.drand_beacon("fallback")
                await self._journal.record(t, [DrandTimedOut(run.drand_round)])
            await self._dispatch.send([self._drand_post(t), *await self._dealt(t)])

    async def drand_timeout(self, t: Table) -> None:
        """drand's grace is over: deal without it; the caller holds the table's lock."""
        run = t.run
        assert run is not None
        metrics.drand_beacon("fallback")
        await self._journal.record(t, [DrandTimedOut(run.drand_round)])
        self.stop_drand(t)
        await self._dispatch.send([self._drand_post(t), *await self._dealt(t)])

    async def _dealt(self, t: Table) -> list[Post]:
        return [await self._presenter.table(t), *await self._presenter.hands(t, list(range(4)))]

    # --- the end -----------------------------------------------------------------------

    def reveal(self, t: Table) -> list[Post]:
        """The match is over: its server seed is public from this post on."""
        run = t.run
        assert run is not None
        redact.forget(run.server_seed)
        return [self._presenter.reveal(t)]

    async def _finished_match(
        self, ctx: Ctx, words: list[str], none: str = "err-no-match-to-verify"
    ) -> MatchRow:
        """The finished match of this channel that ``/verify`` or ``/replay`` is about:
        named (``m12``) among ``words``, else the latest. Only a finished match: before
        the reveal its seed is secret, and a replay shows every hand."""
        mid: int | None = None
        for a in words:
            if not parse.is_table_ref(a):
                mid = parse.match_ref(a)
        if mid is None:
            row = await self._store.latest_match(ctx.channel.id, ended=True)
        else:
            row = await self._store.match(mid)
        if row is None or row.channel != ctx.channel.id:
            raise Refused(none)
        if row.status == "playing":
            raise Refused("err-match-not-over", match=f"m{row.id}")
        return row

    async def verify(self, ctx: Ctx) -> list[Reply]:
        """``/verify [MATCH]``: the checks of a finished match, and its transcript."""
        row = await self._finished_match(ctx, ctx.args)
        try:
            transcript = await self.transcript(row.id)
        except LookupError:  # closed before its first deal: nothing was dealt to check
            raise Refused("err-never-dealt", match=f"m{row.id}") from None
        from bot.proof.transcript import dumps
        from bot.proof.verify import verify_transcript

        # With a drand client configured, compare the value with what drand itself serves.
        online = self._drand is not None and transcript.drand is not None
        report = await verify_transcript(transcript, online=online, drand_client=self._drand)
        loc = ctx.locale
        if report.ok:
            text = _("verify-ok", loc, match=f"m{row.id}", checks=len(report.checks))
        else:
            failed = ", ".join(c.name for c in report.failed)
            text = _("verify-failed", loc, match=f"m{row.id}", failed=failed)
        # The transcript goes with the answer, and the page that checks it on the player's
        # own device: nobody has to take the bot's word for its own deals.
        name = f"belote-m{row.id}.json"
        page = _("verify-page", loc, url=self._verify_page, file=name)
        return [
            Reply(
                f"{text}\n{page}",
                ok=report.ok,
                file=dumps(transcript).encode("utf-8"),
                file_name=name,
            )
        ]

    async def replay(self, ctx: Ctx) -> list[Reply]:
        """``/replay [MATCH] [DEAL]``: an animated picture of one played deal of a finished
        match (the last one when DEAL is left out), every hand shown, for the asker only."""
        deals = [n for n in map(parse.deal_number, ctx.args) if n is not None]
        words = [a for a in ctx.args if not parse.is_number(a)]
        row = await self._finished_match(ctx, words, "err-no-match-to-replay")
        entries = await self._store.log(row.id)
        run = MatchRun.replay(entries, 0)
        played = [d for d in (run.match.deals if run.match else []) if d.result is not None]
        if not played:
            raise Refused("err-never-dealt", match=f"m{row.id}")
        number = deals[0] if deals else len(played)
        if not played or not 1 <= number <= len(played):
            raise Refused("err-no-deal-to-replay", match=f"m{row.id}", deals=len(played))
        record = played[number - 1]
        names = [s.name for s in run.seats]
        image = None
        if self._presenter.draws:
            image = await self._presenter.replay_picture(record, names, ctx.locale)
        head = _("replay-caption", ctx.locale, match=f"m{row.id}", deal=number, deals=len(played))
        text = texts.join(texts.replay_lines(record, names, ctx.locale, head))
        words_alt = alt.replay_alt(f"m{row.id}", number, record, names, ctx.locale)
        return [
            Reply(
                text,
                image=image,
                image_name=f"replay-m{row.id}-{number}.gif",
                image_alt=words_alt if image is not None else "",
            )
        ]

    async def transcript(self, match_id: int) -> Any:
        """The fair-deal transcript of a match (server seed only once it is over)."""
        from bot.proof.drand import Beacon
        from bot.proof.transcript import transcript_from_match

        entries = await self._store.log(match_id)
        if not entries:
            raise LookupError(f"no match m{match_id}")
        run = MatchRun.replay(entries, 0)
        if run.match is None:
            raise LookupError(f"match m{match_id} was never dealt")
        beacon = None
        for e in entries:
            if e.kind == EntryKind.DRAND:
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
