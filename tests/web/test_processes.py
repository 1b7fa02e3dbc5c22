"""Several processes on one PostgreSQL database: a socket on a process that does not run
its table sees every change and plays, each move applied once by the lease owner; when
the owner is killed, the socket plays on at the process that takes the table over."""

from __future__ import annotations

import asyncio

from adapters.web.server import WebTable
from tests.core.harness import make_harness, table_with_bots
from tests.web.harness import KEY, PUBLIC, link, page

LEASE = 0.5


async def owner_and_other(pg_server):
    url = pg_server.create_database()
    common = {"web_key": KEY, "public_url": PUBLIC, "seed_window": 0, "timer": 600}
    h1 = await make_harness(url, owner="one", lease_seconds=LEASE, **common)
    await table_with_bots(h1, "alice", "--target", "300")
    await h1.cmd("alice", "/start")
    await h1.until_turn(0)
    h2 = await make_harness(url, owner="two", lease_seconds=10, **common)
    assert 1 not in h2.app.tables  # process one runs it
    web = WebTable(h2.app, "127.0.0.1", 0, deliver=h2.platform.deliver)
    await web.start()
    return h1, h2, web


async def until(predicate, seconds: float = 10.0) -> None:
    for _ in range(int(seconds / 0.02)):
        if predicate():
            return
        await asyncio.sleep(0.02)
    raise AssertionError("it never happened")


async def test_a_socket_on_another_process_sees_the_table_and_plays_once(pg_server):
    h1, h2, web = await owner_and_other(pg_server)
    token = await link(h1, "alice")
    async with page(web, token) as p:
        await p.next("welcome")
        v = await p.view()
        run = h1.table().run
        assert v["my_seat"] == 1 and v["seq"] == run.seq and v["choices"]
        assert sorted(v["hand"]) == sorted(h1.app.table_view(_alice(), 1).hand)
        ack = await p.act(v["choices"][0]["action"], v["seq"])
        assert ack["ok"], ack
        assert run.seq == v["seq"] + 1  # applied by process one, the lease owner
        again = await p.act(v["choices"][0]["action"], v["seq"], seq=ack["seq"])
        assert again == ack and run.seq == v["seq"] + 1  # sent twice, applied once
        # process one's bots move: the socket on process two sees each change
        await h1.advance(3)
        moved = run.seq
        assert moved > v["seq"] + 1
        await p.view_where(lambda view: view["seq"] == moved)
    await web.stop()
    await h2.app.stop()
    await h1.app.stop()


async def test_when_the_owner_is_killed_the_socket_plays_on_after_the_takeover(pg_server):
    h1, h2, web = await owner_and_other(pg_server)
    token = await link(h1, "alice")
    async with page(web, token) as p:
        await p.next("welcome")
        v = await p.view()
        seq = v["seq"]
        await h1.app.halt()  # killed: nothing renews its lease, nothing answers
        await until(lambda: 1 in h2.app.tables, seconds=15)
        assert h2.table().run.seq == seq
        ack = await p.act(v["choices"][0]["action"], seq)
        assert ack["ok"], ack
        assert h2.table().run.seq == seq + 1
    await web.stop()
    await h2.app.stop()
    await h1.store.close()


def _alice():
    from tests.core.harness import user

    return user("alice")
