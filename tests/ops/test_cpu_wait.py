"""bot.ops.cpu_wait: the loop thread's wait for a CPU, and when the machine is crowded."""

from __future__ import annotations

import logging

import pytest

from bot.ops.cpu_wait import CrowdWatch, RunQueueWait, waited_seconds


def test_the_share_of_the_time_spent_waiting_between_two_samples() -> None:
    readings = iter([10.0, 10.5, 10.5])
    times = iter([100.0, 101.0, 102.0])
    waits = RunQueueWait(read=lambda: next(readings), clock=lambda: next(times))
    assert waits.sample() is None  # the first sample is the baseline
    assert waits.sample() == pytest.approx(0.5)
    assert waits.sample() == pytest.approx(0.0)


def test_no_answer_where_the_system_does_not_say(tmp_path) -> None:
    assert waited_seconds(str(tmp_path / "missing")) is None
    (tmp_path / "bad").write_text("garbage")
    assert waited_seconds(str(tmp_path / "bad")) is None
    waits = RunQueueWait(read=lambda: None)
    assert waits.sample() is None and waits.sample() is None


def test_this_thread_is_measured_here() -> None:
    got = waited_seconds()
    assert got is None or got >= 0.0


def test_crowded_on_entering_free_only_well_below(caplog) -> None:
    changes: list[bool] = []
    watch = CrowdWatch(changes.append, enter=0.2, leave=0.05)
    with caplog.at_level(logging.INFO, logger="bot.ops.cpu_wait"):
        for share in (0.01, None, 0.1, 0.3, 0.5, 0.1, 0.06, 0.04, 0.0, 0.25):
            watch.saw(share)
    assert changes == [True, False, True]
    said = [r.getMessage() for r in caplog.records]
    assert len(said) == 3 and "30%" in said[0] and "free again" in said[1]
