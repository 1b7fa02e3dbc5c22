"""Another program holds the database's write lock (a backup script, the ``sqlite3`` shell:
``BEGIN IMMEDIATE`` ... ``ROLLBACK``) for longer than the busy timeout while the bot plays.

Health answers every time within its bound, over real HTTP to the real monitor server;
the bot's own commits wait for the lock (and are tried again), so nothing is lost or
written twice."""

from __future__ import annotations

import asyncio
import sqlite3
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import aiohttp

from bot.ops import metrics
from bot.ops.monitor import READY_BOUND
from bot.platform import User
from bot.play import turns as turns_module
from bot.show.i18n import _
from bot.show.texts import action_command
from bot.store import LogEntry, TableRow, Write
from tests.core.harness import Harness, make_harness, table_with_bots, user

#: Slack over the bound for a loaded test machine (2 cores shared with other runs).
SLACK = 1.0


@contextmanager
def outside_lock(db: Path | str) -> Iterator[threading.Event]:
    """Another program's write transaction on ``db`` until the event is set (or 60 s)."""
    locked, release = threading.Event(), threading.Event()

    def hold() -> None:
        conn = sqlite3.connect(db, isolation_level=None, check_same_thread=False)
        try:
            conn.execute("BEGIN IMMEDIATE")
            locked.set()
            release.wait(60)
            conn.execute("ROLLBACK")
        finally:
            conn.close()

    holder = threading.Thread(target=hold, daemon=True)
    holder.start()
    try:
        assert locked.wait(10), "the outside lock was never taken"
        yield release
    finally:
        release.set()
        holder.join(10)


def _row(tid: int, n: int) -> TableRow:
    now = time.time() + n
    return TableRow(
        tid, "test:busy", "alice", {"ruleset": "club"}, [None] * 4, "open", None, now, now
    )


async def _ask(http: aiohttp.ClientSession, url: str) -> tuple[str, int | None, float]:
    started = time.monotonic()
    try:
        async with http.get(url) as res:
            await res.read()
            status: int | None = res.status
    except TimeoutError:
        status = None  # no answer at all within the client's timeout
    return url.rsplit("/", 1)[1], status, time.monotonic() - started


async def test_health_answers_within_its_bound_while_another_program_locks_the_database(
    tmp_path: Path, monkeypatch
) -> None:
    """The bot keeps committing (a table row at a time, as play does) while another
    program holds the write lock past the busy timeout; /healthz, /livez and /readyz are
    asked in turn throughout, and every one answers within the bound."""
    monkeypatch.setattr(metrics, "_connected", {})
    db = tmp_path / "busy.db"
    h = await make_harness(db, metrics_port=0)
    base = f"http://127.0.0.1:{h.app.monitor.port}"
    stop = asyncio.Event()

    async def play() -> None:  # commits keep coming, as moves at many tables would
        n = 0
        while not stop.is_set():
            n += 1
            units = [h.store.write(Write(tables=[_row(100 + k, n)])) for k in range(4)]
            await asyncio.gather(*units, return_exceptions=True)
            await asyncio.sleep(0.01)

    asked: list[tuple[str, int | None, float]] = []
    timeout = aiohttp.ClientTimeout(total=5)
    try:
        async with aiohttp.ClientSession(timeout=timeout) as http:
            player = asyncio.create_task(play())
            with outside_lock(db) as release:
                ends = time.monotonic() + 12.0  # past the bot's busy timeout, twice over
                while time.monotonic() < ends:
                    for path in ("healthz", "livez", "readyz"):
                        asked.append(await _ask(http, f"{base}/{path}"))
                release.set()
            stop.set()
            await player
            after = await _ask(http, f"{base}/readyz")
    finally:
        stop.set()
        await h.app.stop()
    slow = [a for a in asked if a[1] is None or a[2] > READY_BOUND + SLACK]
    assert not slow, f"{len(slow)} of {len(asked)} asks over the bound: {slow}"
    assert len(asked) >= 9, asked
    for path, status, _took in asked:
        assert status == (200 if path == "livez" else 503), asked
    assert after[1] == 200, after


# --- moves while another program holds the lock: waited for, kept, stored once ---------

#: The bot's busy timeout in these tests: short, so a lock "past the busy timeout" is short.
BUSY = 0.3
#: How long the outside lock is held in the move tests: past the busy timeout, and past
#: the (shortened) time after which a waiting player is told their move is kept.
HOLD = 1.5


async def _playing(tmp_path: Path, name: str = "moves.db", **options: Any) -> Harness:
    """alice and three bots at table 1, the deal made, alice to move."""
    h = await make_harness(
        tmp_path / name, store_options={"busy_timeout": BUSY, **options}, timer=60.0
    )
    await table_with_bots(h, "alice")
    assert (await h.cmd("alice", "/start"))[0].ok
    await h.until_turn(0)
    return h


async def _log_is_whole(h: Harness) -> list[LogEntry]:
    """The match's log as stored: contiguous from 0, and what memory holds."""
    run = h.table().run
    entries = await h.store.log(run.id)
    assert [e.seq for e in entries] == list(range(len(entries))), entries
    assert run.seq == len(entries)
    return entries


def _moves(entries: list[LogEntry], by: str) -> list[LogEntry]:
    return [e for e in entries if e.kind == "action" and e.data.get("by") == by]


async def test_a_players_move_waits_for_the_lock_is_kept_and_answered_as_usual(
    tmp_path: Path, monkeypatch
) -> None:
    monkeypatch.setattr(turns_module, "BUSY_NOTICE", 0.5)
    h = await _playing(tmp_path)
    try:
        run = h.table().run
        legal = run.match.legal_actions(0)
        move = ([a for a in legal if not a.belote] or legal)[0]
        before = await _log_is_whole(h)
        alice = user("alice")
        with outside_lock(h.path) as release:
            answer = asyncio.create_task(h.cmd("alice", action_command(move)))
            await asyncio.sleep(HOLD)
            assert not answer.done()  # waiting for the lock, not refused
            busy = h.posts("notice:", to_user=alice.id)
            assert busy and "busy" in busy[-1].text and "kept" in busy[-1].text
            release.set()
        said = await asyncio.wait_for(answer, 30)
        assert said == [], said  # a move's usual answer: no text, the new hand shown
        assert any(r.key and r.key.startswith("hand:") for r in h.answers[-1])
        after = await _log_is_whole(h)
        new = after[len(before) :]
        assert new[0].data["seat"] == 0 and new[0].data["action"] == move.text
        assert len([e for e in new if e.data.get("seat") == 0]) == 1  # stored once
    finally:
        await h.app.stop()


async def test_the_busy_notice_is_in_the_players_language(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setattr(turns_module, "BUSY_NOTICE", 0.2)
    h = await _playing(tmp_path)
    try:
        run = h.table().run
        move = run.match.legal_actions(0)[0]
        for locale in ("fr", "bg"):
            assert _("notice-table-busy", locale) != _("notice-table-busy", "en")
        alice = User(id="test:alice", name="alice", locale="fr")
        with outside_lock(h.path) as release:
            answer = asyncio.create_task(h.cmd(alice, action_command(move)))
            await asyncio.sleep(HOLD / 2)
            release.set()
        await asyncio.wait_for(answer, 30)
        assert h.posts("notice:", to_user=alice.id)[-1].text == _("notice-table-busy", "fr")
    finally:
        await h.app.stop()


async def test_a_bots_move_and_a_timers_move_wait_for_the_lock_and_are_stored_once(
    tmp_path: Path,
) -> None:
    h = await _playing(tmp_path)
    try:
        run = h.table().run
        # alice lets her timer run out while another program holds the lock: the AI's
        # move for her waits for the lock, then goes in once
        before = await _log_is_whole(h)
        with outside_lock(h.path) as release:
            timer = asyncio.create_task(h.advance(61.0))
            await asyncio.sleep(HOLD)
            assert len(await h.store.log(run.id)) == len(before)  # nothing written yet
            release.set()
        await asyncio.wait_for(timer, 60)
        after = await _log_is_whole(h)
        assert len(_moves(after, "timeout")) == len(_moves(before, "timeout")) + 1
        # then a bot's move, the same way
        before = await _log_is_whole(h)
        assert run.to_move in (1, 2, 3), run.to_move  # a bot's, its deadline a second away
        with outside_lock(h.path) as release:
            bot = asyncio.create_task(h.advance(2.0))
            await asyncio.sleep(HOLD)
            assert len(await h.store.log(run.id)) == len(before)
            release.set()
        await asyncio.wait_for(bot, 60)
        after = await _log_is_whole(h)
        assert len(_moves(after, "bot")) > len(_moves(before, "bot"))
        assert [e.seq for e in after[: len(before)]] == [e.seq for e in before]
    finally:
        await h.app.stop()


async def test_the_bots_own_reads_go_on_while_a_commit_waits_for_the_lock(
    tmp_path: Path,
) -> None:
    """Another table's reads (on the bot's one connection) are not held up behind a
    commit waiting for the lock: it waits in short tries, the connection free between."""
    h = await make_harness(tmp_path / "reads.db")  # the default busy timeout (5 s)
    try:
        with outside_lock(h.path) as release:
            waiting = asyncio.create_task(h.store.write(Write(tables=[_row(7, 0)])))
            await asyncio.sleep(0.5)
            took = []
            for _ in range(5):
                started = time.monotonic()
                await h.store.open_tables()
                took.append(time.monotonic() - started)
            assert not waiting.done()
            assert max(took) < 1.0 + SLACK, took  # not the busy timeout's 5 s
            release.set()
        await asyncio.wait_for(waiting, 30)
        assert await h.store.table(7) is not None
    finally:
        await h.app.stop()


async def test_a_write_locked_out_past_its_wait_fails_whole_and_the_player_is_told(
    tmp_path: Path,
) -> None:
    h = await _playing(tmp_path, busy_wait=0.6)
    try:
        run = h.table().run
        move = run.match.legal_actions(0)[0]
        before = await _log_is_whole(h)
        with outside_lock(h.path) as release:
            said = await asyncio.wait_for(h.cmd("alice", action_command(move)), 30)
            release.set()
        assert len(said) == 1 and not said[0].ok
        assert said[0].text == _("err-store-unavailable", "en")
        assert await _log_is_whole(h) == before  # nothing of it written, memory read back
        assert h.table().run.to_move == 0  # still alice's move: she can make it again
        again = await h.cmd("alice", action_command(move))
        assert again == [], again
        assert len(await _log_is_whole(h)) == len(before) + 1
    finally:
        await h.app.stop()


async def test_a_tournament_round_starts_once_after_the_lock_goes(tmp_path: Path) -> None:
    h = await make_harness(
        tmp_path / "tour.db", store_options={"busy_timeout": BUSY}, tournaments=True
    )
    try:
        boss = user("ann")
        assert (await h.cmd(boss, "/tournament create roundrobin Club night"))[0].ok
        for name in ("ann", "bob", "cy", "di"):
            assert (await h.cmd(name, "/tournament join"))[0].ok
        with outside_lock(h.path) as release:
            start = asyncio.create_task(h.cmd(boss, "/tournament start"))
            await asyncio.sleep(HOLD)
            assert not start.done()
            release.set()
        said = await asyncio.wait_for(start, 60)
        assert said and said[0].ok, said
        rows = [r for r in await h.store.open_tables() if r.settings.get("ref")]
        refs = [r.settings["ref"] for r in rows]
        assert rows and len(refs) == len(set(refs)), refs  # each round table once
        assert h.app.tournaments.get(1).status == "running"
    finally:
        await h.app.stop()


# --- PostgreSQL: another session's row lock, held past lock_timeout -------------------


async def test_postgresql_moves_wait_for_another_sessions_lock_and_are_stored_once(
    pg_server, monkeypatch
) -> None:
    """Another session holds the row lock of table 1's lease (then the match log itself)
    for several ``lock_timeout``\\ s: each commit try ends with LockNotAvailableError
    (55P03), is rolled back and tried again, and goes in once the lock goes; /readyz and
    /livez answer within the bound meanwhile."""
    import asyncpg

    monkeypatch.setattr(metrics, "_connected", {})
    monkeypatch.setattr(turns_module, "BUSY_NOTICE", 0.5)
    url = pg_server.create_database()
    h = await make_harness(url, owner="pg-busy", timer=60.0, metrics_port=0)
    other = await asyncpg.connect(url)
    base = f"http://127.0.0.1:{h.app.monitor.port}"
    try:
        await table_with_bots(h, "alice")
        assert (await h.cmd("alice", "/start"))[0].ok
        await h.until_turn(0)
        run = h.table().run
        before = await _log_is_whole(h)
        move = run.match.legal_actions(0)[0]
        async with aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=5)) as http:
            tx = other.transaction()
            await tx.start()
            await other.execute("SELECT 1 FROM leases WHERE table_id = $1 FOR UPDATE", 1)
            answer = asyncio.create_task(h.cmd("alice", action_command(move)))
            asked = [await _ask(http, f"{base}/{path}") for path in ("readyz", "livez")]
            await asyncio.sleep(HOLD)
            assert not answer.done()
            assert h.posts("notice:", to_user=user("alice").id)  # told it is kept
            await tx.rollback()
            assert await asyncio.wait_for(answer, 30) == []
            after = await _log_is_whole(h)
            assert len(after) == len(before) + 1 and after[-1].data["seat"] == 0

            # the log itself locked (an operator's script): a bot's move waits the same way
            assert run.to_move in (1, 2, 3)
            tx = other.transaction()
            await tx.start()
            await other.execute("LOCK TABLE match_log IN EXCLUSIVE MODE")
            bot = asyncio.create_task(h.advance(1.5))
            asked += [await _ask(http, f"{base}/{path}") for path in ("healthz", "livez")]
            await asyncio.sleep(HOLD)
            assert len(await other.fetch("SELECT seq FROM match_log")) == len(after)
            await tx.rollback()
            await asyncio.wait_for(bot, 30)
        final = await _log_is_whole(h)
        assert len(_moves(final, "bot")) > len(_moves(after, "bot"))
    finally:
        await other.close()
        await h.app.stop()
    slow = [a for a in asked if a[1] is None or a[2] > READY_BOUND + SLACK]
    assert not slow, asked
