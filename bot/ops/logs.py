"""The process's logging: one line an event, plain text or JSON, secrets masked.

One line an event, so ``journalctl``, ``docker logs`` and log shippers never split an
event or glue two together: in text, a traceback's line breaks are written as ``\\n``
(``sed 's/\\\\n/\\n/g'`` unfolds them); in JSON (``--log-format json``) the traceback is
the ``exc_info`` field of the event's one object. The :class:`bot.ops.redact.RedactingFilter`
sits on the handler, so neither format ever sees a registered secret; the settings that
hold secrets (tokens, the database password) are registered here, before anything logs.
"""

from __future__ import annotations

import logging
import sys
import threading
import time
from collections.abc import Mapping
from typing import TextIO
from urllib.parse import urlsplit

from pythonjsonlogger.json import JsonFormatter

from bot.ops import redact

FORMATS = ("text", "json")
#: Libraries that, at DEBUG, dump what goes over the wire: raw gateway events and updates
#: (a player's ``/seed`` arrives there before the core can know it is a secret and
#: register it), request bodies, SQL parameters. A registry of secrets cannot mask what
#: nobody has registered yet, so these stay at INFO even when the bot logs at DEBUG.
WIRE_LOGGERS = (
    "discord.gateway",
    "discord.http",
    "discord.webhook",
    "discord.client",
    "discord.state",
    "telegram",
    "httpx",
    "httpcore",
    "hpack",
    "aiosqlite",
    "asyncpg",
)
#: Settings whose whole value is a secret.
SECRET_SETTINGS = (
    "DISCORD_TOKEN",
    "TELEGRAM_TOKEN",
    "TELEGRAM_WEBHOOK_SECRET",
    "PGPASSWORD",  # PostgreSQL's password apart from the URL (compose.yaml)
    "POSTGRES_PASSWORD",
)
#: Settings that are URLs with a password in them.
URL_SETTINGS = ("DATABASE_URL",)


class OneLineFormatter(logging.Formatter):
    """``2026-11-30T05:21:15.123Z ERROR bot.app: message | Traceback...\\n  File...``"""

    converter = staticmethod(time.gmtime)

    def __init__(self) -> None:
        super().__init__("%(asctime)s %(levelname)s %(name)s: %(message)s")

    def formatTime(self, record: logging.LogRecord, datefmt: str | None = None) -> str:
        return _iso(record)

    def format(self, record: logging.LogRecord) -> str:
        text = super().format(record)
        trace = record.exc_text or ""
        if trace and text.endswith(trace):  # "message | Traceback ...": where one ends
            text = f"{text[: -len(trace)].rstrip()} | {trace}"
        return text.replace("\r", "\\r").replace("\n", "\\n")


class OneObjectFormatter(JsonFormatter):
    """``{"time": ..., "level": ..., "logger": ..., "message": ..., "exc_info": ...}``"""

    def __init__(self) -> None:
        super().__init__(
            "{asctime}{levelname}{name}{message}",
            style="{",
            rename_fields={"asctime": "time", "levelname": "level", "name": "logger"},
            json_ensure_ascii=False,
        )

    def formatTime(self, record: logging.LogRecord, datefmt: str | None = None) -> str:
        return _iso(record)


def _iso(record: logging.LogRecord) -> str:
    stamp = time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(record.created))
    return f"{stamp}.{int(record.msecs):03d}Z"


def register_secrets(env: Mapping[str, str]) -> None:
    """Register the secret settings found in ``env`` (tokens, a database password)."""
    for name in SECRET_SETTINGS:
        if value := env.get(name, "").strip():
            redact.register(value)
    for name in URL_SETTINGS:
        if value := env.get(name, "").strip():
            try:
                password = urlsplit(value).password
            except ValueError:
                password = None
            if password:
                redact.register(password)


_handler: logging.Handler | None = None


def setup(
    level: str = "WARNING",
    fmt: str = "text",
    env: Mapping[str, str] | None = None,
    stream: TextIO | None = None,
    wire: bool = False,
) -> logging.Handler:
    """One handler on the root logger (replacing the one an earlier call put there),
    writing to ``stream`` (stderr) in ``fmt``; the redacting filter installed on it.
    ``wire``: let the :data:`WIRE_LOGGERS` log at ``level`` too (debugging a platform
    problem; a player's seed may then show before it is registered)."""
    global _handler
    if fmt not in FORMATS:
        raise ValueError(f"log format must be one of {', '.join(FORMATS)}")
    root = logging.getLogger()
    if _handler is not None:
        root.removeHandler(_handler)
    handler = logging.StreamHandler(stream or sys.stderr)
    handler.addFilter(_not_ours)
    handler.setFormatter(OneObjectFormatter() if fmt == "json" else OneLineFormatter())
    root.addHandler(handler)
    root_level = getattr(logging, str(level).upper(), logging.WARNING)
    root.setLevel(root_level)
    for name in WIRE_LOGGERS:  # never below INFO; at WARNING, their INFO stays out too
        logging.getLogger(name).setLevel(logging.NOTSET if wire else max(logging.INFO, root_level))
    # the start and stop lines show at any level (bot.ops.lifecycle)
    logging.getLogger("belote.lifecycle").setLevel(logging.INFO)
    _handler = handler
    register_secrets(env if env is not None else {})
    redact.install()
    logging.captureWarnings(True)  # warnings become events too, one line each
    threading.excepthook = _thread_died  # not Python's multi-line print to stderr
    return handler


#: Library lines about features the bot never uses: noise beside the lines that matter.
NOISE = ("voice will NOT be supported",)


def _not_ours(record: logging.LogRecord) -> bool:
    return not (
        record.name.startswith("discord")
        and isinstance(record.msg, str)
        and any(n in record.msg for n in NOISE)
    )


def teardown() -> None:
    """Undo :func:`setup` (for a program that embeds the bot, and for tests)."""
    global _handler
    if _handler is not None:
        logging.getLogger().removeHandler(_handler)
        _handler = None
    threading.excepthook = threading.__excepthook__
    logging.getLogger("belote.lifecycle").setLevel(logging.NOTSET)
    for name in WIRE_LOGGERS:
        logging.getLogger(name).setLevel(logging.NOTSET)


def _thread_died(args: threading.ExceptHookArgs) -> None:
    """An exception no code caught in a worker thread: one event, with its traceback."""
    if args.exc_type is SystemExit:
        return
    name = args.thread.name if args.thread is not None else "?"
    exc = args.exc_value
    logging.getLogger("belote.thread").error(
        "thread %s died",
        name,
        exc_info=(args.exc_type, exc, args.exc_traceback) if exc is not None else None,
    )
