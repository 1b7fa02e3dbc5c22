"""Takeovers under load: two bot processes on one PostgreSQL database, 1,000 all-bot tables
each, the default lease (10 s), quiet and then beside ``--load N`` processes loading the CPU.

While both live (``--seconds``), no table may move from its live
owner: prints how many did (each process counts the tables it took over and the ones it
lost) and how late the renewals came at worst. Then one process is killed (SIGKILL); the
other takes its 1,000 tables over: prints when the first and the last of them moved again
after the kill (a new entry in its log, written by the survivor), and the median.

    python bench/takeover.py
    python bench/takeover.py --tables 1000 --seconds 30 --load 10

``--load N`` runs the whole scenario twice in one run, each on a database of its own: quiet,
then beside N processes spinning on the CPU (``bench/cpuload.py``) from the window's start
until the last table moved again (or the wait gave up), and prints both.

Each run also prints a ``faults:`` line, counted from what the two processes and
PostgreSQL logged: writes refused at a log position that exists (duplicate keys), all the
server's errors, tracebacks, and the tables said lost to another process or found behind
their log.

The tables are bench/load.py's (four normal bots, a move a second), to a target no
match reaches in the run.

``--db`` is a ``postgresql://`` URL, or ``postgresql`` (the default): a throwaway server
of the OS package (fsync on), started and stopped here.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import asyncpg

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import load  # bench/load.py: the same all-bot tables
from cpuload import CpuLoad  # bench/cpuload.py

from bot.app import BeloteApp, Settings
from bot.ops.clock import SeededRandomness
from bot.platform import NullPlatform
from bot.store import open_store
from bot.store.postgres import LEASE_SECONDS


async def open_tables(app: BeloteApp, n: int, offset: int) -> None:
    """All-bot tables (as bench/load.py's), to a target no match reaches in the run, so
    every one is still playing when its process is killed."""
    await load.open_tables(app, n, "normal", offset, target=100000)


async def child(args: argparse.Namespace) -> None:
    """One bot process: open the tables, say ready, run until told to stop (or killed),
    then say what its lease keeper saw."""
    logging.basicConfig(level=logging.WARNING, stream=sys.stderr)
    store = await open_store(args.db, owner=args.owner, lease_seconds=args.lease)
    settings = Settings(
        bot_delay=args.bot_delay,
        drand=False,
        render_images=False,
        max_tables_per_channel=100_000,
        long_running=True,
    )
    app = BeloteApp(store, NullPlatform(), settings=settings, randomness=SeededRandomness(1))
    lost: list[int] = []
    drop = app.drop_tables

    def counted(ids: set[int]) -> None:
        lost.extend(i for i in ids if i in app.tables)
        drop(ids)

    app.drop_tables = counted  # type: ignore[method-assign]
    await app.start()
    await open_tables(app, args.tables, args.offset)
    loop = asyncio.get_running_loop()
    reader = asyncio.StreamReader()
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin)
    print("ready", flush=True)
    await reader.readline()  # go
    keeper = app._leases
    assert keeper is not None
    keeper.worst_late = 0.0
    taken0 = keeper.taken_over
    await reader.readline()  # stop
    print(
        json.dumps(
            {
                "owner": args.owner,
                "taken_over": keeper.taken_over - taken0,
                "lost": len(lost),
                "worst_late": keeper.worst_late,
                "tables": len(app.tables),
            }
        ),
        flush=True,
    )
    await reader.readline()  # the end
    await app.stop()


def start_child(
    args: argparse.Namespace, owner: str, offset: int, said: Path
) -> subprocess.Popen[str]:
    """A bot process; what it logs (warnings and errors) goes to ``said``."""
    cmd = [
        sys.executable, __file__, "--child", "--owner", owner, "--db", args.db,
        "--tables", str(args.tables), "--offset", str(offset),
        "--bot-delay", str(args.bot_delay), "--lease", str(args.lease),
    ]  # fmt: skip
    with said.open("w") as err:
        return subprocess.Popen(
            cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=err, text=True
        )


def faults(processes: list[str], server: str) -> str:
    """One line from what the processes and PostgreSQL logged: the writes the database
    refused at a position that exists, the tracebacks, and the tables each process said it
    lost to another ("run by another process now") or found behind their log."""
    dup = server.count("duplicate key value violates unique constraint")
    errors = sum(1 for line in server.splitlines() if " ERROR: " in line)
    tracebacks = sum(p.count("Traceback (most recent call last)") for p in processes)
    lost = behind = 0
    for p in processes:
        for line in p.splitlines():
            if "run by another process now" in line:
                lost += len(re.findall(r"\bt\d+\b", line.split("run by another")[0]))
            elif "behind its match log" in line:
                behind += 1
    return (
        f"faults: {dup} duplicate-key errors ({errors} errors in all) in PostgreSQL's log;"
        f" {tracebacks} tracebacks in the processes' logs; {lost} tables said lost to"
        f" another process, {behind} found behind their log"
    )


def say(p: subprocess.Popen[str], line: str) -> None:
    assert p.stdin is not None
    p.stdin.write(line + "\n")
    p.stdin.flush()


async def moved_since(
    conn: asyncpg.Connection, tables: list[int], since: float
) -> dict[int, float]:
    """When each of ``tables`` first moved after ``since`` (its first log entry then)."""
    rows = await conn.fetch(
        "SELECT m.table_id, min(g.at) FROM matches m JOIN match_log g ON g.match_id = m.id"
        " WHERE m.table_id = ANY($1::bigint[]) AND g.at > $2 GROUP BY m.table_id",
        tables,
        since,
    )
    return {r[0]: float(r[1]) for r in rows}


async def measure(
    args: argparse.Namespace, loaders: int, server_log: Path | None = None
) -> float | None:
    """The scenario once, beside ``loaders`` CPU loaders; prints its figures and returns
    the last table's delay after the kill, in leases (None if none moved again).
    ``server_log``: PostgreSQL's log file (a server started here), for the faults line."""
    store = await open_store(args.db, owner="bench-setup")  # migrated once, before both
    await store.close()
    logs = Path(tempfile.mkdtemp(prefix="takeover-"))
    said = {name: logs / f"{name}.log" for name in ("keep", "victim")}
    log_from = server_log.stat().st_size if server_log is not None else 0
    keep = start_child(args, "keep", 0, said["keep"])
    victim = start_child(args, "victim", args.tables, said["victim"])
    cpu_load = CpuLoad(loaders)
    try:
        for p in (keep, victim):
            assert p.stdout is not None
            line = p.stdout.readline()
            if line.strip() != "ready":
                raise SystemExit(f"a bench process failed: {line!r}")
        conn = await asyncpg.connect(args.db)
        owners = dict(await conn.fetch("SELECT table_id, owner FROM leases"))
        theirs = sorted(t for t, o in owners.items() if o == "victim")
        load0 = os.getloadavg()[0]
        cpu_load.__enter__()
        for p in (keep, victim):
            say(p, "go")
        await asyncio.sleep(args.seconds)
        load1 = os.getloadavg()[0]
        for p in (keep, victim):
            say(p, "stop")
        live = [json.loads(p.stdout.readline()) for p in (keep, victim)]  # type: ignore[union-attr]
        after = dict(await conn.fetch("SELECT table_id, owner FROM leases"))
        moved = sum(1 for t, o in owners.items() if after.get(t) != o)

        playing = {
            r[0]
            for r in await conn.fetch(
                "SELECT t.id FROM tables t JOIN leases l ON l.table_id = t.id"
                " WHERE l.owner = 'victim' AND t.status = 'playing'"
            )
        }
        victim.send_signal(signal.SIGKILL)
        killed = time.time()
        victim.wait()
        theirs = sorted(playing)  # the victim's matches in progress at its death
        times: dict[int, float] = {}
        while len(times) < len(theirs) and time.time() - killed < 10 * args.lease:
            await asyncio.sleep(0.25)
            times = await moved_since(conn, theirs, killed)
        load2 = os.getloadavg()[0]
        cpu_load.stop()
        owned = dict(await conn.fetch("SELECT table_id, owner FROM leases"))
        stuck = [t for t in theirs if t not in times]
        if stuck:
            rows = await conn.fetch(
                "SELECT t.id, t.status, t.match_id, d.kind, d.nonce, d.due,"
                " (SELECT count(*) FROM match_log g WHERE g.match_id = t.match_id)"
                " FROM tables t LEFT JOIN deadlines d ON d.table_id = t.id"
                " WHERE t.id = ANY($1::bigint[]) ORDER BY t.id LIMIT 5",
                stuck,
            )
            print("not moving again (table, status, match, deadline, nonce, due, log):")
            for r in rows:
                print("  ", tuple(r))
        await conn.close()
        say(keep, "end")
        keep.wait(timeout=120)
    finally:
        cpu_load.stop()
        for p in (keep, victim):
            if p.poll() is None:
                p.kill()
                p.wait()

    print(
        f"{args.tables} tables a process, 2 processes, lease {args.lease:g} s, a move every"
        f" {args.bot_delay:g} s, {loaders} CPU loader(s); load average"
        f" {load0:.1f} -> {load1:.1f} -> {load2:.1f} on {os.cpu_count()} cores"
    )
    if loaders:
        print(f"loaders: {cpu_load.summary()}; still running after: {cpu_load.alive()}")
    print(
        f"while both live ({args.seconds:g} s): {moved} tables changed owner; taken over"
        f" {sum(r['taken_over'] for r in live)}, lost {sum(r['lost'] for r in live)}; the"
        f" latest renewal came {max(r['worst_late'] for r in live):.2f} s after its due"
    )
    server = ""
    if server_log is not None:
        with server_log.open("rb") as f:
            f.seek(log_from)
            server = f.read().decode(errors="replace")
    print(faults([p.read_text(errors="replace") for p in said.values()], server))
    shutil.rmtree(logs, ignore_errors=True)
    delays = sorted(t - killed for t in times.values())
    survivor = sum(1 for t in theirs if owned.get(t) == "keep")
    if delays:
        print(
            f"after the kill: {len(delays)} of {len(theirs)} tables moved again"
            f" ({survivor} held by the survivor): the first after {delays[0]:.1f} s,"
            f" the median {delays[len(delays) // 2]:.1f} s, the last {delays[-1]:.1f} s"
            f" ({delays[-1] / args.lease:.2f} leases)"
        )
        return delays[-1] / args.lease
    print(f"after the kill: none of {len(theirs)} tables moved again")
    return None


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--tables", type=int, default=1000, help="tables a process")
    p.add_argument("--seconds", type=float, default=30.0, help="the window with both alive")
    p.add_argument("--bot-delay", type=float, default=1.0)
    p.add_argument("--lease", type=float, default=LEASE_SECONDS)
    p.add_argument(
        "--load",
        type=int,
        default=0,
        metavar="N",
        help="run quiet, then again beside N processes spinning on the CPU",
    )
    p.add_argument("--db", default="postgresql")
    p.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    p.add_argument("--owner", default="", help=argparse.SUPPRESS)
    p.add_argument("--offset", type=int, default=0, help=argparse.SUPPRESS)
    args = p.parse_args()
    if args.child:
        asyncio.run(child(args))
        return
    if args.load < 0:
        p.error("--load is a number of CPU loaders: 0 or more")
    if args.load and args.db != "postgresql":
        p.error("--load runs twice, each on a database of its own: use --db postgresql")
    server = None
    if args.db == "postgresql":
        from tests.pg import PgServer

        server = PgServer.start(durable=True)
    last: list[float | None] = []
    try:
        for loaders in (0, args.load) if args.load else (0,):
            if server is not None:
                args.db = server.create_database(f"takeover{loaders}")
            if args.load:
                print(f"--- {'quiet' if not loaders else f'beside {loaders} CPU loaders'} ---")
            log = server.root / "log" if server is not None else None
            last.append(asyncio.run(measure(args, loaders, log)))
    finally:
        if server is not None:
            server.stop()
    if args.load:
        quiet, loaded = (f"{x:.2f}" if x is not None else "never" for x in last)
        print(
            f"the last table moved again after: quiet {quiet} leases,"
            f" beside {args.load} loaders {loaded} leases"
        )


if __name__ == "__main__":
    main()
