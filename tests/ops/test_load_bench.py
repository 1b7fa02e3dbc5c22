"""bench/load.py: each level is measured at its own pace unless told otherwise."""

from __future__ import annotations

import argparse

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
