"""Turn timers: the AI plays a turn that runs out; away twice -> replaced until /back."""

from __future__ import annotations

from tests.core.harness import make_harness, table_with_bots


async def _until_turn(h, seat: int, step: float = 1.0, limit: int = 500) -> None:
    t = h.table()
    for _ in range(limit):
        if t.run.to_move == seat and not t.run.over:
            return
        await h.advance(step)
    raise AssertionError("never the seat's turn")


async def test_timeout_then_away_then_back(tmp_path):
    h = await make_harness(tmp_path / "b.db", seed_window=0, timer=30)
    await table_with_bots(h, "alice", "--timer", "30")
    await h.cmd("alice", "/start")
    t = h.table()
    await _until_turn(h, 0)
    seq = t.run.seq
    await h.advance(29)
    assert t.run.seq == seq  # nothing before the timer runs out
    await h.advance(1.5)
    e = t.run.entries[seq]
    assert e.kind == "action" and e.data["seat"] == 0 and e.data["by"] == "timeout"
    notice = h.last("notice:1:test:alice")
    assert notice.to_user == "test:alice" and "time ran out" in notice.text
    assert not t.run.replaced[0]
    # second time in a row: replaced by the AI until /back
    await _until_turn(h, 0)
    await h.advance(31)
    assert t.run.replaced[0]
    assert "/back" in h.last("notice:1:test:alice").text
    assert "away" in h.last("table:1").text
    # the AI now plays her turns at the bot's pace, never waiting for her timer
    await _until_turn(h, 0)
    seq = t.run.seq
    await h.advance(1.5)
    assert t.run.entries[seq].data["by"] == "standin"
    r = await h.cmd("alice", "/back")
    assert r[0].ok
    assert not t.run.replaced[0] and t.run.timeouts[0] == 0
    await _until_turn(h, 0)
    assert any(b for row in h.last("hand:1:test:alice").buttons for b in row)
    r = await h.cmd("alice", "/back")
    assert not r[0].ok  # not away any more
    await h.app.stop()


async def test_nobody_waits_forever(tmp_path):
    """Four people who never play: the match still ends, nobody is thrown out."""
    h = await make_harness(tmp_path / "b.db", seed_window=0, timer=10)
    await h.cmd("a", "/table create --timer 10 --target 200")
    for name in ("b", "c", "d"):
        assert (await h.cmd(name, "/join"))[0].ok
    await h.cmd("a", "/start")
    t = h.table()
    for _ in range(5000):
        if t.run.over:
            break
        await h.advance(5)
    assert t.run.over and t.run.match.winner is not None
    assert [s.user_id for s in t.seats] == ["test:a", "test:b", "test:c", "test:d"]
    await h.app.stop()


async def test_the_table_answers_while_the_ai_thinks_and_a_player_who_beats_it_keeps_her_move(
    tmp_path,
):
    """Her timer runs out and the AI starts thinking for her (an expert may take seconds);
    the table is not held meanwhile, so she can still play, and her own card stands."""
    import asyncio

    from bot.play.thinking import think as real_think
    from bot.show.texts import action_command

    thinking, answer = asyncio.Event(), asyncio.Event()
    slow = False

    async def slow_think(view, level, seed):
        if slow:
            thinking.set()
            await answer.wait()
        return await real_think(view, level, seed)

    h = await make_harness(tmp_path / "b.db", seed_window=0, timer=30, think=slow_think)
    await table_with_bots(h, "alice", "--timer", "30")
    await h.cmd("alice", "/start")
    t = h.table()
    await _until_turn(h, 0)
    slow = True
    seq = t.run.seq
    timer = asyncio.create_task(h.advance(31))
    await asyncio.wait_for(thinking.wait(), 5)
    mine = t.run.match.legal_actions(0)[-1]
    replies = await asyncio.wait_for(h.cmd("alice", action_command(mine)), 5)
    assert all(r.ok for r in replies), replies
    assert t.run.seq == seq + 1  # played at once, while the AI still thinks
    answer.set()
    await timer
    played = t.run.entries[seq]
    assert (played.data["seat"], played.data["action"], played.data["by"]) == (
        0,
        mine.text,
        "player",
    )
    assert all(e.data.get("by") != "timeout" for e in t.run.entries[seq:] if e.kind == "action")
    assert t.run.timeouts[0] == 0
    slow = False
    await h.advance(5)  # and the bots play on
    assert t.run.seq > seq + 1
    await h.app.stop()
