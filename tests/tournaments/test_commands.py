"""The command handlers, as the core's router calls them: (app, user, channel, args)."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import pytest

from bot.ops.clock import FakeClock
from bot.ops.scheduler import FakeScheduler
from bot.platform import Channel, RecordingPlatform, User
from bot.tournaments.commands import COMMANDS, handle_tournament_press
from bot.tournaments.runner import TournamentService
from bot.tournaments.store import TournamentDB
from tests.tournaments.test_runner import FakeHost

HERE = Channel("test:guild/chan")


@pytest.fixture
async def app(tmp_path: Path):
    clock = FakeClock()
    db = await TournamentDB.open(tmp_path / "bot.db")
    scheduler = FakeScheduler(clock)
    host = FakeHost()
    service = TournamentService(db, scheduler, clock, RecordingPlatform(), host)
    await service.start()
    yield SimpleNamespace(
        tournaments=service, settings=SimpleNamespace(ruleset="club"), host=host, clock=clock
    )
    await db.close()


def user(n: int, admin: bool = False) -> User:
    return User(f"test:{n}", f"Player{n}", is_admin=admin)


async def cmd(app, who: User, text: str):
    words = text.split()
    name = words[0].lstrip("/")
    return await COMMANDS[name](app, who, HERE, words[1:])


async def test_a_whole_swiss_by_commands(app) -> None:
    boss = user(1)
    [r] = await cmd(
        app,
        boss,
        "/tournament create swiss Friday Cup --rounds 2 --win 2 --loss 0 --draw 1"
        " --round-minutes 40 classic",
    )
    assert r.ok and "Friday Cup" in r.text
    for n in range(1, 9):
        [r] = await cmd(app, user(n), "/tournament join")
        assert r.ok, r.text
    [r] = await cmd(app, user(2), "/tournament start")
    assert not r.ok  # only the organiser
    [info] = await cmd(app, user(3), "/tournament info")
    assert "Swiss" in info.text and "classic" in info.text
    assert info.buttons[0][0].label == "Swiss"
    assert "win 2, draw 1, loss 0" in info.text and "40 minutes" in info.text
    assert "Rounds: 2" in info.text
    [r] = await cmd(app, boss, "/tournament start #1")
    assert r.ok, r.text
    [p] = await cmd(app, user(4), "/tournament pairings")
    assert p.text.count(" vs ") == 2
    [r] = await cmd(app, user(4), "/tournament result 1 a")
    assert not r.ok
    [r] = await cmd(app, boss, "/tournament result 1 a 1001 650")
    assert r.ok, r.text
    [r] = await cmd(app, boss, "/tournament result 2 draw")
    assert r.ok
    t = app.tournaments.get(1)
    assert t.event.round == 2  # both results in: round 2 paired
    [r] = await cmd(app, boss, "/tournament result 1 b")  # a correction
    assert r.ok and t.event.match(1).outcome.value == "b"
    [r] = await cmd(app, boss, "/tournament drop Player5")
    assert r.ok and t.players["test:5"].status == "out"
    [s] = await cmd(app, user(6), "/tournament standings")
    assert s.text.splitlines()[0].startswith("Friday Cup")
    assert len(s.text.splitlines()) == 5
    [r] = await cmd(app, user(7), "/tournament withdraw")
    assert r.ok


@pytest.mark.parametrize(
    "text",
    [
        "/tournament",
        "/tournament create",
        "/tournament create knockout",
        "/tournament create swiss --best-of 2",
        "/tournament create swiss --rounds many",
        "/tournament create swiss --rounds 0",
        "/tournament create swiss --win 0 --loss 3",
        "/tournament create swiss --ruleset poker",
        "/tournament create swiss --colour red",
        "/tournament join #9",
        "/tournament info",
        "/tournament result x a",
        "/tournament drop",
        "/tournament dance",
        "/ladder",
        "/ladder create --days 0",
        "/ladder standings",
        "/stats Nobody",
    ],
)
async def test_bad_input_is_refused_and_changes_nothing(app, text: str) -> None:
    [r] = await cmd(app, user(1), text)
    assert not r.ok and r.text
    assert not app.tournaments.tournaments


async def test_ladder_stats_and_leaderboard(app) -> None:
    [r] = await cmd(app, user(1), "/ladder create club Winter --days 3 --win 3 --draw 1")
    assert r.ok, r.text
    for n in (1, 2, 3, 4):
        [r] = await cmd(app, user(n), "/ladder join")
        assert r.ok
    [r] = await cmd(app, user(1), "/tournament join #1")
    assert not r.ok  # a ladder is joined with /ladder
    svc = app.tournaments
    a = [("test:1", "Player1"), ("test:2", "Player2")]
    b = [("test:3", "Player3"), ("test:4", "Player4")]
    for i in range(10):
        await svc.on_rated_match(f"m{i}", "test:guild/lobby", "club", a, b, 0 if i % 3 else 1)
    [s] = await cmd(app, user(2), "/ladder standings")
    lines = s.text.splitlines()
    assert "Player1" in lines[1] or "Player2" in lines[1]
    assert ": 18 " in lines[1]
    [info] = await cmd(app, user(2), "/ladder info")
    assert "3 days" in info.text
    [st] = await cmd(app, user(1), "/stats")
    assert "club" in st.text and "10 matches" in st.text and "provisional" not in st.text
    [st] = await cmd(app, user(1), "/stats Player3")
    assert "Player3" in st.text and "(4 won, 0 drawn, 6 lost)" in st.text
    [lb] = await cmd(app, user(1), "/leaderboard club")
    assert lb.text.splitlines()[1].startswith("1. Player")
    [lb] = await cmd(app, user(1), "/leaderboard bulgarian")
    assert "Nobody" in lb.text


async def test_without_a_service_the_commands_say_so() -> None:
    bare = SimpleNamespace()
    for name in COMMANDS:
        [r] = await COMMANDS[name](bare, user(1), HERE, ["info"])
        assert not r.ok


async def test_the_page_buttons(app) -> None:
    [r] = await cmd(app, user(1), "/tournament create elimination Knock --best-of 3")
    fmt, join, table = r.buttons[0]
    assert all(len(b.action.encode()) <= 60 for b in (fmt, join, table))
    [numbers] = await handle_tournament_press(app, user(2), HERE, fmt.action)
    assert "best of 3" in numbers.text
    [joined] = await handle_tournament_press(app, user(2), HERE, join.action)
    assert joined.ok and "test:2" in app.tournaments.get(1).players
    [again] = await handle_tournament_press(app, user(2), HERE, join.action)
    assert not again.ok
    for stale in ("tn:join:99", "tn:dance:1", "tn:join", "xx:1:2", ""):
        [r] = await handle_tournament_press(app, user(3), HERE, stale)
        assert not r.ok
    assert set(app.tournaments.get(1).players) == {"test:2"}


async def test_a_server_admin_drops_a_player_from_a_ladder(app) -> None:
    """A bot account (or anyone) removed from a ladder by its organiser or a server admin:
    not by another player; once out, out of the standings' active list."""
    [r] = await cmd(app, user(1), "/ladder create club Spring --days 7")
    assert r.ok, r.text
    for n in (1, 2, 3):
        assert (await cmd(app, user(n), "/ladder join"))[0].ok
    t = app.tournaments.get(1)
    [r] = await cmd(app, user(2), "/ladder drop Player3")
    assert not r.ok and t.players["test:3"].status == "in"  # not the organiser
    [r] = await cmd(app, user(1), "/ladder drop")
    assert not r.ok and "/ladder drop PLAYER" in r.text
    [r] = await cmd(app, user(9, admin=True), "/ladder drop Player3")
    assert r.ok, r.text
    assert "Player3" in r.text and t.players["test:3"].status == "out"
    [r] = await cmd(app, user(1), "/ladder drop Player3")
    assert not r.ok  # already out


async def test_a_coinche_tournament_and_ladder(app) -> None:
    """Coinche is a ruleset like the others for events: named, shown, and its tables' rules."""
    [r] = await cmd(app, user(1), "/tournament create roundrobin Coupe --ruleset coinche")
    assert r.ok, r.text
    [info] = await cmd(app, user(2), "/tournament info")
    assert "coinche" in info.text
    [r] = await cmd(app, user(1, admin=True), "/ladder create --ruleset coinche")
    assert r.ok, r.text
    [info] = await cmd(app, user(2), "/ladder info")
    assert "coinche" in info.text
