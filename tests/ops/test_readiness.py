"""Health that tells the truth: /livez says the process runs, /readyz (= /healthz) that it
can do its job, proving a write within its bound, and answering within that bound even
while the database is locked; a full disk makes it not ready and says why; the metrics
say the database is down and count the commits that failed."""

from __future__ import annotations

import contextlib
import sqlite3
import subprocess
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from bot.ops import metrics
from bot.ops.monitor import READY_BOUND
from bot.ops.version import VERSION
from bot.store import TableRow, Write
from tests.core.harness import make_harness
from tests.ops.test_metrics import Scrape


@pytest.fixture
def tiny_disk(tmp_path: Path) -> Iterator[Path]:
    """A 4 MiB filesystem of its own (tmpfs), for a disk that fills up. Needs root."""
    mount = tmp_path / "disk"
    mount.mkdir()
    res = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=4m", "tmpfs", str(mount)], capture_output=True
    )
    if res.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {res.stderr.decode().strip()}")
    try:
        yield mount
    finally:
        subprocess.run(["umount", "-l", str(mount)], check=False)


def fill(folder: Path) -> Path:
    """Write until the disk says it is full."""
    filler = folder / "filler"
    block = b"\0" * 65536
    with filler.open("wb") as f, contextlib.suppress(OSError):
        while True:
            f.write(block)
            f.flush()
    return filler


async def test_a_full_disk_is_not_ready_and_says_why(tiny_disk: Path, monkeypatch) -> None:
    monkeypatch.setattr(metrics, "_connected", {})
    h = await make_harness(tiny_disk / "belote.db", metrics_port=0)
    base = f"http://127.0.0.1:{h.app.monitor.port}"
    try:
        async with httpx.AsyncClient(timeout=10) as http:
            ok = await http.get(f"{base}/readyz")
            assert ok.status_code == 200, ok.text
            assert ok.json()["disk"] == "ok" and ok.json()["version"] == VERSION
            failures = Scrape((await http.get(f"{base}/metrics")).text)
            filler = fill(tiny_disk)
            failed = 0
            for n in range(200):  # the bot's own writes now fail (the WAL had some room)
                try:
                    await h.store.write(Write(tables=[_row(1000 + n)]))  # a commit
                except sqlite3.Error as exc:
                    assert "full" in str(exc), exc
                    failed += 1
                    break
            assert failed
            bad = await http.get(f"{base}/readyz")
            assert bad.status_code == 503
            report = bad.json()
            assert report["status"] == "unhealthy"
            assert report["disk"].startswith("full"), report
            assert "KiB free" in report["disk"] or "database says" in report["disk"]
            after = Scrape((await http.get(f"{base}/metrics")).text)
            assert after.value("belote_database_up") == 0
            before = failures.value("belote_commit_failures_total")
            assert after.value("belote_commit_failures_total") >= before + 1
            live = await http.get(f"{base}/livez")
            assert live.status_code == 200 and live.json()["status"] == "alive"
            filler.unlink()  # room again: ready again, by itself
            again = await http.get(f"{base}/readyz")
            assert again.status_code == 200, again.text
            assert Scrape((await http.get(f"{base}/metrics")).text).value("belote_database_up") == 1
    finally:
        await h.app.stop()


async def test_readiness_answers_within_its_bound_while_the_database_is_locked(
    tmp_path: Path, monkeypatch
) -> None:
    monkeypatch.setattr(metrics, "_connected", {})
    db = tmp_path / "locked.db"
    h = await make_harness(db, metrics_port=0)
    url = f"http://127.0.0.1:{h.app.monitor.port}/readyz"
    locked, release = threading.Event(), threading.Event()

    def hold_the_write_lock() -> None:  # another writer, in a long transaction
        conn = sqlite3.connect(db, isolation_level=None, check_same_thread=False)
        conn.execute("BEGIN IMMEDIATE")
        locked.set()
        release.wait(30)
        conn.execute("ROLLBACK")
        conn.close()

    holder = threading.Thread(target=hold_the_write_lock)
    try:
        async with httpx.AsyncClient(timeout=10) as http:
            assert (await http.get(url)).status_code == 200
            holder.start()
            assert locked.wait(10)
            for _ in range(3):  # asked again and again: probes never pile up
                started = time.monotonic()
                res = await http.get(url)
                took = time.monotonic() - started
                assert res.status_code == 503, res.text
                assert took < READY_BOUND + 1.0, took
                assert res.json()["database"].startswith("cannot write"), res.json()
            release.set()
            holder.join(10)
            again = await http.get(url)
            assert again.status_code == 200, again.text
    finally:
        release.set()
        if holder.is_alive():
            holder.join(10)
        await h.app.stop()


def _row(tid: int) -> TableRow:
    now = time.time()
    return TableRow(
        tid, "test:full", "alice", {"ruleset": "club"}, [None] * 4, "open", None, now, now
    )


def test_build_info_carries_the_version() -> None:
    from prometheus_client import generate_latest

    text = generate_latest(metrics.REGISTRY).decode()
    assert f'belote_build_info{{version="{VERSION}"}} 1.0' in text
    assert "belote_database_up" in text and "belote_commit_failures_total" in text


async def test_postgresql_probe_writes_and_is_bounded_by_a_lock(pg_server) -> None:
    import asyncpg

    from bot.store import open_store

    url = pg_server.create_database()
    store = await open_store(url, owner="probe")
    other = await asyncpg.connect(url)
    try:
        await store.probe_write(READY_BOUND)
        assert await other.fetchval("SELECT count(*) FROM health_probe") == 1
        tx = other.transaction()
        await tx.start()
        await other.execute("LOCK TABLE health_probe IN ACCESS EXCLUSIVE MODE")
        started = time.monotonic()
        with pytest.raises(asyncpg.PostgresError):
            await store.probe_write(0.5)
        assert time.monotonic() - started < 2.0
        await tx.rollback()
        await store.probe_write(READY_BOUND)
    finally:
        await other.close()
        await store.close()
