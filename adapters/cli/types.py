"""Argparse ``type=`` functions: the CLI's options read by :mod:`bot.commands.parse`, the same
readers as the chat commands, with the same texts (in English: the CLI speaks English).

A refusal becomes argparse's usage error (``belote: error: argument --timer: ...``, exit
status 2) instead of a traceback (or argparse's "invalid value: '...'", which would echo a
server seed given by mistake into the terminal's scrollback).
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import Any, TypeVar

from bot.commands import parse
from bot.refused import Refused
from bot.show.i18n import _

T = TypeVar("T")


def option(
    reader: Callable[..., T], *args: Any, name: str | None = None, **values: Any
) -> Callable[[str], T]:
    """``reader(text, *args, **values)`` as an argparse type; ``name`` is shown in help
    errors."""

    def convert(text: str) -> T:
        try:
            return reader(text, *args, **values)
        except Refused as r:
            raise argparse.ArgumentTypeError(_(r.key, "en", **r.kwargs)) from None

    convert.__name__ = name or reader.__name__
    return convert


def _seat_seed(text: str) -> bytes | None:
    """A seat's 16-byte seed, or ``none`` for a seat that sent none."""
    if text.strip().lower() == "none":
        return None
    return parse.seed_hex(text, 16, "err-hex-digits")


def whole(low: int, high: int) -> Callable[[str], int]:
    """A whole number from ``low`` to ``high`` (ASCII digits), for counts and seeds."""
    return option(parse.whole, low, high, "err-whole-number", low=low, high=high, name="number")


def seconds(low: float, high: float) -> Callable[[str], float]:
    """A number of seconds from ``low`` to ``high`` (``2``, ``0.5``)."""
    return option(parse.seconds, low, high, "err-seconds", low=low, high=high, name="seconds")


SEED = whole(0, 2**63 - 1)  # a random generator's seed (tests and benchmarks)
ruleset = option(parse.ruleset)
target = option(parse.target)
default_timer = option(parse.default_timer, name="timer")
seed_window = option(parse.seed_window)
bot_delay = option(parse.bot_delay)
server_seed = option(parse.seed_hex, 32, "err-hex-digits", name="server seed")
seat_seed = option(_seat_seed, name="seat seed")
drand_value = option(parse.seed_hex, 32, "err-hex-digits", name="drand value")
match_id = option(parse.match_ref, name="match")
lease = option(parse.seconds, 1, 600, "err-lease", name="lease")
