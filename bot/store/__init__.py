"""The database, one interface over two engines (SQLite and PostgreSQL).

Callers import from here: the interface (:class:`Store`), what goes in and out of it
(:class:`Write`, :class:`LogEntry`, :class:`TableRow`, :class:`MatchRow`,
:class:`TableDeadline`), the lease fault (:class:`LeaseLost`) and :func:`open_store`,
which picks the engine from its target.
"""

from bot.store.base import MIGRATIONS, Serves, SQLiteStore, Store, StoreError, StoreUnavailable
from bot.store.engines import is_postgres, open_store
from bot.store.records import (
    LeaseLost,
    LogEntry,
    MatchRow,
    StaleCopy,
    TableDeadline,
    TableRow,
    Write,
)

__all__ = [
    "MIGRATIONS",
    "LeaseLost",
    "LogEntry",
    "MatchRow",
    "SQLiteStore",
    "Serves",
    "StaleCopy",
    "Store",
    "StoreError",
    "StoreUnavailable",
    "TableDeadline",
    "TableRow",
    "Write",
    "is_postgres",
    "open_store",
]
