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
from typing import TextIO

from adapters.console.keyboard import LineReader
from adapters.console.platform import USER_PREFIX, ConsolePlatform
from bot.app import BeloteApp
from bot.ops import redact
from bot.platform import Channel, User
from bot.play.table import Table
from bot.show.i18n import _
from engine import RULESETS

CHANNEL = Channel("console:table")
_LINE = re.compile(r"^\s*([^:/\s][^:]{0,40}):\s*(.*)$")
SOLO_SEAT = "2"  # the seat that speaks first in the first deal: no wait for the bots


@dataclass
class ConsoleOptions:
    default_user: str = "you"
    solo: bool = False
    locale: str = "en"
    interactive: bool = False  # a person types: end of input (Ctrl-D) quits like Ctrl-C
    ruleset: str | None = None  # asked for on the command line: a new solo table uses it
    target: int | None = None  # the same, for the points that win the match
    seed_source: str | None = None  # tests: device seeds derived from this, not drawn


def parse_line(line: str, default_user: str) -> tuple[str, str] | None:
    """``"alice: /join"`` -> ("alice", "/join"); blank lines and ``#`` comments -> None."""
    text = line.strip()
    if not text or text.startswith("#"):
        return None
    m = _LINE.match(text)
    if m:
        return m.group(1).strip(), m.group(2).strip()
    return default_user, text


_CARD = re.compile(r"^[789TJQKA][CDHS]$", re.I)
_PLAY_FLAGS = {"melds", "nomelds", "belote"}
_BIDS = {"pass", "take", "contre", "recontre", "c", "d", "h", "s", "nt", "at"}


def shorthand(text: str) -> str:
    """In the terminal, ``TD`` means ``/play TD`` (``TD nomelds``, ``KH belote`` too) and
    ``pass`` / ``H`` mean ``/bid ...``. Only the shape is recognised here: the core reads
    the words, so a bad card or flag gets the same answer as when typed in full."""
    words = text.split()
    if not words:
        return text
    if _CARD.match(words[0]) and all(w.lower() in _PLAY_FLAGS for w in words[1:]):
        return " ".join(["/play", words[0].upper(), *(w.lower() for w in words[1:])])
    if len(words) == 1 and words[0].lower() in _BIDS:
        return f"/bid {words[0]}"
    return text


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
        self.signalled = False
        if options.solo and platform.screen is not None:
            platform.screen.after_match = self.offer_new_match  # type: ignore[attr-defined]

    # --- the player's device ----------------------------------------------------------

    def device_seed(self, match_id: int) -> bytes:
        """16 bytes drawn here, on the player's device, as a browser would draw them."""
        if self.options.seed_source is not None:
            label = f"belote/device-seed/{self.options.seed_source}/{self.me.id}/m{match_id}"
            return hashlib.sha256(label.encode()).digest()[:16]
        return secrets.token_bytes(16)

    async def send_seeds(self) -> None:
        """Send the player's seed to every match of theirs that waits for it. Called after
        each command: the commitment is shown by then, so the seed comes after it, as the
        recipe requires, and the window closes at once (every human seat has sent)."""
        if not self.options.solo:
            return
        for t in self.app.seated_tables(self.me.id, CHANNEL):
            run = t.run
            seat = t.seat_of(self.me.id)
            if run is None or run.phase != "seeds" or seat is None:
                continue
            if run.seat_seeds[seat] is not None:
                continue
            seed = self.device_seed(run.id)
            redact.register(seed)  # secret until the seeds are shown
            await self.say(f"/seed {seed.hex()} {t.tid}", echo=False, quiet=True)

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
        text = "/help" if text.lower() == "help" else shorthand(text)
        if user == self.me and text.split()[0].lower() == "/help":
            self.platform.notice(_("console-help", self.me.locale), self.me.name)
        await self.say(text, user=user)
        await self.send_seeds()

    # --- the solo table ---------------------------------------------------------------

    async def open_solo(self) -> None:
        """Resume the player's table, or open one: the player and three bots."""
        mine = self.app.seated_tables(self.me.id, CHANNEL)
        playing = [t for t in mine if t.status == "playing"]
        current = (playing or mine or [None])[-1]
        if current is not None and current.status == "open":
            never_played = current.last_match is None or bool(current.free_seats())
            if never_played or self.other_rules(current):
                current = None  # a new table with what was asked (the old one closes)
        for t in mine:  # tables piled up by earlier versions: a bare card works again
            if t is not current and t.status == "open":
                await self.say(f"/close {t.tid}", echo=False)
        if current is None:
            current = await self.new_table()
            self.welcome(current, "console-welcome")
            await self.say("/start", echo=False)
        elif current.status == "playing":
            self.welcome(current, "console-resumed")
        else:
            self.welcome(current, "console-new-match")
        release = getattr(self.platform.screen, "release", None)
        if release is not None:
            release()
        await self.send_seeds()

    def other_rules(self, t: Table) -> bool:
        """Did the command line ask for rules or a target this table does not have?"""
        asked, target = self.options.ruleset, self.options.target
        return (asked is not None and asked != t.settings.ruleset) or (
            target is not None and target != t.settings.target
        )

    async def new_table(self) -> Table:
        """The player in seat 2 (who speaks first in the first deal: no wait for the
        bots' bids) and three bots."""
        words = ["/table create"]
        if self.options.ruleset is not None:
            words.append(self.options.ruleset)
        if self.options.target is not None:
            words.append(f"--target {self.options.target}")
        await self.say(" ".join(words), echo=False)
        await self.say(f"/join {SOLO_SEAT}", echo=False)
        for _seat in range(3):
            await self.say("/addbot", echo=False)
        return self.app.seated_tables(self.me.id, CHANNEL)[-1]

    def offer_new_match(self) -> None:
        """A match of the player's just ended: say how to play another."""
        mine = self.app.seated_tables(self.me.id, CHANNEL)
        if mine and mine[-1].status == "open":
            self.welcome(mine[-1], "console-new-match")

    def welcome(self, t: Table, key: str) -> None:
        s = t.settings
        run = t.run
        match = f"m{run.id}" if run is not None else f"m{t.last_match}"
        self.platform.notice(
            _(
                key,
                self.me.locale,
                table=t.tid,
                match=match,
                ruleset=s.ruleset,
                target=s.target or RULESETS[s.ruleset].target,
                others="|".join(r for r in RULESETS if r != s.ruleset),
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
        """A script's end of input: wait for every match to end (Ctrl-C still quits)."""
        idle = asyncio.ensure_future(self.app.wait_idle())
        stop = asyncio.ensure_future(self._quit.wait())
        try:
            await asyncio.wait({idle, stop}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            idle.cancel()
            stop.cancel()
        if self._quit.is_set():
            raise Quit

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
        mine = self.app.seated_tables(self.me.id, CHANNEL)
        if self.options.solo and mine:
            text = _("console-goodbye", self.me.locale, table=mine[-1].tid)
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
