"""The fair-deal ceremony of a match: commitment, the seed window, drand, the reveal.

A mixin of :class:`bot.app.BeloteApp` (it uses the app's store, clock, scheduler and
posting). Every step is a log entry committed before anything about it is shown.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from bot.commands import parse
from bot.commands.inputs import Ctx as _Ctx
from bot.commands.inputs import Refused
from bot.ops import metrics, redact
from bot.platform import Button, Reply
from bot.play.table import MatchRun, Table
from bot.show import texts
from bot.show.i18n import _
from bot.store import LogEntry, MatchRow, Write
from engine.recipe import commitment as seed_commitment

log = logging.getLogger(__name__)

DRAND_GRACE = 5.0  # seconds after the round is due, then deal without drand


def keep_secrets(run: MatchRun) -> None:
    """Keep a running match's secrets out of the logs: its server seed until the reveal,
    and the players' seeds received while the seed window is still open."""
    redact.register(run.server_seed)
    if run.phase == "seeds":
        for seed in run.seat_seeds:
            if seed is not None:
                redact.register(seed)


class Ceremony:
    """Start, seeds, drand, dealing, reveal, /verify and transcripts."""

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
        mid = await self.store.new_match_id()
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
        keep_secrets(run)
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
            seed = parse.seed_hex(ctx.args[0], 16)
            if run.seat_seeds[seat] is not None:
                raise Refused("err-seed-twice")
            redact.register(seed)  # public once the window closes (the seeds post)
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
            from bot.proof.drand import first_round_after, time_of_round

            r = first_round_after(self.clock.now())
            data = {"round": r, "due": time_of_round(r)}
        await self._record(t, [("seeds_closed", data)])
        for seed in run.seat_seeds:  # shown on the seeds post from now on
            if seed is not None:
                redact.forget(seed)
        if run.seed_window > 0:  # the window is shut: the commitment keeps no seed button
            await self._post(
                t,
                f"commit:{run.id}",
                _(
                    "commit-post-nowindow",
                    self._loc(t),
                    match=f"m{run.id}",
                    table=t.tid,
                    commitment=run.commitment,
                ),
            )
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
                metrics.drand_beacon("fallback")
                await self._record(t, [("drand_timeout", {"round": run.drand_round})])
            await self._post_drand(t)
            await self._after_deal(t)

    async def _drand_timeout(self, t: Table) -> None:
        run = t.run
        assert run is not None
        metrics.drand_beacon("fallback")
        await self._record(t, [("drand_timeout", {"round": run.drand_round})])
        task = self._drand_tasks.pop(t.id, None)
        if task is not None and task is not asyncio.current_task():
            task.cancel()
        await self._post_drand(t)
        await self._after_deal(t)

    async def _after_deal(self, t: Table) -> None:
        await self._post_table(t)
        await self._post_hands(t, list(range(4)))

    async def _finished_match(
        self, ctx: _Ctx, words: list[str], none: str = "err-no-match-to-verify"
    ) -> MatchRow:
        """The finished match of this channel that ``/verify`` or ``/replay`` is about:
        named (``m12``) among ``words``, else the latest. Only a finished match: before
        the reveal its seed is secret, and a replay shows every hand."""
        mid: int | None = None
        for a in words:
            if not parse.is_table_ref(a):
                mid = parse.match_ref(a)
        if mid is None:
            row = await self.store.latest_match(ctx.channel.id, ended=True)
        else:
            row = await self.store.match(mid)
        if row is None or row.channel != ctx.channel.id:
            raise Refused(none)
        if row.status == "playing":
            raise Refused("err-match-not-over", match=f"m{row.id}")
        return row

    async def _cmd_verify(self, ctx: _Ctx) -> list[Reply]:
        row = await self._finished_match(ctx, ctx.args)
        try:
            transcript = await self.transcript(row.id)
        except LookupError:  # closed before its first deal: nothing was dealt to check
            raise Refused("err-never-dealt", match=f"m{row.id}") from None
        from bot.proof.transcript import dumps
        from bot.proof.verify import verify_transcript

        # With a drand client configured, compare the value with what drand itself serves.
        online = self.drand is not None and transcript.drand is not None
        report = await verify_transcript(transcript, online=online, drand_client=self.drand)
        loc = ctx.locale
        if report.ok:
            text = _("verify-ok", loc, match=f"m{row.id}", checks=len(report.checks))
        else:
            failed = ", ".join(c.name for c in report.failed)
            text = _("verify-failed", loc, match=f"m{row.id}", failed=failed)
        # The transcript goes with the answer, and the page that checks it on the player's
        # own device: nobody has to take the bot's word for its own deals.
        name = f"belote-m{row.id}.json"
        page = _("verify-page", loc, url=self.settings.verify_page, file=name)
        return [
            Reply(
                f"{text}\n{page}",
                ok=report.ok,
                file=dumps(transcript).encode("utf-8"),
                file_name=name,
            )
        ]

    async def _cmd_replay(self, ctx: _Ctx) -> list[Reply]:
        """``/replay [MATCH] [DEAL]``: an animated picture of one played deal of a finished
        match (the last one when DEAL is left out), every hand shown, for the asker only."""
        deals = [n for n in map(parse.deal_number, ctx.args) if n is not None]
        words = [a for a in ctx.args if not parse.is_number(a)]
        row = await self._finished_match(ctx, words, "err-no-match-to-replay")
        entries = await self.store.log(row.id)
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
        if self._render is not None:
            image = await self._picture(
                self._render.render_replay, record, names, tr=self._render.tr(ctx.locale)
            )
        text = _("replay-caption", ctx.locale, match=f"m{row.id}", deal=number, deals=len(played))
        return [Reply(text, image=image, image_name=f"replay-m{row.id}-{number}.gif")]

    async def transcript(self, match_id: int) -> Any:
        """The fair-deal transcript of a match (server seed only once it is over)."""
        from bot.proof.drand import Beacon
        from bot.proof.transcript import transcript_from_match

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

    async def _post_reveal(self, t: Table) -> None:
        run = t.run
        assert run is not None
        redact.forget(run.server_seed)  # public from this post on
        loc = self._loc(t)
        await self._post(
            t,
            f"reveal:{run.id}",
            _(
                # closed before its first deal: nothing to /verify, so no invitation to
                "reveal-post" if run.match is not None else "reveal-post-undealt",
                loc,
                match=f"m{run.id}",
                seed=run.server_seed.hex(),
                commitment=run.commitment,
            ),
        )
