"""``belote run --platform console``: one channel in the terminal.

Input lines are ``NAME: /command args`` (NAME is who types; a line without ``NAME:`` is
the default user's). ``solo`` is the terminal game (what ``belote`` does with no chat
token configured): it sits the player at their table with three bots, or resumes the one
they left, and the terminal acts as the player's device: it draws the player's seed for
the fair deal and sends it as soon as the commitment is shown.

How the run ends: Ctrl-C or SIGTERM end it at once (everything is already saved: the core
commits each action before showing it), with a one-line goodbye. End of input ends it at
once too when a person is typing (Ctrl-D in a terminal); a script's end of input waits
until no match is in progress, then stops.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import re
import secrets
import signal
import sys
from dataclasses import dataclass
from typing import Any, TextIO

from adapters.console.keyboard import LineReader
from adapters.console.platform import DEFAULT_NAME, USER_PREFIX, ConsolePlatform
from bot.app import BeloteApp
from bot.commands import parse
from bot.ops import redact
from bot.platform import Channel, User
from bot.show.i18n import _
from bot.show.seat_view import TableView
from engine import RULESETS

CHANNEL = Channel("console:table")
_LINE = re.compile(r"^\s*([^:/\s][^:]{0,40}):\s*(.*)$")
SOLO_SEAT = "2"  # the seat that speaks first in the first deal: no wait for the bots


@dataclass
class ConsoleOptions:
    default_user: str = DEFAULT_NAME
    solo: bool = False
    locale: str = "en"
    interactive: bool = False  # a person types: end of input (Ctrl-D) quits like Ctrl-C
    ruleset: str | None = None  # asked for on the command line: a new solo table uses it
    target: int | None = None  # the same, for the points that win the match
    table_options: tuple[str, ...] = ()  # the same, the ruleset's options (``no_trump``...)
    seed_source: str | None = None  # tests: device seeds derived from this, not drawn
    timer: float | None = None  # a new solo table's turn timer; None: no timer
    pictures: str | None = None  # where pictures are saved (said once in the welcome)


def parse_line(line: str, default_user: str) -> tuple[str, str] | None:
    """``"alice: /join"`` -> ("alice", "/join"); blank lines and ``#`` comments -> None."""
    text = line.strip()
    if not text or text.startswith("#"):
        return None
    m = _LINE.match(text)
    if m:
        return m.group(1).strip(), m.group(2).strip()
    return default_user, text


def shorthand(text: str) -> str:
    """In the terminal, ``TD`` / ``10D`` / ``Q♥`` mean ``/play ...`` (``TD nomelds``,
    ``KH belote`` too) and ``pass`` / ``H`` mean ``/bid ...``: the one reader of moves,
    :func:`bot.commands.parse.bare_move`. Anything else goes to the core as typed, so a
    bad card or flag gets the same answer as when typed in full."""
    return parse.bare_move(text) or text


def console_user(name: str, locale: str = "en") -> User:
    return User(id=USER_PREFIX + name, name=name, locale=locale)


class Quit(Exception):
    """Ctrl-C, SIGTERM, or a person's end of input: leave now."""


class ConsoleSession:
    """One run of the terminal: reads lines, sends them to the app, prints the answers."""

    def __init__(self, app: BeloteApp, platform: ConsolePlatform, options: ConsoleOptions) -> None:
        self.app = app
        self.platform = platform
        self.options = options
        self.me = console_user(options.default_user, options.locale)
        self._quit = asyncio.Event()
        self.choosing: str | None = None  # a table whose rules differ: "on" or "new"?
        self.signalled = False
        if options.solo and platform.screen is not None:
            platform.screen.after_match = self.offer_new_match  # type: ignore[attr-defined]

    # --- the player's device ----------------------------------------------------------

    def device_seed(self, match: str) -> bytes:
        """16 bytes drawn here, on the player's device, as a browser would draw them."""
        if self.options.seed_source is not None:
            label = f"belote/device-seed/{self.options.seed_source}/{self.me.id}/{match}"
            return hashlib.sha256(label.encode()).digest()[:16]
        return secrets.token_bytes(16)

    async def send_seeds(self) -> None:
        """Send the player's seed to every match of theirs that waits for it. Called after
        each command: the commitment is shown by then, so the seed comes after it, as the
        recipe requires, and the window closes at once (every human seat has sent)."""
        if not self.options.solo:
            return
        for v in self.views():
            if not v.my_seed_due or v.match is None:
                continue
            seed = self.device_seed(v.match)
            redact.register(seed)  # secret until the seeds are shown
            await self.say(f"/seed {seed.hex()} {v.table}", echo=False, quiet=True)

    def views(self) -> list[TableView]:
        """The player's tables here, as they may see them (the core's documented query)."""
        return self.app.table_views(self.me, CHANNEL)

    # --- commands ---------------------------------------------------------------------

    async def say(
        self, text: str, *, user: User | None = None, echo: bool = True, quiet: bool = False
    ) -> bool:
        """Send one command; print the answers (``echo=False``: refusals only; ``quiet``:
        none). True when it was accepted."""
        user = user or self.me
        ok = True
        for reply in await self.app.command(user, CHANNEL, text):
            ok = ok and reply.ok
            if reply.post is not None:  # their own new hand: shown like every post
                await self.platform.deliver(reply.post)
            elif not quiet and (echo or not reply.ok):
                self.platform.reply(user.name, reply, user.locale)
        return ok

    async def line(self, raw: str) -> None:
        parsed = parse_line(raw, self.options.default_user)
        if parsed is None:
            return
        name, text = parsed
        user = console_user(name, self.options.locale)
        if user == self.me and self.choosing is not None and await self.choose(text):
            return
        text = "/help" if text.lower() == "help" else shorthand(text)
        if user == self.me and text.split()[0].lower() == "/help":
            self.platform.notice(_("console-help", self.me.locale), self.me.name)
        await self.say(text, user=user)
        await self.send_seeds()

    # --- the solo table ---------------------------------------------------------------

    async def open_solo(self) -> None:
        """Resume the player's table, or open one: the player and three bots. A match in
        progress with other rules or another target than the command line asked for is not
        resumed silently: the player chooses (``on`` or ``new``)."""
        views = self.views()
        playing = [v for v in views if v.status == "playing"]
        current = (playing or views or [None])[-1]
        if current is not None and current.status == "open":
            never_played = current.last_match is None or current.free_seats > 0
            if never_played or self.other_rules(current):
                current = None  # a new table with what was asked (the old one closes)
        with self.platform.muted():  # tables piled up by earlier versions: closed quietly
            for v in views:
                if v is not current and v.status == "open":
                    await self.say(f"/close {v.table}", echo=False)
        if current is None:
            await self.open_new_table()
        elif current.status == "playing" and self.other_rules(current):
            self.choosing = current.table
            self.notice_view(current, "console-options-differ")
            self.ask(_("console-options-choose", self.me.locale, match=current.match))
        elif current.status == "playing":
            self.notice_view(current, "console-resumed")
        else:
            self.notice_view(current, "console-new-match")
        release = getattr(self.platform.screen, "release", None)
        if release is not None:
            release()
        await self.send_seeds()

    async def open_new_table(self) -> None:
        v = await self.new_table()
        self.notice_view(v, "console-welcome")
        if self.options.pictures:
            self.platform.notice(
                _("console-pictures", self.me.locale, folder=self.options.pictures),
                self.me.name,
            )
        await self.say("/start", echo=False)

    async def choose(self, word: str) -> bool:
        """The answer to "on or new" (True when ``word`` was one)."""
        table, self.choosing = self.choosing, None
        if table is None:
            return False
        self.ask(None)
        if word.lower() == "new":
            with self.platform.muted():
                await self.say(f"/close {table}", echo=False)
            await self.open_new_table()
            return True
        current = next((v for v in self.views() if v.table == table), None)
        if current is not None:
            self.notice_view(current, "console-resumed")
        return word.lower() == "on"

    def ask(self, question: str | None) -> None:
        """Keep a question in view until it is answered (the full screen shows it above
        the hand; a scrolling screen has printed it already)."""
        ask = getattr(self.platform.screen, "ask", None)
        if ask is not None:
            ask(question)

    def other_rules(self, v: TableView) -> bool:
        """Did the command line ask for rules or a target this table does not have?"""
        asked, target = self.options.ruleset, self.options.target
        return (asked is not None and asked != v.ruleset) or (
            target is not None and target != v.target
        )

    async def new_table(self) -> TableView:
        """The player in seat 2 (who speaks first in the first deal: no wait for the
        bots' bids) and three bots; no turn timer unless one was asked for."""
        words = ["/table create"]
        if self.options.ruleset is not None:
            words.append(self.options.ruleset)
        if self.options.target is not None:
            words.append(f"--target {self.options.target}")
        words += ["--" + name.replace("_", "-") for name in self.options.table_options]
        timer = self.options.timer
        words.append(f"--timer {timer:g}" if timer else "--timer off")
        await self.say(" ".join(words), echo=False)
        await self.say(f"/join {SOLO_SEAT}", echo=False)
        for _seat in range(3):
            await self.say("/addbot", echo=False)
        return self.views()[-1]

    def offer_new_match(self) -> None:
        """A match of the player's just ended: say how to play another."""
        views = self.views()
        if views and views[-1].status == "open":
            self.notice_view(views[-1], "console-new-match")

    def notice_view(self, v: TableView, key: str) -> None:
        """One of the terminal's own texts about table ``v``."""
        loc = self.me.locale
        seat = v.my_seat or int(SOLO_SEAT)
        partner = v.seats[(seat + 1) % 4]
        rules = RULESETS[v.ruleset]
        bids = {
            "french": "take, pass, C D H S",
            "coinche": "pass, 80 H, 90 S, capot C, coinche, surcoinche",
        }.get(rules.auction, "pass, C D H S NT AT, contre")
        asked_ruleset = self.options.ruleset or v.ruleset
        self.platform.notice(
            _(
                key,
                loc,
                table=v.table,
                match=v.match or v.last_match or "",
                ruleset=v.ruleset,
                target=v.target,
                others="|".join(r for r in RULESETS if r != v.ruleset),
                seat=seat,
                team=_("team-a" if seat % 2 == 1 else "team-b", loc),
                partner=partner.name,
                bids=bids,
                asked_ruleset=asked_ruleset,
                asked_target=self.options.target or RULESETS[asked_ruleset].target,
            ),
            self.me.name,
        )

    # --- the run ----------------------------------------------------------------------

    def quit(self) -> None:
        self.signalled = True
        self._quit.set()

    async def next_line(self, reader: LineReader) -> str | None:
        """The next line, or Quit when the player leaves first."""
        get = asyncio.ensure_future(reader.get())
        stop = asyncio.ensure_future(self._quit.wait())
        try:
            await asyncio.wait({get, stop}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            stop.cancel()
        if self._quit.is_set():
            get.cancel()
            raise Quit
        return get.result()

    async def until_idle(self) -> None:
        """A script's end of input: wait for every match to end (Ctrl-C still quits), or,
        at a solo table with no turn timer, for the script's player to be the one to
        move: nothing else would ever happen (the match is saved and goes on next time)."""
        idle = asyncio.ensure_future(self.app.wait_idle())
        stop = asyncio.ensure_future(self._quit.wait())
        stuck = asyncio.ensure_future(self._waiting_for_me())
        try:
            await asyncio.wait({idle, stop, stuck}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            idle.cancel()
            stop.cancel()
            stuck.cancel()
        if self._quit.is_set():
            raise Quit

    async def _waiting_for_me(self) -> None:
        if not self.options.solo:
            await asyncio.Event().wait()  # a script's match ends by itself: wait for that
        while not any(v.choices and v.timer <= 0 for v in self.views()):
            await asyncio.sleep(0.1)

    async def run(self, stdin: TextIO) -> int:
        reader = LineReader(stdin)
        if self.options.solo:
            await self.open_solo()
        while True:
            raw = await self.next_line(reader)
            if raw is None:
                if self.options.interactive:
                    raise Quit
                await self.until_idle()
                return 0
            await self.line(raw)

    def goodbye(self, signalled: bool = False) -> None:
        mine = self.views()
        if self.options.solo and mine:
            text = _("console-goodbye", self.me.locale, table=mine[-1].table)
        else:
            text = _("console-goodbye-plain", self.me.locale)
        if signalled and self.options.interactive and self.platform.screen is not None:
            text = "\n" + text  # after the terminal's own "^C"
        self.platform.notice(text, self.me.name)


async def run_console(
    app: BeloteApp,
    platform: ConsolePlatform,
    options: ConsoleOptions,
    stdin: TextIO | None = None,
) -> int:
    """Feed stdin to the app until it ends (see the module's docstring for how)."""
    stdin = stdin or sys.stdin
    session = ConsoleSession(app, platform, options)
    loop = asyncio.get_running_loop()
    handled = []
    for sig in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):
            loop.add_signal_handler(sig, session.quit)
            handled.append(sig)
    hold = getattr(platform.screen, "hold", None)
    if hold is not None and options.solo:
        hold()  # a resumed table is shown after its greeting
    if hasattr(stdin, "reconfigure"):  # bytes that are not UTF-8 become U+FFFD, never a crash
        stdin.reconfigure(errors="replace")
    tui = platform.screen if getattr(platform.screen, "full_screen", False) else None
    if tui is not None:
        return await _run_full_screen(app, session, tui, handled)
    await app.start()
    code = 0
    try:
        await session.run(stdin)
    except Quit:
        session.goodbye(session.signalled)
    finally:
        await app.stop()
        for sig in handled:
            loop.remove_signal_handler(sig)
    return code


async def _run_full_screen(
    app: BeloteApp, session: ConsoleSession, tui: Any, handled: list[signal.Signals]
) -> int:
    """The full-screen table: Textual draws it in this event loop, beside the core. The
    player leaves with Ctrl-C, Ctrl-D or Ctrl-Q (keys on the screen), or SIGTERM; the
    goodbye is printed once the terminal is given back."""
    tui.views = session.views
    tui.send = session.line
    tui.after_match = session.offer_new_match
    shown = asyncio.ensure_future(tui.run_async())
    ready = asyncio.ensure_future(tui.ready.wait())
    stop = asyncio.ensure_future(session._quit.wait())
    try:
        await app.start()  # meanwhile Textual sets the terminal up (posts wait for it)
        await asyncio.wait({shown, ready}, return_when=asyncio.FIRST_COMPLETED)
        if session.options.solo and not shown.done():
            await session.open_solo()
        tui.refresh_soon()
        await asyncio.wait({shown, stop}, return_when=asyncio.FIRST_COMPLETED)
    finally:
        if not shown.done():
            tui.exit()
        with contextlib.suppress(Exception):
            await shown
        ready.cancel()
        stop.cancel()
        tui.gone = True
        session.goodbye(False)
        await app.stop()
        loop = asyncio.get_running_loop()
        for sig in handled:
            loop.remove_signal_handler(sig)
    return 0
