"""bench/web_table.py works: at a tiny scale every part prints its line, tables are played
from sockets (people's moves and the bots' reach every socket), with and without the
Telegram adapter; the page's weight lists the vendored files apart. What it measures is
not checked here (speed is the bench's business, not a test's)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from bench import web_table

ROOT = Path(__file__).resolve().parents[2]


def test_a_tiny_run_prints_every_part_with_its_goal():
    tiny = [
        "--tables",
        "2",
        "--bot-tables",
        "1",
        "--seconds",
        "2",
        "--sockets",
        "20",
        "--traced",
        "4",
        "--runs",
        "1",
    ]
    run = subprocess.run(
        [sys.executable, "bench/web_table.py", *tiny],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=240,
    )
    out = run.stdout
    assert run.returncode == 0, out + run.stderr
    assert out.startswith("machine: ")
    moves = re.findall(r"people's moves, .*\((\d+) moves, (\d+) refused", out)
    bots = re.findall(r"bots' moves, .*\((\d+) moves\)", out)
    assert len(moves) == 2 and len(bots) == 2, out  # without a chat platform, with Telegram
    assert all(int(n) > 0 and refused == "0" for n, refused in moves), out
    assert all(int(n) > 0 for n in bots), out
    assert "Bot API calls" in out and "12 sockets signed in" in out
    assert re.search(r"- 20 sockets signed in .* KiB a socket \[goal < 64 KiB: (NOT )?held\]", out)
    assert "tracemalloc, 4 sockets more" in out
    page = web_table.PAGE_DIR
    if page.is_dir():
        assert "KB before compression [goal < 150 KB" in out
    else:
        assert "no page: web/table/ does not exist yet" in out
    if (page / "index.html").is_file() and web_table.chromium():
        # the page must show the marker the bench waits for (see web_table.PLAYABLE)
        assert "to a hand with lit cards median" in out, out
    assert out.rstrip().splitlines()[-1].startswith("the whole run: ")


def test_the_page_weight_lists_vendored_files_apart_and_weighs_only_what_loads(
    tmp_path, capsys, monkeypatch
):
    monkeypatch.setattr(web_table, "ROOT", tmp_path)
    page = tmp_path / "web" / "table"
    (page / "vendor").mkdir(parents=True)
    (page / "index.html").write_bytes(b"x" * 1000)
    (page / "table.js").write_bytes(b"x" * 3000)
    (page / "vendor" / "lib.js").write_bytes(b"x" * 2000)
    (page / "vendor" / "LICENSE").write_bytes(b"x" * 50_000)
    (page / "vendor" / "fetch.sh").write_bytes(b"x" * 50_000)
    web_table.page_part(page)
    out = capsys.readouterr().out
    assert "- 3 files, 6.0 KB before compression [goal < 150 KB: held]" in out
    assert "vendored: 2.0 KB (vendor/lib.js 2.0 KB)" in out
    assert "not loaded by the page, not weighed: vendor/LICENSE, vendor/fetch.sh" in out


def test_a_missing_page_is_said_not_measured(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(web_table, "ROOT", tmp_path)
    web_table.page_part(tmp_path / "web" / "table")
    assert "no page: web/table/ does not exist yet (not measured)" in capsys.readouterr().out


def test_a_bots_move_counts_when_its_view_reached_every_socket():
    arrivals = {"7": [[[4, 10.0], [6, 10.5]], [[5, 10.2]]]}
    # seq 5 began at 10.1: socket 0 first saw a later view at 10.5, socket 1 at 10.2
    assert web_table.bot_latencies([(7, 5, 10.1)], arrivals) == [pytest.approx(400.0)]
    assert web_table.bot_latencies([(7, 9, 10.1)], arrivals) == []  # never reached them
