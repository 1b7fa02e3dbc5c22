"""bench/load.py: each level is measured at its own pace unless told otherwise; with
``--load N`` (load.py and takeover.py) the same figures quiet and beside N CPU loaders,
which run for the measurement and are gone after it."""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path

import pytest

from bench.cpuload import CpuLoad
from bench.load import with_level_defaults


def options(level: str, **given: float | None) -> argparse.Namespace:
    fields = {"tables": None, "seconds": None, "bot_delay": None} | given
    return with_level_defaults(argparse.Namespace(level=level, **fields))


def test_the_expert_is_measured_over_whole_deals_at_a_persons_pace() -> None:
    args = options("expert")
    assert (args.tables, args.seconds, args.bot_delay) == (8, 240.0, 3.0)


def test_the_event_loop_levels_are_measured_on_many_fast_tables() -> None:
    args = options("normal")
    assert (args.tables, args.seconds, args.bot_delay) == (1000, 20.0, 1.0)


def test_what_is_given_stands() -> None:
    args = options("expert", seconds=75.0, tables=4)
    assert (args.tables, args.seconds, args.bot_delay) == (4, 75.0, 3.0)


# --- --load N: the same measurement quiet, then beside N CPU loaders --------------------

ROOT = Path(__file__).resolve().parents[2]


def bench(script: str, *options: str, timeout: float = 300) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(ROOT / "bench" / script), *options],
        capture_output=True,
        text=True,
        timeout=timeout,
        cwd=ROOT,
    )


def test_loaders_spin_for_the_block_and_are_gone_after() -> None:
    with CpuLoad(2, settle=0.3) as load:
        pids = load.pids()
        assert len(pids) == 2 and load.alive() == 2
    assert load.alive() == 0
    assert sum(load.cpu) > 0.1  # they did spin
    for pid in pids:
        with pytest.raises(ProcessLookupError):
            os.kill(pid, 0)  # stopped and reaped
    assert "2 CPU loader(s)" in load.summary()


def test_no_loaders_is_nothing_to_start() -> None:
    with CpuLoad(0) as load:
        assert load.pids() == []
    assert load.summary() == "no CPU loaders"
    with pytest.raises(ValueError):
        CpuLoad(-1)


def test_load_reports_quiet_then_loaded_and_compares() -> None:
    done = bench("load.py", "--tables", "4", "--seconds", "1", "--load", "2")
    assert done.returncode == 0, done.stderr
    out = done.stdout
    quiet, loaded = out.index("--- quiet ---"), out.index("--- beside 2 CPU loaders ---")
    assert quiet < loaded
    for part in (out[quiet:loaded], out[loaded:]):
        assert "live tables: 4 of 4" in part
        assert "handling an action (commit + apply + posts): p50" in part
        assert "all-bot tables' moves waited for their turn" in part
    assert "loaders: 2 CPU loader(s) for" in out[loaded:]
    assert "still running after: 0" in out
    assert "handling p99: quiet" in out and "beside 2 loaders" in out


def test_load_refuses_a_bad_number_and_a_shared_database() -> None:
    done = bench("load.py", "--load", "-1")
    assert done.returncode == 2 and "--load" in done.stderr
    done = bench("load.py", "--load", "2", "--db", "postgresql://nobody@nowhere/x")
    assert done.returncode == 2 and "--db postgresql" in done.stderr
    done = bench("takeover.py", "--load", "2", "--db", "postgresql://nobody@nowhere/x")
    assert done.returncode == 2 and "--db postgresql" in done.stderr


def test_takeover_reports_quiet_then_loaded() -> None:
    done = bench(
        "takeover.py", "--tables", "3", "--seconds", "2", "--lease", "2", "--load", "1",
        timeout=600,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    out = done.stdout
    quiet, loaded = out.index("--- quiet ---"), out.index("--- beside 1 CPU loaders ---")
    assert quiet < loaded
    assert out[quiet:loaded].count("0 CPU loader(s)") == 1
    assert "1 CPU loader(s)" in out[loaded:]
    assert "still running after: 0" in out[loaded:]
    for part in (out[quiet:loaded], out[loaded:]):
        assert "while both live (2 s): 0 tables changed owner" in part
        assert "after the kill: 3 of 3 tables moved again" in part
    assert "the last table moved again after: quiet" in out
