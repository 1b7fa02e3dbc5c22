"""What the terminal's first table loads: none of the libraries only other ways need (the
verify page's server, drand's client, PostgreSQL's driver, the pictures). The first screen
is mostly imports (docs/core.md), so one of them slipping back in is caught here, not by a
clock (bench/terminal_start.py says how long the start takes)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
NOT_NEEDED = ("aiohttp", "httpx", "asyncpg", "PIL")
REPORT = (
    "import atexit, sys\n"
    "atexit.register(lambda: print('LOADED', sorted(m for m in {names!r} if m in sys.modules)))\n"
    "from adapters.cli import main\n"
    "sys.exit(main(sys.argv[1:]))\n"
)


def test_a_terminal_table_with_no_drand_loads_no_server_client_driver_or_pictures(tmp_path):
    env = {**os.environ, "PYTHONPATH": str(ROOT), "DISCORD_TOKEN": "", "TELEGRAM_TOKEN": ""}
    args = ["run", "--platform", "console", "--db", str(tmp_path / "b.db"), "--no-drand"]
    args += ["--solo"]  # three bots and no timer: a script's run ends at the player's turn
    done = subprocess.run(
        [sys.executable, "-c", REPORT.format(names=NOT_NEEDED), *args, "--name", "me"],
        input="",
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
        cwd=tmp_path,
    )
    assert done.returncode == 0, done.stderr
    assert "LOADED []" in done.stdout, done.stdout[-500:]
