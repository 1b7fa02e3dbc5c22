"""CPU loaders: N processes spinning on the CPU beside the bot, as a busy shared host or a
noisy neighbour gives (``--load N`` of bench/load.py and bench/takeover.py).

Each loader is a plain ``python -c 'while True: pass'``, started in this process's own
session and at its priority, as another program of the same user would be: Linux then
shares the cores among every runnable thread of the session, so beside N loaders on C
cores a single-threaded bot gets about C/(N+1) of a core. Nothing here changes anyone's
priority or affinity (those are the operator's levers).

The loaders are stopped (SIGKILL, then reaped) when the ``with`` block ends, however it
ends; ``summary()`` says how much CPU they had, proof they ran.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from types import TracebackType

TICK = os.sysconf("SC_CLK_TCK")
SPIN = "while True: pass"


def process_cpu(pid: int) -> float:
    """User + system CPU seconds of a process, from /proc (0 once it is gone)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / TICK


class CpuLoad:
    """``n`` CPU-bound processes for the length of a ``with`` block (none when ``n`` is 0)."""

    def __init__(self, n: int, settle: float = 1.0) -> None:
        if n < 0:
            raise ValueError("the number of CPU loaders cannot be negative")
        self.n = n
        self.settle = settle  # seconds to let the scheduler see them busy before measuring
        self.procs: list[subprocess.Popen[bytes]] = []
        self.cpu: list[float] = []  # CPU seconds each had, read just before it was stopped
        self.started = 0.0
        self.ran = 0.0  # wall seconds they ran

    def __enter__(self) -> CpuLoad:
        self.started = time.monotonic()
        for _ in range(self.n):
            self.procs.append(
                subprocess.Popen(
                    [sys.executable, "-c", SPIN],
                    stdin=subprocess.DEVNULL,
                    stdout=subprocess.DEVNULL,
                    stderr=subprocess.DEVNULL,
                )
            )
        if self.n and self.settle:
            time.sleep(self.settle)
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.stop()

    def stop(self) -> None:
        """Stop every loader and reap it (idempotent)."""
        if not self.procs or self.cpu:
            return
        self.ran = time.monotonic() - self.started
        self.cpu = [process_cpu(p.pid) for p in self.procs]
        for p in self.procs:
            if p.poll() is None:
                p.kill()
        for p in self.procs:
            p.wait()

    def pids(self) -> list[int]:
        return [p.pid for p in self.procs]

    def alive(self) -> int:
        """How many loaders still run (0 after the block)."""
        return sum(1 for p in self.procs if p.poll() is None)

    def summary(self) -> str:
        """One line: how many loaders, for how long, the CPU they had (a core each at most)."""
        if not self.n:
            return "no CPU loaders"
        got = sum(self.cpu) / max(self.ran, 1e-9)
        return (
            f"{self.n} CPU loader(s) for {self.ran:.0f} s: {sum(self.cpu):.1f} s of CPU,"
            f" {got:.2f} cores of {os.cpu_count()}"
        )
