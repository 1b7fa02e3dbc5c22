"""An unexpected error in a command is logged (secrets masked) and answered; nothing else
stops: the other tables play on."""

from __future__ import annotations

import logging

from bot.ops import redact
from tests.core.harness import OTHER_CHANNEL, make_harness, table_with_bots


async def test_an_error_inside_a_command_is_answered_logged_and_contained(tmp_path, caplog):
    h = await make_harness(tmp_path / "e.db", seed_window=0, bot_delay=1.0)
    await table_with_bots(h)  # t1 here
    assert (await h.cmd("alice", "/start"))[0].ok
    assert (await h.cmd("zoe", "/table create", OTHER_CHANNEL))[0].ok  # t2 elsewhere
    for _ in range(3):
        await h.cmd("zoe", "/addbot", OTHER_CHANNEL)
    assert (await h.cmd("zoe", "/start", OTHER_CHANNEL))[0].ok
    seed = h.table(1).run.server_seed.hex()  # secret: the match is running

    async def broken(ctx):
        raise RuntimeError(f"the store said {seed}")

    score = h.app.router.handler("score")
    assert score is not None
    h.app.router.handle("score", broken)
    h.app.router.handle("hand", broken)
    caplog.set_level(logging.ERROR)
    redact.install()
    try:
        [typed] = await h.cmd("alice", "/score")
        [pressed] = await h.press("alice", "t1:0:-:hand")
    finally:
        for handler in logging.getLogger().handlers:
            handler.removeFilter(redact._installed)
        logging.getLogger().removeFilter(redact._installed)
    for reply in (typed, pressed):
        assert not reply.ok and "went wrong" in reply.text
    failures = [r for r in caplog.records if r.levelno == logging.ERROR]
    assert len(failures) == 2
    logged = caplog.text
    assert "RuntimeError" in logged and "Traceback" in logged and "broken" in logged
    assert seed not in logged and redact.MASK in logged
    # every table goes on: both matches are played to the end by their bots
    h.app.router.handle("score", score)
    for _ in range(3000):  # alice times out twice, then the AI plays her seat
        if h.table(1).run.over and h.table(2).run.over:
            break
        await h.advance(5)
    assert h.table(1).run.over and not h.table(1).run.aborted
    assert h.table(2).run.over and not h.table(2).run.aborted
    assert (await h.cmd("zoe", "/score t2", OTHER_CHANNEL))[0].ok
    await h.app.stop()


async def test_secrets_are_masked_in_logs_until_they_are_shown(tmp_path, monkeypatch):
    from tests.core.test_restart import _crash, _finish, _reopen, _setup

    monkeypatch.setattr(redact, "_secrets", {})  # this test's own process
    h = await _setup(tmp_path / "s.db", seed_window=30)
    server = h.table().run.server_seed.hex()
    mine = "cd" * 16
    assert redact.redact(server) == redact.MASK  # from the start of the match
    await h.cmd("bob", f"/seed {mine}")
    assert redact.redact(mine) == redact.MASK  # from its arrival
    await _crash(h)
    monkeypatch.setattr(redact, "_secrets", {})  # a new process knows nothing yet...
    h2 = await _reopen(h, seed_window=30)
    assert redact.redact(f"{server} {mine}") == f"{redact.MASK} {redact.MASK}"  # ...until then
    await h2.advance(31)  # the window closes: the seeds post shows every seed
    assert h2.table().run.phase == "play"
    assert redact.redact(mine) == mine and redact.redact(server) == redact.MASK
    await _finish(h2)  # the reveal
    assert redact.redact(server) == server
    await h2.app.stop()


async def test_hostile_names_are_drawn_and_played_with(tmp_path, caplog):
    """Names are the one thing a platform lets people type freely: control characters,
    a bidirectional override, a pile of combining marks, emoji, a lone surrogate."""
    from bot.platform import User
    from tests.core.harness import CHANNEL

    h = await make_harness(tmp_path / "n.db", render_images=True, seed_window=0)
    caplog.set_level(logging.WARNING)
    names = ["\x00\x1b[2J", "Z" + "\u0336" * 300, "\u202eevil", "😀" * 40, "\ud800x"]
    for i, name in enumerate(names):
        u = User(f"test:n{i}", name)
        assert (await h.app.command(u, CHANNEL, "/table create"))[0].ok
        tid = max(h.app.tables)
        for _ in range(3):
            assert (await h.app.command(u, CHANNEL, f"/addbot t{tid}"))[0].ok
        assert (await h.app.command(u, CHANNEL, f"/start t{tid}"))[0].ok
        [hand] = await h.app.command(u, CHANNEL, f"/hand t{tid}")
        assert hand.ok and hand.image is not None
    assert not [r for r in caplog.records if r.levelno >= logging.WARNING]
    await h.app.stop()
