"""Whole tournaments driven by the runner in fake time: seats, time limits, withdrawals,
organisers, ladders, and a bot restart in the middle of a round."""

from __future__ import annotations

import asyncio
import importlib.util
import threading
import time
from collections.abc import AsyncIterator, Callable, Collection, Iterable, Mapping
from pathlib import Path
from typing import Any

import pytest

from bot.ops.clock import FakeClock, SystemClock
from bot.ops.scheduler import ApsScheduler, FakeScheduler
from bot.platform import Post, RecordingPlatform
from bot.refused import Refused
from bot.tournaments.event import Event
from bot.tournaments.formats import make_event
from bot.tournaments.model import SEAT_SECONDS, Format, NoPairing, Numbers, Outcome
from bot.tournaments.pages import Row
from bot.tournaments.progression import MakeEvent
from bot.tournaments.runner import TableRequest, TournamentService
from bot.tournaments.store import TournamentDB
from bot.tournaments.swiss import Swiss, SwissPairing, pair_swiss


class FakeHost:
    """The core's side: opens a table per request key (the same key gives the same table)."""

    def __init__(self) -> None:
        self.opened: dict[str, TableRequest] = {}
        self.closed: list[str] = []
        self.ended: set[str] = set()
        self.down = False

    async def open_tournament_table(self, request: TableRequest) -> None:
        if self.down:
            raise ConnectionError("the core is not answering")
        self.opened.setdefault(request.key, request)

    async def close_tournament_table(self, table_ref: str, reason: str) -> None:
        self.closed.append(table_ref)

    def live(self) -> list[str]:
        return [r for r in self.opened if r not in self.closed and r not in self.ended]


class Rig:
    def __init__(
        self, path: Path, clock: FakeClock, host: FakeHost, make_event: MakeEvent = make_event
    ) -> None:
        self.path, self.clock, self.host = path, clock, host
        self.make_event = make_event
        self.platform = RecordingPlatform()

    async def boot(self) -> TournamentService:
        self.db = await TournamentDB.open(self.path)
        self.scheduler = FakeScheduler(self.clock)
        self.svc = TournamentService(
            self.db,
            self.scheduler,
            self.clock,
            self.platform,
            self.host,
            make_event=self.make_event,
        )
        await self.svc.start()
        await self.scheduler.advance(0)  # deadlines that passed while down fire now
        return self.svc

    async def crash(self) -> None:
        """The process dies: nothing is stopped cleanly, memory is lost."""
        self.svc.cancel_deadlines()
        await self.db.sql.close()

    async def play_open_tables(
        self,
        winner: Callable[[TableRequest], int | None] = lambda req: 0,
        sit: Callable[[TableRequest, str], bool] = lambda req, u: True,
    ) -> int:
        """Everyone sits down (unless `sit` says no) and each open match ends."""
        played = 0
        for ref in self.host.live():
            req = self.host.opened[ref]
            for u in (*req.team_a, *req.team_b):
                if sit(req, u):
                    await self.svc.on_seated(ref, u)
        for ref in self.host.live():
            req = self.host.opened[ref]
            w = winner(req)
            self.host.ended.add(ref)
            if await self.svc.on_match_end(ref, w, 1000 if w == 0 else 800, 800):
                played += 1
        return played


@pytest.fixture
async def rig(tmp_path: Path) -> AsyncIterator[Rig]:
    r = Rig(tmp_path / "bot.db", FakeClock(), FakeHost())
    await r.boot()
    yield r
    await r.db.close()


async def _event(rig: Rig, fmt: Format, players: int, **numbers: Any) -> int:
    t = await rig.svc.create("u1", "test:guild/chan", fmt, "Cup", "club", Numbers(**numbers))
    for i in range(1, players + 1):
        await rig.svc.join(t.id, f"u{i}", f"P{i}")
    await rig.svc.start_event(t.id, "u1", False)
    return t.id


def _pairs(rig: Rig, tid: int) -> list[frozenset[int]]:
    ev = rig.svc.get(tid).event
    return [frozenset((m.a[0], m.b[0])) for m in ev.matches]


async def test_swiss_runs_to_the_end_without_rematches(rig: Rig) -> None:
    tid = await _event(rig, Format.SWISS, 12, rounds=4)
    t = rig.svc.get(tid)
    assert len(t.teams) == 6 and all(len(v) == 2 for v in t.teams.values())
    rounds = 0
    while t.status == "running":
        assert await rig.play_open_tables() > 0
        rounds += 1
    assert rounds == 4
    pairs = _pairs(rig, tid)
    assert len(pairs) == len(set(pairs)) == 12
    final = [p for p in rig.platform.posts if p.key == f"tournament:{tid}:standings"]
    assert len(final) == 1 and "standings" in final[0].text
    if importlib.util.find_spec("bot.show.render") is not None:  # the picture, when render is there
        assert final[0].image is not None and final[0].image.startswith(b"\x89PNG")
    # seats: team a in 0 and 2, team b in 1 and 3 -> the request carries both teams whole
    req = next(iter(rig.host.opened.values()))
    assert len(req.team_a) == len(req.team_b) == 2
    assert not rig.scheduler.pending()  # every deadline was disarmed


async def test_teams_are_made_at_round_one_and_kept(rig: Rig) -> None:
    tid = await _event(rig, Format.ROUNDROBIN, 8)
    t = rig.svc.get(tid)
    teams = {e: tuple(u) for e, u in t.teams.items()}
    while t.status == "running":
        await rig.play_open_tables()
    for req in rig.host.opened.values():
        assert req.team_a in teams.values() and req.team_b in teams.values()
    assert len(rig.host.opened) == 6  # 4 teams: everyone meets everyone once


async def test_missing_the_seat_deadline_puts_you_out(rig: Rig) -> None:
    tid = await _event(rig, Format.SWISS, 8, rounds=3)
    t = rig.svc.get(tid)
    late = t.teams[1][1]
    partner = t.teams[1][0]
    for ref in rig.host.live():
        req = rig.host.opened[ref]
        for u in (*req.team_a, *req.team_b):
            if u != late:
                await rig.svc.on_seated(ref, u)
    await rig.scheduler.advance(SEAT_SECONDS - 1)
    assert t.players[late].status == "in"
    await rig.scheduler.advance(1)
    assert t.players[late].status == "out" and t.players[late].reason == "no-show"
    assert t.players[partner].status == "withdrawn"
    first = next(m for m in t.event.round_matches(1) if 1 in m.a or 1 in m.b)
    assert first.forfeit and first.won_by(1) is False
    assert f"t{tid}m{first.id}" in rig.host.closed
    while t.status == "running":
        await rig.play_open_tables()
    later = [m for m in t.event.matches if m.round > 1]
    assert all(1 not in (*m.a, *m.b) for m in later)  # never paired again


async def test_nobody_turns_up_both_lose(rig: Rig) -> None:
    tid = await _event(rig, Format.ROUNDROBIN, 8)
    t = rig.svc.get(tid)
    await rig.scheduler.advance(SEAT_SECONDS)
    assert all(m.outcome is Outcome.BOTH_LOSE for m in t.event.round_matches(1))
    assert t.status == "over"  # everybody is out
    assert all(p.status != "in" for p in t.players.values())


async def test_round_time_limit_loses_undecided_matches_for_both(rig: Rig) -> None:
    tid = await _event(rig, Format.SWISS, 8, rounds=2, round_minutes=30)
    t = rig.svc.get(tid)
    refs = rig.host.live()
    for ref in refs:  # everyone sits, one match finishes, the other drags on
        req = rig.host.opened[ref]
        for u in (*req.team_a, *req.team_b):
            await rig.svc.on_seated(ref, u)
    await rig.svc.on_match_end(refs[0], 1, 700, 1001)
    rig.host.ended.add(refs[0])
    await rig.scheduler.advance(30 * 60 - 1)
    assert t.event.round == 1
    await rig.scheduler.advance(1)
    slow = t.event.match(rig.host.opened[refs[1]].match_id)
    assert slow.outcome is Outcome.BOTH_LOSE and not slow.forfeit
    assert refs[1] in rig.host.closed
    assert t.event.round == 2  # the next round started at once
    points = t.event.points()
    assert points[slow.a[0]] == points[slow.b[0]] == 0
    assert await rig.svc.on_match_end(refs[1], 0) is False  # too late: nothing changes


async def test_withdrawing_keeps_points_and_forfeits_the_match(rig: Rig) -> None:
    tid = await _event(rig, Format.ROUNDROBIN, 6, win=2, draw=1, loss=0)
    t = rig.svc.get(tid)
    await rig.play_open_tables()  # round 1: 3 teams, one sits out
    quitter = next(u for u in t.players if t.players[u].entrant == 1)
    e = t.players[quitter].entrant
    before = t.event.points()[e]
    await rig.svc.withdraw(tid, quitter)
    assert t.players[quitter].status == "withdrawn"
    while t.status == "running":
        await rig.play_open_tables()
    assert t.event.points()[e] == before
    with pytest.raises(Refused):
        await rig.svc.withdraw(tid, quitter)


async def test_restart_in_the_middle_of_a_round(db) -> None:
    clock, host = FakeClock(), FakeHost()
    target = db()
    rig = Rig(target, clock, host)
    await rig.boot()
    tid = await _event(rig, Format.SWISS, 12, rounds=3)
    refs = host.live()
    assert len(refs) == 3
    first = rig.host.opened[refs[0]]
    for u in (*first.team_a, *first.team_b):
        await rig.svc.on_seated(refs[0], u)
    await rig.svc.on_match_end(refs[0], 0, 1001, 600)
    host.ended.add(refs[0])
    second = rig.host.opened[refs[1]]
    for u in (*second.team_a, *second.team_b):
        await rig.svc.on_seated(refs[1], u)
    # Table 3: nobody has sat down yet. The bot dies and comes back 5 minutes later.
    await rig.crash()
    clock.set(clock.now() + 300)
    svc = await rig.boot()
    t = svc.get(tid)
    assert t.event.round == 1
    third = t.event.match(host.opened[refs[2]].match_id)
    assert third.outcome is Outcome.BOTH_LOSE and third.forfeit  # the seat deadline fired
    assert t.event.match(first.match_id).outcome is Outcome.A  # kept across the restart
    # The seated table plays on after the restart; its result ends the round.
    assert await svc.on_match_end(refs[1], 1, 700, 1001)
    host.ended.add(refs[1])
    assert t.event.round == 2
    while t.status == "running":
        await rig.play_open_tables()
    assert len(host.opened) == len({r.key for r in host.opened.values()})
    pairs = _pairs(rig, tid)
    assert len(pairs) == len(set(pairs))
    await rig.db.close()


async def test_restart_between_rounds_opens_the_next_round_once(db) -> None:
    clock, host = FakeClock(), FakeHost()
    target = db()
    rig = Rig(target, clock, host)
    await rig.boot()
    tid = await _event(rig, Format.ROUNDROBIN, 8)
    await rig.play_open_tables()
    opened = dict(host.opened)
    await rig.crash()
    svc = await rig.boot()
    assert svc.get(tid).event.round == 2
    assert host.opened == opened  # same keys, same tables: nothing opened twice
    while svc.get(tid).status == "running":
        await rig.play_open_tables()
    assert svc.get(tid).event.round == 3
    await rig.db.close()


async def test_tables_the_core_failed_to_open_are_asked_again_at_restart(
    db,
) -> None:
    clock, host = FakeClock(), FakeHost()
    target = db()
    rig = Rig(target, clock, host)
    await rig.boot()
    host.down = True
    tid = await _event(rig, Format.SWISS, 8, rounds=2)
    assert not host.opened and rig.svc.get(tid).event.round == 1
    await rig.crash()
    host.down = False
    svc = await rig.boot()
    assert len(host.live()) == 2
    while svc.get(tid).status == "running":
        await rig.play_open_tables()
    assert svc.get(tid).event.round == 2
    await rig.db.close()


async def test_elimination_best_of_three_replays_a_level_meeting(rig: Rig) -> None:
    tid = await _event(rig, Format.ELIMINATION, 8, best_of=3)  # 4 teams: semis and final
    t = rig.svc.get(tid)
    # Team 1's semi: won, lost, drawn -> level after three: played again in round 1.
    script = iter([0, 1, None, 0, 0])

    def winner(req: TableRequest) -> int | None:
        return next(script) if req.round == 1 and 1 in t.event.match(req.match_id).a else 0

    while t.status == "running":
        await rig.play_open_tables(winner)
    semi = [m for m in t.event.round_matches(1) if m.a == (1,)]
    assert [m.outcome for m in semi] == [Outcome.A, Outcome.B, Outcome.DRAW, Outcome.A, Outcome.A]
    assert t.event.round == 2 and t.event.champion == 1
    final = t.event.round_matches(2)
    assert {final[0].a[0], final[0].b[0]} == {1, 2}
    assert len(rig.host.opened) == 5 + 2 + 2  # every game had its own table


async def test_organiser_corrects_a_result_with_an_audit_trail(rig: Rig) -> None:
    tid = await _event(rig, Format.ROUNDROBIN, 8)
    t = rig.svc.get(tid)
    await rig.play_open_tables()
    m = t.event.round_matches(1)[0]
    with pytest.raises(Refused) as refused:
        await rig.svc.set_result(tid, "u5", False, m.id, Outcome.B)
    assert refused.value.key == "tour-err-organiser"
    await rig.svc.set_result(tid, "u1", False, m.id, Outcome.B, 600, 1001)
    assert t.event.match(m.id).outcome is Outcome.B
    await rig.svc.set_result(tid, "mod", True, m.id, Outcome.DRAW, 900, 900)  # a server manager
    trail = await rig.db.audit_trail(tid)
    assert [a for _, _, a, _ in trail] == ["result", "result"]
    assert trail[0][3]["before"]["outcome"] == "a" and trail[0][3]["after"]["outcome"] == "b"
    with pytest.raises(Refused):
        await rig.svc.set_result(tid, "u1", False, 999, Outcome.A)


async def test_organiser_drops_a_player(rig: Rig) -> None:
    tid = await _event(rig, Format.SWISS, 8, rounds=2)
    t = rig.svc.get(tid)
    with pytest.raises(Refused):
        await rig.svc.drop(tid, "u2", False, "P3")
    p = await rig.svc.drop(tid, "u1", False, "p3")
    assert p.status == "out" and p.reason == "dropped"
    assert (await rig.db.audit_trail(tid))[0][2] == "drop"
    e = p.entrant
    assert any(m.forfeit and m.won_by(e) is False for m in t.event.round_matches(1))


def swiss_unpairable_after_round_one(
    fmt: Format, entrants: int, numbers: Numbers, ratings: dict[int, float]
) -> Event:
    """A Swiss whose second round finds no pairing (as if every one were a rematch)."""

    def pairing(
        order: list[int],
        points: Mapping[int, int],
        met: Mapping[int, Collection[int]],
        had_bye: Iterable[int],
    ) -> SwissPairing:
        if any(met.values()):
            raise NoPairing("no pairing of this round avoids a rematch")
        return pair_swiss(order, points, met, had_bye)

    return Swiss(entrants, numbers, ratings, pairing=pairing)


async def test_no_pairing_ends_the_event_and_tells_the_organiser(tmp_path: Path) -> None:
    rig = Rig(tmp_path / "bot.db", FakeClock(), FakeHost(), swiss_unpairable_after_round_one)
    await rig.boot()
    tid = await _event(rig, Format.SWISS, 8, rounds=3)
    t = rig.svc.get(tid)
    await rig.play_open_tables()
    assert t.status == "over" and t.event.round == 1
    private = [p for p in rig.platform.posts if p.to_user == "u1"]
    assert private and "cannot be paired" in private[0].text
    assert not rig.host.live()
    await rig.db.close()


async def test_rotating_partners_table_of_four(rig: Rig) -> None:
    tid = await _event(rig, Format.ROUNDROBIN, 4, rotate_partners=True)
    t = rig.svc.get(tid)
    while t.status == "running":
        await rig.play_open_tables()
    partners = {frozenset(r.team_a) for r in rig.host.opened.values()}
    partners |= {frozenset(r.team_b) for r in rig.host.opened.values()}
    assert len(partners) == 6 and len(rig.host.opened) == 3


async def test_starting_needs_even_players_and_an_organiser(rig: Rig) -> None:
    t = await rig.svc.create("u1", "test:g/c", Format.SWISS, "Odd", "club", Numbers(rounds=2))
    for i in range(1, 6):
        await rig.svc.join(t.id, f"u{i}", f"P{i}")
    with pytest.raises(Refused) as r:
        await rig.svc.start_event(t.id, "u2", False)
    assert r.value.key == "tour-err-organiser"
    with pytest.raises(Refused) as r:
        await rig.svc.start_event(t.id, "u1", False)
    assert r.value.key == "tour-err-players-even"
    with pytest.raises(Refused):
        await rig.svc.join(t.id, "u3", "P3")
    await rig.svc.withdraw(t.id, "u5")
    with pytest.raises(Refused) as r:  # 4 players, 2 teams: at most 1 Swiss round
        await rig.svc.start_event(t.id, "u1", False)
    assert r.value.key == "tour-err-setup"
    assert t.status == "open" and t.event is None


# --- ladders and ratings -----------------------------------------------------------------


async def test_ladder_window_points_withdrawal_and_leaving(rig: Rig) -> None:
    t = await rig.svc.create(
        "u1",
        "test:g/c",
        Format.LADDER,
        "Spring",
        "club",
        Numbers(win=3, draw=1, loss=0, days=2),
        opens_in=3600,
    )
    assert t.status == "scheduled"
    for u in ("u1", "u2", "u3", "u4"):
        await rig.svc.join(t.id, u, u.upper())
    a, b = [("u1", "U1"), ("u2", "U2")], [("u3", "U3"), ("u4", "U4")]
    await rig.svc.on_rated_match("m0", "test:g/other", "club", a, b, 0)
    assert t.players["u1"].points == 0  # not open yet
    await rig.scheduler.advance(3600)
    assert t.status == "running"
    await rig.svc.on_rated_match("m1", "test:g/other", "club", a, b, 0)
    await rig.svc.on_rated_match("m1", "test:g/other", "club", a, b, 0)  # counted once
    await rig.svc.on_rated_match("m2", "test:g/c", "club", a, b, None)
    await rig.svc.on_rated_match("m3", "test:g/c", "classic", a, b, 1)  # another ruleset
    await rig.svc.on_rated_match("m4", "test:x/c", "club", a, b, 1)  # another server
    await rig.svc.on_rated_match("m5", "test:g/c", "club", a, b, 0, left=("u2",))
    pts = {u: p.points for u, p in t.players.items()}
    assert pts == {"u1": 3 + 1 + 3, "u2": 3 + 1 + 0, "u3": 0 + 1 + 0, "u4": 1}
    await rig.svc.withdraw(t.id, "u3")
    await rig.svc.on_rated_match("m6", "test:g/c", "club", a, b, 1)
    assert t.players["u3"].points == 1 and t.players["u4"].points == 4
    rows = await rig.svc.pages.standings_rows(t)
    assert [r["points"] for r in rows] == sorted((r["points"] for r in rows), reverse=True)
    await rig.scheduler.advance(2 * 86_400)
    assert t.status == "over"
    await rig.svc.on_rated_match("m7", "test:g/c", "club", a, b, 0)
    assert t.players["u1"].points == 7
    # the ratings moved with every rated match, whatever the ladder
    r1 = await rig.svc.ratings.get("u1", "club")
    assert r1.matches == 7 and r1.provisional
    assert (await rig.svc.ratings.get("u1", "classic")).matches == 1


async def test_ladder_close_fires_once_after_a_restart(db) -> None:
    """The window closes exactly once on the real APScheduler, even when the bot was down
    at that moment: the deadline is re-added at start and, being past, fires at once."""
    past = FakeClock(start=time.time() - 10 * 86_400)
    host = FakeHost()
    target = db()
    rig = Rig(target, past, host)
    await rig.boot()
    t = await rig.svc.create("u1", "test:g/c", Format.LADDER, "Old", "club", Numbers(days=1))
    await rig.crash()
    db = await TournamentDB.open(target)
    scheduler = ApsScheduler()
    scheduler.start()
    platform = RecordingPlatform()
    svc = TournamentService(db, scheduler, SystemClock(), platform, host)
    await svc.start()

    def closed() -> list:
        return [p for p in platform.posts if p.key == f"tournament:{t.id}:over"]

    for _ in range(200):
        if closed():
            break
        await asyncio.sleep(0.01)
    await asyncio.sleep(0.05)
    assert svc.get(t.id).status == "over"
    assert len(closed()) == 1
    scheduler.shutdown()
    await svc.stop()
    assert db.closed


async def test_ratings_move_with_team_results(rig: Rig) -> None:
    for i in range(12):
        await rig.svc.on_rated_match(
            f"r{i}", "test:g/c", "club", [("a", "A"), ("b", "B")], [("c", "C"), ("d", "D")], 0
        )
    ra, rc = await rig.svc.ratings.get("a", "club"), await rig.svc.ratings.get("c", "club")
    assert ra.display > 1000 > rc.display
    assert not ra.provisional and ra.wins == 12 and rc.losses == 12
    board = await rig.svc.ratings.leaderboard("club")
    assert [r.user_id for r in board][:2] in (["a", "b"], ["b", "a"])


async def test_correcting_the_final_after_the_end_changes_the_winner(rig: Rig) -> None:
    tid = await _event(rig, Format.ELIMINATION, 8)
    t = rig.svc.get(tid)
    while t.status == "running":
        await rig.play_open_tables()  # team a (the higher placed) wins everything
    assert t.event.champion == 1
    final = t.event.round_matches()[-1]
    posts = len([p for p in rig.platform.posts if p.key.endswith(":standings")])
    await rig.svc.set_result(tid, "u1", False, final.id, Outcome.B, 700, 1001)
    assert t.event.champion == 2 and t.status == "over"
    assert t.event.standings()[0].entrant == 2
    assert len([p for p in rig.platform.posts if p.key.endswith(":standings")]) == posts + 1
    semi = t.event.round_matches(1)[0]
    with pytest.raises(Refused):  # an earlier round can no longer change
        await rig.svc.set_result(tid, "u1", False, semi.id, Outcome.B)


async def test_only_the_players_of_a_table_can_take_its_seats(rig: Rig) -> None:
    tid = await _event(rig, Format.SWISS, 8, rounds=1)
    t = rig.svc.get(tid)
    ref = rig.host.live()[0]
    await rig.svc.on_seated(ref, "stranger")
    assert t.tables[rig.host.opened[ref].match_id].seated == set()


async def test_the_event_posts_in_its_organisers_language_even_after_a_restart(
    db,
) -> None:
    clock, host = FakeClock(), FakeHost()
    target = db()
    rig = Rig(target, clock, host)
    await rig.boot()
    t = await rig.svc.create(
        "u1", "test:guild/chan", Format.SWISS, "Coupe", "club", Numbers(rounds=2), locale="fr"
    )
    for i in range(1, 9):
        await rig.svc.join(t.id, f"u{i}", f"P{i}")
    await rig.crash()
    svc = await rig.boot()
    assert svc.get(t.id).locale == "fr"  # kept in the database
    await svc.start_event(t.id, "u1", False)
    teams = [p for p in rig.platform.posts if p.key == f"tournament:{t.id}:teams"]
    assert teams and "les équipes pour tout le tournoi" in teams[-1].text
    assert any("ronde 1" in p.text for p in rig.platform.posts)
    assert not any("the teams for the whole event" in p.text for p in rig.platform.posts)


class CallingBackPlatform(RecordingPlatform):
    """Delivers like the recording platform; on the standings post it first asks the
    service for a change (a join), which waits forever if the lock is still held."""

    def __init__(self) -> None:
        super().__init__()
        self.svc: TournamentService | None = None
        self.joined_meanwhile = False

    async def deliver(self, post: Post) -> None:
        if post.key.endswith(":standings") and self.svc is not None:
            [other] = self.svc.in_channel("test:g/other")
            await asyncio.wait_for(self.svc.join(other.id, "u9", "P9"), timeout=2)
            self.joined_meanwhile = True
        await super().deliver(post)


async def test_the_standings_picture_is_drawn_off_the_loop_and_posted_after_the_lock(
    tmp_path: Path,
) -> None:
    loop_thread = threading.get_ident()
    drawn_in: list[int] = []

    def draw(title: str, rows: list[Row], names: list[str]) -> bytes:
        drawn_in.append(threading.get_ident())
        return b"\x89PNG " + title.encode()

    clock, platform = FakeClock(), CallingBackPlatform()
    db = await TournamentDB.open(tmp_path / "bot.db")
    svc = TournamentService(
        db, FakeScheduler(clock), clock, platform, FakeHost(), draw_standings=draw
    )
    platform.svc = svc
    await svc.start()
    await svc.create("u9", "test:g/other", Format.SWISS, "Next", "club", Numbers())
    t = await svc.create("u1", "test:g/c", Format.ROUNDROBIN, "Cup", "club", Numbers())
    for i in range(1, 5):
        await svc.join(t.id, f"u{i}", f"P{i}")
    await svc.start_event(t.id, "u1", False)
    [ref] = [s.table_ref for s in t.tables.values()]
    assert ref is not None
    assert await svc.on_match_end(ref, 0, 1001, 600)  # one match: the event is over
    [final] = [p for p in platform.posts if p.key == f"tournament:{t.id}:standings"]
    assert final.image == b"\x89PNG Cup: standings"
    assert drawn_in and loop_thread not in drawn_in  # drawn in a worker thread
    assert platform.joined_meanwhile  # posted with the lock free: the service took a change
    _text, image = await svc.pages.standings_answer(t, "en")
    assert image == b"\x89PNG Cup: standings" and len(drawn_in) == 2
    assert loop_thread not in drawn_in
    await svc.stop()
