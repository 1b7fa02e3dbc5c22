"""Hostile input, at random: whatever is typed or pressed, by whomever, wherever, the core
answers, never fails inside, and a refusal changes nothing.

One world is built in fake time: tables in every phase (lobby, seed window, bidding, play,
between deals, finished, closed, aborted before the first deal), a tournament under way
with its table, an open one and a ladder. Hypothesis then drives ``BeloteApp.command`` and
``BeloteApp.press`` with random text (any unicode, control characters, very long), known
commands with random or tricky arguments, and forged or stale button payloads, from
seated players, outsiders, hosts and an admin. After every call:

- no internal error (no ``err-internal`` answer, no error logged, no text missing);
- something was said: a reply, or a post;
- a refusal (``Reply.ok`` False) changed nothing: every row of the database (tables,
  matches, the match log, deadlines, tournaments, their players and tables, ratings) and
  the tables in memory are as before.

CI runs a bounded number of examples; ``BELOTE_FUZZ_EXAMPLES=5000`` runs many more.
"""

from __future__ import annotations

import asyncio
import logging
import os
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.platform import Channel, User
from bot.show.i18n import _ as text_of
from engine.match import Phase
from tests.core.harness import CHANNEL, OTHER_CHANNEL, Harness, make_harness, user

EXAMPLES = int(os.environ.get("BELOTE_FUZZ_EXAMPLES", "400"))
INTERNAL = text_of("err-internal", "en")

HOSTS = ["alice", "bob", "carol", "dave", "erin", "frank", "gina", "hank", "zoe"]
PLAYERS = ["p1", "p2", "p3", "p4"]
USERS = [user(n) for n in HOSTS + PLAYERS + ["zed"]] + [
    User("test:root", "root", is_admin=True),
    User("test:fr", "Zoé\x1b[2J", locale="fr"),
    User("test:bg", "@everyone <@123>", locale="bg-BG"),
]
CHANNELS = [CHANNEL, OTHER_CHANNEL, Channel("test:nowhere")]

COMMANDS = [
    "table create", "table list", "table close", "tables", "join", "sit", "leave", "addbot",
    "start", "bid", "pass", "play", "belote", "hand", "score", "seed", "verify", "replay",
    "rules", "help", "back", "kick", "close", "tournament create", "tournament join",
    "tournament withdraw", "tournament start", "tournament info", "tournament standings",
    "tournament pairings", "tournament drop", "tournament result", "ladder create",
    "ladder join", "ladder withdraw", "ladder info", "ladder standings", "stats",
    "leaderboard", "table", "tournament", "ladder",
]  # fmt: skip
WORDS = [
    "t1", "t2", "t3", "t4", "t5", "t6", "t7", "t8", "t9", "t10", "t11", "T3", "t0", "t²",
    "t³", "t①", "t" + "9" * 30, "m1", "m2", "m3", "m4", "m5", "m99", "m①", "m¹", str(2**63),
    "m" + str(2**63), "9" * 5000, "#1", "#2", "#3", "#₂", "#0", "1", "2", "3", "4", "5", "0",
    "-1", "1.5", "1e9", "inf", "nan", "²", "١", "TD", "7C", "AS", "10H", "ZZ", "ＴＤ", "pass",
    "take", "contre", "recontre", "C", "NT", "AT", "belote", "melds", "nomelds", "--timer",
    "--target", "--window", "--ai", "--rated", "--win", "--draw", "--loss", "--rounds",
    "--best-of", "--days", "--opens-in", "--ruleset", "--rotate-partners", "club", "classic",
    "bulgarian", "poker", "easy", "expert", "wizard", "roundrobin", "swiss", "elimination",
    "a", "b", "draw", "p1", "@p2", "00112233445566778899aabbccddeeff", "zz" * 16,
    "\x1b[2J", "\x00", "\u202e", "@everyone", "<@123>", "**bold**", "`", "\n", "",
]  # fmt: skip


# ------------------------------------------------------------------------------ the world


async def _until(h: Harness, done: Any, step: float = 1.0, limit: int = 5000) -> None:
    for _ in range(limit):
        if done():
            return
        await h.advance(step)
    raise AssertionError("the world did not reach the phase wanted")


async def _table(h: Harness, host: str, options: str, bots: int = 3, channel=CHANNEL) -> int:
    [created] = await h.cmd(host, f"/table create {options}", channel)
    assert created.ok, created.text
    tid = max(h.app.tables)
    for _ in range(bots):
        assert (await h.cmd(host, f"/addbot easy t{tid}", channel))[0].ok
    return tid


async def build_world(path: Path) -> Harness:
    h = await make_harness(path, tournaments=True, bot_delay=1.0, ai_level="easy")
    lobby = await _table(h, "alice", "--ai easy", bots=1)
    bidding = await _table(h, "carol", "--window 0 --timer 3600 --ai easy")
    play = await _table(h, "dave", "--window 0 --timer 3600 --ai easy")
    between = await _table(h, "erin", "--window 0 --timer 5 --ai easy")
    finished = await _table(h, "frank", "--window 0 --timer 5 --target 1 --ai easy")
    for host, tid in (("carol", bidding), ("dave", play), ("erin", between), ("frank", finished)):
        assert (await h.cmd(host, f"/start t{tid}"))[0].ok
    tables = h.app.tables

    async def dave_bids() -> None:  # dave takes (or passes) until the cards are played
        run = tables[play].run
        for _ in range(400):
            m = run.match
            if m.phase is Phase.PLAY and m.to_move == 0:
                return
            if m.to_move == 0:
                legal = m.legal_actions(0)
                pick = next((a for a in legal if a.kind != "pass"), legal[0])
                await h.app.command(user("dave"), CHANNEL, f"/{_command_of(pick)} t{play}")
            else:
                await h.advance(1)
        raise AssertionError("dave never got to play a card")

    await dave_bids()
    await _until(
        h,
        lambda: tables[finished].run.over and tables[between].run.match.deal_number >= 1,
    )
    closed = await _table(h, "gina", "", bots=0)
    assert (await h.cmd("gina", f"/close t{closed}"))[0].ok
    aborted = await _table(h, "hank", "--window 60")
    assert (await h.cmd("hank", f"/start t{aborted}"))[0].ok
    assert (await h.cmd("hank", f"/close t{aborted}"))[0].ok
    seeds = await _table(h, "bob", "--window 600 --ai easy")
    assert (await h.cmd("bob", f"/start t{seeds}"))[0].ok
    await _table(h, "zoe", "", bots=0, channel=OTHER_CHANNEL)
    # tournaments: one under way (its table reserved), one open, and a ladder
    assert (await h.cmd("p1", "/tournament create roundrobin Cup"))[0].ok
    for p in PLAYERS:
        assert (await h.cmd(p, "/tournament join #1"))[0].ok
    assert (await h.cmd("p1", "/tournament start #1"))[0].ok
    assert (await h.cmd("p2", "/tournament create swiss Open"))[0].ok
    assert (await h.cmd("p3", "/ladder create club Ladder"))[0].ok
    phases = {t.id: (t.status, t.run and t.run.phase) for t in tables.values()}
    assert tables[lobby].run is None and tables[seeds].run.phase == "seeds"
    assert tables[bidding].run.match.phase is Phase.BIDDING
    assert tables[play].run.match.phase is Phase.PLAY
    assert tables[finished].status == "open" and tables[finished].run.over, phases
    assert closed not in tables and aborted not in tables
    assert any(t.ref is not None for t in tables.values()), phases
    return h


def _command_of(action: Any) -> str:
    from bot.show.texts import action_command

    return action_command(action).lstrip("/")


# ------------------------------------------------------------------------------ checks


def snapshot(h: Harness) -> tuple[Any, ...]:
    """Every committed row of the database, and the tables in memory."""
    db = sqlite3.connect(h.path)
    try:
        names = [r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type='table'")]
        rows = {n: sorted(map(repr, db.execute(f'SELECT * FROM "{n}"'))) for n in sorted(names)}
    finally:
        db.close()
    memory = tables_in_memory(h.app)
    service = h.app.tournaments
    events = sorted(
        (t.id, t.status, repr(sorted(t.players.items()))) for t in service.tournaments.values()
    )
    return rows, memory, events


def tables_in_memory(app: Any) -> list[tuple[Any, ...]]:
    """What a refusal must not change in the core's tables (also the chat abuse runs')."""
    return sorted(
        (
            t.id,
            t.status,
            repr(t.seats),
            repr(t.settings),
            None if t.run is None else (t.run.seq, t.run.phase, tuple(t.run.seat_seeds)),
        )
        for t in app.tables.values()
    )


class Errors(logging.Handler):
    """Every error logged, and every text a user would read raw (a refusal whose id has
    no catalog text, or whose placeholders do not fit, is logged by bot.show.i18n)."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        if record.levelno >= logging.ERROR or record.name == "bot.show.i18n":
            self.records.append(record)


@contextmanager
def errors_logged() -> Iterator[Errors]:
    handler = Errors()
    root = logging.getLogger()
    root.addHandler(handler)
    try:
        yield handler
    finally:
        root.removeHandler(handler)


async def settle(h: Harness) -> None:
    """Let the work a call handed on finish (a match's result going to the tournament
    runner and the ratings runs after the table's lock is released)."""
    for _ in range(3):
        await asyncio.sleep(0)
        await h.app.hooks_done()


def changes(before: tuple[Any, ...], after: tuple[Any, ...]) -> list[str]:
    """What differs, by database table (rows added or gone) and in memory."""
    out = []
    for name in sorted(set(before[0]) | set(after[0])):
        old, new = set(before[0].get(name, [])), set(after[0].get(name, []))
        if old != new:
            out.append(f"{name}: +{sorted(new - old)[:3]} -{sorted(old - new)[:3]}")
    for label, i in (("tables in memory", 1), ("tournaments", 2)):
        if before[i] != after[i]:
            out.append(f"{label}: {sorted(set(after[i]) - set(before[i]))[:3]}")
    return out


async def check_call(h: Harness, call: tuple[str, User, Channel, str], errors: Errors) -> None:
    kind, who, where, text = call
    await settle(h)
    before = snapshot(h)
    posts = len(h.platform.posts)
    if kind == "command":
        replies = await h.app.command(who, where, text)
    else:
        replies = await h.app.press(who, where, text)
    shown = repr(text[:80])
    assert not errors.records, (kind, shown, [r.getMessage() for r in errors.records])
    assert all(r.text != INTERNAL for r in replies), (kind, shown)
    assert replies or len(h.platform.posts) > posts, f"nothing said to {kind} {shown}"
    if any(not r.ok for r in replies):
        await settle(h)
        after = snapshot(h)
        assert after == before, (f"refused {kind} {shown} changed:", changes(before, after))


# ------------------------------------------------------------------------------ strategies


def any_text() -> st.SearchStrategy[str]:
    very_long = st.builds(lambda c, n: c * n, st.characters(), st.integers(1000, 6000))
    return st.one_of(st.text(max_size=60), very_long)


def arguments() -> st.SearchStrategy[list[str]]:
    word = st.one_of(st.sampled_from(WORDS), st.text(max_size=12))
    return st.lists(word, max_size=5)


def typed() -> st.SearchStrategy[str]:
    known = st.builds(
        lambda slash, name, args: f"{slash}{name} {' '.join(args)}".strip(),
        st.sampled_from(["/", "", "/", "//"]),
        st.sampled_from(COMMANDS),
        arguments(),
    )
    return st.one_of(known, known, any_text())


def payload(pool: list[str]) -> st.SearchStrategy[str]:
    part = st.one_of(st.sampled_from(WORDS), st.text(max_size=8))
    forged = st.builds(
        lambda t, seq, seat, code: f"{t}:{seq}:{seat}:{code}",
        st.sampled_from(["t1", "t2", "t3", "t4", "t5", "t8", "t10", "t99", "t²"]),
        st.one_of(st.integers(0, 400).map(str), part),
        st.sampled_from(["-", "0", "1", "2", "3", "4", "x"]),
        st.one_of(
            st.sampled_from(["hand", "seed", "join", "start", "addbot", "back", "pass"]),
            st.sampled_from(["take", "bid H", "play TD", "play 7C belote", "contre"]),
            part,
        ),
    )
    tournament = st.builds(
        lambda what, n: f"tn:{what}:{n}",
        st.sampled_from(["numbers", "join", "standings", "x", ""]),
        st.one_of(st.integers(0, 5).map(str), part),
    )
    return st.one_of(st.sampled_from(pool), forged, tournament, any_text())


def calls(pool: list[str]) -> st.SearchStrategy[list[tuple[str, User, Channel, str]]]:
    who = st.sampled_from(USERS)
    where = st.sampled_from(CHANNELS)
    command = st.tuples(st.just("command"), who, where, typed())
    press = st.tuples(st.just("press"), who, where, payload(pool))
    return st.lists(st.one_of(command, press), min_size=1, max_size=6)


# ------------------------------------------------------------------------------ the test


def test_random_input_never_breaks_the_core_and_a_refusal_changes_nothing(tmp_path_factory):
    loop = asyncio.new_event_loop()
    h = loop.run_until_complete(build_world(tmp_path_factory.mktemp("fuzz") / "fuzz.db"))
    pool = sorted(
        {b.action for p in h.platform.posts for row in p.buttons for b in row}
        | {b.action for _, r in h.replies for row in r.buttons for b in row}
    )
    assert any(a.startswith("tn:") for a in pool) and any(":play " in a for a in pool)

    @settings(
        max_examples=EXAMPLES,
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
        database=None,
    )
    @given(calls(pool))
    def run(batch: list[tuple[str, User, Channel, str]]) -> None:
        async def go() -> None:
            with errors_logged() as errors:
                for call in batch:
                    await check_call(h, call, errors)

        loop.run_until_complete(go())

    try:
        run()
    finally:
        loop.run_until_complete(h.app.stop())
        loop.close()
