"""Two bot processes' tournament services on one database: what is not one table's (a
ladder's window closing, a match's rating, a ladder counting it) happens once."""

from __future__ import annotations

import asyncio

from bot.ops.clock import FakeClock
from bot.ops.scheduler import FakeScheduler
from bot.platform import RecordingPlatform
from bot.tournaments.model import Format, Numbers
from bot.tournaments.runner import TournamentService
from bot.tournaments.store import TournamentDB
from tests.tournaments.test_runner import FakeHost

DAY = 86_400.0


async def _process(target: str, owner: str, clock: FakeClock):
    db = await TournamentDB.open(target, owner=owner)
    scheduler = FakeScheduler(clock)
    platform = RecordingPlatform()
    svc = TournamentService(db, scheduler, clock, platform, FakeHost())
    await svc.start()
    return svc, scheduler, platform


async def test_a_ladder_closes_once_and_a_match_counts_once_across_two_processes(db):
    target = db()
    clock = FakeClock()
    a, sched_a, posts_a = await _process(target, "A", clock)
    t = await a.create("u1", "test:g/c", Format.LADDER, "Spring", "club", Numbers(days=1))
    for i in range(1, 5):
        await a.join(t.id, f"u{i}", f"P{i}")
    b, sched_b, posts_b = await _process(target, "B", clock)  # loads it, arms its close too
    assert b.get(t.id).deadlines.keys() == a.get(t.id).deadlines.keys()

    # a match ends; both processes hear of it (say, each from its own shard's table)
    match = ("m1", "test:g/c", "club", [("u1", "P1"), ("u3", "P3")], [("u2", "P2"), ("u4", "P4")])
    await asyncio.gather(a.on_rated_match(*match, 0), b.on_rated_match(*match, 0))
    assert (await a.ratings.get("u1", "club")).matches == 1  # rated once
    stored = await a.db.load(t.id)
    assert stored.players["u1"].points == t.numbers.win  # counted once
    assert stored.players["u2"].losses == 1

    # the window's end: both schedulers fire the same job at the same moment
    await asyncio.gather(sched_a.advance(DAY + 1), sched_b.advance(DAY + 1))
    closed = [p for p in (*posts_a.posts, *posts_b.posts) if p.key == f"tournament:{t.id}:over"]
    assert len(closed) == 1  # announced by one process only
    jobs = await a.db.jobs_done()
    assert len(jobs) == 1 and jobs[0][0].startswith(f"tournament:{t.id}:ladder-close")
    assert a.get(t.id).status == b.get(t.id).status == "over"  # the other took the result
    await a.stop()
    await b.stop()


async def test_a_shard_runs_the_tournaments_of_its_own_servers_only(db):
    target = db()
    clock = FakeClock()
    a, _, _ = await _process(target, "A", clock)
    here = await a.create("u1", "discord:1/10", Format.LADDER, "Here", "club", Numbers(days=1))
    there = await a.create("u1", "discord:2/20", Format.LADDER, "There", "club", Numbers(days=1))
    await a.stop()

    class ShardPlatform(RecordingPlatform):
        def serves(self, channel: str) -> bool:  # as adapters/discord/shards.py does
            return channel.startswith("discord:1/")

    tdb = await TournamentDB.open(target, owner="B")
    svc = TournamentService(tdb, FakeScheduler(clock), clock, ShardPlatform(), FakeHost())
    await svc.start()
    assert set(svc.tournaments) == {here.id}  # the other server's is another shard's
    assert there.id != here.id
    await svc.stop()
