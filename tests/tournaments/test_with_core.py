"""The tournament service next to the real core: same database file, the app's scheduler,
clock and platform, commands routed as the core would."""

from __future__ import annotations

import pytest

from bot.ops.clock import FakeClock
from bot.ops.scheduler import FakeScheduler
from bot.platform import Channel, RecordingPlatform, User
from bot.tournaments.commands import COMMANDS, attach_tournaments
from bot.tournaments.model import SEAT_SECONDS
from tests.tournaments.test_runner import FakeHost

app_module = pytest.importorskip("bot.app")
store_module = pytest.importorskip("bot.store")


async def test_attach_to_the_core_and_run_a_round(db) -> None:
    clock = FakeClock()
    scheduler = FakeScheduler(clock)
    platform = RecordingPlatform()
    store = await store_module.open_store(db())
    app = app_module.BeloteApp(store=store, platform=platform, clock=clock, scheduler=scheduler)
    await app.start()
    host = FakeHost()
    service = await attach_tournaments(app, host)
    assert app.tournaments is service
    here = Channel("test:g/c")
    boss = User("test:1", "Ann")
    await COMMANDS["tournament"](app, boss, here, ["create", "roundrobin", "Club", "night"])
    for n, name in enumerate(["Ann", "Bob", "Cy", "Di"], start=1):
        [r] = await COMMANDS["tournament"](app, User(f"test:{n}", name), here, ["join"])
        assert r.ok, r.text
    [r] = await COMMANDS["tournament"](app, boss, here, ["start"])
    assert r.ok, r.text
    assert len(host.live()) == 1
    # nobody sits down: the app's scheduler fires the seat deadline in fake time
    await scheduler.advance(SEAT_SECONDS)
    assert service.get(1).status == "over"
    assert any(p.key.startswith("tournament:1:") for p in platform.posts)
    # the core's own tables and ours live side by side in one file; stopping the app
    # stops the service cleanly (its database connection closed)
    await app.stop()
    assert service.db.closed
