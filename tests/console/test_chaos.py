"""Three bot processes on one PostgreSQL database, 20 all-bot tables, and the faults of a bad
day: A is stopped (SIGSTOP) while it is inside a commit, its row locks held, and B is
killed (SIGKILL) at the same moment; C, which had no table, takes every table over within
three leases and plays on. A is continued: its commit fails, it writes nothing and lets
its tables go. B is restarted; then A and C are killed at once, and B takes everything;
then B is killed and restarted under its own name, and takes its tables back.

Nothing is lost or doubled (every match's log is whole, in order, one match a table, and
every bot move in it is the decision the bot makes at that position), and no write ever
comes from a process without the lease: a trigger installed for the test checks, for every
log entry inserted, that the writing session's process (its ``application_name``) holds
the table's lease, unexpired, and records any entry that breaks it.

PostgreSQL refuses nothing (no write comes at a log position that exists: a process that
takes back a table it lost writes from the log, not from its old copy) and no process logs
a traceback. The same run goes once quiet and once beside ten CPU-bound processes started
by the test (a busy 2-core machine), with the same bounds.

Holding A inside a commit for certain: ``TEST_HOLD_COMMIT_DIR`` names a directory;
the test writes ``arm`` there, A's next commit (after its lease check, row locks held)
writes ``held`` and stalls two seconds, and the test stops A as soon as ``held`` appears.
"""

from __future__ import annotations

import asyncio
import contextlib
import importlib.util
import os
import re
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import asyncpg
import pytest

from bot.play.table import MatchRun, ai_seed
from bot.play.thinking import think
from bot.store import LogEntry, open_store
from bot.store.postgres import HOLD_COMMIT_ENV
from tests.waiting import until

ROOT = Path(__file__).resolve().parents[2]
LEASE = 3.0
TABLES = 10  # a process, for A and B; C starts with none
WITHIN = 3 * LEASE  # every takeover, from the fault to the table moving on elsewhere
LOADERS = 10  # CPU-bound processes beside the three bot processes, on a 2-core machine

CHECK_LEASES = """
CREATE TABLE lease_violations (match_id BIGINT, seq INTEGER, writer TEXT, owner TEXT);
CREATE TABLE log_writers (match_id BIGINT, seq INTEGER, writer TEXT, at TIMESTAMPTZ);
CREATE FUNCTION check_lease() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE holder TEXT; valid BOOLEAN;
BEGIN
    SELECT l.owner, l.expires > clock_timestamp() INTO holder, valid
        FROM leases l JOIN matches m ON m.table_id = l.table_id WHERE m.id = NEW.match_id;
    IF holder IS DISTINCT FROM current_setting('application_name') OR NOT valid THEN
        INSERT INTO lease_violations
            VALUES (NEW.match_id, NEW.seq, current_setting('application_name'), holder);
    END IF;
    INSERT INTO log_writers
        VALUES (NEW.match_id, NEW.seq, current_setting('application_name'), clock_timestamp());
    RETURN NEW;
END $$;
CREATE TRIGGER match_log_checks_the_lease BEFORE INSERT ON match_log
    FOR EACH ROW EXECUTE FUNCTION check_lease();
"""


async def _open_tables(proc: subprocess.Popen, out: Path, prefix: str) -> None:
    """Each host creates a table, seats four bots in it, leaves it and starts it (the
    table's id, from the database's sequence, read from what the process answers)."""
    assert proc.stdin is not None
    for i in range(TABLES):
        host = f"{prefix}{i}"
        proc.stdin.write(f"{host}: /table create --target 3000\n")
        proc.stdin.flush()

        async def created(host: str = host) -> str | None:
            found = re.search(rf"@{host} \| Table (t\d+) created", out.read_text())
            return found.group(1) if found else None

        tid = await until(created, 60, step=0.05)
        for line in ("/addbot", "/addbot", "/addbot", "/leave", "/addbot", "/start"):
            proc.stdin.write(f"{host}: {line} {tid}\n")
        proc.stdin.flush()


def _start(url: str, owner: str, out: Path, **env: str) -> subprocess.Popen:
    cmd = [
        sys.executable, "-m", "adapters.cli", "run", "--platform", "console",
        "--db", url, "--owner", owner, "--lease", str(LEASE),
        "--no-drand", "--bot-delay", "0.25", "--random-seed", f"chaos-{owner}",
    ]  # fmt: skip
    full = {**os.environ, "PYTHONPATH": str(ROOT), "DISCORD_TOKEN": "", "TELEGRAM_TOKEN": ""}
    full.pop("DATABASE_URL", None)
    full.pop(HOLD_COMMIT_ENV, None)
    full.update(env)
    proc = subprocess.Popen(
        cmd,
        stdin=subprocess.PIPE,
        stdout=out.open("a"),
        stderr=subprocess.STDOUT,
        text=True,
        env=full,
        cwd=ROOT,
    )
    return proc  # its input left open: the process runs until it is stopped


async def _until_started(out: Path, nth: int) -> None:
    """Until the process writing ``out`` has said it started, the ``nth`` time (a process
    restarted under its name appends to the same file)."""

    async def started() -> bool:
        return out.read_text().count(" started: platform") >= nth

    await until(started, 90, step=0.1)


class World:
    def __init__(self, conn: asyncpg.Connection) -> None:
        self.conn = conn

    async def owners(self) -> dict[int, str]:
        rows = await self.conn.fetch(
            "SELECT l.table_id, l.owner FROM leases l JOIN tables t ON t.id = l.table_id"
            " WHERE t.status = 'playing'"
        )
        return {r[0]: r[1] for r in rows}

    async def last_moves(self) -> dict[int, float]:
        """Each playing table's latest log entry, by when it was written."""
        rows = await self.conn.fetch(
            "SELECT m.table_id, max(g.at) FROM matches m JOIN match_log g ON g.match_id = m.id"
            " WHERE m.status = 'playing' GROUP BY m.table_id"
        )
        return {r[0]: float(r[1]) for r in rows}

    async def all_taken_by(self, owner: str, since: float) -> bool:
        """Every table is ``owner``'s and has moved since ``since`` (it runs there)."""
        owners, moves = await self.owners(), await self.last_moves()
        return (
            len(owners) == 2 * TABLES
            and set(owners.values()) == {owner}
            and all(moves.get(tid, 0.0) > since for tid in owners)
        )


async def _check_log(entries: list[LogEntry], table_id: int) -> None:
    """Whole, in order, legal, and every bot move the bot's decision at that position."""
    assert [e.seq for e in entries] == list(range(len(entries)))
    run = MatchRun.from_start(entries[0], table_id)
    for e in entries[1:]:
        if e.kind == "action":
            seat = e.data["seat"]
            assert run.to_move == seat and e.data["by"] == "bot", (e.seq, e.data)
            assert run.match is not None
            want = await think(
                run.match.view(seat), run.level_for(seat), ai_seed(run.ai_root, run.seq)
            )
            assert e.data["action"] == want.text, (e.seq, e.data, want.text)
        run.apply(e)  # raises on an illegal or misplaced entry


def _cpu_load(n: int) -> contextlib.AbstractContextManager[Any]:
    """``n`` CPU-bound processes beside the bot processes (bench/cpuload.py's: plain
    ``while True: pass``, at the test's own priority), stopped when the block ends."""
    if not n:
        return contextlib.nullcontext()
    spec = importlib.util.spec_from_file_location("cpuload", ROOT / "bench" / "cpuload.py")
    assert spec is not None and spec.loader is not None
    cpuload = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(cpuload)
    return cpuload.CpuLoad(n, settle=0.0)


@pytest.mark.slow
@pytest.mark.parametrize("loaders", [0, LOADERS], ids=["quiet", f"beside-{LOADERS}-cpu-loaders"])
async def test_stops_inside_commits_kills_and_restarts_lose_nothing(pg_server, tmp_path, loaders):
    """(Once quiet, once beside CPU loaders, from when every table plays to the end, as
    on a busy shared machine: the same faults, the same bounds.)"""
    with contextlib.ExitStack() as load:
        await _stops_inside_commits_kills_and_restarts(
            pg_server, tmp_path, lambda: load.enter_context(_cpu_load(loaders))
        )


async def _stops_inside_commits_kills_and_restarts(
    pg_server, tmp_path, load: Callable[[], object]
) -> None:
    url = pg_server.create_database()
    server_log = _server_log_size(pg_server)
    store = await open_store(url, owner="setup")  # migrated before any process starts
    await store.close()
    conn = await asyncpg.connect(url)
    await conn.execute(CHECK_LEASES)
    world = World(conn)
    hold = tmp_path / "hold-A"
    hold.mkdir()
    out = {name: tmp_path / f"{name}.out" for name in "ABC"}
    procs: dict[str, subprocess.Popen] = {}
    takeovers: dict[str, float] = {}
    phases: list[tuple[str, float]] = []
    try:
        procs["A"] = _start(url, "A", out["A"], **{HOLD_COMMIT_ENV: str(hold)})
        procs["B"] = _start(url, "B", out["B"])
        procs["C"] = _start(url, "C", out["C"])
        await asyncio.gather(
            _open_tables(procs["A"], out["A"], "a"), _open_tables(procs["B"], out["B"], "b")
        )

        async def all_playing() -> bool:
            moves = await world.last_moves()
            owners = await world.owners()
            return len(moves) == 2 * TABLES and set(owners.values()) == {"A", "B"}

        await until(all_playing, 120, step=0.2)
        load()  # the CPU loaders, if any, from now on
        await asyncio.sleep(2 * LEASE)  # a few deals' worth of log to rebuild

        # 1. A stops inside a commit (row locks held), B dies: C takes all of it
        (hold / "arm").write_text("2")

        async def held() -> bool:
            return (hold / "held").exists()

        await until(held, 30, step=0.005)
        os.kill(procs["A"].pid, signal.SIGSTOP)
        os.kill(procs["B"].pid, signal.SIGKILL)
        fault = time.time()
        phases.append(("A stopped, B killed", fault))
        procs["B"].wait()
        held_tables = {int(x) for x in (hold / "held").read_text().split()}
        assert held_tables and held_tables <= set(await world.owners())
        await until(lambda: world.all_taken_by("C", fault), WITHIN, step=0.1)
        takeovers["A stopped in a commit, B killed"] = time.time() - fault

        # 2. A goes on: its held commit fails, it writes nothing and drops its tables
        os.kill(procs["A"].pid, signal.SIGCONT)
        phases.append(("A continued", time.time()))
        await asyncio.sleep(2 + 2 * LEASE)
        assert procs["A"].poll() is None  # alive, with nothing to run
        assert set((await world.owners()).values()) <= {"A", "C"}

        # 3. B restarted; A and C killed at once: B takes everything
        procs["B"] = _start(url, "B", out["B"])
        await _until_started(out["B"], 2)  # (a start takes a while on a busy machine)
        os.kill(procs["A"].pid, signal.SIGKILL)
        os.kill(procs["C"].pid, signal.SIGKILL)
        fault = time.time()
        procs["A"].wait()
        procs["C"].wait()
        await until(lambda: world.all_taken_by("B", fault), WITHIN, step=0.1)
        takeovers["A and C killed at once"] = time.time() - fault

        # 4. B killed and restarted under its name: it takes its own tables back
        os.kill(procs["B"].pid, signal.SIGKILL)
        procs["B"].wait()
        fault = time.time()
        procs["B"] = _start(url, "B", out["B"])
        await _until_started(out["B"], 3)  # (its start, a few seconds on a busy machine)
        await until(lambda: world.all_taken_by("B", fault), WITHIN, step=0.1)
        takeovers["B restarted"] = time.time() - fault
        await asyncio.sleep(1.0)
        procs["B"].send_signal(signal.SIGTERM)  # a clean stop: it gives its leases back
        assert procs["B"].wait(timeout=60) == 0, out["B"].read_text()[-3000:]
    finally:
        for p in procs.values():
            if p.poll() is None:
                with contextlib.suppress(ProcessLookupError):
                    p.send_signal(signal.SIGCONT)
                p.kill()
                p.wait()
        violations = await conn.fetch("SELECT * FROM lease_violations")
        writers = {
            (r[0], r[1]): (r[2], r[3].timestamp())
            for r in await conn.fetch("SELECT * FROM log_writers")
        }
        await conn.close()

    print("takeovers (s):", {k: round(v, 1) for k, v in takeovers.items()})
    assert not violations, [tuple(v) for v in violations]
    a_said = out["A"].read_text()
    assert "run by another process now" in a_said  # A learnt it had lost them
    # no write at a position that exists (PostgreSQL refused nothing), no traceback
    refused = [
        line for line in _server_log_since(pg_server, server_log).splitlines() if "ERROR" in line
    ]
    assert not refused, refused[:5]
    for name, said in out.items():
        text = said.read_text()
        assert "Traceback" not in text, (name, text[-3000:])
    check = await open_store(url, owner="check")
    try:
        matches = await check.matches()
        assert len(matches) == 2 * TABLES  # one match a table: none started twice
        assert len({m.table_id for m in matches}) == 2 * TABLES
        for m in matches:
            entries = await check.log(m.id)
            assert len(entries) > 40  # it went on through the faults
            try:
                await _check_log(entries, m.table_id)
            except AssertionError:
                print("faults", phases)
                for e in entries:
                    print(e.seq, e.kind, e.data, writers.get((m.id, e.seq)))
                raise
    finally:
        await check.close()


def _server_log_since(pg_server, offset: int) -> str:
    """What PostgreSQL logged since ``offset`` (its log file, as tests/pg.py starts it)."""
    with (pg_server.root / "log").open("rb") as f:
        f.seek(offset)
        return f.read().decode(errors="replace")


def _server_log_size(pg_server) -> int:
    return (pg_server.root / "log").stat().st_size


@pytest.mark.slow
async def test_a_process_that_lost_its_tables_takes_them_back_from_the_log(pg_server, tmp_path):
    """A stops inside a commit past its lease; B takes A's tables and plays them on; B is
    killed; A goes on and takes them back. A's copies are behind the log now: A writes none
    of them (no position is written twice, PostgreSQL refuses nothing, no traceback), each
    table is rebuilt from its log and plays on, every log whole."""
    url = pg_server.create_database()
    store = await open_store(url, owner="setup")
    await store.close()
    conn = await asyncpg.connect(url)
    await conn.execute(CHECK_LEASES)
    world = World(conn)
    server_log = _server_log_size(pg_server)
    hold = tmp_path / "hold-A"
    hold.mkdir()
    out = {name: tmp_path / f"{name}.out" for name in "AB"}
    procs: dict[str, subprocess.Popen] = {}

    async def all_of(owner: str, since: float) -> bool:  # every table is owner's, moving
        owners, moves = await world.owners(), await world.last_moves()
        return (
            len(owners) == TABLES
            and set(owners.values()) == {owner}
            and all(moves.get(tid, 0.0) > since for tid in owners)
        )

    try:
        procs["A"] = _start(url, "A", out["A"], **{HOLD_COMMIT_ENV: str(hold)})
        procs["B"] = _start(url, "B", out["B"])
        await _open_tables(procs["A"], out["A"], "a")
        await until(lambda: all_of("A", 0.0), 120, step=0.2)
        await asyncio.sleep(LEASE)

        # A stops inside a commit, past its lease: B takes its tables and plays on
        (hold / "arm").write_text("2")

        async def held() -> bool:
            return (hold / "held").exists()

        await until(held, 30, step=0.005)
        os.kill(procs["A"].pid, signal.SIGSTOP)
        stopped = time.time()
        await until(lambda: all_of("B", stopped), WITHIN, step=0.1)
        await asyncio.sleep(LEASE)  # B writes well past where A's copies stand

        # B dies; once its leases ran out, A goes on: it takes its old tables back
        os.kill(procs["B"].pid, signal.SIGKILL)
        procs["B"].wait()
        await asyncio.sleep(LEASE + 0.5)
        os.kill(procs["A"].pid, signal.SIGCONT)
        back = time.time()
        await until(lambda: all_of("A", back), WITHIN, step=0.1)
        await asyncio.sleep(2.0)  # a few more moves of each, from the rebuilt tables
        procs["A"].send_signal(signal.SIGTERM)
        assert procs["A"].wait(timeout=60) == 0, out["A"].read_text()[-3000:]
    finally:
        for p in procs.values():
            if p.poll() is None:
                with contextlib.suppress(ProcessLookupError):
                    p.send_signal(signal.SIGCONT)
                p.kill()
                p.wait()
        violations = await conn.fetch("SELECT * FROM lease_violations")
        await conn.close()

    assert not violations, [tuple(v) for v in violations]
    refused = [
        line for line in _server_log_since(pg_server, server_log).splitlines() if "ERROR" in line
    ]
    assert not refused, refused[:5]  # no write at a position that exists, none refused
    a_said = out["A"].read_text()
    assert "Traceback" not in a_said, a_said[-3000:]
    assert " ERROR " not in a_said, a_said[-3000:]
    check = await open_store(url, owner="check")
    try:
        matches = await check.matches()
        assert len(matches) == TABLES
        for m in matches:
            await _check_log(await check.log(m.id), m.table_id)
    finally:
        await check.close()
