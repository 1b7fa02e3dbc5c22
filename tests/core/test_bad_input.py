"""Every bad input gets a clear answer and changes nothing."""

from __future__ import annotations

from engine import card_text
from tests.core.harness import OTHER_CHANNEL, make_harness, table_with_bots


def _snapshot(h):
    t = h.table()
    return (t.run.seq if t.run else None, t.status, [s and s.user_id for s in t.seats])


async def _at_alice_turn(h):
    await table_with_bots(h)
    await h.cmd("alice", "/start")
    t = h.table()
    for _ in range(300):
        if t.run.to_move == 0:
            return t
        await h.advance(1)
    raise AssertionError


async def test_each_bad_input_is_refused_and_changes_nothing(tmp_path):
    h = await make_harness(tmp_path / "b.db", seed_window=0)
    t = await _at_alice_turn(h)
    await h.cmd("bob", "/table create")  # bob's own table t2 in the same channel
    m = t.run.match
    legal = m.legal_actions(0)
    hand = m.hand(0)
    button = h.last("hand:1:test:alice").buttons[0][0].action
    not_held = next(c for c in range(32) if c not in hand)
    illegal_held = next(
        (c for c in hand if all(a.card != c for a in legal if a.kind == "play")), None
    )
    bad = [
        ("alice", f"/play {card_text(not_held)}", None, "don't hold"),
        ("alice", "/play ZZ", None, "not a card"),
        ("alice", "/play", None, "/play"),
        ("alice", "/bid 7", None, "/bid"),
        ("alice", "/seed 1234", None, "window"),
        ("alice", "/frobnicate", None, "don't know"),
        ("alice", "/join t1", None, "already"),
        ("alice", "/start", None, "in progress"),
        ("bob", "/play 7C", None, "no match of yours"),
        ("dave", "/play 7C", None, "not seated"),
        ("carol", "/play 7C t1", None, "not seated at t1"),
        ("alice", "/play 7C", OTHER_CHANNEL, "another channel"),
        ("alice", "/table create --timer 2", None, "timer"),
        ("alice", "/table create --target x", None, "target"),
        ("alice", "/addbot wizard", None, "levels"),
        ("carol", "/kick 1 t1", None, "host"),
        ("alice", "/verify m99", None, "No finished match"),
        ("alice", "/replay m99", None, "No finished match"),
        ("alice", "/replay xyz", None, "named like m12"),
        ("alice", "/replay m1", None, "not over"),
        ("alice", "/play 7C t9", None, "no open table t9"),
    ]
    if illegal_held is not None:
        bad.append(("alice", f"/play {card_text(illegal_held)}", None, "cannot play"))
    for who, text, channel, expect in bad:
        before = _snapshot(h)
        replies = await h.cmd(who, text, channel or h_channel())
        assert len(replies) == 1 and not replies[0].ok, (text, replies)
        assert expect.lower() in replies[0].text.lower(), (text, replies[0].text)
        assert _snapshot(h) == before, text
    presses = [
        ("bob", button, None, "not your cards"),  # someone else's hand
        ("alice", button, OTHER_CHANNEL, "another channel"),
        ("alice", "garbage", None, "out of date"),
        ("alice", "t1:0:0:play 7C", None, "out of date"),  # stale nonce
        ("alice", "t77:3:0:play 7C", None, "closed"),
    ]
    for who, action, channel, expect in presses:
        before = _snapshot(h)
        replies = await h.press(who, action, channel or h_channel())
        assert len(replies) == 1 and not replies[0].ok, (action, replies)
        assert expect.lower() in replies[0].text.lower(), (action, replies[0].text)
        assert _snapshot(h) == before, action
    # a double click: the first press plays, the second is recognised and refused
    assert await h.press("alice", button) == []
    after_first = _snapshot(h)
    replies = await h.press("alice", button)
    assert not replies[0].ok and "already" in replies[0].text.lower()
    assert _snapshot(h) == after_first
    # not her turn any more
    r = await h.cmd("alice", f"/play {card_text(t.run.match.hand(0)[0])}")
    if t.run.to_move != 0:
        assert not r[0].ok and "not your turn" in r[0].text.lower()
    await h.app.stop()


async def test_malformed_seeds_are_refused(tmp_path):
    h = await make_harness(tmp_path / "b.db", seed_window=20)
    await table_with_bots(h, "alice", "--window", "20")
    await h.cmd("alice", "/start")
    t = h.table()
    assert t.run.phase == "seeds"
    for text in ("/seed", "/seed 12", "/seed " + "zz" * 16, "/seed " + "00" * 17):
        seq = t.run.seq
        r = await h.cmd("alice", text)
        assert not r[0].ok and "32 hexadecimal" in r[0].text, text
        assert t.run.seq == seq
    r = await h.cmd("alice", "/seed " + "ab" * 16)
    assert r[0].ok
    await h.app.stop()


def h_channel():
    from tests.core.harness import CHANNEL

    return CHANNEL
