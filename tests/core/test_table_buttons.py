"""The table message's buttons through a table's life, and what the end of a match shows."""

from __future__ import annotations

from tests.core.harness import make_harness, user


def _labels(post):
    return [b.label for row in post.buttons for b in row]


def _action(post, what: str) -> str:
    return next(b.action for row in post.buttons for b in row if b.action.endswith(what))


async def test_the_lobby_offers_join_add_bot_and_start(tmp_path):
    h = await make_harness(tmp_path / "b.db", seed_window=0)
    await h.cmd("alice", "/table create")
    lobby = h.last("table:1")
    assert _labels(lobby) == ["Join", "Add bot"]
    add_bot = _action(lobby, ":addbot")
    # not the host: refused, nothing changes
    r = await h.press("bob", add_bot)
    assert len(r) == 1 and not r[0].ok and "host" in r[0].text
    assert h.table().seats[1:] == [None, None, None]
    # the host (or an admin) seats bots with it
    assert (await h.press("alice", add_bot))[0].ok
    assert (await h.press(user("root", admin=True), add_bot))[0].ok
    assert [s is not None and s.is_bot for s in h.table().seats] == [False, True, True, False]
    await h.cmd("bob", "/join")
    full = h.last("table:1")
    assert _labels(full) == ["Join", "Start"]  # no free seat: no Add bot
    r = await h.press("alice", add_bot)
    assert not r[0].ok  # the old button: the table is full now
    assert (await h.press("alice", _action(full, ":start")))[0].ok
    assert _labels(h.last("table:1")) == ["Show my hand"]
    await h.app.stop()
