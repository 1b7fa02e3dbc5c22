"""The command-line options that are settings (bot.ops.settings), declared in one place.

Each option's ``dest`` is its settings field and its default is None: argparse only says
what a person typed, and :func:`given` hands exactly that to the settings model, which
reads the rest from the environment and ``.env`` and validates the whole. An option typed
on the command line wins over both.
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass
from typing import Any

from adapters.cli import types
from bot.ops import settings
from engine import RULESETS

DB_HELP = (
    "database: a SQLite file (default belote.db) or a postgresql:// URL, which several "
    "bot processes can share (env: DATABASE_URL or BELOTE_DB)"
)


@dataclass(frozen=True)
class SettingOption:
    flag: str
    field: str
    help: str
    type: Any = None
    metavar: str | None = None
    action: str | None = None


#: The settings ``belote run`` takes on its command line (the others: environment, .env).
RUN_OPTIONS: tuple[SettingOption, ...] = (
    SettingOption("--platform", "platform", "console, discord or telegram (env: BELOTE_PLATFORM)"),
    SettingOption("--db", "db", DB_HELP),
    SettingOption(
        "--owner",
        "owner",
        "PostgreSQL: this process's name in the table leases (unique per live process;"
        " restarted under the same name it takes its tables back at once)",
    ),
    SettingOption(
        "--lease",
        "lease",
        "PostgreSQL: seconds a dead process's tables wait before another takes them (10)",
        types.lease,
        "S",
    ),
    SettingOption("--bot-delay", "bot_delay", "bot pause (1.0)", types.bot_delay, "S"),
    SettingOption("--no-drand", "no_drand", "deal without drand", action="store_true"),
    SettingOption(
        "--drand-relay",
        "drand_relays",
        "drand relay URL (repeatable)",
        metavar="URL",
        action="append",
    ),
    SettingOption(
        "--timer",
        "timer",
        "turn timer of new tables (60); a solo table in the terminal has none unless given,"
        " and then counts it down on screen",
        types.default_timer,
        "S",
    ),
    SettingOption("--window", "window", "seed window (20)", types.seed_window, "S"),
    SettingOption(
        "--ruleset", "ruleset", "new tables' rules (club)", types.ruleset, "|".join(RULESETS)
    ),
    SettingOption(
        "--verify-page",
        "verify_page",
        "the browser check /verify links to (default: <public-url>/verify/, "
        "else the docs' published web/verify)",
        metavar="URL",
    ),
    SettingOption(
        "--public-url",
        "public_url",
        "the address people reach this bot's HTTP port (--metrics-port) at: "
        "/verify then links to the page it serves, URL/verify/",
        metavar="URL",
    ),
    SettingOption(
        "--log-level", "log_level", "DEBUG, INFO, WARNING (default), ERROR", metavar="LEVEL"
    ),
    SettingOption(
        "--log-format",
        "log_format",
        "text: one line an event; json: one JSON object an event",
        metavar="text|json",
    ),
    SettingOption(
        "--log-wire",
        "log_wire",
        "with DEBUG, the libraries' raw traffic too (platform debugging only: it shows "
        "what players type before the bot knows it is a secret)",
        action="store_true",
    ),
    SettingOption(
        "--metrics-port",
        "metrics_port",
        "serve Prometheus /metrics, /livez and /readyz (/healthz) on this port",
        types.whole(0, 65535),
        "PORT",
    ),
    SettingOption(
        "--web-port",
        "web_port",
        "serve the web table (/table/, its socket, /verify/) on this public port;"
        " /web then gives each player a link to it, under --public-url",
        types.whole(0, 65535),
        "PORT",
    ),
    SettingOption(
        "--web-host", "web_host", "the address the web table listens on (0.0.0.0)", metavar="ADDR"
    ),
)

#: The settings the admin and export commands take (the database only).
DB_OPTIONS: tuple[SettingOption, ...] = tuple(o for o in RUN_OPTIONS if o.field == "db")


def add(parser: argparse.ArgumentParser, options: tuple[SettingOption, ...]) -> None:
    for o in options:
        kwargs: dict[str, Any] = {"dest": o.field, "default": None, "help": o.help}
        if o.action:
            kwargs["action"] = o.action
        else:
            kwargs["metavar"] = o.metavar
        if o.type is not None:
            kwargs["type"] = o.type
        if o.action == "append":
            kwargs["metavar"] = o.metavar
        parser.add_argument(o.flag, **kwargs)
        settings.OPTIONS[o.field] = o.flag


def given(args: argparse.Namespace, options: tuple[SettingOption, ...] = RUN_OPTIONS) -> dict:
    """The settings typed on the command line (the ones left out are not in it)."""
    out = {}
    for o in options:
        value = getattr(args, o.field, None)
        if value is not None:
            out[o.field] = value
    return out
