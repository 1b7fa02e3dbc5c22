"""The app as the tournament runner's TableHost: reserved seats, auto start, results."""

from __future__ import annotations

import asyncio

from bot.tournaments.runner import TableRequest
from tests.core.harness import CHANNEL, make_harness


class FakeService:
    def __init__(self) -> None:
        self.calls: list[tuple] = []

    async def on_seated(self, ref, user_id):
        self.calls.append(("seated", ref, user_id))

    async def on_match_end(self, ref, winner, a, b):
        self.calls.append(("end", ref, winner, a, b))
        return True

    async def on_rated_match(self, ref, channel, ruleset, a, b, winner, left, from_lobby=True):
        self.calls.append(("rated", ref, ruleset, tuple(a), tuple(b), winner, from_lobby))


def request(key="tour-1-m1"):
    return TableRequest(
        key=key,
        tournament_id=1,
        match_id=1,
        round=1,
        channel=CHANNEL.id,
        ruleset="classic",
        title="Cup, round 1",
        team_a=("test:a1", "test:a2"),
        team_b=("test:b1", "test:b2"),
        seat_deadline=0,
        round_deadline=0,
    )


async def test_tournament_table_reserved_seats_auto_start_and_result(tmp_path):
    h = await make_harness(tmp_path / "b.db", seed_window=0, timer=10)
    service = FakeService()
    h.app.tournaments = service
    await h.app.open_tournament_table(request())
    await h.app.open_tournament_table(request())  # same key: same table
    assert len(h.app.tables) == 1
    t = h.table()
    r = await h.cmd("intruder", "/join")
    assert not r[0].ok and "tournament" in r[0].text
    for name in ("b2", "a1", "b1"):
        assert (await h.cmd(name, "/join"))[0].ok
    assert t.status == "open"
    assert (await h.cmd("a2", "/join"))[0].ok
    assert t.status == "playing"
    assert [s.user_id for s in t.run.seats] == ["test:a1", "test:b1", "test:a2", "test:b2"]
    for _ in range(20000):
        if t.run.over:
            break
        await h.advance(5)
    await asyncio.sleep(0.05)
    winner = t.run.match.winner
    assert ("end", "tour-1-m1", winner, *t.run.match.scores) in service.calls
    rated = [c for c in service.calls if c[0] == "rated"]
    assert len(rated) == 1 and rated[0][-1] is False  # not a lobby match
    assert rated[0][3] == (("test:a1", "a1"), ("test:a2", "a2"))
    assert len([c for c in service.calls if c[0] == "seated"]) == 4
    assert t.status == "closed"
    # asked again (a restart before the runner heard of the result): the same, finished
    # table answers again; no second table is opened
    ends = len([c for c in service.calls if c[0] == "end"])
    await h.app.open_tournament_table(request())
    await asyncio.sleep(0.05)
    assert h.app.tables == {}
    assert len([c for c in service.calls if c[0] == "end"]) == ends + 1
    await h.app.stop()


async def test_close_tournament_table_stops_the_match(tmp_path):
    h = await make_harness(tmp_path / "b.db", seed_window=0)
    h.app.tournaments = FakeService()
    await h.app.open_tournament_table(request("k"))
    for name in ("a1", "a2", "b1", "b2"):
        await h.cmd(name, "/join")
    t = h.table()
    assert t.status == "playing"
    await h.app.close_tournament_table("k", "time")
    assert t.status == "closed" and t.run.aborted
    assert t.run.server_seed.hex() in h.last(f"reveal:{t.run.id}").text
    assert not h.app.busy()
    await h.app.stop()
