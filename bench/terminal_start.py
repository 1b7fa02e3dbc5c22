"""How long a newcomer waits: from typing `belote` to their first decision on screen.

Runs `belote` in a real pseudo-terminal (pexpect), on a fresh database each time, and
times the moment the screen offers the player's first choice (the `▶` line of their first
turn). Three ways the fair deal can go:

- drand unreachable, as on a machine with no internet: a relay that refuses connections,
  and one that accepts them and never answers (both on 127.0.0.1: the bench sends nothing
  off this machine).
  The rule: the round is named once the seeds are in (due within 3 s) and waited for 5 s
  after it is due, so the first decision must come within 10 s;
- ``--no-drand``: must come within 2 s.

    python bench/terminal_start.py [--runs 3] [--no-drand]

``--no-drand`` times that way only. The child writes bytecode (``__pycache__``) as an
installed ``belote`` has it, whatever ``PYTHONDONTWRITEBYTECODE`` says in this shell, and a
first run untimed fills it: compiling the sources again at every start (0.4 s) is not what a
newcomer waits for.

Prints one line per way, with each run's time, the median and the worst.
"""

from __future__ import annotations

import argparse
import os
import socket
import statistics
import sys
import tempfile
import time
from pathlib import Path

import pexpect

ROOT = Path(__file__).resolve().parents[1]


def closed_port() -> str:
    """A local URL nothing listens on: connections are refused at once."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    return f"http://127.0.0.1:{port}"


def silent_port() -> tuple[socket.socket, str]:
    """A local URL that accepts connections and never answers (a hung relay); the
    socket stays open until the caller closes it."""
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    s.listen(64)
    return s, f"http://127.0.0.1:{s.getsockname()[1]}"


WAYS: dict[str, list[str]] = {
    "drand unreachable (connection refused)": ["--drand-relay", "<closed>"],
    "drand unreachable (no answer)": ["--drand-relay", "<silent>"],
    "--no-drand": ["--no-drand"],
}
LIMITS = {"--no-drand": 2.0}


def first_decision(extra: list[str]) -> float:
    with tempfile.TemporaryDirectory() as tmp:
        env = {**os.environ, "PYTHONPATH": str(ROOT), "DISCORD_TOKEN": "", "TELEGRAM_TOKEN": ""}
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        args = ["-m", "adapters.cli", "--db", str(Path(tmp) / "b.db"), *extra]
        t0 = time.perf_counter()
        child = pexpect.spawn(sys.executable, args, cwd=tmp, env=env, timeout=30)
        try:
            child.expect("\u25b6".encode())
            took = time.perf_counter() - t0
        finally:
            child.sendintr()
            child.expect(pexpect.EOF, timeout=10)
            child.close()
    return took


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--no-drand", action="store_true", help="time the --no-drand way only")
    args = parser.parse_args()
    ok = True
    ways = {k: v for k, v in WAYS.items() if k == "--no-drand" or not args.no_drand}
    first_decision(["--no-drand"])  # untimed: the bytecode written once, as an install has it
    for name, extra in ways.items():
        silent, silent_url = silent_port()
        try:
            extra = [
                closed_port() if a == "<closed>" else silent_url if a == "<silent>" else a
                for a in extra
            ]
            times = [first_decision(extra) for _ in range(args.runs)]
        finally:
            silent.close()
        limit = LIMITS.get(name, 10.0)
        worst = max(times)
        ok = ok and worst <= limit
        runs = " ".join(f"{t:.2f}" for t in times)
        print(
            f"{name:48s} first decision in {runs} s; median {statistics.median(times):.2f} s,"
            f" worst {worst:.2f} s (limit {limit:.0f} s{'' if worst <= limit else ': OVER'})"
        )
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
