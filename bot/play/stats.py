"""What the core measures about itself, for bench/load.py (``Settings.record_latency``)."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class Stats:
    """Counters and samples; the lists fill only when ``record`` is set."""

    record: bool = False
    actions_applied: int = 0
    latencies: list[float] = field(default_factory=list)  # seconds to handle each action
    think_times: list[tuple[str, float]] = field(default_factory=list)  # (level, seconds)
    deadline_lags: list[float] = field(default_factory=list)  # a bot's timer, late by (s)
    # an all-bot table's move, waiting for its turn (``turns.BOT_MOVES_AT_ONCE``), seconds
    bot_waits: list[float] = field(default_factory=list)
