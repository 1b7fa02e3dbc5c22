"""A deal's tricks rebuilt from its record (the actions), for the result and the replay.

The record holds every hand and action, so it is drawn only once the deal is over and the
hands are public.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine import parse_card, trick_winner


@dataclass(frozen=True)
class Play:
    seat: int
    card: int
    belote: bool
    melds: bool


@dataclass(frozen=True)
class PlayedTrick:
    plays: tuple[Play, ...]
    winner: int | None  # None while the trick is not complete


def plays_of(record: Any) -> list[Play]:
    """The card plays of a deal record, in order."""
    out: list[Play] = []
    for seat, action in record.actions:
        words = str(action).split()
        if words and words[0] == "play":
            out.append(
                Play(seat, parse_card(words[1]), "belote" in words[2:], "melds" in words[2:])
            )
    return out


def tricks_of(record: Any) -> list[PlayedTrick]:
    """The deal's tricks; the last one may be incomplete if the deal is still on."""
    contract = record.contract
    plays = plays_of(record)
    tricks: list[PlayedTrick] = []
    for i in range(0, len(plays), 4):
        group = tuple(plays[i : i + 4])
        winner = None
        if len(group) == 4 and contract is not None:
            winner = group[trick_winner(contract.trump, [p.card for p in group])].seat
        tricks.append(PlayedTrick(group, winner))
    return tricks


def last_trick_team(record: Any) -> int | None:
    """The team that took the last (eighth) trick, or None if the deal did not finish."""
    tricks = tricks_of(record)
    if len(tricks) == 8 and tricks[-1].winner is not None:
        return tricks[-1].winner % 2
    return None
