"""What the abuse runs on the chat platforms share (tests/telegram/test_abuse_run.py and
tests/discord/test_abuse_run.py): the core as the adapter calls it, recorded; the rows a
refusal must leave alone; the cards a public message must not show; random text."""

from __future__ import annotations

import asyncio
import os
import random
import re
import sqlite3
from pathlib import Path
from typing import Any

from engine.cards import CARD_TEXTS, card_text
from tests.core.test_fuzz_inputs import tables_in_memory

SEED = int(os.environ.get("BELOTE_FUZZ_SEED", "12"))  # another run: BELOTE_FUZZ_SEED=n


def lines(ci: int) -> int:
    """How many lines a run sends: ``ci`` in CI, ``BELOTE_FUZZ_EXAMPLES`` when set."""
    return int(os.environ.get("BELOTE_FUZZ_EXAMPLES", os.environ.get("BELOTE_FUZZ_LINES", ci)))


# What would end the match at once, when the host, a player or an administrator says it;
# the others may still type or press it (and are refused).
ENDS_THE_MATCH = ("close", "table close", "leave", "kick")
ENDING = re.compile(r"\b(close|leave|kick)\b", re.IGNORECASE)
CARD_WORD = re.compile(r"\b(" + "|".join(CARD_TEXTS) + r")\b")
EXAMPLE = re.compile(r"/\w+ \S+")  # "/play TD t3" in a how-to names no one's card


class Recorder:
    """The core, as the adapter calls it: every reply is kept so a refusal can be told."""

    def __init__(self, core: Any) -> None:
        self.core = core
        self.replies: list[Any] = []
        self.calls: list[str] = []
        self.done = 0  # calls the core has answered
        self.running = 0  # calls under way

    def clear(self) -> None:
        self.replies.clear()
        self.calls.clear()
        self.done = 0

    async def command(self, user: Any, channel: Any, text: str) -> list[Any]:
        return await self._call(self.core.command, user, channel, text)

    async def press(self, user: Any, channel: Any, action: str) -> list[Any]:
        return await self._call(self.core.press, user, channel, action)

    async def _call(self, method: Any, user: Any, channel: Any, text: str) -> list[Any]:
        self.calls.append(text)
        self.running += 1
        try:
            replies = await method(user, channel, text)
        finally:
            self.running -= 1
        self.replies.extend(replies)
        self.done += 1
        return replies

    def __getattr__(self, name: str) -> Any:  # everything else the adapter asks the core
        return getattr(self.core, name)


async def settle_core(core: Any) -> None:
    """Let the work a call handed on finish, and the store write it."""
    for _ in range(3):
        await asyncio.sleep(0)
        await core.hooks_done()
    await core.store.flush()


def snapshot_rows(
    core: Any,
    db: Path,
    skip: tuple[str, ...] = (),
    columns: dict[str, str] | None = None,
) -> tuple[Any, ...]:
    """Every committed row (but the tables ``skip``; ``columns`` narrows some), and the
    tables in memory, as tests/core/test_fuzz_inputs compares them."""
    columns = columns or {}
    conn = sqlite3.connect(db)
    try:
        names = [r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")]
        rows = {
            n: sorted(map(repr, conn.execute(f'SELECT {columns.get(n, "*")} FROM "{n}"')))
            for n in names
            if n not in skip
        }
    finally:
        conn.close()
    return rows, tables_in_memory(core)


def changes(before: tuple[Any, ...], after: tuple[Any, ...]) -> list[str]:
    """What differs: rows added or gone by database table, and the tables in memory."""
    out = []
    for name in sorted(set(before[0]) | set(after[0])):
        old, new = set(before[0].get(name, [])), set(after[0].get(name, []))
        if old != new:
            out.append(f"{name}: +{sorted(new - old)[:2]} -{sorted(old - new)[:2]}")
    if before[1] != after[1]:
        out.append(f"tables in memory: {sorted(set(after[1]) - set(before[1]))[:2]}")
    return out


def hidden_cards(core: Any, humans: set[int], table: int = 1) -> tuple[int, set[str]] | None:
    """The deal number and the cards of seated people nobody else may know yet: their
    hand less what the rules show to all (the turned card, declared melds and belotes)."""
    run = core.tables[table].run if table in core.tables else None
    match = getattr(run, "match", None)
    if match is None:
        return None
    public = match.view(None)
    shown = {public.turned} if public.turned is not None else set()
    shown |= {c for _, meld, _ in public.melds for c in meld.cards}
    shown |= {c for belote in public.belotes for c in belote[1:]}
    hidden = {card_text(c) for seat in humans for c in match.hand(seat) if c not in shown}
    return match.deal_number, hidden


#: The headline of a deal's summary, "Deal 2: Clubs taken by Bob (team B), set." (deals as
#: people count them, from 1).
DEAL_SUMMARY = re.compile(r"\bDeal (\d+):")


def leaked_cards(
    body: str, hidden: tuple[int, set[str]] | None, now: tuple[int, set[str]] | None, typed: str
) -> set[str]:
    """Cards hidden before and after a message was made (the same deal) that it names,
    but for those the person who caused it typed themselves and how-to examples."""
    if hidden is None or now is None or now[0] != hidden[0]:
        return set()  # a new deal since: the cards said may be in the new hands
    if any(int(n) - 1 != now[0] for n in DEAL_SUMMARY.findall(body)):
        return set()  # an earlier deal's summary, delivered late: its cards were all played
    said = set(CARD_WORD.findall(EXAMPLE.sub("", body)))
    return (said & hidden[1] & now[1]) - set(CARD_WORD.findall(typed.upper()))


def random_text(rng: random.Random, limit: int = 60) -> str:
    """Any text: a few code points of the BMP mixed with command-like characters, or one
    character repeated thousands of times."""
    if rng.random() < 0.1:
        return rng.choice("aé€😀\x1b\u202e/ @") * rng.randint(1000, 4000)
    alphabet = [chr(rng.randint(32, 0x2FFF)) for _ in range(8)] + list("/@ tT1#-")
    return "".join(rng.choice(alphabet) for _ in range(rng.randint(1, limit)))
