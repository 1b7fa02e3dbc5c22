"""Median time and byte size of the pictures sent most often: a hand and the table.

Goals (issue 5): a hand under 15 ms, the table under 25 ms, each under 150 KB. Card faces
and the felt are cached, so the first call (cold) is slower; the median is over warm calls.
Also prints the deal result, standings and the replay GIF for reference.

    python bench/render.py [--runs N]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.show.render import (
    render_deal_result,
    render_hand,
    render_replay,
    render_standings,
    render_table,
    samples,
)


def measure(label: str, fn, runs: int, goal_ms: float | None = None) -> None:
    t0 = time.perf_counter()
    data = fn()
    cold = (time.perf_counter() - t0) * 1000
    times = []
    for _ in range(runs):
        t0 = time.perf_counter()
        data = fn()
        times.append((time.perf_counter() - t0) * 1000)
    median = statistics.median(times)
    verdict = ""
    if goal_ms is not None:
        ok = median < goal_ms and len(data) < 150 * 1024
        verdict = f"  goal <{goal_ms:.0f} ms, <150 KB: {'met' if ok else 'MISSED'}"
    size = len(data) / 1024
    timing = f"median {median:7.2f} ms  (cold {cold:7.1f} ms, {runs} runs)"
    print(f"{label:<14} {timing}  {size:7.1f} KB{verdict}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=50)
    args = parser.parse_args()
    names = list(samples.NAMES)
    hand_view = samples.table_view(0)
    public = samples.table_view(None)
    record = samples.finished_deal()
    measure(
        "hand", lambda: render_hand(hand_view, table_id="T-42", seat_name="Alice"), args.runs, 15
    )
    measure(
        "table",
        lambda: render_table(
            public, table_id="T-42", names=names, time_left=27, show_last_trick=True
        ),
        args.runs,
        25,
    )
    measure(
        "table (plain)",
        lambda: render_table(public, table_id="T-42", names=names, time_left=27),
        args.runs,
        25,
    )
    measure(
        "deal result",
        lambda: render_deal_result(record.result, names, record=record, target=1000),
        args.runs,
    )
    measure(
        "standings",
        lambda: render_standings(
            samples.STANDINGS_TITLE, samples.standings_rows(), tie_break_names=samples.TIE_BREAKS
        ),
        args.runs,
    )
    measure("replay (GIF)", lambda: render_replay(record, names), max(1, args.runs // 25))


if __name__ == "__main__":
    main()
