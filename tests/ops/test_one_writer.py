"""One writer per database: a second ``belote run`` on a SQLite file a live bot runs is
refused, naming who holds it; ``admin close`` is refused while a live bot holds the
database (SQLite) or the table's lease (PostgreSQL), and changes nothing; the read-only
commands (export, admin tables) open the database read-only and never change it, not
even its journal mode; ``admin tables`` counts idle time from the last move and shows who
runs each table."""

from __future__ import annotations

import asyncio
import hashlib
import os
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from adapters.cli import main
from adapters.cli.ops_commands import backup_sqlite
from bot.store import LogEntry, MatchRow, TableRow, Write, open_store
from bot.store.lock import holder_of
from tests.core.harness import make_harness, table_with_bots
from tests.ops.test_startup import belote, one_error

ROOT = Path(__file__).resolve().parents[2]
CONSOLE = ["run", "--platform", "console", "--no-drand", "--bot-delay", "0"]


def _bot(db: Path, cwd: Path) -> subprocess.Popen[str]:
    """A live bot on ``db``: the console, its input left open so it keeps running."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("BELOTE_", "DISCORD_"))}
    proc = subprocess.Popen(
        [sys.executable, "-m", "adapters.cli", *CONSOLE, "--db", str(db)],
        stdin=subprocess.PIPE,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        cwd=cwd,
        env={**env, "PYTHONPATH": str(ROOT), "TELEGRAM_TOKEN": ""},
    )
    assert proc.stdin is not None
    proc.stdin.write("alice: /table create\nalice: /addbot\n")
    proc.stdin.flush()
    deadline = time.monotonic() + 30
    while holder_of(db) is None or not _has_table(db):
        assert proc.poll() is None, proc.stderr.read() if proc.stderr else ""
        assert time.monotonic() < deadline, "the bot did not start"
        time.sleep(0.1)
    return proc


def _has_table(db: Path) -> bool:
    try:
        with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as c:
            return bool(c.execute("SELECT count(*) FROM tables").fetchone()[0])
    except sqlite3.Error:
        return False


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_a_second_bot_and_admin_close_are_refused_while_one_runs(tmp_path: Path) -> None:
    db = tmp_path / "belote.db"
    bot = _bot(db, tmp_path)
    try:
        holder = holder_of(db)
        assert holder is not None and holder.pid == bot.pid
        code, lines, _ = belote(
            ["run", "--platform", "console", "--db", str(db)],
            tmp_path,
            stdin="bob: /table create\n",
        )
        assert code == 2
        one_error(lines, "--db", "in use by another bot process", f"pid {bot.pid}", "since")

        code, lines, _ = belote(["admin", "--db", str(db), "close", "t1"], tmp_path)
        assert code == 1
        one_error(lines, "t1 not closed", f"pid {bot.pid}", "/table close t1")

        code, out, _ = _stdout(["admin", "--db", str(db), "tables"], tmp_path)
        assert code == 0 and f"pid {bot.pid}@" in out and "open" in out
    finally:
        assert bot.stdin is not None
        bot.stdin.close()
        bot.wait(timeout=30)
    assert bot.returncode == 0
    with sqlite3.connect(db) as c:  # the second bot wrote nothing: one table, still open
        assert c.execute("SELECT id, status FROM tables").fetchall() == [(1, "open")]
    assert holder_of(db) is None  # the lock went with the process
    code, out, _ = _stdout(["admin", "--db", str(db), "close", "t1"], tmp_path)
    assert code == 0 and "closed" in out


def _stdout(args: list[str], cwd: Path) -> tuple[int, str, str]:
    res = subprocess.run(
        [sys.executable, "-m", "adapters.cli", *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        timeout=60,
    )
    return res.returncode, res.stdout, res.stderr


async def _finished_match(db: Path) -> None:
    h = await make_harness(db, seed_window=0.0)
    await table_with_bots(h, "alice", "--target", "1")
    await h.cmd("alice", "/start")
    await h.play_human_turns({0: "alice"})
    await h.app.stop()


def test_read_only_commands_never_change_the_database(tmp_path: Path) -> None:
    """``belote export`` of a backup (one file, journal mode DELETE) leaves it byte for
    byte as it was: no switch to WAL, no -wal or -shm file, no migration."""
    live = tmp_path / "live.db"
    asyncio.run(_finished_match(live))
    backup = tmp_path / "backup.db"
    backup_sqlite(live, backup)
    before = _digest(backup)
    for args in (
        ["export", "--db", str(backup), "-o", str(tmp_path / "m1.json")],
        ["admin", "--db", str(backup), "tables"],
        ["admin", "--db", str(backup), "export-all", str(tmp_path / "all")],
    ):
        code, _out, err = _stdout(args, tmp_path)
        assert code == 0, err
    assert _digest(backup) == before
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith("backup")) == [
        "backup.db"
    ]
    with sqlite3.connect(f"file:{backup}?mode=ro", uri=True) as c:
        assert c.execute("PRAGMA journal_mode").fetchone() == ("delete",)


def test_a_read_only_store_refuses_to_write(tmp_path: Path) -> None:
    db = tmp_path / "b.db"
    asyncio.run(_finished_match(db))

    async def attempt() -> None:
        store = await open_store(str(db), read_only=True)
        try:
            assert (await store.match(1)) is not None
            with pytest.raises(sqlite3.OperationalError, match=r"readonly|read-only|query_only"):
                await store.write(Write(tables=[_row(9, time.time())]))
        finally:
            await store.close()

    asyncio.run(attempt())


def _row(tid: int, at: float, match_id: int | None = None) -> TableRow:
    return TableRow(
        tid, "test:room", "alice", {"ruleset": "club"}, [None] * 4, "open", match_id, at, at
    )


async def _table_idle_for_an_hour(target: str, owner: str) -> None:
    """t1 whose last move was an hour ago, though its row was rewritten just now."""
    store = await open_store(target, owner=owner, lease_seconds=30)
    now = time.time()
    tid = await store.new_table_id()
    mid = await store.new_match_id()
    await store.write(Write(tables=[_row(tid, now - 4000)]))
    await store.write(
        Write(
            tables=[_row(tid, now, mid)],
            new_matches=[
                MatchRow(mid, tid, "test:room", "club", "c0", now - 4000, None, "playing")
            ],
            logs=[LogEntry(mid, 0, now - 3600, "start", {"x": 1})],
            deadlines={tid: None},
        )
    )
    await store.write(Write(tables=[_row(await store.new_table_id(), now)]))
    await store.close()  # the lease stays taken (no release): as a live process holds it


def test_admin_tables_idle_counts_from_the_last_move(tmp_path: Path, capsys) -> None:
    db = tmp_path / "idle.db"
    asyncio.run(_table_idle_for_an_hour(str(db), "local"))
    assert main(["admin", "--db", str(db), "tables"]) == 0
    line = next(x for x in capsys.readouterr().out.splitlines() if x.startswith("t1"))
    assert " 60m " in line, line  # not "0s": the row was rewritten just now


def test_postgresql_admin_close_waits_for_the_lease(tmp_path: Path, pg_server, capsys) -> None:
    url = pg_server.create_database()
    asyncio.run(_table_idle_for_an_hour(url, "bot-A"))
    assert main(["admin", "--db", url, "tables"]) == 0
    line = next(x for x in capsys.readouterr().out.splitlines() if x.startswith("t1"))
    assert "bot-A" in line and " 60m " in line, line

    assert main(["admin", "--db", url, "close", "t2"]) == 1
    err = capsys.readouterr().err
    assert "t2 not closed" in err and "bot-A" in err and "/table close t2" in err

    async def release() -> str:
        store = await open_store(url, owner="bot-A")
        row = await store.table(2)
        await store.release_leases()  # bot-A stops
        await store.close()
        assert row is not None
        return row.status

    assert asyncio.run(release()) == "open"  # the refusal changed nothing
    assert main(["admin", "--db", url, "close", "t2"]) == 0
    assert "closed" in capsys.readouterr().out

    async def status() -> str:
        store = await open_store(url, read_only=True)
        row = await store.table(2)
        await store.close()
        assert row is not None
        return row.status

    assert asyncio.run(status()) == "closed"
