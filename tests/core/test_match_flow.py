"""A whole match through the app's entry points, in fake time."""

from __future__ import annotations

from tests.core.harness import make_harness, table_with_bots, user


async def test_human_and_three_bots_play_to_the_end(tmp_path):
    h = await make_harness(tmp_path / "b.db", seed_window=0)
    await table_with_bots(h)
    replies = await h.cmd("alice", "/start")
    assert replies[0].ok and "m1" in replies[0].text
    await h.play_human_turns({0: "alice"})
    t = h.table()
    assert t.run.over and t.status == "open"
    m = t.run.match
    assert m.winner in (0, 1)
    assert max(m.scores) >= 1000
    # the log holds the start, the seeds' close, every action and the end, in order
    log = await h.store.log(t.run.id)
    assert [e.seq for e in log] == list(range(len(log)))
    assert log[0].kind == "start" and log[-1].kind == "end"
    actions = [e for e in log if e.kind == "action"]
    assert len(actions) == len(m.actions)
    assert {e.data["by"] for e in actions} == {"player", "bot"}
    # the server seed is revealed at the end, and only then
    seed = t.run.server_seed.hex()
    reveal = h.last(f"reveal:{t.run.id}")
    assert seed in reveal.text
    before = h.platform.posts[: h.platform.posts.index(reveal)]
    assert all(seed not in p.text for p in before)
    assert all(seed not in r.text for _, r in h.replies)
    # /verify checks the finished match
    v = await h.cmd("alice", "/verify")
    assert v[0].ok, v[0].text
    assert "passed" in v[0].text
    await h.app.stop()


async def test_commitment_is_the_first_post_of_the_match(tmp_path):
    h = await make_harness(tmp_path / "b.db", seed_window=0)
    await table_with_bots(h)
    n = len(h.platform.posts)
    await h.cmd("alice", "/start")
    first = h.platform.posts[n]
    assert first.key == "commit:1"
    assert h.table().run.commitment in first.text
    await h.app.stop()


async def test_table_message_is_edited_in_place(tmp_path):
    h = await make_harness(tmp_path / "b.db", seed_window=0)
    await table_with_bots(h)
    await h.cmd("alice", "/start")
    await h.advance(20)
    public_keys = {p.key for p in h.platform.posts if p.to_user is None}
    # one table message, the commitment, the seeds: no post per card
    assert public_keys <= {"table:1", "commit:1", "seeds:1", "drand:1"}
    assert len([p for p in h.platform.posts if p.key == "table:1"]) > 5
    await h.app.stop()


async def test_buttons_play_like_commands(tmp_path):
    h = await make_harness(tmp_path / "b.db", seed_window=0)
    await table_with_bots(h)
    await h.cmd("alice", "/start")
    t = h.table()
    for _ in range(200):
        if t.run.to_move == 0:
            break
        await h.advance(1)
    hand = h.last("hand:1:test:alice")
    button = hand.buttons[0][0]
    assert len(button.action.encode()) <= 60
    seq = t.run.seq
    assert await h.press("alice", button.action) == []
    assert t.run.seq > seq
    await h.app.stop()


async def test_several_tables_per_channel(tmp_path):
    h = await make_harness(tmp_path / "b.db", seed_window=0)
    await table_with_bots(h, "alice")
    await table_with_bots(h, "bob")
    listing = await h.cmd("carol", "/table list")
    assert "t1" in listing[0].text and "t2" in listing[0].text
    r = await h.cmd("bob", "/start")
    assert r[0].ok and "t2" in r[0].text
    assert h.app.tables[2].status == "playing" and h.app.tables[1].status == "open"
    await h.app.stop()


async def test_host_or_admin_only(tmp_path):
    h = await make_harness(tmp_path / "b.db", seed_window=0)
    await h.cmd("alice", "/table create")
    await h.cmd("bob", "/join")
    r = await h.cmd("bob", "/addbot")
    assert not r[0].ok
    r = await h.cmd(user("root", admin=True), "/addbot t1")
    assert r[0].ok
    r = await h.cmd("bob", "/kick 1")
    assert not r[0].ok
    r = await h.cmd("alice", "/kick 2")
    assert r[0].ok and h.table().seats[1] is None
    t = h.table()
    r = await h.cmd("alice", "/close")
    assert r[0].ok and t.status == "closed"
    assert 1 not in h.app.tables  # a closed table leaves memory, its rows stay
    assert (await h.store.table(1)).status == "closed"
    assert not (await h.press("alice", "t1:0:-:join"))[0].ok
    await h.app.stop()


async def test_posts_carry_the_renderers_pictures(tmp_path):
    h = await make_harness(tmp_path / "b.db", seed_window=0, render_images=True)
    await table_with_bots(h)
    await h.cmd("alice", "/start")
    table = h.last("table:1")
    hand = h.last("hand:1:test:alice")
    assert table.image is not None and table.image.startswith(b"\x89PNG")
    assert hand.image is not None and hand.image.startswith(b"\x89PNG")
    r = await h.cmd("alice", "/hand")
    assert r[0].image is not None and r[0].buttons == hand.buttons
    assert r[0].key == hand.key == "hand:1:test:alice"  # the reply is that hand
    shown = await h.press("alice", h.last("table:1").buttons[0][0].action)  # Show my hand
    assert shown[0].key == hand.key
    await h.app.stop()


async def test_rules_help_and_score(tmp_path):
    h = await make_harness(tmp_path / "b.db", seed_window=0)
    help_text = (await h.cmd("x", "/help"))[0].text
    for command in ("/table create", "/join", "/addbot", "/seed", "/play", "/verify", "/back"):
        assert command in help_text
    assert "151" in (await h.cmd("x", "/rules bulgarian"))[0].text
    await table_with_bots(h, "alice", "classic")
    assert "Classic" in (await h.cmd("alice", "/rules"))[0].text
    assert not (await h.cmd("x", "/score"))[0].ok  # nothing played yet
    await h.cmd("alice", "/start")
    score = await h.cmd("spectator", "/score")
    assert score[0].ok and "team A 0" in score[0].text
    assert not (await h.cmd("spectator", "/hand"))[0].ok
    await h.app.stop()
