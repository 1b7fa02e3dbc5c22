"""SIGKILL the bot in the middle of matches, restart it on the same database: every
match ends exactly as it would have without the kill, and no action is lost or doubled.

On SQLite and on PostgreSQL. There the restarted process has a new name: it takes the
tables over once the killed one's leases run out (``--lease 2``), and finishes them."""

from __future__ import annotations

import asyncio
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import asyncpg
import pytest

from bot.store import is_postgres

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = (
    "\n".join(
        line
        for tid, host in (("t1", "alice"), ("t2", "bob"))
        for line in (
            f"{host}: /table create --target 400",
            f"{host}: /addbot easy {tid}",
            f"{host}: /addbot {tid}",
            f"{host}: /addbot hard {tid}",
            f"{host}: /leave {tid}",
            f"{host}: /addbot normal {tid}",
            f"{host}: /start {tid}",
        )
    )
    + "\n"
)
ARGS = ["--platform", "console", "--no-drand", "--bot-delay", "0.02", "--random-seed", "kill"]


def _cmd(db: Path | str) -> list[str]:
    lease = ["--lease", "2"] if is_postgres(str(db)) else []
    return [sys.executable, "-m", "adapters.cli", "run", "--db", str(db), *ARGS, *lease]


def _env() -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(ROOT), "DISCORD_TOKEN": "", "TELEGRAM_TOKEN": ""}


LOG_SQL = "SELECT match_id, seq, kind, data FROM match_log ORDER BY match_id, seq"
ACTIONS_SQL = "SELECT COUNT(*) FROM match_log WHERE kind = 'action'"


def _rows(db: Path | str, sql: str) -> list[tuple]:
    if not is_postgres(str(db)):
        with sqlite3.connect(db) as c:
            return list(c.execute(sql))

    async def fetch() -> list[tuple]:
        conn = await asyncpg.connect(str(db))
        try:
            return [tuple(r) for r in await conn.fetch(sql)]
        finally:
            await conn.close()

    return asyncio.run(fetch())


def _logs(db: Path | str) -> dict[int, list[tuple]]:
    out: dict[int, list[tuple]] = {}
    for mid, seq, kind, data in _rows(db, LOG_SQL):
        out.setdefault(mid, []).append((seq, kind, data))
    return out


def _actions(db: Path | str) -> int:
    try:
        return _rows(db, ACTIONS_SQL)[0][0]
    except (sqlite3.Error, asyncpg.PostgresError):
        return 0


@pytest.mark.slow
def test_sigkill_mid_match_and_restart(db):
    ref_db = db("ref")
    ref = subprocess.run(
        _cmd(ref_db),
        input=SCRIPT,
        text=True,
        capture_output=True,
        env=_env(),
        cwd=ROOT,
        timeout=240,
    )
    assert ref.returncode == 0, ref.stderr
    expected = _logs(ref_db)
    assert len(expected) == 2 and all(log[-1][1] == "end" for log in expected.values())

    killed = db("killed")
    for kills, target in enumerate((40, 140)):  # kill twice, at different points
        proc = subprocess.Popen(
            _cmd(killed),
            stdin=subprocess.PIPE,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            text=True,
            env=_env(),
            cwd=ROOT,
        )
        if kills == 0:
            proc.stdin.write(SCRIPT)
            proc.stdin.flush()
        deadline = time.monotonic() + 120
        while _actions(killed) < target and time.monotonic() < deadline and proc.poll() is None:
            time.sleep(0.02)
        assert proc.poll() is None, "finished before the kill"
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait()
        got = _logs(killed)
        assert any(log[-1][1] != "end" for log in got.values())  # really mid-match
    final = subprocess.run(
        _cmd(killed), input="", text=True, capture_output=True, env=_env(), cwd=ROOT, timeout=240
    )
    assert final.returncode == 0, final.stderr
    got = _logs(killed)
    assert got == expected  # same decks (seeds), same actions, same result, no duplicates
    for log in got.values():
        assert [seq for seq, _, _ in log] == list(range(len(log)))
