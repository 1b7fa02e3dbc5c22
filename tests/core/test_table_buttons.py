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


async def test_at_the_end_hands_lose_their_buttons_and_the_table_shows_the_seed(tmp_path):
    h = await make_harness(tmp_path / "b.db", seed_window=0, render_images=True)
    assert (await h.cmd("alice", "/table create --target 1"))[0].ok
    await h.cmd("bob", "/join")
    for _ in range(2):
        await h.cmd("alice", "/addbot")
    await h.cmd("alice", "/start")
    run = h.table().run
    await h.play_human_turns({0: "alice", 1: "bob"})
    assert run.over and not run.aborted
    seed = run.server_seed.hex()
    reveal = h.platform.posts.index(h.last("reveal:1"))
    for who in ("alice", "bob"):
        final = h.last(f"hand:1:test:{who}")
        # the last private post of each player: after the reveal, the result, no buttons
        assert h.platform.posts.index(final) > reveal
        assert final.buttons == () and final.to_user == f"test:{who}"
        assert "m1 is over" in final.text and "wins the match" in final.text
        assert seed in final.text and final.image is not None
    table = h.last("table:1")
    assert h.platform.posts.index(table) > reveal
    assert "wins the match" in table.text and seed in table.text
    # a press on a button of an earlier hand: refused, nothing changes
    old = next(p for p in h.posts("hand:1:test:alice") if p.buttons)
    r = await h.press("alice", old.buttons[0][0].action)
    assert len(r) == 1 and not r[0].ok and r[0].text.startswith("Match m1 is over")
    await h.app.stop()


async def test_a_match_closed_by_the_host_ends_the_hands_too(tmp_path):
    h = await make_harness(tmp_path / "b.db", seed_window=0)
    await h.cmd("alice", "/table create")
    for _ in range(3):
        await h.cmd("alice", "/addbot")
    await h.cmd("alice", "/start")
    assert h.last("hand:1:test:alice").text
    assert (await h.cmd("alice", "/close"))[0].ok
    final = h.last("hand:1:test:alice")
    assert final.buttons == () and "stopped by the host" in final.text
    await h.app.stop()
