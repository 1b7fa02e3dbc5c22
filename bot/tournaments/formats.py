"""One place that maps a format name to its event class, for creating and for loading."""

from __future__ import annotations

from typing import Any

from bot.tournaments.elimination import Elimination
from bot.tournaments.event import Event
from bot.tournaments.model import Format, Numbers
from bot.tournaments.roundrobin import RoundRobin
from bot.tournaments.swiss import Swiss

EVENT_CLASSES: dict[Format, type[Event]] = {
    Format.ROUNDROBIN: RoundRobin,
    Format.SWISS: Swiss,
    Format.ELIMINATION: Elimination,
}


def make_event(
    fmt: Format | str, entrants: int, numbers: Numbers, ratings: dict[int, float] | None = None
) -> Event:
    return EVENT_CLASSES[Format(fmt)](entrants, numbers, ratings)


def load_event(data: dict[str, Any]) -> Event:
    return EVENT_CLASSES[Format(data["format"])].from_json(data)
