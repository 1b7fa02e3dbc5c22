"""What comes in: a command's context, refusals, and small parsing helpers."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from bot.platform import Channel, User

if TYPE_CHECKING:
    from bot.table import Table


class Refused(Exception):
    """A bad input: its text (a catalog id and its values) goes back to the user, and
    nothing changes."""

    def __init__(self, key: str, **kwargs: Any) -> None:
        super().__init__(key)
        self.key = key
        self.kwargs = kwargs


@dataclass
class Ctx:
    """One command being handled: who, where, the words left to read, and its table."""

    user: User
    channel: Channel
    args: list[str] = field(default_factory=list)
    table: Table | None = None

    @property
    def locale(self) -> str:
        return self.user.locale


def is_table_id(text: str) -> bool:
    """``t3`` / ``T3``: a table id (cards are rank then suit, so ``TD`` is not one)."""
    return len(text) >= 2 and text[0] in "tT" and text[1:].isdigit()


def number(text: str) -> float | None:
    """A finite number, or None."""
    try:
        n = float(text)
    except ValueError:
        return None
    if n != n or n in (float("inf"), float("-inf")):
        return None
    return n
