"""Tables another process runs, seen and played from this one (several processes on one
PostgreSQL database).

A person's socket may land on any process. The table it shows may be leased to another:
this process then keeps a read-only copy of it (a *mirror*), rebuilt from the database and
brought up to date each time the owner's commit is announced (:mod:`bot.store.relay`), so
the person sees every change. A move made here for such a table is queued in the database
for the lease owner, which applies it through the same entry point as its own players'
(``BeloteApp.press``) and answers in the same row: it is applied once, by the one process
that may write that table, whichever process the person's socket is on.

A mirror is never written and never runs a deadline: it only answers "what does this
person see". When this process takes the table over, the registry's live table takes its
place at once, and a mirror of a table this process lost is built on the next look.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any

from bot.platform import Channel, Post, Reply, User
from bot.play.registry import TableRegistry
from bot.play.table import MatchRun, Table
from bot.play.watch import TableWatch
from bot.store import Store
from bot.store.relay import RelayedMove

log = logging.getLogger(__name__)

#: Seconds a move queued for another process waits for its answer.
ANSWER_WAIT = 10.0

Press = Callable[[User, Channel, str], Awaitable[list[Reply]]]
#: a relayed row whose action starts with this is a typed command (a seed), not a press
TYPED = "/"
Deliver = Callable[[Post], Awaitable[None]]


class RemoteTables:
    """Mirrors of the tables watched here but run elsewhere, and the relayed moves.

    ``store``: reads and the relay; ``registry``: the tables run here (never changed
    here); ``watch``: told when a mirror changed; ``press``: the app's one entry point,
    for the moves relayed to this process; ``deliver``: the platform's, for the mover's
    own posts such a move makes (their hand in the chat)."""

    def __init__(
        self,
        store: Store,
        registry: TableRegistry,
        watch: TableWatch,
        press: Press,
        deliver: Deliver,
        command: Press | None = None,
    ) -> None:
        self._store = store
        self._registry = registry
        self._watch = watch
        self._press = press
        self._command = command or press
        self._deliver = deliver
        self._mirrors: dict[int, Table] = {}
        self._watched: dict[int, int] = {}  # table id -> sockets here that show it
        self._refreshing: dict[int, asyncio.Task[None]] = {}
        self._again: set[int] = set()  # a notice came while that table was being read
        self._waiting: dict[int, asyncio.Future[tuple[bool, str]]] = {}
        self._serving = False
        self._serve_again = False
        self._tasks: set[asyncio.Task[None]] = set()
        shared = getattr(store, "shared", False)  # (a test may build the core on no store)
        self._relay = getattr(store, "relay", None) if shared else None

    async def start(self) -> None:
        if self._relay is None:
            return
        self._relay.on_reconnect = self._reconnected
        await self._relay.listen(self._tables_changed, self._moves_waiting, self._answered)
        self._moves_waiting([])  # moves queued while this process was away

    async def stop(self) -> None:
        for task in [*self._refreshing.values(), *self._tasks]:
            task.cancel()
        for task in [*self._refreshing.values(), *self._tasks]:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        for fut in self._waiting.values():
            fut.cancel()
        if self._relay is not None:
            await self._relay.stop()

    def adopted(self, ids: set[int]) -> None:
        """This process runs these tables now: their mirrors go, their queued moves are
        this process's to apply."""
        for tid in ids:
            self._mirrors.pop(tid, None)
        if self._relay is not None:
            self._moves_waiting([])

    # --- what a socket here shows ------------------------------------------------------

    def get(self, table_id: int) -> Table | None:
        """The table as shown here: the live one when run here, else its mirror."""
        return self._registry.get(table_id) or self._mirrors.get(table_id)

    async def load(self, table_id: int) -> Table | None:
        """The table, its mirror read from the database when it is run elsewhere (None:
        no such table, or it is closed)."""
        t = self.get(table_id)
        if t is not None or self._relay is None:
            return t
        return await self._read(table_id)

    def watched(self, table_id: int, sockets: int) -> None:
        """How many sockets here show ``table_id`` now; a mirror nobody shows is let go."""
        if sockets > 0:
            self._watched[table_id] = sockets
        else:
            self._watched.pop(table_id, None)
            self._mirrors.pop(table_id, None)

    async def _read(self, table_id: int) -> Table | None:
        row = await self._store.table(table_id)
        if row is None or row.status == "closed":
            self._mirrors.pop(table_id, None)
            return None
        if table_id in self._registry:  # taken over meanwhile: the live one stands
            return self._registry.get(table_id)
        t = Table.from_row(row)
        old = self._mirrors.get(table_id)
        if row.match_id is not None:
            if old is not None and old.run is not None and old.run.id == row.match_id:
                run = old.run
                entries = await self._store.log(row.match_id)
                for e in entries[run.seq :]:
                    run.apply(e)
                t.run = run
            else:
                entries = await self._store.log(row.match_id)
                t.run = MatchRun.replay(entries, table_id) if entries else None
        self._mirrors[table_id] = t
        return t

    def _tables_changed(self, ids: list[int]) -> None:
        for tid in ids:
            if tid in self._registry or tid not in self._watched:
                continue  # run here (its watchers were told), or shown by nobody here
            self._refresh(tid)

    def _reconnected(self) -> None:
        """The listening connection broke and is back: what was missed is read again."""
        for tid in list(self._watched):
            if tid not in self._registry:
                self._refresh(tid)
        self._moves_waiting([])

    def _refresh(self, tid: int) -> None:
        if tid in self._refreshing:
            self._again.add(tid)
            return
        self._refreshing[tid] = asyncio.create_task(self._refresh_now(tid))

    async def _refresh_now(self, tid: int) -> None:
        try:
            while True:
                self._again.discard(tid)
                try:
                    await self._read(tid)
                except Exception:
                    log.exception("could not read table t%s from the database", tid)
                self._watch.changed(tid)
                if tid not in self._again:
                    return
        finally:
            self._refreshing.pop(tid, None)

    # --- moves made here for a table run elsewhere -------------------------------------

    async def press(self, user: User, channel: Channel, table_id: int, action: str) -> Reply:
        """Queue a move for the table's owner and wait for its answer."""
        from bot.show.i18n import _

        assert self._relay is not None
        move = RelayedMove(0, table_id, user.id, user.name, user.locale, channel.id, action)
        move_id = await self._relay.ask(move)
        fut: asyncio.Future[tuple[bool, str]] = asyncio.get_running_loop().create_future()
        self._waiting[move_id] = fut
        try:
            got = await self._relay.answers([move_id])  # answered before we listened
            if move_id in got:
                ok, text = got[move_id]
            else:
                ok, text = await asyncio.wait_for(fut, ANSWER_WAIT)
        except TimeoutError:
            await self._relay.forget(move_id)
            return Reply(_("web-move-unanswered", user.locale), ok=False)
        finally:
            self._waiting.pop(move_id, None)
        return Reply(text, ok=ok)

    def _answered(self, ids: list[int]) -> None:
        mine = [i for i in ids if i in self._waiting]
        if mine:
            self._spawn(self._collect(mine))

    async def _collect(self, ids: list[int]) -> None:
        assert self._relay is not None
        for move_id, answer in (await self._relay.answers(ids)).items():
            fut = self._waiting.get(move_id)
            if fut is not None and not fut.done():
                fut.set_result(answer)

    def _moves_waiting(self, ids: list[int]) -> None:
        """Moves were queued (at these tables): the ones at tables run here are ours."""
        if ids and not any(tid in self._registry for tid in ids):
            return
        if self._serving:
            self._serve_again = True
            return
        self._serving = True
        self._spawn(self._serve())

    async def _serve(self) -> None:
        assert self._relay is not None
        try:
            while True:
                self._serve_again = False
                moves = await self._relay.take(sorted(self._registry.ids()))
                for m in moves:
                    await self._apply(m)
                if not self._serve_again and not moves:
                    return
        finally:
            self._serving = False

    async def _apply(self, m: RelayedMove) -> None:
        assert self._relay is not None
        user = User(id=m.user_id, name=m.user_name, locale=m.locale)
        try:
            enter = self._command if m.action.startswith(TYPED) else self._press
            replies = await enter(user, Channel(m.channel), m.action)
        except Exception:  # the entry point never raises; a broken row is answered
            log.exception("a relayed move at t%s failed", m.table_id)
            replies = [Reply("", ok=False)]
        for r in replies:
            if r.post is not None:  # the mover's own hand, shown in the chat as always
                with contextlib.suppress(Exception):
                    await self._deliver(r.post)
        refused = next((r for r in replies if not r.ok), None)
        if refused is not None and refused.reason == "err-double-press":
            refused = None  # made already, once: the asker's page sent it again
        await self._relay.answer(m.id, refused is None, "" if refused is None else refused.text)

    def _spawn(self, coro: Coroutine[Any, Any, None]) -> None:
        task = asyncio.create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
