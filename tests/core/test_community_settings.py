"""Each community's settings in the core, on SQLite and on PostgreSQL (the ``db`` fixture):
who may change them, bad values, two admins at once, per-channel values, new tables
against running ones, and a restart in the middle."""

from __future__ import annotations

import asyncio
from typing import Any

from bot.community.registry import SETTINGS
from bot.community.service import CommunitySettings
from bot.platform import Channel, User
from bot.store import open_store
from tests.core.harness import make_harness

ROOM = Channel("test:club/room")
HALL = Channel("test:club/hall")


def admin(name: str = "root") -> User:
    return User(f"test:{name}", name, is_admin=True)


async def test_two_admins_at_once_lose_neither_change(db: Any) -> None:
    """Two writers on one database (two processes' stores on PostgreSQL, one store's
    queue on SQLite): every change is kept, and the log has each exactly once."""
    path = db("community")
    h = await make_harness(path)
    other = await open_store(path, owner="second") if "postgres" in str(path) else h.store
    try:
        names = ("timer", "target", "max_tables", "spectators", "ruleset", "levels")
        values = (
            "25",
            "700",
            "4",
            "off",
            next(s for s in SETTINGS if s.name == "ruleset").choices()[-1],
            "easy",
        )
        second = CommunitySettings(other, h.clock, h.app.community.defaults)
        writers = [
            (second if i % 2 else h.app.community).change(
                admin(f"a{i}"), ROOM, [(S(name), S(name).read(value))]
            )
            for i, (name, value) in enumerate(zip(names, values, strict=True))
        ]
        await asyncio.gather(*writers)
        got = await h.app.community.values(ROOM)
        for name, value in zip(names, values, strict=True):
            assert S(name).write(got[name]) == value
        log = await h.app.community.history(ROOM, limit=50)
        assert sorted(c.key for c in log) == sorted(names)
    finally:
        if other is not h.store:
            await other.close()
        await h.app.stop()


def S(name: str) -> Any:
    return next(s for s in SETTINGS if s.name == name)


async def test_rights_bad_values_channels_tables_and_a_restart(db: Any) -> None:
    path = db("rights")
    h = await make_harness(path)
    member = User("test:bob", "bob")
    staff = User("test:sue", "sue", roles=("42",))
    r = await h.cmd(member, "/settings set timer 20", ROOM)
    assert not r[0].ok and "Manage Server" in r[0].text
    assert not (await h.cmd(staff, "/settings set timer 20", ROOM))[0].ok
    assert (await h.cmd(admin(), "/settings set admin_roles 42,<@&43>", ROOM))[0].ok
    assert (await h.cmd(staff, "/settings set timer 20 levels easy,normal", ROOM))[0].ok
    before = (await h.cmd(member, "/settings", ROOM))[0].text
    for bad in (
        "timer 3", "timer 0", "timer 0.0", "timer abc", "target 0", "target 100001", "levels",
        "levels easy,godlike",
        "language xx", "max_tables 0", "max_tables 1001", "tables maybe", "admin_roles abc",
        "nothing 1", "ruleset nope", "timer 20 target", "admin_roles 1 here",
    ):  # fmt: skip
        out = await h.cmd(admin(), f"/settings set {bad}", ROOM)
        assert len(out) == 1 and not out[0].ok and "\n" not in out[0].text, (bad, out)
    assert (await h.cmd(member, "/settings", ROOM))[0].text == before
    # a channel's own value, and the server's for the others
    assert (await h.cmd(admin(), "/settings set max_tables 1 tables on here", HALL))[0].ok
    assert (await h.cmd(admin(), "/settings set tables off", ROOM))[0].ok
    refused = await h.cmd(member, "/table create", ROOM)
    assert "tables off" in refused[0].text
    assert (await h.cmd(member, "/table create", HALL))[0].ok
    assert "too many" in (await h.cmd("carol", "/table create", HALL))[0].text
    assert "easy, normal" in (await h.cmd(member, "/addbot hard", HALL))[0].text
    running = h.app.tables[1]
    assert running.settings.timer == 20
    assert (await h.cmd(staff, "/settings set timer 50", ROOM))[0].ok
    assert running.settings.timer == 20, "a table keeps the values it started with"
    await h.app.stop()

    h2 = await make_harness(path, start=h.clock.now())
    try:
        assert not (await h2.cmd(member, "/settings set timer 30", ROOM))[0].ok
        shown = (await h2.cmd(member, "/settings", HALL))[0].text
        assert "(timer): 50, set for the server" in shown
        assert "(max_tables): 1, set for this channel" in shown
        assert h2.app.tables[1].settings.timer == 20
        await h2.cmd(member, "/table close", HALL)
        assert (await h2.cmd(member, "/table create", HALL))[0].ok
        assert max(h2.app.tables.values(), key=lambda t: t.id).settings.timer == 50
        log = (await h2.cmd(member, "/settings log", ROOM))[0].text
        assert "sue: timer 20 → 50 (server)" in log and "(channel hall)" in log
    finally:
        await h2.app.stop()


async def test_a_community_language_and_host_bounds(db: Any) -> None:
    h = await make_harness(db("language"))
    try:
        assert (await h.cmd(admin(), "/settings set language fr host_rules off", ROOM))[0].ok
        out = await h.cmd("bob", "/table create --timer 30", ROOM)
        assert not out[0].ok and "host_rules off" in out[0].text and "l’hôte" in out[0].text
        assert (await h.cmd("bob", "/table create", ROOM))[0].text.startswith("Table t1")
    finally:
        await h.app.stop()
