"""Two bot processes on one PostgreSQL database, each running its own table of bots; one is
killed with SIGKILL in the middle of a trick. The other takes its table over within the
lease time and plays it to the end from its log: no action lost, none doubled, every bot
decision the one the dead process would have made. A ladder whose window closes while both
run (both have its deadline armed) is closed once."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import asyncpg
import pytest

from bot.play.table import MatchRun, ai_seed
from bot.play.thinking import think
from bot.store import LogEntry, open_store
from bot.tournaments.model import Format, Numbers
from bot.tournaments.store import Deadline, Tournament, TournamentDB
from tests.waiting import until

ROOT = Path(__file__).resolve().parents[2]
LEASE = 2.0
HOSTS = {"A": "alice", "B": "bob"}
LADDER_AFTER = 6.0  # seconds from the start of the test to the ladder's close


def _script(host: str) -> str:
    return "".join(
        f"{host}: {line}\n"
        for line in (
            "/table create --target 150",
            "/addbot",
            "/addbot",
            "/addbot",
            "/leave",
            "/addbot",
            "/start",
        )
    )


def _start(url: str, owner: str, out: Path) -> subprocess.Popen[str]:
    cmd = [
        sys.executable, "-m", "adapters.cli", "run", "--platform", "console",
        "--db", url, "--owner", owner, "--lease", str(LEASE),
        "--no-drand", "--bot-delay", "0.2", "--random-seed", f"proc-{owner}",
    ]  # fmt: skip
    env = {**os.environ, "PYTHONPATH": str(ROOT), "DISCORD_TOKEN": "", "TELEGRAM_TOKEN": ""}
    env.pop("DATABASE_URL", None)
    proc = subprocess.Popen(
        cmd,
        stdin=subprocess.PIPE,
        stdout=out.open("w"),
        stderr=subprocess.STDOUT,
        text=True,
        env=env,
        cwd=ROOT,
    )
    assert proc.stdin is not None
    proc.stdin.write(_script(HOSTS[owner]))
    proc.stdin.flush()  # left open: the process keeps running until we close it
    return proc


async def _ladder(url: str, due: float) -> int:
    """A running ladder of the console's server whose window closes at ``due``."""
    db = await TournamentDB.open(url, owner="setup")
    tid = await db.next_id()
    key = f"tournament:{tid}:ladder-close:"
    now = time.time()
    t = Tournament(
        id=tid,
        channel="console:table",
        name="Spring",
        format=Format.LADDER,
        ruleset="club",
        numbers=Numbers(days=1),
        creator="console:alice",
        status="running",
        created_at=now,
        opens_at=now - 60,
        closes_at=due,
        deadlines={key: Deadline(key, "ladder-close", due)},
    )
    await db.save(t)
    await db.close()
    return tid


async def _match_of(conn: asyncpg.Connection, host: str) -> int | None:
    return await conn.fetchval(
        "SELECT m.id FROM matches m JOIN tables t ON t.id = m.table_id"
        " WHERE t.host = $1 ORDER BY m.id DESC LIMIT 1",
        f"console:{host}",
    )


async def _plays(conn: asyncpg.Connection, mid: int) -> tuple[int, float]:
    """How many cards were played in that match, and when its last entry was written."""
    row = await conn.fetchrow(
        "SELECT count(*) FILTER (WHERE kind = 'action' AND data::jsonb ->> 'action' LIKE"
        " 'play%'), max(at) FROM match_log WHERE match_id = $1",
        mid,
    )
    return int(row[0]), float(row[1] or 0.0)


async def _ended(conn: asyncpg.Connection) -> int:
    return await conn.fetchval("SELECT count(*) FROM matches WHERE status != 'playing'")


async def _expected_actions(entries: list[LogEntry], table_id: int) -> None:
    """Replay the log through the engine, checking every bot action is the decision the
    bot makes at that position (as the dead process would have made it)."""
    run = MatchRun.from_start(entries[0], table_id)
    for e in entries[1:]:
        if e.kind == "action":
            seat = e.data["seat"]
            assert run.to_move == seat and e.data["by"] == "bot"
            assert run.match is not None
            want = await think(
                run.match.view(seat), run.level_for(seat), ai_seed(run.ai_root, run.seq)
            )
            assert e.data["action"] == want.text, (e.seq, e.data, want.text)
        run.apply(e)  # raises on an illegal or misplaced entry
    assert run.over and entries[-1].kind == "end"


@pytest.mark.slow
async def test_a_killed_process_tables_are_resumed_by_the_other(pg_server, tmp_path):
    url = pg_server.create_database()
    store = await open_store(url, owner="setup")  # migrated before both start
    await store.close()
    ladder = await _ladder(url, time.time() + LADDER_AFTER)
    conn = await asyncpg.connect(url)
    procs: dict[str, subprocess.Popen[str]] = {}
    try:
        for owner in HOSTS:
            procs[owner] = _start(url, owner, tmp_path / f"{owner}.out")

        async def ladder_closed() -> bool:
            return bool(await conn.fetchval("SELECT count(*) FROM tournament_jobs"))

        await until(ladder_closed, 60)
        mid_a = await until(lambda: _match_of(conn, "alice"), 30)
        await until(lambda: _match_of(conn, "bob"), 30)

        async def mid_trick() -> bool:  # 1-3 cards of a trick on the table
            plays, _ = await _plays(conn, mid_a)
            return plays >= 12 and plays % 4 != 0

        await until(mid_trick, 120, step=0.005)
        assert procs["A"].poll() is None, "A finished before the kill"
        os.kill(procs["A"].pid, signal.SIGKILL)
        killed_at = time.time()
        procs["A"].wait()
        plays_at_kill, _ = await _plays(conn, mid_a)
        table_a = await conn.fetchval("SELECT table_id FROM matches WHERE id = $1", mid_a)

        async def resumed() -> float:
            plays, last = await _plays(conn, mid_a)
            return last if plays > plays_at_kill else 0.0

        first_after = await until(resumed, LEASE + 20)
        # the lease runs out, then B's keeper (every lease/3) takes the table over
        assert first_after - killed_at < LEASE + LEASE / 3 + 2.0, first_after - killed_at
        assert await conn.fetchval("SELECT owner FROM leases WHERE table_id = $1", table_a) == "B"

        async def both_over() -> bool:
            return await _ended(conn) == 2

        await until(both_over, 180, step=0.1)
        procs["B"].stdin.close()  # end of input: B waits for its matches, then stops
        assert procs["B"].wait(timeout=60) == 0, (tmp_path / "B.out").read_text()[-3000:]
    finally:
        for p in procs.values():
            if p.poll() is None:
                p.kill()
                p.wait()
        await conn.close()

    store = await open_store(url, owner="check")
    try:
        matches = await store.matches()
        assert len(matches) == 2 and all(m.status == "over" for m in matches)
        for m in matches:
            entries = await store.log(m.id)
            assert [e.seq for e in entries] == list(range(len(entries)))  # none lost/twice
            await _expected_actions(entries, m.table_id)
    finally:
        await store.close()

    # the ladder's close was armed in both processes and ran once
    db = await TournamentDB.open(url)
    try:
        jobs = await db.jobs_done()
        assert [k for k, _ in jobs] == [k for k, _ in jobs if k.startswith(f"tournament:{ladder}:")]
        assert len(jobs) == 1 and jobs[0][1] in ("A", "B")
        assert (await db.load(ladder)).status == "over"
    finally:
        await db.close()
    posts = "".join((tmp_path / f"{o}.out").read_text() for o in HOSTS)
    assert posts.count("Ladder Spring is closed.") == 1
