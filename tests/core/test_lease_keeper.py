"""Leases that never wait (real PostgreSQL): a claim skips the rows a paused process's
open transaction holds and gets them once the server ends that transaction; a commit's
lock wait is bounded, retried, then reported, never half written; the renewal goes on
while a takeover rebuilds; a late renewal is logged once with how late; an outage is one
line when it starts, one a minute while it lasts, one when it ends, and the process keeps
its own tables through it. The console's table limit counts live tables in the database."""

from __future__ import annotations

import asyncio
import logging
import threading
import time
from typing import Any

import asyncpg
import pytest

from bot.play.lobby import is_live
from bot.store import LeaseLost, StaleCopy, StoreUnavailable, TableRow, Write, open_store
from bot.store import availability as availability_module
from bot.store.leases import LeaseKeeper
from bot.store.postgres import LOCK_TIMEOUT, session_settings
from tests.core.harness import make_harness
from tests.core.test_store import _entry, _table_with_match
from tests.pg import PgServer
from tests.waiting import until


class Runner:
    """The app's side of the keeper (what it runs): tables by id, and a rebuild that
    takes ``rebuild`` seconds of the event loop's time (awaited, as the app's is)."""

    def __init__(self, ids: set[int] = frozenset(), rebuild: float = 0.0) -> None:
        self.tables: dict[int, Any] = dict.fromkeys(ids)
        self.rebuild = rebuild
        self.adopted: list[int] = []
        self.dropped: list[int] = []

    async def adopt_tables(self, rows: list[TableRow]) -> None:
        await asyncio.sleep(self.rebuild)
        for r in rows:
            self.tables[r.id] = r
            self.adopted.append(r.id)

    def drop_tables(self, ids: set[int], quiet: bool = False) -> None:
        for tid in ids:
            self.tables.pop(tid, None)
            self.dropped.append(tid)


async def test_a_claim_skips_what_a_paused_transaction_locks_and_takes_it_when_it_ends(
    pg_server,
):
    url = pg_server.create_database()
    lease = 1.0
    a = await open_store(url, owner="A", lease_seconds=lease)
    c = await open_store(url, owner="C", lease_seconds=30)
    # process A is paused inside a commit: its lease check ran, its row lock is held (the
    # server ends it after 2.5 s idle here, so the claim below comes while it is open)
    paused = await asyncpg.connect(url, server_settings=session_settings("A", 2.5))
    try:
        ids = [(await _table_with_match(a))[0] for _ in range(3)]
        tx = paused.transaction()
        await tx.start()
        await paused.execute("SELECT 1 FROM leases WHERE table_id = $1 FOR UPDATE", ids[0])
        await asyncio.sleep(lease * 1.2)  # A's leases run out (it renews nothing)

        began = time.monotonic()
        rows = await asyncio.wait_for(c.claim_tables(mine=False), 5)
        assert time.monotonic() - began < 1.0  # skipped, not waited on
        assert [r.id for r in rows] == ids[1:]

        async def freed() -> list[TableRow]:  # the server ends A's idle transaction
            return await c.claim_tables(mine=False)

        began = time.monotonic()
        assert [r.id for r in await until(freed, 5)] == ids[:1]
        assert time.monotonic() - began < 2.5
        assert paused.is_closed() or await _closed(paused)
        with pytest.raises(LeaseLost):  # A, awake, writes nothing to a table it lost
            await a.write(Write(logs=[_entry(1, 1, "A")], deadlines={ids[0]: None}))
    finally:
        paused.terminate()
        await a.close()
        await c.close()


async def _closed(conn: asyncpg.Connection) -> bool:
    try:
        await conn.fetchval("SELECT 1")
    except (asyncpg.PostgresConnectionError, asyncpg.InterfaceError, OSError):
        return True
    except asyncpg.exceptions.OperatorInterventionError:
        return True
    except asyncpg.InternalClientError:  # caught mid-close: the server's end still being read
        return True
    return False


async def test_a_commit_waits_a_bounded_time_for_a_lock_then_retries_then_reports(pg_server):
    url = pg_server.create_database()
    a = await open_store(url, owner="A", lease_seconds=30, busy_wait=4 * LOCK_TIMEOUT)
    other = await asyncpg.connect(url)  # another session holding A's lease row
    try:
        tid, mid = await _table_with_match(a)
        tx = other.transaction()
        await tx.start()
        await other.execute("SELECT 1 FROM leases WHERE table_id = $1 FOR UPDATE", tid)
        began = time.monotonic()
        with pytest.raises(StoreUnavailable) as said:
            await asyncio.wait_for(
                a.write(Write(logs=[_entry(mid, 1, "A")], deadlines={tid: None})), 30
            )
        assert isinstance(said.value.__cause__, asyncpg.exceptions.LockNotAvailableError)
        took = time.monotonic() - began
        assert 4 * LOCK_TIMEOUT <= took < 10 * LOCK_TIMEOUT + 3  # tries for busy_wait, then says
        assert len(await a.log(mid)) == 1  # nothing of it written

        # the lock goes back while the commit retries: it goes in, once
        write = asyncio.create_task(
            a.write(Write(logs=[_entry(mid, 1, "A")], deadlines={tid: None}))
        )
        await asyncio.sleep(LOCK_TIMEOUT * 1.5)
        await tx.rollback()
        await asyncio.wait_for(write, 10)
        assert [e.seq for e in await a.log(mid)] == [0, 1]
    finally:
        await other.close()
        await a.close()


async def test_the_renewal_goes_on_while_a_takeover_rebuilds(pg_server):
    url = pg_server.create_database()
    lease = 1.5
    dead = await open_store(url, owner="dead", lease_seconds=lease)
    a = await open_store(url, owner="A", lease_seconds=lease)
    try:
        mine = {(await _table_with_match(a))[0] for _ in range(2)}
        theirs = (await _table_with_match(dead))[0]
        await dead.close()
        runner = Runner(mine, rebuild=lease * 3)  # a rebuild far longer than a lease
        keeper = LeaseKeeper(a, runner)
        keeper.start()
        try:

            async def adopting() -> bool:
                return (await a.lease_of(theirs))[0] == "A"

            await until(adopting, 5)
            began = time.monotonic()
            while time.monotonic() - began < lease * 2.5:  # the rebuild is under way
                for tid in mine:
                    owner, left = await a.lease_of(tid)
                    assert owner == "A" and left > 0, (tid, left)
                await asyncio.sleep(0.05)
            await until(lambda: _true(theirs in runner.adopted), 5)
            assert runner.dropped == []
            assert keeper.status().held >= mine
        finally:
            await keeper.stop()
    finally:
        await a.close()


async def _true(value: bool) -> bool:
    return value


async def test_a_stalled_event_loop_keeps_its_leases_and_past_a_lease_lets_them_go(
    pg_server, caplog
):
    """The renewal has a thread of its own: a loop stalled (a long rebuild, a burst of
    moves, a machine short of CPU) renews on time all the same; a loop stalled longer than
    a lease does not hold its tables (the thread lets them run out), and that is logged
    once, with how late."""
    url = pg_server.create_database()
    lease = 3.0  # renewed every second
    a = await open_store(url, owner="A", lease_seconds=lease)
    try:
        tid = (await _table_with_match(a))[0]
        runner = Runner({tid})
        keeper = LeaseKeeper(a, runner)
        keeper.start()
        try:
            await asyncio.sleep(keeper.period * 2)
            with caplog.at_level(logging.WARNING, logger="bot.store.leases"):
                caplog.clear()
                # the event loop stalls, for less than a lease; at its end, read from a
                # thread of the test, the lease has more than a period left: renewed
                left = _seconds_left_after(url, tid, lease * 0.8)  # blocks the loop
                assert left > lease - 2 * keeper.period, left
                await asyncio.sleep(keeper.period)
                assert _late_lines(caplog, at_least=1.5) == []
                assert keeper.worst_late < 1.5

                caplog.clear()
                time.sleep(lease * 2.3)  # now longer than a lease: its leases run out
                await asyncio.sleep(keeper.period * 3)
                late = _late_lines(caplog, at_least=2.4)
                assert len(late) == 1, late  # once, not once a period while it lasts
                assert "had run out" in late[0]
            # nobody took it meanwhile: still this process's, not "run by another process"
            assert runner.dropped == [] and (await a.lease_of(tid))[0] == "A"
        finally:
            await keeper.stop()
    finally:
        await a.close()


def _seconds_left_after(url: str, tid: int, stall: float) -> float:
    """Block the calling event loop for ``stall`` seconds; return the table's lease time
    left at their end, as the database says (read from a thread and a loop of its own)."""
    got: list[float] = []

    async def read() -> None:
        await asyncio.sleep(stall)
        conn = await asyncpg.connect(url)
        try:
            got.append(
                await conn.fetchval(
                    "SELECT EXTRACT(EPOCH FROM expires - clock_timestamp())::float8"
                    " FROM leases WHERE table_id = $1",
                    tid,
                )
            )
        finally:
            await conn.close()

    reader = threading.Thread(target=lambda: asyncio.run(read()))
    reader.start()
    reader.join()
    return got[0]


def _late_lines(caplog: pytest.LogCaptureFixture, at_least: float) -> list[str]:
    said = [r.getMessage() for r in caplog.records if "renewal came" in r.getMessage()]
    return [m for m in said if float(m.split("came ")[1].split(" s")[0]) >= at_least]


async def test_an_outage_is_one_line_a_change_and_the_process_keeps_its_tables(caplog, monkeypatch):
    server = PgServer.start()  # its own server: this test stops it
    monkeypatch.setattr(availability_module, "STILL_DOWN_EVERY", 1.0)
    lease = 1.0
    try:
        url = server.create_database()
        a = await open_store(url, owner="A", lease_seconds=lease)
        tid, mid = await _table_with_match(a)
        runner = Runner({tid})
        keeper = LeaseKeeper(a, runner)
        keeper.start()
        with caplog.at_level(logging.INFO):
            await asyncio.sleep(keeper.period * 2)
            server.halt()
            await asyncio.sleep(3.5)  # longer than the lease: it ran out meanwhile
            assert keeper.status().database_up is False
            with pytest.raises(StoreUnavailable):  # a commit in the outage fails, says so
                await a.write(Write(logs=[_entry(mid, 1, "A")], deadlines={tid: None}))
            server.resume()

            async def back() -> bool:
                return keeper.status().database_up

            await until(back, 15)
            await asyncio.sleep(keeper.period * 3)
        await keeper.stop()
        lines = [r for r in caplog.records if r.name.startswith("bot.store")]
        said = [r.getMessage() for r in lines]
        assert len([m for m in said if "database unreachable:" in m]) == 1, said
        assert 1 <= len([m for m in said if "still unreachable" in m]) <= 6, said
        assert len([m for m in said if "reachable again" in m]) == 1, said
        traced = [(r.name, r.getMessage()) for r in caplog.records if r.exc_info]
        assert not traced  # no tracebacks, from this code or the driver's pool
        # the process knows its own lease: kept, renewed, and its next commit goes in
        assert runner.dropped == [] and tid in keeper.status().held
        owner, left = await a.lease_of(tid)
        assert owner == "A" and left > 0
        await a.write(Write(logs=[_entry(mid, 1, "A")], deadlines={tid: None}))
        assert [e.seq for e in await a.log(mid)] == [0, 1]
        await a.close()
    finally:
        server.stop()


def _row(tid: int, status: str, seats: list[Any], last_match: int | None) -> TableRow:
    settings = {"last_match": last_match}
    return TableRow(tid, "test:room", "test:zoe", settings, seats, status, None, 1.0, 1.0)


async def test_the_table_limit_counts_the_channels_live_tables_of_every_process(pg_server):
    url = pg_server.create_database()
    one = await make_harness(url, owner="one", lease_seconds=30, max_tables_per_channel=2)
    two = await make_harness(url, owner="two", lease_seconds=30, max_tables_per_channel=2)
    try:
        bot = {"kind": "bot", "name": "Bot", "user_id": None, "level": "normal"}
        # finished tables of bots only (their match over, nobody sits) do not count
        for _ in range(2):
            tid = await one.store.new_table_id()
            await one.store.write(Write(tables=[_row(tid, "open", [bot] * 4, last_match=7)]))
        assert (await one.cmd("alice", "/table create"))[0].ok
        assert (await two.cmd("bob", "/table create"))[0].ok
        # a table run by process one counts in process two, and the other way round
        [refused] = await two.cmd("carol", "/table create")
        assert not refused.ok and "too many" in refused.text.lower()
        [refused] = await one.cmd("dave", "/table create")
        assert not refused.ok
        assert (await one.cmd("alice", "/leave"))[0].ok  # closed: a place again
        assert (await two.cmd("carol", "/table create"))[0].ok
    finally:
        await one.app.stop()
        await two.app.stop()


def test_what_counts_as_a_live_table():
    human = {"kind": "human", "name": "Zoe", "user_id": "test:zoe"}
    bot = {"kind": "bot", "name": "Bot", "user_id": None}
    assert is_live(_row(1, "playing", [bot] * 4, 3))
    assert is_live(_row(1, "open", [human, None, None, None], 3))
    assert is_live(_row(1, "open", [bot, None, None, None], None))  # being set up
    assert not is_live(_row(1, "open", [bot] * 4, 3))  # its match over, nobody there
    assert not is_live(_row(1, "closed", [human] * 4, None))


async def test_a_move_the_outage_kept_from_being_stored_is_not_kept_in_memory_either():
    """A bot's move whose commit fails in an outage, while the table cannot be read back
    either: the table leaves memory (it must not run ahead of the database) and comes
    back, rebuilt from the database, once it answers; the match goes on, its log whole."""
    server = PgServer.start()
    try:
        url = server.create_database()
        h = await make_harness(url, owner="one", lease_seconds=1.0, seed_window=0, timer=600)
        await h.cmd("alice", "/table create --target 150")
        for _ in range(3):
            await h.cmd("alice", "/addbot")
        await h.cmd("alice", "/leave")
        await h.cmd("alice", "/addbot")
        await h.cmd("alice", "/start")
        for _ in range(4):
            await h.advance(1)
        tid = next(iter(h.app.tables))
        mid = h.app.tables[tid].run.id
        server.halt()
        for _ in range(3):  # the bot's move comes due: its commit fails, so does the reload
            await h.advance(1)
        assert tid not in h.app.tables
        server.resume()

        async def back() -> bool:
            return tid in h.app.tables

        await until(back, 20)
        run = h.app.tables[tid].run
        stored = await h.store.log(mid)
        assert run.seq == len(stored)  # memory is what the database holds
        for _ in range(6):
            await h.advance(1)
        log = await h.store.log(mid)
        assert len(log) > len(stored)  # it goes on
        assert [e.seq for e in log] == list(range(len(log)))
        await h.app.stop()
    finally:
        server.stop()


async def test_a_table_claimed_back_after_its_lease_ran_out_is_rebuilt_not_trusted(pg_server):
    """A stalled past its lease; B took the table and wrote to it, then B stalled too. A's
    claim gets it back: what A holds in memory is behind the database, so it is rebuilt."""
    url = pg_server.create_database()
    a = await open_store(url, owner="A", lease_seconds=0.4)
    b = await open_store(url, owner="B", lease_seconds=0.4)
    try:
        tid, mid = await _table_with_match(a)
        runner = Runner({tid})
        keeper = LeaseKeeper(a, runner)
        await asyncio.sleep(0.5)  # A stalls
        assert [r.id for r in await b.claim_tables(mine=False)] == [tid]
        await b.write(Write(logs=[_entry(mid, 1, "B")], deadlines={tid: None}))
        await asyncio.sleep(0.5)  # B stalls
        await keeper.take_over()
        assert runner.dropped == [tid] and runner.adopted == [tid]  # rebuilt from the log
        assert (await a.lease_of(tid))[0] == "A"
    finally:
        await a.close()
        await b.close()


async def test_a_copy_behind_the_log_writes_nothing_and_the_batch_goes_on(pg_server):
    """A lost its table to B while it stalled; B wrote to it; B stalled too and A claimed
    it back. A write from A's old copy (a move under way before the loss, queued in the
    group commit) comes at a position that exists: the commit checks the log's last
    position after the lease, writes nothing of it (``StaleCopy``, PostgreSQL refuses
    nothing), and the other tables' moves of the same batch go in."""
    url = pg_server.create_database()
    a = await open_store(url, owner="A", lease_seconds=0.4)
    b = await open_store(url, owner="B", lease_seconds=0.4)
    log_from = (pg_server.root / "log").stat().st_size
    try:
        tid, mid = await _table_with_match(a)
        await asyncio.sleep(0.5)  # A stalls
        assert [r.id for r in await b.claim_tables(mine=False)] == [tid]
        await b.write(Write(logs=[_entry(mid, 1, "B")], deadlines={tid: None}))
        await asyncio.sleep(0.5)  # B stalls
        assert [r.id for r in await a.claim_tables(mine=False)] == [tid]
        other, other_mid = await _table_with_match(a)

        stale = a.write(Write(logs=[_entry(mid, 1, "A")], deadlines={tid: None}))
        fresh = a.write(Write(logs=[_entry(other_mid, 1, "A")], deadlines={other: None}))
        said = await asyncio.gather(stale, fresh, return_exceptions=True)
        assert isinstance(said[0], StaleCopy) and said[0].table_ids == {tid}, said
        assert said[1] is None
        assert [e.data.get("by") for e in await a.log(mid)] == [None, "B"]  # B's stands
        assert [e.seq for e in await a.log(other_mid)] == [0, 1]
        # the copy read back from the log writes at the next position
        await a.write(Write(logs=[_entry(mid, 2, "A")], deadlines={tid: None}))
        assert [e.seq for e in await a.log(mid)] == [0, 1, 2]
    finally:
        await a.close()
        await b.close()
    with (pg_server.root / "log").open("rb") as f:
        f.seek(log_from)
        server = f.read().decode(errors="replace")
    assert "duplicate key" not in server and " ERROR: " not in server, server[-2000:]
