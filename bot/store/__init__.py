"""The database, one interface over two engines (SQLite and PostgreSQL).

Callers import from here: the interface (:class:`Store`), what goes in and out of it
(:class:`Write`, :class:`LogEntry`, :class:`TableRow`, :class:`MatchRow`,
:class:`Deadline`) and :func:`open_store`, which picks the engine from its target.
"""

from bot.store.base import (
    MIGRATIONS,
    Deadline,
    LeaseLost,
    LogEntry,
    MatchRow,
    Serves,
    SQLiteStore,
    Store,
    StoreUnavailable,
    TableRow,
    Write,
    is_postgres,
    open_store,
)

__all__ = [
    "MIGRATIONS",
    "Deadline",
    "LeaseLost",
    "LogEntry",
    "MatchRow",
    "SQLiteStore",
    "Serves",
    "Store",
    "StoreUnavailable",
    "TableRow",
    "Write",
    "is_postgres",
    "open_store",
]
