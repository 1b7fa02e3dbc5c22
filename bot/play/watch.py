"""Who wants to know that a table changed: the clients that draw a table themselves
(the web table's sockets) instead of reading the posts made for chat platforms.

The journal says so after each commit of a table (and the app when a table comes or
goes here); a listener only notes the id and does its work later, on its own task: it is
called with the table's lock held, so it must not wait for anything.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

log = logging.getLogger(__name__)

Listener = Callable[[int], None]


class TableWatch:
    """The listeners of table changes, called with the id of the table that changed."""

    def __init__(self) -> None:
        self._listeners: list[Listener] = []

    def listen(self, listener: Listener) -> None:
        self._listeners.append(listener)

    def unlisten(self, listener: Listener) -> None:
        if listener in self._listeners:
            self._listeners.remove(listener)

    def changed(self, table_id: int) -> None:
        for listener in list(self._listeners):
            try:
                listener(table_id)
            except Exception:  # a listener's fault never fails the move that was committed
                log.exception("a listener of table changes failed")
