"""``belote run --platform console``: one channel in the terminal.

Input lines are ``NAME: /command args`` (NAME is who types; a line without ``NAME:`` is
the default user's). At the end of input the run waits until no match is in progress,
then stops. ``solo`` opens a table for one person and three bots at once (what ``belote``
does with no chat token configured).
"""

from __future__ import annotations

import asyncio
import re
import sys
from dataclasses import dataclass
from typing import TextIO

from adapters.console.platform import USER_PREFIX, ConsolePlatform
from bot.app import BeloteApp
from bot.platform import Channel, User

CHANNEL = Channel("console:table")
_LINE = re.compile(r"^\s*([^:/\s][^:]{0,40}):\s*(.*)$")


@dataclass
class ConsoleOptions:
    default_user: str = "you"
    solo: bool = False
    locale: str = "en"


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
_BIDS = {"pass", "take", "contre", "recontre", "c", "d", "h", "s", "nt", "at"}


def shorthand(text: str) -> str:
    """In the terminal, ``TD`` means ``/play TD`` and ``pass`` / ``H`` mean ``/bid ...``."""
    word = text.strip()
    if _CARD.match(word):
        return f"/play {word.upper()}"
    if word.lower() in _BIDS:
        return f"/bid {word}"
    return text


def console_user(name: str, locale: str = "en") -> User:
    return User(id=USER_PREFIX + name, name=name, locale=locale)


async def _read_lines(stream: TextIO):
    loop = asyncio.get_running_loop()
    while True:
        line = await loop.run_in_executor(None, stream.readline)
        if not line:
            return
        yield line


async def run_console(
    app: BeloteApp,
    platform: ConsolePlatform,
    options: ConsoleOptions,
    stdin: TextIO | None = None,
) -> int:
    """Feed stdin to the app until it ends, then wait for every match to finish."""
    stdin = stdin or sys.stdin
    if hasattr(stdin, "reconfigure"):  # bytes that are not UTF-8 become U+FFFD, never a crash
        stdin.reconfigure(errors="replace")
    await app.start()
    try:
        if options.solo:
            me = console_user(options.default_user, options.locale)
            for cmd in ("/table create", "/addbot", "/addbot", "/addbot", "/start"):
                for reply in await app.command(me, CHANNEL, cmd):
                    platform.reply(me.name, reply)
        async for line in _read_lines(stdin):
            parsed = parse_line(line, options.default_user)
            if parsed is None:
                continue
            name, text = parsed
            text = shorthand(text)
            user = console_user(name, options.locale)
            for reply in await app.command(user, CHANNEL, text):
                platform.reply(name, reply)
        await app.wait_idle()
    finally:
        await app.stop()
    return 0
