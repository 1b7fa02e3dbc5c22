"""The web table's sockets: who is on which, what each was last shown, what they did.

Like every adapter, the hub decides nothing. A person's socket, once signed in, is a
:class:`bot.platform.User` at one table: their moves go through the core's one entry
point (``BeloteApp.press``, with the table, the position and the seat a chat button would
carry), and after every change of the table (``BeloteApp.watch``) each socket at it gets
the view the core builds for that person (``BeloteApp.table_view``), never more.

Each socket has a writer of its own that sends only the newest view: a slow phone gets
fewer views, never a queue of old ones, and never holds up the table or the others.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from adapters.web import protocol
from bot.ops import redact
from bot.platform import Channel, Post, User
from bot.play.seat_links import Grant
from bot.show.i18n import _
from bot.show.seat_view import view_json

log = logging.getLogger(__name__)

#: A socket's frames: this many a second on average, this many at once.
RATE = 8.0
BURST = 16.0
#: Sessions whose last move is remembered (a move each: a few hundred bytes).
REMEMBERED = 20_000
#: Frames in a row over the rate before the socket is closed (a page sends a few a minute).
FLOOD_CLOSE = 200
#: What a page may press beside its moves (nothing that joins, adds or shows elsewhere).
PRESSES = frozenset({"back", "start"})
REFUSED = frozenset({"hand", "web", "join", "addbot", "seed", "kick", "close"})

Deliver = Callable[[Post], Awaitable[None]]


@dataclass
class Bucket:
    """A token bucket: a frame takes one token; tokens come back at ``RATE`` a second.

    A frame that finds the bucket empty waits for its token (the socket is read no
    faster: a flood slows that socket down, never the table, and no move is dropped);
    ``over`` counts such frames in a row, and a socket that keeps it up is closed."""

    tokens: float = BURST
    at: float = field(default_factory=time.monotonic)
    over: int = 0
    told: float = 0.0

    def take(self) -> float:
        """Take a token: the seconds to wait for it first (0: at once)."""
        now = time.monotonic()
        self.tokens = min(BURST, self.tokens + (now - self.at) * RATE)
        self.at = now
        self.tokens -= 1.0
        if self.tokens >= 0.0:
            self.over = 0
            return 0.0
        self.over += 1
        return -self.tokens / RATE


class Session:
    """One signed-in socket: a person at a table, seated or watching."""

    def __init__(
        self,
        hub: WebHub,
        send: Callable[[str], Awaitable[None]],
        grant: Grant,
        close: Callable[..., Awaitable[Any]],
    ) -> None:
        self.hub = hub
        self._send = send
        self.close = close  # the socket's close(code=..., message=...)
        self.grant = grant
        self.user = User(id=grant.user_id, name=grant.name, locale=grant.locale)
        self.channel = Channel(grant.channel)
        self.table_id = grant.table_id
        self.seat: int | None = None  # 0 to 3 while seated
        self.bucket = Bucket()
        self._shown = ""
        self._wanted = asyncio.Event()
        self._writer: asyncio.Task[None] | None = None
        self.closed = False

    def start(self) -> None:
        self._writer = asyncio.create_task(self._write(), name=f"web-writer-{self.table_id}")

    def push(self) -> None:
        """The table changed: the writer sends the newest view when it can."""
        self._wanted.set()

    async def send(self, text: str) -> None:
        if not self.closed:
            await self._send(text)

    async def stop(self) -> None:
        self.closed = True
        if self._writer is not None:
            self._writer.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._writer

    async def _write(self) -> None:
        while not self.closed:
            await self._wanted.wait()
            self._wanted.clear()
            try:
                frame = await self.hub.view_frame(self)
            except Exception:  # the database did not answer a mirror's read: next change
                log.exception("could not make the view of t%s", self.table_id)
                continue
            if frame is None:  # the table left this process (or closed)
                await self.hub.gone(self)
                return
            if frame == self._shown:
                continue
            self._shown = frame
            try:
                await self._send(frame)
            except Exception:  # the socket is closing: its reader ends the session
                return


class WebHub:
    """The sockets by table, told by the core of each change (``app.watch``).

    ``app``: the core (``press``, ``table_view``, ``watch``, ``tables``); ``deliver``:
    the chat platform's, for a person's own posts that a move from the web made (their
    hand in the chat keeps up with what they play here)."""

    def __init__(self, app: Any, deliver: Deliver | None = None) -> None:
        self._app = app
        self._deliver = deliver
        self._by_table: dict[int, set[Session]] = {}
        self._dirty: set[int] = set()
        self._flushing = False
        #: the last sequence number applied for each opened link (its nonce), and its ack;
        #: the oldest are forgotten past :data:`REMEMBERED` (the log position still refuses
        #: a move sent again long after)
        self._applied: OrderedDict[str, tuple[int, str]] = OrderedDict()
        self.on_gone: Callable[[Session], Awaitable[None]] | None = None
        app.watch.listen(self.changed)

    # --- the core's side ------------------------------------------------------------------

    def changed(self, table_id: int) -> None:
        """Called by the core with the table's lock held: note it, push later."""
        if table_id not in self._by_table:
            return
        self._dirty.add(table_id)
        if not self._flushing:
            self._flushing = True
            asyncio.get_running_loop().call_soon(self._flush)

    def _flush(self) -> None:
        self._flushing = False
        dirty, self._dirty = self._dirty, set()
        for tid in dirty:
            for s in self._by_table.get(tid, ()):
                s.push()

    async def view_frame(self, s: Session) -> str | None:
        v = self._app.table_view(s.user, s.table_id)
        if v is None:  # run by another process now: read from the database
            await self._app.find_table(s.table_id)
            v = self._app.table_view(s.user, s.table_id)
        if v is None or v.status == "closed":
            return None
        s.seat = None if v.my_seat is None or not s.grant.seated else v.my_seat - 1
        data = view_json(v)
        if not s.grant.seated:  # a watcher's view: the public table only
            data.update(my_seat=None, hand=[], legal_cards=[], choices=[], my_seed_due=False)
        return protocol.dumps("view", view=data)

    # --- the sockets' side ----------------------------------------------------------------

    def add(self, s: Session) -> None:
        group = self._by_table.setdefault(s.table_id, set())
        group.add(s)
        self._app.watching(s.table_id, len(group))
        s.start()
        s.push()

    async def remove(self, s: Session) -> None:
        group = self._by_table.get(s.table_id)
        if group is not None:
            group.discard(s)
            self._app.watching(s.table_id, len(group))
            if not group:
                del self._by_table[s.table_id]
        await s.stop()

    async def gone(self, s: Session) -> None:
        if self.on_gone is not None:
            await self.on_gone(s)

    def last_applied(self, s: Session) -> int:
        return self._applied.get(s.grant.nonce, (0, ""))[0]

    def sockets(self) -> int:
        return sum(len(g) for g in self._by_table.values())

    async def act(self, s: Session, a: protocol.Act) -> str:
        """A move from the page: applied once through the core; the ack to send."""
        seen, ack = self._applied.get(s.grant.nonce, (0, ""))
        if a.seq <= seen:  # sent again (a reconnect, a double tap): answered, not applied
            return ack if a.seq == seen else protocol.dumps("ack", seq=a.seq, ok=True, again=True)
        ok, text = await self._apply(s, a)
        ack = protocol.dumps("ack", seq=a.seq, ok=ok, text=text)
        self._applied[s.grant.nonce] = (a.seq, ack)
        self._applied.move_to_end(s.grant.nonce)
        while len(self._applied) > REMEMBERED:
            self._applied.popitem(last=False)
        return ack

    async def seed(self, s: Session, frame: protocol.Seed) -> str:
        """The person's seed for the fair deal, as ``/seed`` takes it (a secret until the
        window closes: registered for redaction before anything could log it)."""
        if not s.grant.seated:
            return protocol.dumps("ack", seq=0, ok=False, text=_("web-watching", s.user.locale))
        redact.register(bytes.fromhex(frame.seed))
        text = f"/seed {frame.seed} t{s.table_id}"
        replies = await self._app.command_at(s.user, s.channel, s.table_id, text)
        refused = next((r for r in replies if not r.ok), None)
        s.push()
        return protocol.dumps(
            "ack", seq=0, ok=refused is None, text="" if refused is None else refused.text
        )

    async def _apply(self, s: Session, a: protocol.Act) -> tuple[bool, str]:
        """The move through the core; (applied, the refusal's text). A move the core
        finds already made by this person at that position (sent again after a
        reconnect, or to a restarted bot) counts as applied: it was, once."""
        loc = s.user.locale
        if not s.grant.seated:
            return False, _("web-watching", loc)
        here = f"t{s.table_id}"
        seat = None if s.seat is None else s.seat + 1
        if (a.table is not None and a.table != here) or (a.seat is not None and a.seat != seat):
            return False, _("web-not-yours", loc, table=here, seat=seat or "-")
        code = a.action.strip()
        if not code or (code.split()[0] in REFUSED and code not in PRESSES):
            return False, _("web-frame-bad", loc)
        where = "-" if s.seat is None else str(s.seat)
        action = f"t{s.table_id}:{a.at}:{where}:{code}"
        replies = await self._app.press_at(s.user, s.channel, s.table_id, action)
        refused = next((r for r in replies if not r.ok), None)
        if refused is not None and refused.reason == "err-double-press":
            refused = None
        for r in replies:
            if r.post is not None and self._deliver is not None:  # their hand in the chat
                try:
                    await self._deliver(r.post)
                except Exception:
                    log.exception("could not show a web move's post in the chat")
        s.push()  # the ack comes with the newest view, even when nothing changed
        return refused is None, "" if refused is None else refused.text
