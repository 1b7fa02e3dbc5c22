"""Which engine a target opens: a ``postgresql://`` URL, or a SQLite file."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from bot.store.base import Store
from bot.store.sqlite import SQLiteStore


async def open_store(target: str | Path, **options: Any) -> Store:
    """The store at ``target``, migrated: ``postgresql://...`` (or ``postgres://``) opens
    PostgreSQL (``options``: ``owner``, ``lease_seconds``), anything else is a SQLite file
    (``:memory:`` for a throwaway one)."""
    target = str(target)
    if is_postgres(target):
        from bot.store.postgres import PostgresStore

        return await PostgresStore.connect(target, **options)
    return await SQLiteStore.connect(target)


def is_postgres(target: str) -> bool:
    return target.startswith(("postgresql://", "postgres://"))
