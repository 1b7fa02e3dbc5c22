"""Load: N all-AI tables at once in one process (no platform), on a real database.

Prints actions per second, the p50/p99 latency of handling one action (commit + apply +
posts, excluding the AI's thinking), how late deadlines fire, and memory per table.
Goal: 1,000 concurrent tables with p99 under 50 ms.

    python bench/load.py --tables 1000 --seconds 30 --bot-delay 1.0
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.app import BeloteApp, Settings
from bot.clock import SeededRandomness
from bot.platform import Channel, NullPlatform, User
from bot.store import Store


def rss_bytes() -> int:
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


def pct(values: list[float], p: float) -> float:
    if not values:
        return float("nan")
    values = sorted(values)
    return values[min(len(values) - 1, int(p / 100 * len(values)))]


async def open_tables(app: BeloteApp, n: int, level: str) -> None:
    for i in range(n):
        host = User(f"bench:host{i}", f"host{i}")
        channel = Channel(f"bench:channel{i % 50}")
        tid = f"t{i + 1}"
        await app.command(host, channel, "/table create --target 1000")
        for _ in range(3):
            await app.command(host, channel, f"/addbot {level} {tid}")
        await app.command(host, channel, f"/leave {tid}")
        await app.command(host, channel, f"/addbot {level} {tid}")
        replies = await app.command(host, channel, f"/start {tid}")
        assert replies and replies[0].ok, replies


async def main(args: argparse.Namespace) -> None:
    db = Path(args.db or tempfile.mkdtemp(prefix="belote-bench-")) / "load.db"
    store = await Store.open(db)
    settings = Settings(
        bot_delay=args.bot_delay,
        drand=False,
        render_images=False,
        record_latency=True,
        max_tables_per_channel=10_000,
    )
    app = BeloteApp(store, NullPlatform(), settings=settings, randomness=SeededRandomness(1))
    await app.start()
    gc.collect()
    rss0 = rss_bytes()
    t0 = time.perf_counter()
    await open_tables(app, args.tables, args.level)
    setup = time.perf_counter() - t0
    print(
        f"opened {args.tables} tables in {setup:.1f} s ({args.level} bots, "
        f"bot delay {args.bot_delay} s, db {db})"
    )
    app.latencies.clear()
    a0, c0 = app.actions_applied, store.commits
    profiler = None
    if args.profile:
        import cProfile

        profiler = cProfile.Profile()
        profiler.enable()
    cpu0 = time.thread_time()
    start = time.perf_counter()
    while time.perf_counter() - start < args.seconds and app.busy():
        await asyncio.sleep(0.5)
    elapsed = time.perf_counter() - start
    loop_cpu = time.thread_time() - cpu0
    if profiler is not None:
        profiler.disable()
        profiler.dump_stats(args.profile)
    gc.collect()
    rss1 = rss_bytes()
    actions = app.actions_applied - a0
    lat = [x * 1000 for x in app.latencies]
    playing = sum(1 for t in app.tables.values() if t.status == "playing")
    print(
        f"actions: {actions} in {elapsed:.1f} s = {actions / elapsed:,.0f} actions/s "
        f"({(store.commits - c0) / elapsed:,.0f} commits/s)"
    )
    print(
        f"handling latency (commit + apply + posts, AI thinking excluded): "
        f"p50 {pct(lat, 50):.2f} ms, p99 {pct(lat, 99):.2f} ms, max {max(lat or [0]):.2f} ms"
        + (f", mean {statistics.fmean(lat):.2f} ms" if lat else "")
    )
    print(
        f"loop CPU: {loop_cpu / max(1, actions) * 1e6:.0f} us an action "
        f"({loop_cpu / elapsed:.0%} busy)"
    )
    print(
        f"memory: {(rss1 - rss0) / max(1, args.tables) / 1024:.1f} KiB per table "
        f"(RSS {rss1 / 2**20:.0f} MiB); tables still playing: {playing}"
    )
    await app.stop()


if __name__ == "__main__":
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--tables", type=int, default=1000)
    p.add_argument("--seconds", type=float, default=20.0)
    p.add_argument("--bot-delay", type=float, default=1.0)
    p.add_argument("--level", default="normal", choices=("easy", "normal", "hard", "expert"))
    p.add_argument("--db", default=None, help="directory for the database (default: temp)")
    p.add_argument("--profile", default=None, help="write a cProfile of the measured window")
    asyncio.run(main(p.parse_args()))
