"""The one refusal of the whole core: a bad input, answered in the user's language.

Every room of the core (the command readers, the lobby, turns, the ceremony, the
tournaments) raises :class:`Refused` for what a user may not do; the entry points of
:class:`bot.app.BeloteApp` turn it into a ``Reply(ok=False)`` and nothing changes. A fault
that is not the user's (the database, a lost lease) is never a ``Refused``.
"""

from __future__ import annotations

from typing import Any


class Refused(Exception):
    """A bad input: its text (a catalog id and its values) goes back to the user, and
    nothing changes."""

    def __init__(self, key: str, **kwargs: Any) -> None:
        super().__init__(key)
        self.key = key
        self.kwargs = kwargs


__all__ = ["Refused"]
