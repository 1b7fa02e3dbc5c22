"""What comes in: a command's context and refusals (the words themselves are read by
:mod:`bot.commands.parse`)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from bot.platform import Channel, User

if TYPE_CHECKING:
    from bot.play.table import Table


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
