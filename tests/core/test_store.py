"""The store's guarantees, on both engines: ids from the database, group commit, a failed
unit alone; on PostgreSQL, a table leased to one process at a time."""

from __future__ import annotations

import asyncio

import pytest

from bot.store import (
    LeaseLost,
    LogEntry,
    MatchRow,
    Store,
    TableDeadline,
    TableRow,
    Write,
    open_store,
)


def _table(tid: int, now: float = 1.0, status: str = "playing") -> TableRow:
    return TableRow(tid, "test:room", "test:alice", {}, [], status, None, now, now)


def _entry(mid: int, seq: int, who: str) -> LogEntry:
    return LogEntry(mid, seq, float(seq), "action", {"by": who})


async def _table_with_match(store: Store) -> tuple[int, int]:
    tid, mid = await store.new_table_id(), await store.new_match_id()
    await store.write(
        Write(
            tables=[_table(tid)],
            new_matches=[MatchRow(mid, tid, "test:room", "club", "c0", 1.0, None, "playing")],
            logs=[LogEntry(mid, 0, 1.0, "start", {})],
            deadlines={tid: TableDeadline(tid, "turn", 5.0, 0)},
        )
    )
    return tid, mid


async def test_ids_come_from_the_database_shared_by_two_processes(db):
    target = db()
    one, two = await open_store(target), await open_store(target)
    try:
        got = await asyncio.gather(
            *(s.new_table_id() for _ in range(20) for s in (one, two)),
        )
        assert sorted(got) == list(range(1, 41))  # no id twice, none skipped
        matches = [await one.new_match_id(), await two.new_match_id()]
        assert matches == [1, 2]
    finally:
        await one.close()
        await two.close()


async def test_writes_waiting_together_share_one_commit(db):
    store = await open_store(db())
    try:
        tid, mid = await _table_with_match(store)
        before = store.commits
        await asyncio.gather(
            *(
                store.write(Write(logs=[_entry(mid, s, "a")], deadlines={tid: None}))
                for s in range(1, 41)
            )
        )
        assert 1 <= store.commits - before < 40
        assert [e.seq for e in await store.log(mid)] == list(range(41))
    finally:
        await store.close()


async def test_a_bad_unit_fails_alone(db):
    store = await open_store(db())
    try:
        tid, mid = await _table_with_match(store)
        good = Write(logs=[_entry(mid, 1, "a")], deadlines={tid: None})
        twice = Write(logs=[_entry(mid, 0, "again")], deadlines={tid: None})  # seq 0 exists
        results = await asyncio.gather(
            store.write(good), store.write(twice), return_exceptions=True
        )
        assert results[0] is None and isinstance(results[1], Exception)
        assert [e.data for e in await store.log(mid)] == [{}, {"by": "a"}]
    finally:
        await store.close()


async def test_a_log_write_must_name_its_table():
    with pytest.raises(ValueError):
        Write(logs=[_entry(1, 1, "a")]).touched()


async def test_a_table_is_leased_to_the_process_that_created_it(pg_server):
    url = pg_server.create_database()
    a = await open_store(url, owner="A", lease_seconds=30)
    b = await open_store(url, owner="B", lease_seconds=30)
    try:
        tid, mid = await _table_with_match(a)
        assert (await a.lease_of(tid))[0] == "A"
        with pytest.raises(LeaseLost):
            await b.write(Write(logs=[_entry(mid, 1, "B")], deadlines={tid: None}))
        assert await b.claim_tables(mine=False) == []  # A is alive: B takes nothing
        assert [r.id for r in await a.claim_tables()] == [tid]  # A restarted under its name
        assert len(await a.log(mid)) == 1  # B wrote nothing
    finally:
        await a.close()
        await b.close()


async def test_two_processes_never_write_to_one_table_even_at_the_handover(pg_server):
    """The holder stalls past its lease and wakes up to write just as the other process
    takes the table over. The owner is what excludes: whichever locks the lease row first
    wins the round (the stale holder's write renews its lease, or the takeover changes the
    owner and the stale write is refused), never both; the log never has an entry twice
    nor one from a process without the lease. Every other round the takeover goes first,
    so the refusal is seen for certain."""
    url = pg_server.create_database()
    lease = 0.6
    stores = {
        "A": await open_store(url, owner="A", lease_seconds=lease),
        "B": await open_store(url, owner="B", lease_seconds=lease),
    }
    try:
        tid, mid = await _table_with_match(stores["A"])
        holder, seq, writers = "A", 1, ["start"]
        refused = 0
        for round_ in range(8):
            other = "B" if holder == "A" else "A"
            await asyncio.sleep(lease * 1.2)  # the holder stalls (a long pause, a freeze)

            async def stale(who: str = holder, n: int = seq) -> str:
                await stores[who].write(Write(logs=[_entry(mid, n, who)], deadlines={tid: None}))
                return who

            async def takeover(who: str = other, n: int = seq) -> str | None:
                rows = await stores[who].claim_tables(mine=False)
                if not rows:
                    return None  # the stale holder's commit went first and renewed it
                assert [r.id for r in rows] == [tid]
                await stores[who].write(Write(logs=[_entry(mid, n, who)], deadlines={tid: None}))
                return who

            if round_ % 2:
                results = list(await asyncio.gather(stale(), takeover(), return_exceptions=True))
            else:  # the takeover first: the stale write must be refused
                took = await takeover()
                results = [await asyncio.gather(stale(), return_exceptions=True)][0] + [took]
            won = [r for r in results if isinstance(r, str)]
            assert len(won) == 1, results  # one writer a round, never two, never none
            if won[0] == other:
                assert isinstance(results[0], LeaseLost), results
                refused += 1
            holder = won[0]
            writers.append(holder)
            seq += 1
            for _ in range(3):  # its commits keep its lease alive
                w = Write(logs=[_entry(mid, seq, holder)], deadlines={tid: None})
                await stores[holder].write(w)
                writers.append(holder)
                seq += 1
            gone = "B" if holder == "A" else "A"
            with pytest.raises(LeaseLost):
                await stores[gone].write(
                    Write(logs=[_entry(mid, seq, gone)], deadlines={tid: None})
                )
        assert refused >= 4
        log = await stores["A"].log(mid)
        assert [e.seq for e in log] == list(range(seq))
        assert ["start"] + [e.data["by"] for e in log[1:]] == writers
    finally:
        for s in stores.values():
            await s.close()
