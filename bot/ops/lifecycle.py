"""The process's start and stop lines: which code runs, where, on what, and what it resumed.

They are logged on ``belote.lifecycle``, which :func:`bot.ops.logs.setup` keeps at INFO
whatever the level: an operator at the default WARNING still sees one line when the bot
starts (version, platform, database with its password masked, tables resumed) and one
when it stops.
"""

from __future__ import annotations

import logging
from typing import Any

from bot.ops.version import VERSION

log = logging.getLogger("belote.lifecycle")


def platform_name(platform: Any) -> str:
    """``adapters.discord.adapter.DiscordAdapter`` -> ``discord``; else the class's name."""
    module = type(platform).__module__.split(".")
    if len(module) > 1 and module[0] == "adapters":
        return module[1]
    return type(platform).__name__


def database_shown(store: Any) -> str:
    from bot.ops.settings import shown_db

    target = str(getattr(store, "target", "?"))
    kind = "postgresql" if getattr(store, "shared", False) else "sqlite"
    return f"{kind} {shown_db(target)}"


_started = False


def started(app: Any) -> None:
    """The start line, once the tables are resumed."""
    global _started
    _started = True
    tables = getattr(app, "tables", {})
    playing = sum(1 for t in tables.values() if getattr(t, "status", "") == "playing")
    log.info(
        "belote %s started: platform %s, database %s, %d tables resumed (%d playing)",
        VERSION,
        platform_name(getattr(app, "platform", None)),
        database_shown(getattr(app, "store", None)),
        len(tables),
        playing,
    )


def stopped(code: int) -> None:
    """The stop line, when there was a start line (a refused start says only why)."""
    global _started
    if not _started:
        return
    _started = False
    log.info("belote %s stopped (exit status %d)", VERSION, code)
