"""A table leased to one process at a time (PostgreSQL): a process that stalled past its
lease finds its table gone at its next change, tells the player, and changes nothing; the
process that took the table over plays it on from its log."""

from __future__ import annotations

import asyncio

from tests.core.harness import make_harness

LEASE = 0.5


async def test_a_stalled_process_loses_its_table_to_another_and_writes_nothing(pg_server):
    url = pg_server.create_database()
    h1 = await make_harness(url, owner="one", lease_seconds=LEASE, seed_window=0, timer=600)
    await h1.cmd("alice", "/table create --target 150")
    for _ in range(3):
        await h1.cmd("alice", "/addbot")
    await h1.cmd("alice", "/start")
    for _ in range(5):
        await h1.advance(1)
    run = h1.table().run
    seq = run.seq
    await h1.app.freeze_leases()  # process one freezes: nothing renews its lease
    await asyncio.sleep(LEASE * 1.5)

    # (a longer lease for process two: a loaded test machine must not stall it past it)
    h2 = await make_harness(url, owner="two", lease_seconds=10, seed_window=0, timer=600)
    assert 1 in h2.app.tables and h2.table().run.seq == seq  # taken over, from the log
    assert (await h2.store.lease_of(1))[0] == "two"

    # process one wakes up: alice's command there changes nothing and says why
    posts = len(h1.platform.posts)
    [reply] = await h1.cmd("alice", "/leave")
    assert not reply.ok and reply.text == "That table is closed."
    assert 1 not in h1.app.tables  # dropped at once, its timer with it
    assert "table-1" not in h1.scheduler.pending()
    await h1.advance(5)
    assert len(h1.platform.posts) == posts  # nothing shown for a change never made
    assert len(await h2.store.log(run.id)) == seq

    # process two plays it to the end; the log is whole, with nothing from process one
    t = h2.table()
    for _ in range(5000):
        if t.run.over:
            break
        await h2.advance(1)
    assert t.run.over
    log = await h2.store.log(run.id)
    assert [e.seq for e in log] == list(range(len(log)))
    assert not any(e.kind == "leave" for e in log)
    await h2.app.stop()
    h1.scheduler.shutdown()
    await h1.store.close()
