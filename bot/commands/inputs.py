"""What comes in: one input's context (who, where, the words left to read, its table) and
the posts it shows its own author (the answer). The words themselves are read by
:mod:`bot.commands.parse`; a bad input raises :class:`bot.refused.Refused`."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from bot.platform import Channel, Post, User
from bot.refused import Refused

if TYPE_CHECKING:  # a type only: the tables import nothing of the commands
    from bot.play.table import Table


@dataclass
class Ctx:
    """One command or press being handled.

    ``own`` gathers the private posts this input makes for its own author in this
    channel (their new hand, a notice): they leave as part of the answer, not through the
    platform, so an adapter shows them in answer to the click (see :mod:`bot.show.dispatch`).
    """

    user: User
    channel: Channel
    args: list[str] = field(default_factory=list)
    table: Table | None = None
    own: list[Post] = field(default_factory=list)

    @property
    def locale(self) -> str:
        return self.user.locale

    def is_own(self, post: Post) -> bool:
        """Is ``post`` for this input's author, in this channel?"""
        return post.to_user == self.user.id and post.channel.id == self.channel.id


__all__ = ["Ctx", "Refused"]
