"""A restarted app resumes every table where it was: same decks, same actions, same end.

Every test runs on SQLite and on PostgreSQL (the ``db`` fixture)."""

from __future__ import annotations

import asyncio

import aiosqlite
import asyncpg
import pytest

from bot.proof.drand import QUICKNET_GENESIS
from bot.store import MIGRATIONS as SQLITE_MIGRATIONS
from bot.store import open_store
from bot.store import postgres as store_postgres
from tests.core.harness import make_harness, table_with_bots

MIGRATIONS = {"sqlite": SQLITE_MIGRATIONS, "postgresql": store_postgres.MIGRATIONS}


def _facts(log):
    """What must be identical between a run and a resumed run (times aside)."""
    return [(e.seq, e.kind, e.data) for e in log]


async def _setup(path, **kw):
    h = await make_harness(path, timer=30, **kw)
    await h.cmd("alice", "/table create --timer 30 --target 300")
    await h.cmd("bob", "/join")
    await h.cmd("alice", "/addbot hard")
    await h.cmd("alice", "/addbot")
    await h.cmd("alice", "/start")
    return h


async def _finish(h, limit: int = 20000):
    t = h.table()
    for _ in range(limit):
        if t.run.over:
            return
        await h.advance(1)
    raise AssertionError("the match did not end")


async def _crash(h):
    """Stop as a killed process would: nothing more is written, nothing is cleaned up."""
    await h.app.halt()
    await h.store.close()


async def _reopen(h, **kw):
    h2 = await make_harness(h.path, start=h.clock.now(), **kw)
    return h2


async def test_resume_mid_match_ends_exactly_as_without_the_crash(db):
    ref = await _setup(db("ref"), seed_window=0)
    await _finish(ref)
    expected = _facts(await ref.store.log(1))
    await ref.app.stop()

    for stop_after in (3, 40, 95):
        h = await _setup(db(f"crash{stop_after}"), seed_window=0)
        for _ in range(stop_after):
            await h.advance(1)
        assert not h.table().run.over
        seq = h.table().run.seq
        await _crash(h)
        h2 = await _reopen(h, seed_window=0)
        t = h2.table()
        assert t.run is not None and t.run.seq == seq  # nothing lost
        # the prompt comes back to whoever is to play
        mover = t.run.to_move
        if mover in (0, 1) and not t.run.is_auto(mover):
            assert h2.posts(f"hand:1:{t.run.seats[mover].user_id}")[-1].buttons
        await _finish(h2)
        assert _facts(await h2.store.log(1)) == expected
        await h2.app.stop()


async def test_resume_during_the_seed_window_keeps_its_deadline(db):
    h = await _setup(db(), seed_window=30)
    assert h.table().run.phase == "seeds"
    await h.cmd("bob", "/seed " + "cd" * 16)
    await h.advance(10)
    await _crash(h)
    h2 = await _reopen(h, seed_window=30)
    run = h2.table().run
    assert run.phase == "seeds" and run.seat_seeds[1] == bytes.fromhex("cd" * 16)
    dl = (await h2.store.deadlines())[1]
    assert dl.kind == "seeds" and dl.due == run.started_at + 30
    await h2.advance(19)
    assert run.phase == "seeds"
    await h2.advance(1.5)
    assert run.phase == "play"
    await h2.app.stop()


async def test_resume_during_the_drand_wait(db):
    class Silent:
        async def fetch_until(self, *a, **k):
            await asyncio.Event().wait()

    h = await _setup(db(), start=QUICKNET_GENESIS - 20, drand=Silent(), seed_window=0)
    run = h.table().run
    assert run.phase == "drand"
    await h.advance(5)
    await _crash(h)
    h2 = await _reopen(h, drand=Silent(), seed_window=0)
    run = h2.table().run
    assert run.phase == "drand" and run.drand_round == 1
    await h2.advance(19)
    assert run.phase == "drand"
    await h2.advance(2)
    assert run.phase == "play" and run.drand_status == "timeout"
    await h2.app.stop()


async def test_migrations_are_versioned_and_the_log_append_only(db, backend):
    target = db()
    store = await open_store(target)
    assert await store.migrate() == len(MIGRATIONS[backend])
    await store.close()
    h = await make_harness(target, seed_window=0)
    await table_with_bots(h)
    await h.cmd("alice", "/start")
    await h.app.stop()
    if backend == "sqlite":
        async with aiosqlite.connect(target) as conn:
            (mode,) = await (await conn.execute("PRAGMA journal_mode")).fetchone()
            assert mode == "wal"
            for sql in ("UPDATE match_log SET kind = 'x'", "DELETE FROM match_log"):
                with pytest.raises(aiosqlite.IntegrityError):
                    await conn.execute(sql)
        return
    conn = await asyncpg.connect(target)
    try:
        assert await conn.fetchval("SELECT count(*) FROM match_log") > 0
        for sql in (
            "UPDATE match_log SET kind = 'x'",
            "DELETE FROM match_log",
            "TRUNCATE match_log CASCADE",
        ):
            with pytest.raises(asyncpg.RaiseError, match="append-only"):
                await conn.execute(sql)
        assert await conn.fetchval("SELECT count(*) FROM match_log WHERE kind = 'x'") == 0
    finally:
        await conn.close()


async def test_a_failed_commit_shows_nothing_and_the_table_carries_on(db):
    h = await make_harness(db(), seed_window=0)
    await table_with_bots(h)
    await h.cmd("alice", "/start")
    t = h.table()
    for _ in range(10):
        await h.advance(1)
    real = h.store._commit
    failures = []

    async def broken(w):
        if len(failures) < 2:  # the group commit, then its retry of the unit alone
            failures.append(w)
            raise OSError("disk full")
        await real(w)

    h.store._commit = broken
    for _ in range(200):
        seq, posts = t.run.seq, len(h.platform.posts)
        await h.advance(1)
        if failures:
            break
    assert failures
    assert len(h.platform.posts) == posts  # nothing shown for the lost write
    assert t.run.seq == seq == len(await h.store.log(t.run.id))  # memory == database
    await h.advance(10)  # the retry
    assert t.run.seq > seq
    assert [e.seq for e in await h.store.log(t.run.id)] == list(range(t.run.seq))
    await h.app.stop()


async def test_the_player_to_move_gets_a_fresh_timer_after_a_restart(tmp_path):
    """The bot was down, not the player: a turn whose timer ran out while the process was
    stopped is not played by the AI at once; the player's own card still counts."""
    from bot.show.texts import action_command

    h = await make_harness(tmp_path / "t.db", seed_window=0, timer=30)
    await table_with_bots(h, "alice", "--timer", "30")
    await h.cmd("alice", "/start")
    await h.until_turn(0)
    seq = h.table().run.seq
    await _crash(h)
    h.clock.set(h.clock.now() + 3600)  # stopped for an hour
    h2 = await _reopen(h, seed_window=0, timer=30)
    await h2.advance(1)
    run = h2.table().run
    assert run.seq == seq and run.to_move == 0  # nobody played for alice
    replies = await h2.cmd("alice", action_command(run.match.legal_actions(0)[0]))
    assert all(r.ok for r in replies), replies
    assert run.seq == seq + 1 and run.last_action[2] == "player"
    await h2.app.stop()
