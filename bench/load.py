"""Load: N all-bot tables on a real database, the bots' thinking included.

Each bot moves a ``--bot-delay`` after the previous move (a person's pace is a move every
few seconds) and thinks as in production: easy and normal in the event loop, hard and
expert in the process pool (``bot.play.thinking``). Prints live tables, actions a second, the
p50/p99 latency of handling an action (commit + apply + building the posts), the loop's
CPU an action, the bots' think time (asking to answer, the pool's queue included), how
late the bots' timers fire, the CPU a table-minute (this process and its thinking
processes), the garbage collector's pauses and the memory a table.

    python bench/load.py --tables 1000 --seconds 20
    python bench/load.py --tables 8 --seconds 75 --level expert --bot-delay 3
    python bench/load.py --level expert      # 8 tables, 240 s, a move every 3 s
    python bench/load.py --tables 1000 --seconds 20 --processes 2

Without ``--tables``, ``--seconds`` or ``--bot-delay`` the level's own defaults apply
(``DEFAULTS``): the expert's are about two whole deals a table at a person's pace (75 s
hold only the first deal's auction and first tricks, the dearest moves).

``--processes N`` runs N bot processes, each with ``tables / N`` tables and its own
thinking pool, measured over the same window; with SQLite each process has its own
database file (one process owns a SQLite database), with PostgreSQL they share one
database and each holds the leases of the tables it opened.

    python bench/load.py --tables 1000 --seconds 20 --db postgresql --processes 2

``--load N`` measures twice in one run, quiet and then beside N processes spinning on the
CPU (``bench/cpuload.py``, started once the tables are open and stopped after the window),
and prints both reports and how the loaded handling p99 compares with the quiet one:

    python bench/load.py --tables 1000 --seconds 20 --load 10
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from cpuload import CpuLoad  # bench/cpuload.py

from bot.app import BeloteApp, Settings
from bot.ops.clock import SeededRandomness
from bot.platform import Channel, NullPlatform, User
from bot.play import thinking
from bot.store import Store, is_postgres, open_store

TICK = os.sysconf("SC_CLK_TCK")
PAGE = os.sysconf("SC_PAGE_SIZE")


def rss_bytes(pid: int | str = "self") -> int:
    try:
        with open(f"/proc/{pid}/statm") as f:
            return int(f.read().split()[1]) * PAGE
    except OSError:
        return 0


def cpu_seconds(pid: int | str = "self") -> float:
    """User + system CPU of a whole process (every thread), from /proc."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / TICK


def pct(values: list[float], p: float) -> float:
    if not values:
        return float("nan")
    values = sorted(values)
    return values[min(len(values) - 1, int(p / 100 * len(values)))]


async def open_tables(app: BeloteApp, n: int, level: str, offset: int, target: int = 1000) -> None:
    """``n`` all-bot tables of ``level`` bots, started, to ``target`` points."""
    for i in range(offset, offset + n):
        host = User(f"bench:host{i}", f"host{i}")
        channel = Channel(f"bench:channel{i % 50}")
        await app.command(host, channel, f"/table create --target {target}")
        tid = next(t.tid for t in app.tables.values() if t.host == host.id)
        for _ in range(3):
            await app.command(host, channel, f"/addbot {level} {tid}")
        await app.command(host, channel, f"/leave {tid}")
        await app.command(host, channel, f"/addbot {level} {tid}")
        replies = await app.command(host, channel, f"/start {tid}")
        assert replies and replies[0].ok, replies


async def bench_store(target: str) -> tuple[Store, str]:
    """The store of ``--db``: ``sqlite`` (a new temporary file), a directory for the SQLite
    file, or a ``postgresql://`` URL."""
    if is_postgres(target):
        return await open_store(target), "PostgreSQL"
    directory = Path(tempfile.mkdtemp(prefix="belote-bench-") if target == "sqlite" else target)
    return await open_store(str(directory / "load.db")), "SQLite"


async def measure(
    args: argparse.Namespace,
    go: asyncio.Event | None = None,
    before_window: Callable[[], None] | None = None,
) -> dict[str, Any]:
    """Open the tables, wait for ``go`` (several processes start together), measure;
    ``before_window`` runs between the two (the CPU loaders start there)."""
    store, where = await bench_store(args.db)
    settings = Settings(
        bot_delay=args.bot_delay,
        drand=False,
        render_images=False,
        record_latency=True,
        max_tables_per_channel=100_000,
        long_running=True,  # as `belote run`
    )
    app = BeloteApp(store, NullPlatform(), settings=settings, randomness=SeededRandomness(1))
    await app.start()
    if args.level in thinking.SEARCHING_LEVELS:
        await thinking.pool.warm()  # its processes exist before the memory baseline
    gc.collect()
    rss0 = rss_bytes()
    t0 = time.perf_counter()
    await open_tables(app, args.tables, args.level, args.offset)
    setup = time.perf_counter() - t0
    if go is not None:
        print("ready", flush=True)
        await go.wait()
    if before_window is not None:
        before_window()
    app.stats.latencies.clear()
    app.stats.think_times.clear()
    app.stats.deadline_lags.clear()
    app.stats.bot_waits.clear()
    a0, c0 = app.stats.actions_applied, store.commits
    pids = thinking.pool.pids()
    pool0 = {p: cpu_seconds(p) for p in pids}
    pauses: list[float] = []
    began = [0.0]

    def on_gc(phase: str, info: dict[str, Any]) -> None:
        # CPU time, not wall time: on a shared machine a collection may be preempted
        if phase == "start":
            began[0] = time.thread_time()
        else:
            pauses.append(time.thread_time() - began[0])

    gc.callbacks.append(on_gc)
    cpu0, loop0 = cpu_seconds(), time.thread_time()
    profiler = None
    if args.profile:
        import cProfile

        profiler = cProfile.Profile()
        profiler.enable()
    start = time.perf_counter()
    while time.perf_counter() - start < args.seconds and app.busy():
        await asyncio.sleep(0.2)
    elapsed = time.perf_counter() - start
    loop_cpu = time.thread_time() - loop0
    gc.callbacks.remove(on_gc)
    if profiler is not None:
        profiler.disable()
        profiler.dump_stats(args.profile)
    cpu = cpu_seconds() - cpu0
    pool_cpu = sum(cpu_seconds(p) - pool0.get(p, 0.0) for p in thinking.pool.pids())
    gc.collect()
    result = {
        "tables": args.tables,
        "live": sum(1 for t in app.tables.values() if t.status == "playing"),
        "setup": setup,
        "elapsed": elapsed,
        "actions": app.stats.actions_applied - a0,
        "commits": store.commits - c0,
        "latencies": list(app.stats.latencies),
        "think": [s for _, s in app.stats.think_times],
        "lags": list(app.stats.deadline_lags),
        "waits": list(app.stats.bot_waits),
        "gc": pauses,
        "loop_cpu": loop_cpu,
        "cpu": cpu,
        "pool_cpu": pool_cpu,
        "pool_workers": len(thinking.pool.pids()),
        "rss_tables": rss_bytes() - rss0,
        "rss": rss_bytes(),
        "pool_rss": sum(rss_bytes(p) for p in thinking.pool.pids()),
        "db": where,
    }
    await app.stop()
    return result


def report(args: argparse.Namespace, runs: list[dict[str, Any]]) -> None:
    def total(key: str) -> float:
        return sum(r[key] for r in runs)

    elapsed = max(r["elapsed"] for r in runs)
    actions = total("actions")
    tables = total("tables")
    lat = [x * 1000 for r in runs for x in r["latencies"]]
    think = [x * 1000 for r in runs for x in r["think"]]
    lags = [x * 1000 for r in runs for x in r["lags"]]
    cpu = total("cpu") + total("pool_cpu")
    table_minutes = tables * elapsed / 60
    where = (
        "in the process pool" if args.level in thinking.SEARCHING_LEVELS else "in the event loop"
    )
    print(
        f"live tables: {total('live'):.0f} of {tables:.0f} ({len(runs)} process(es), "
        f"{runs[0]['db']}, "
        f"{args.level} bots, a move every {args.bot_delay:g} s; "
        f"opened in {max(r['setup'] for r in runs):.1f} s)"
    )
    print(
        f"actions: {actions:.0f} in {elapsed:.1f} s = {actions / elapsed:,.0f} actions/s "
        f"({total('commits') / elapsed:,.0f} commits/s)"
    )
    print(
        f"handling an action (commit + apply + posts): p50 {pct(lat, 50):.2f} ms, "
        f"p99 {pct(lat, 99):.2f} ms, max {max(lat or [0]):.2f} ms"
    )
    print(
        f"loop CPU: {total('loop_cpu') / max(1, actions) * 1e6:.0f} us an action "
        f"({total('loop_cpu') / elapsed / len(runs):.0%} of each process's loop)"
    )
    print(
        f"bots' think time ({where}): p50 {pct(think, 50):.2f} ms, "
        f"p99 {pct(think, 99):.2f} ms, max {max(think or [0]):.2f} ms ({len(think)} decisions"
        + (
            f"; {total('pool_cpu') / len(think) * 1000:.0f} ms of CPU each)"
            if total("pool_workers") and think
            else ")"
        )
    )
    print(f"bots' timers fire late by: p50 {pct(lags, 50):.1f} ms, p99 {pct(lags, 99):.1f} ms")
    waits = [x * 1000 for r in runs for x in r.get("waits", ())]
    print(
        f"all-bot tables' moves waited for their turn: p50 {pct(waits, 50):.1f} ms,"
        f" p99 {pct(waits, 99):.1f} ms"
    )
    # What a table at this pace costs: the CPU of a move (handling it, and thinking in
    # the pool) times the moves a table makes a minute. Measured as used, CPU a
    # table-minute understates it when the pool is saturated (the moves wait in its queue).
    a_move = total("cpu") / max(1, actions) + total("pool_cpu") / max(1, len(think))
    need = a_move * 60 / args.bot_delay
    used = cpu / max(table_minutes, 1e-9)
    saturated = bool(think) and pct(think, 50) / 1000 > args.bot_delay
    print(
        f"CPU: {need * 1000:,.0f} ms a table-minute at a move every {args.bot_delay:g} s "
        f"({args.level}: {a_move * 1000:.3g} ms a move) = {60 / max(need, 1e-9):,.0f} tables "
        f"a core; used {used * 1000:,.0f} ms a table-minute (bot processes "
        f"{total('cpu'):.1f} s, thinking processes {total('pool_cpu'):.1f} s)"
        + ("; the thinking processes were saturated" if saturated else "")
    )
    gc_pauses = [x * 1000 for r in runs for x in r["gc"]]
    print(
        f"garbage collection in the window: {len(gc_pauses)} collections, "
        f"{sum(gc_pauses):.0f} ms of CPU in all, the longest {max(gc_pauses or [0]):.1f} ms"
    )
    workers = total("pool_workers")
    print(
        f"memory: {total('rss_tables') / max(1, tables) / 1024:.1f} KiB a table "
        f"(bot processes {total('rss') / 2**20:.0f} MiB"
        + (
            f", {workers:.0f} thinking processes {total('pool_rss') / 2**20:.0f} MiB"
            if workers
            else ""
        )
        + ")"
    )


async def child(args: argparse.Namespace) -> None:
    """One of ``--processes``: measure when the parent says go, answer in JSON."""
    go = asyncio.Event()
    loop = asyncio.get_running_loop()
    reader = asyncio.StreamReader()
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin)

    async def wait_go() -> None:
        await reader.readline()
        go.set()

    waiter = asyncio.create_task(wait_go())
    result = await measure(args, go)
    await waiter
    print(json.dumps(result), flush=True)


def parent(
    args: argparse.Namespace, before_window: Callable[[], None] | None = None
) -> list[dict[str, Any]]:
    """Start the processes, let them open their tables, start every window at once."""
    share = args.tables // args.processes
    procs = []
    for i in range(args.processes):
        cmd = [
            sys.executable,
            __file__,
            "--child",
            "--tables",
            str(share),
            "--offset",
            str(i * share),
            "--seconds",
            str(args.seconds),
            "--bot-delay",
            str(args.bot_delay),
            "--level",
            args.level,
            "--db",
            args.db
            if args.db == "sqlite" or is_postgres(args.db)
            else str(Path(args.db) / f"p{i}"),
        ]
        procs.append(
            subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        )
    for p in procs:
        line = p.stdout.readline()
        if line.strip() != "ready":
            raise SystemExit(f"a bench process failed: {line!r}")
    if before_window is not None:
        before_window()
    for p in procs:
        p.stdin.write("go\n")
        p.stdin.flush()
    runs = [json.loads(p.stdout.readline()) for p in procs]
    for p in procs:
        p.wait()
    return runs


# What the options default to, by level: the event-loop levels are measured by many
# fast tables; hard and expert at a person's pace, on tables few enough for the thinking
# processes to keep up, and the expert for about two whole deals a table, since the
# first moves of a deal (its auction, its first tricks) cost far more than the rest.
DEFAULTS: dict[str, tuple[int, float, float]] = {  # tables, seconds, bot delay
    "easy": (1000, 20.0, 1.0),
    "normal": (1000, 20.0, 1.0),
    "hard": (100, 30.0, 3.0),
    "expert": (8, 240.0, 3.0),
}


def with_level_defaults(args: argparse.Namespace) -> argparse.Namespace:
    """``args`` with each option left out set to the level's default (``DEFAULTS``)."""
    tables, seconds, bot_delay = DEFAULTS[args.level]
    args.tables = tables if args.tables is None else args.tables
    args.seconds = seconds if args.seconds is None else args.seconds
    args.bot_delay = bot_delay if args.bot_delay is None else args.bot_delay
    return args


def run(args: argparse.Namespace, loaders: int) -> tuple[list[dict[str, Any]], CpuLoad]:
    """One measurement; ``loaders`` CPU-bound processes spin from the window's start (the
    tables open on a quiet machine) until the measurement ends."""
    load = CpuLoad(loaders)

    def start_load() -> None:
        load.__enter__()

    try:
        if args.processes > 1:
            runs = parent(args, start_load)
        else:
            runs = [asyncio.run(measure(args, before_window=start_load))]
    finally:
        load.stop()
    return runs, load


def with_database(args: argparse.Namespace, server: Any, name: str) -> argparse.Namespace:
    """``args`` on a new database of the throwaway server (each run its own tables)."""
    if server is None:
        return args
    return argparse.Namespace(**{**vars(args), "db": server.create_database(name)})


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--tables", type=int, default=None, help="default: by level (DEFAULTS)")
    p.add_argument("--seconds", type=float, default=None, help="default: by level")
    p.add_argument("--bot-delay", type=float, default=None, help="seconds between moves")
    p.add_argument("--level", default="normal", choices=tuple(DEFAULTS))
    p.add_argument(
        "--db",
        default="sqlite",
        help="sqlite (a temporary file), a directory for it, a postgresql:// URL, or "
        "postgresql (a throwaway server of the OS package, started and stopped here)",
    )
    p.add_argument("--processes", type=int, default=1)
    p.add_argument(
        "--load",
        type=int,
        default=0,
        metavar="N",
        help="measure quiet, then again beside N processes spinning on the CPU",
    )
    p.add_argument("--profile", default=None, help="write a cProfile of the measured window")
    p.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    p.add_argument("--offset", type=int, default=0, help=argparse.SUPPRESS)
    args = with_level_defaults(p.parse_args())
    if args.child:
        asyncio.run(child(args))
        return
    if args.load < 0:
        p.error("--load is a number of CPU loaders: 0 or more")
    if args.load and is_postgres(args.db):
        p.error(
            "--load measures twice, each on tables of its own: use --db postgresql "
            "(a throwaway server, a database each run) rather than a URL"
        )
    server = None
    if args.db == "postgresql":  # a throwaway server of the OS package, fsync on
        from tests.pg import PgServer

        server = PgServer.start(durable=True)
    results: list[tuple[list[dict[str, Any]], CpuLoad]] = []
    try:
        for loaders in (0, args.load) if args.load else (0,):
            results.append(run(with_database(args, server, f"bench{loaders}"), loaders))
    finally:
        if server is not None:
            server.stop()
    for runs, load in results:
        if args.load:
            print(f"--- {'quiet' if not load.n else f'beside {load.n} CPU loaders'} ---")
        report(args, runs)
        if load.n:
            print(f"loaders: {load.summary()}; still running after: {load.alive()}")
    if args.load:
        compare(results)


def compare(results: list[tuple[list[dict[str, Any]], CpuLoad]]) -> None:
    """The loaded handling p99 against the quiet one of the same run."""
    (quiet, _), (loaded, load) = results
    p99 = [pct([x * 1000 for r in runs for x in r["latencies"]], 99) for runs in (quiet, loaded)]
    print(
        f"handling p99: quiet {p99[0]:.2f} ms, beside {load.n} loaders {p99[1]:.2f} ms"
        f" ({p99[1] / max(p99[0], 1e-9):.1f}x)"
    )


if __name__ == "__main__":
    main()
