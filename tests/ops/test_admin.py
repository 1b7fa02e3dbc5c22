"""The operator at the shell: a consistent backup of a live database and its restore,
the list of tables, closing a stuck one, exporting every finished match."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

from adapters.cli import main
from adapters.cli.ops_commands import backup_sqlite
from bot.proof.transcript import load
from bot.proof.verify import verify_transcript
from bot.store import open_store
from tests.core.harness import make_harness, table_with_bots


async def _match_in_progress(db: Path, moves: int = 0) -> None:
    """t1: alice and three bots, a match started and ``moves`` bot moves made; then the
    process stops (the table stays open, as after a crash)."""
    h = await make_harness(db, seed_window=0.0)
    await table_with_bots(h, "alice", "--target", "1")
    await h.cmd("alice", "/start")
    for _ in range(moves):
        await h.advance(1.0)
    await h.app.stop()


def log_rows(db: Path) -> list[tuple]:
    with sqlite3.connect(db) as c:
        return c.execute("SELECT match_id, seq, kind, data FROM match_log ORDER BY 1, 2").fetchall()


async def test_backup_while_the_bot_writes_is_one_consistent_moment(tmp_path: Path) -> None:
    db = tmp_path / "live.db"
    h = await make_harness(db, bot_delay=0.0)
    for n in range(6):  # six tables of bots, all playing at once: many commits
        assert (await h.cmd(f"host{n}", "/table create --target 1000", channel_of(n)))[0].ok
        for _ in range(3):
            await h.cmd(f"host{n}", "/addbot", channel_of(n))
        await h.cmd(f"host{n}", "/leave", channel_of(n))
        await h.cmd(f"host{n}", "/addbot", channel_of(n))
        await h.cmd(f"host{n}", "/start", channel_of(n))

    async def play() -> None:
        for _ in range(60):
            await h.advance(0.5)
            await asyncio.sleep(0)

    copies = []

    async def back_up() -> None:
        for n in range(3):
            out = tmp_path / f"copy{n}.db"
            await asyncio.to_thread(backup_sqlite, db, out)
            copies.append(out)
            await asyncio.sleep(0.01)

    await asyncio.gather(play(), back_up())
    await h.app.stop()
    final = log_rows(db)
    for copy in copies:
        rows = log_rows(copy)
        assert rows, "the copy has the matches' logs"
        by_match: dict[int, list[tuple]] = {}
        for r in rows:
            by_match.setdefault(r[0], []).append(r)
        for match_id, entries in by_match.items():
            whole = [r for r in final if r[0] == match_id]
            assert entries == whole[: len(entries)], "each log in the copy is a prefix"
        with sqlite3.connect(copy) as c:
            assert c.execute("PRAGMA integrity_check").fetchone() == ("ok",)
            assert c.execute("PRAGMA journal_mode").fetchone() == ("delete",)


def channel_of(n: int):
    from bot.platform import Channel

    return Channel(f"test:room{n}")


def test_backup_command_and_restore(tmp_path: Path, capsys) -> None:
    db = tmp_path / "belote.db"
    asyncio.run(_match_in_progress(db, moves=3))
    before = log_rows(db)
    out = tmp_path / "backups" / "belote-1.db"
    assert main(["backup", "--db", str(db), str(out)]) == 0
    said = capsys.readouterr().out
    assert f"Backed up {db} to {out}" in said
    assert "To restore it:" in said and f"cp {out} {db}" in said
    assert main(["backup", "--db", str(db), str(out)]) == 2  # never overwrites a backup
    assert "exists already" in capsys.readouterr().err
    assert main(["backup", "--db", str(tmp_path / "nope.db"), str(tmp_path / "x.db")]) == 2
    assert not (tmp_path / "nope.db").exists()  # nothing created by asking

    # the database is lost; the backup is put in its place, as the instructions say
    db.unlink()
    for suffix in ("-wal", "-shm"):
        Path(f"{db}{suffix}").unlink(missing_ok=True)
    db.write_bytes(out.read_bytes())
    assert log_rows(db) == before

    async def resume() -> None:
        h = await make_harness(db, seed_window=0.0)
        run = h.table(1).run
        assert run is not None and not run.over and len(run.entries) == len(before)
        await h.advance(70.0)  # and play goes on from where the backup was taken
        assert len(run.entries) > len(before)
        await h.app.stop()

    asyncio.run(resume())


def test_admin_tables_close_and_export_all(tmp_path: Path, capsys) -> None:
    db = tmp_path / "belote.db"

    async def history() -> None:
        h = await make_harness(db, seed_window=0.0)
        await table_with_bots(h, "alice", "--target", "1")
        await h.cmd("alice", "/start")
        await h.play_human_turns({0: "alice"})  # m1 finished
        await h.cmd("alice", "/start")  # m2 in progress, then the process stops
        await h.advance(1.0)
        await h.app.stop()

    asyncio.run(history())
    assert main(["admin", "--db", str(db), "tables"]) == 0
    listing = capsys.readouterr().out
    assert "t1" in listing and "playing" in listing and "m2" in listing
    assert "test:room" in listing and "alice" in listing and "(bot)" in listing

    assert main(["admin", "--db", str(db), "export-all", str(tmp_path / "out")]) == 0
    assert "Wrote 1 transcripts" in capsys.readouterr().out
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == ["m1.json"]
    report = asyncio.run(verify_transcript(load(tmp_path / "out" / "m1.json")))
    assert report.ok

    for bad in ("t0", "x", "t" + "9" * 40):
        assert main(["admin", "--db", str(db), "close", bad]) == 2
        assert "A table is named like t3." in capsys.readouterr().err
    assert main(["admin", "--db", str(db), "close", "t9"]) == 1
    assert "No open table t9" in capsys.readouterr().err
    assert main(["admin", "--db", str(db), "close", "t1"]) == 0
    assert "t1" in capsys.readouterr().out
    assert main(["admin", "--db", str(db), "tables"]) == 0
    assert "No table is open" in capsys.readouterr().out

    async def check() -> None:
        store = await open_store(db)
        m2 = await store.match(2)
        entries = await store.log(2)
        await store.close()
        assert m2 is not None and m2.status == "aborted"
        assert entries[-1].kind == "abort" and entries[-1].data == {"by": "admin:shell"}

    asyncio.run(check())
    # an aborted match is over: its transcript (with the seed) can be exported now
    assert main(["admin", "--db", str(db), "export-all", str(tmp_path / "out")]) == 0
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == ["m1.json", "m2.json"]
