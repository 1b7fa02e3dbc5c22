"""Which engine a target opens: a ``postgresql://`` URL, or a SQLite file."""

from __future__ import annotations

from typing import Any

from bot.ops import metrics
from bot.store.base import SQLiteStore, Store


async def open_store(
    target: str, *, read_only: bool = False, exclusive: bool = False, **options: Any
) -> Store:
    """The store at ``target``, migrated: ``postgresql://...`` (or ``postgres://``) opens
    PostgreSQL (``options``: ``owner``, ``lease_seconds``), anything else is a SQLite file
    (``:memory:`` for a throwaway one). ``read_only``: never written (export, admin
    tables); ``exclusive``: SQLite's one-writer lock is held while it is open (PostgreSQL
    has its table leases instead). ``busy_wait`` (both engines): how long a write waits
    for a lock another program holds; ``busy_timeout`` (SQLite): how long one statement
    waits inside SQLite. :class:`StoreError` says in one line why it cannot be opened."""
    target = str(target)
    store: Store
    busy_timeout = options.pop("busy_timeout", None)
    if is_postgres(target):
        from bot.store.postgres import PostgresStore

        store = await PostgresStore.connect(target, read_only=read_only, **options)
    else:
        waits = {"busy_wait": options["busy_wait"]} if "busy_wait" in options else {}
        if busy_timeout is not None:
            waits["busy_timeout"] = busy_timeout
        store = await SQLiteStore.connect(target, read_only=read_only, exclusive=exclusive, **waits)
    if not read_only:
        metrics.database_up(True)  # it took its migrations: up until a write fails
    return store


def is_postgres(target: str) -> bool:
    return target.startswith(("postgresql://", "postgres://"))
