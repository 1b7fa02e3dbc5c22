"""The copies the units make: before a start only when that start migrates (a crash loop
copies nothing), and the old ones pruned by the one pattern both units write."""

from __future__ import annotations

import os
import sqlite3
import time
from pathlib import Path

from adapters.cli import main
from bot.store import MIGRATIONS


def _database(path: Path, version: int) -> None:
    with sqlite3.connect(path) as conn:
        conn.execute("CREATE TABLE t (x)")
        conn.execute(f"PRAGMA user_version={version}")


def test_a_copy_before_start_only_when_the_start_migrates(tmp_path: Path, capsys) -> None:
    db, backups = tmp_path / "belote.db", tmp_path / "backups"
    backups.mkdir()
    args = ["backup", "--if-migrating", "--db", str(db)]
    assert main([*args, str(backups / "belote-before-start-1.db")]) == 0  # no database yet
    assert "nothing to copy" in capsys.readouterr().out
    _database(db, len(MIGRATIONS))
    for n in range(5):  # a crash loop: five starts, no copy
        assert main([*args, str(backups / f"belote-before-start-{n}.db")]) == 0
    assert "No migration due" in capsys.readouterr().out
    assert list(backups.iterdir()) == []
    _database(tmp_path / "old.db", 1)  # an upgrade: the next start migrates
    old = ["backup", "--if-migrating", "--db", str(tmp_path / "old.db")]
    assert main([*old, str(backups / "belote-before-start-9.db")]) == 0
    assert [p.name for p in backups.iterdir()] == ["belote-before-start-9.db"]


def test_old_backups_are_pruned_by_one_pattern(tmp_path: Path, capsys) -> None:
    db, backups = tmp_path / "belote.db", tmp_path / "backups"
    backups.mkdir()
    _database(db, len(MIGRATIONS))
    month_ago = time.time() - 30 * 86400
    old = [
        backups / "belote-20261101T000000Z.db",
        backups / "belote-20261101T000000Z.db.discord.json",
        backups / "belote-before-start-20261101T000000Z.db",
    ]
    kept = [backups / "belote-20261130T000000Z.db", backups / "notes.txt"]
    for path in old + kept:
        path.write_text("x")
    for path in [*old, kept[1]]:
        os.utime(path, (month_ago, month_ago))
    assert (
        main(["backup", "--prune-days", "14", "--db", str(db), str(backups / "belote-new.db")]) == 0
    )
    assert "Pruned 3 backup files" in capsys.readouterr().out
    assert sorted(p.name for p in backups.iterdir()) == sorted(
        ["belote-new.db", kept[0].name, "notes.txt"]
    )
