"""Each community's settings in the database: what a server or a group (or one of its
channels) has set, and the log of every change, who made it and when.

A value is kept as the text its setting's parser reads (``bot.community.registry``), so
the database knows no setting by name: a setting declared later needs no migration. One
row per (scope, key); a change of several keys is one transaction that also appends one
log row per key, so two admins changing settings at once lose neither change (each key is
written on its own; on the same key the later commit wins, and the log shows both).
"""

from __future__ import annotations

from dataclasses import dataclass

#: The migration both engines append (SQLite's and PostgreSQL's column types agree here).
SETTINGS_MIGRATION = """
    CREATE TABLE community_settings (
        grp TEXT NOT NULL,
        scope TEXT NOT NULL,
        key TEXT NOT NULL,
        value TEXT NOT NULL,
        updated_at DOUBLE PRECISION NOT NULL,
        updated_by TEXT NOT NULL,
        PRIMARY KEY (scope, key)
    );
    CREATE INDEX community_settings_by_group ON community_settings(grp);
    CREATE TABLE community_settings_log (
        grp TEXT NOT NULL,
        scope TEXT NOT NULL,
        key TEXT NOT NULL,
        old TEXT,
        new TEXT,
        by_user TEXT NOT NULL,
        by_name TEXT NOT NULL,
        at DOUBLE PRECISION NOT NULL
    );
    CREATE INDEX community_settings_log_by_group ON community_settings_log(grp, at);
"""


@dataclass(frozen=True)
class StoredSetting:
    """One value a scope has set (``scope``: a group, or one channel of it)."""

    scope: str
    key: str
    value: str


@dataclass(frozen=True)
class SettingChange:
    """One logged change: ``new`` None is a reset to the default, ``old`` None: was unset."""

    scope: str
    key: str
    old: str | None
    new: str | None
    by_user: str
    by_name: str
    at: float


@dataclass(frozen=True)
class SettingsWrite:
    """What one command changes, in one transaction: ``changes`` key -> new text (None:
    back to the default), all in ``scope`` of group ``grp``."""

    grp: str
    scope: str
    changes: tuple[tuple[str, str | None], ...]
    by_user: str
    by_name: str
    at: float


LOG_LIMIT = 50  # the most log rows one read returns
