"""Another program holds the database's write lock (a backup script, the ``sqlite3`` shell:
``BEGIN IMMEDIATE`` ... ``ROLLBACK``) for longer than the busy timeout while the bot plays.

Health answers every time within its bound, over real HTTP to the real monitor server;
the bot's own commits wait for the lock (and are tried again), so nothing is lost or
written twice."""

from __future__ import annotations

import asyncio
import sqlite3
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import aiohttp

from bot.ops import metrics
from bot.ops.monitor import READY_BOUND
from bot.store import TableRow, Write
from tests.core.harness import make_harness

#: Slack over the bound for a loaded test machine (2 cores shared with other runs).
SLACK = 1.0


@contextmanager
def outside_lock(db: Path) -> Iterator[threading.Event]:
    """Another program's write transaction on ``db`` until the event is set (or 60 s)."""
    locked, release = threading.Event(), threading.Event()

    def hold() -> None:
        conn = sqlite3.connect(db, isolation_level=None, check_same_thread=False)
        try:
            conn.execute("BEGIN IMMEDIATE")
            locked.set()
            release.wait(60)
            conn.execute("ROLLBACK")
        finally:
            conn.close()

    holder = threading.Thread(target=hold, daemon=True)
    holder.start()
    try:
        assert locked.wait(10), "the outside lock was never taken"
        yield release
    finally:
        release.set()
        holder.join(10)


def _row(tid: int, n: int) -> TableRow:
    now = time.time() + n
    return TableRow(
        tid, "test:busy", "alice", {"ruleset": "club"}, [None] * 4, "open", None, now, now
    )


async def _ask(http: aiohttp.ClientSession, url: str) -> tuple[str, int | None, float]:
    started = time.monotonic()
    try:
        async with http.get(url) as res:
            await res.read()
            status: int | None = res.status
    except TimeoutError:
        status = None  # no answer at all within the client's timeout
    return url.rsplit("/", 1)[1], status, time.monotonic() - started


async def test_health_answers_within_its_bound_while_another_program_locks_the_database(
    tmp_path: Path, monkeypatch
) -> None:
    """The bot keeps committing (a table row at a time, as play does) while another
    program holds the write lock past the busy timeout; /healthz, /livez and /readyz are
    asked in turn throughout, and every one answers within the bound."""
    monkeypatch.setattr(metrics, "_connected", {})
    db = tmp_path / "busy.db"
    h = await make_harness(db, metrics_port=0)
    base = f"http://127.0.0.1:{h.app.monitor.port}"
    stop = asyncio.Event()

    async def play() -> None:  # commits keep coming, as moves at many tables would
        n = 0
        while not stop.is_set():
            n += 1
            units = [h.store.write(Write(tables=[_row(100 + k, n)])) for k in range(4)]
            await asyncio.gather(*units, return_exceptions=True)
            await asyncio.sleep(0.01)

    asked: list[tuple[str, int | None, float]] = []
    timeout = aiohttp.ClientTimeout(total=5)
    try:
        async with aiohttp.ClientSession(timeout=timeout) as http:
            player = asyncio.create_task(play())
            with outside_lock(db) as release:
                ends = time.monotonic() + 12.0  # past the bot's busy timeout, twice over
                while time.monotonic() < ends:
                    for path in ("healthz", "livez", "readyz"):
                        asked.append(await _ask(http, f"{base}/{path}"))
                release.set()
            stop.set()
            await player
            after = await _ask(http, f"{base}/readyz")
    finally:
        stop.set()
        await h.app.stop()
    assert len(asked) >= 9, asked
    slow = [a for a in asked if a[1] is None or a[2] > READY_BOUND + SLACK]
    assert not slow, f"{len(slow)} of {len(asked)} asks over the bound: {slow}"
    for path, status, _took in asked:
        assert status == (200 if path == "livez" else 503), asked
    assert after[1] == 200, after
