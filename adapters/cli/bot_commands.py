"""``belote run`` (console, Discord or Telegram) and ``belote export``.

The chat adapters are imported lazily, by name, only when chosen: the console needs
neither discord.py nor python-telegram-bot loaded. Each chat adapter exposes
``async def run(app_factory)``; ``app_factory(platform)`` returns a BeloteApp (not yet
started) wired to that platform.
"""

from __future__ import annotations

import argparse
import asyncio
import importlib
import inspect
import logging
import os
import sys
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from adapters.cli import types
from bot.ops.logs import FORMATS

DEFAULT_DB = "belote.db"
DB_HELP = (
    "database: a SQLite file (default belote.db) or a postgresql:// URL, which several "
    "bot processes can share (env: DATABASE_URL or BELOTE_DB)"
)


def default_db() -> str:
    """``DATABASE_URL``, else ``BELOTE_DB`` (environment or .env), else belote.db."""
    return _env("DATABASE_URL", None) or _env("BELOTE_DB", DEFAULT_DB)


SOLO_PICTURES = "belote-pictures"
log = logging.getLogger("belote")


def _env(name: str, default: Any) -> Any:
    """An option's default: the BELOTE_* setting when set (environment or .env), so a
    container or a systemd unit configures the bot without a command line."""
    value = _settings().get(name, "").strip()
    return value if value else default


def _flag(name: str) -> bool:
    return _settings().get(name, "").strip().lower() in ("1", "true", "yes", "on")


def _list(name: str) -> list[str] | None:
    items = [v.strip() for v in _settings().get(name, "").split(",") if v.strip()]
    return items or None


def _settings() -> dict[str, str]:
    return {**read_dotenv(), **os.environ}


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser(
        "run",
        help="run the bot: in the terminal, or on Discord / Telegram",
        description="Run the bot. With no chat token configured, plays in the terminal.",
    )
    p.add_argument(
        "--platform",
        choices=("console", "discord", "telegram"),
        default=_env("BELOTE_PLATFORM", None),
    )
    p.add_argument("--db", default=default_db(), help=DB_HELP)
    p.add_argument(
        "--owner",
        default=_env("BELOTE_OWNER", None),
        help="PostgreSQL: this process's name in the table leases (unique per live process;"
        " restarted under the same name it takes its tables back at once)",
    )
    p.add_argument(
        "--lease",
        type=types.lease,
        default=10.0,
        metavar="S",
        help="PostgreSQL: seconds a dead process's tables wait before another takes them",
    )
    p.add_argument(
        "--shard-ids",
        default=None,
        metavar="0,1",
        help="Discord: the shards this process serves (with --shard-count; several processes"
        " share one PostgreSQL --db)",
    )
    p.add_argument(
        "--shard-count", type=types.whole(1, 65_536), default=None, metavar="N", help="shards"
    )
    p.add_argument(
        "--bot-delay",
        type=types.bot_delay,
        default=_env("BELOTE_BOT_DELAY", 1.0),
        metavar="S",
        help="bot pause",
    )
    p.add_argument("--fast", action="store_true", help="no pause, no seed window")
    p.add_argument(
        "--no-drand",
        action="store_true",
        default=_flag("BELOTE_NO_DRAND"),
        help="deal without drand",
    )
    p.add_argument(
        "--drand-relay",
        action="append",
        metavar="URL",
        default=_list("BELOTE_DRAND_RELAYS"),
        help="drand relay URL",
    )
    p.add_argument(
        "--timer",
        type=types.default_timer,
        default=_env("BELOTE_TIMER", 60.0),
        metavar="S",
        help="turn timer",
    )
    p.add_argument(
        "--window",
        type=types.seed_window,
        default=_env("BELOTE_WINDOW", 20.0),
        metavar="S",
        help="seed window",
    )
    rules = "classic|club|bulgarian"
    p.add_argument(
        "--ruleset",
        type=types.ruleset,
        default=_env("BELOTE_RULESET", None),
        metavar=rules,
        help="new tables' rules (club)",
    )
    p.add_argument("--target", type=types.target, metavar="N", help="console: points to win")
    p.add_argument("--lang", metavar="LANG", help="console: en, fr or bg (default: from $LANG)")
    p.add_argument(
        "--verify-page",
        default=_env("BELOTE_VERIFY_PAGE", None),
        metavar="URL",
        help="the browser check /verify links to (default: <public-url>/verify/, "
        "else the docs' published web/verify)",
    )
    p.add_argument(
        "--public-url",
        default=_env("BELOTE_PUBLIC_URL", None),
        metavar="URL",
        help="the address people reach this bot's HTTP port (--metrics-port) at: "
        "/verify then links to the page it serves, URL/verify/",
    )
    p.add_argument("--name", default=None, help="console: who types lines with no NAME:")
    p.add_argument("--solo", action="store_true", help="console: open a table with 3 bots")
    p.add_argument("--images", default=None, metavar="DIR", help="console: save pictures")
    p.add_argument("--random-seed", default=None, help=argparse.SUPPRESS)  # tests only
    p.add_argument("--log-level", default=_env("BELOTE_LOG_LEVEL", "WARNING"))
    p.add_argument(
        "--log-format",
        choices=FORMATS,
        default=_env("BELOTE_LOG_FORMAT", "text"),
        help="text: one line an event; json: one JSON object an event",
    )
    p.add_argument(
        "--log-wire",
        action="store_true",
        default=_flag("BELOTE_LOG_WIRE"),
        help="with DEBUG, the libraries' raw traffic too (platform debugging only: it shows "
        "what players type before the bot knows it is a secret)",
    )
    p.add_argument(
        "--metrics-port",
        type=types.whole(0, 65535),
        default=_env("BELOTE_METRICS_PORT", None),
        metavar="PORT",
        help="serve Prometheus /metrics and /healthz on this port",
    )
    p.set_defaults(func=run_command)

    e = subparsers.add_parser(
        "export",
        help="write a match transcript (JSON)",
        description="Write the fair-deal transcript of a match (the latest when MATCH is "
        "left out) for `belote verify`.",
    )
    e.add_argument(
        "match", nargs="?", type=types.match_id, default=None, help="match id, e.g. m12 or 12"
    )
    e.add_argument("--db", default=default_db(), help=DB_HELP)
    e.add_argument("-o", "--output", default=None, help="file to write (default: stdout)")
    e.set_defaults(func=export_command)


def terminal_language(env: dict[str, str] | None = None) -> str:
    """The person's language as the terminal's environment says (``fr_FR.UTF-8`` -> fr)."""
    env = dict(os.environ) if env is None else env
    for var in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(var, "").split(".")[0].split("@")[0]
        if value and value not in ("C", "POSIX"):
            return value.replace("_", "-")
    return "en"


# --- platform choice ---------------------------------------------------------------------


def read_dotenv(path: str | Path = ".env") -> dict[str, str]:
    """KEY=VALUE lines of a .env file (no expansion); values never printed anywhere."""
    out: dict[str, str] = {}
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError:
        return out
    for line in text.splitlines():
        line = line.strip()
        if not line or line.startswith("#") or "=" not in line:
            continue
        key, _, value = line.partition("=")
        key = key.strip().removeprefix("export ").strip()
        out[key] = value.strip().strip("'\"")
    return out


def choose_platform(explicit: str | None, env: dict[str, str] | None = None) -> str:
    if explicit:
        return explicit
    env = {**read_dotenv(), **os.environ} if env is None else env
    if env.get("DISCORD_TOKEN"):
        return "discord"
    if env.get("TELEGRAM_TOKEN"):
        return "telegram"
    return "console"


# --- building the app ----------------------------------------------------------------------


def app_factory(args: argparse.Namespace) -> Callable[..., Awaitable]:
    """``await factory(platform)`` -> a BeloteApp on the database of ``args`` (not started)."""

    async def factory(platform):
        from bot.app import BeloteApp, Settings
        from bot.ops.clock import SeededRandomness, SystemRandomness
        from bot.store import open_store

        settings = Settings(
            bot_delay=args.bot_delay,
            fast=args.fast,
            drand=not args.no_drand,
            timer=args.timer,
            seed_window=args.window,
            ruleset=args.ruleset or "club",
            render_images=bool(getattr(args, "images", None)) or args.platform != "console",
            tournaments=True,
            metrics_port=args.metrics_port,
            long_running=True,
        )
        from bot.ops.verify_site import page_url

        settings.public_url = getattr(args, "public_url", None)
        page = page_url(settings.public_url, getattr(args, "verify_page", None))
        if page:
            settings.verify_page = page
        drand = None
        if not args.no_drand:
            from bot.proof.drand import PUBLIC_RELAYS, DrandClient

            drand = DrandClient(args.drand_relay or list(PUBLIC_RELAYS))
        randomness = SeededRandomness(args.random_seed) if args.random_seed else SystemRandomness()
        store = await open_store(args.db, owner=args.owner, lease_seconds=args.lease)
        return BeloteApp(store, platform, drand=drand, settings=settings, randomness=randomness)

    return factory


def run_command(args: argparse.Namespace) -> int:
    from bot.ops import logs

    logs.setup(args.log_level, args.log_format, env=_settings(), wire=args.log_wire)
    logs.register_secrets({"DATABASE_URL": str(args.db)})  # a --db URL's password too
    try:
        return _run(args)
    except KeyboardInterrupt:
        return 130
    except Exception:
        log.exception("the bot stopped on an error")
        return 1


def _run(args: argparse.Namespace) -> int:
    args.platform = choose_platform(args.platform)
    try:
        options = shard_options(args)
    except ValueError as exc:
        print(str(exc), file=sys.stderr)
        return 2
    if args.platform == "console":
        return asyncio.run(_run_console(args))
    module = importlib.import_module(f"adapters.{args.platform}")
    run = getattr(module, "run", None)
    if run is None:
        print(f"The {args.platform} adapter cannot run yet.", file=sys.stderr)
        return 2
    factory = app_factory(args)
    params = inspect.signature(run).parameters
    if "app_factory" in params:
        result = run(app_factory=factory, **options)
    else:
        result = run(factory, **options)
    if inspect.isawaitable(result):
        result = asyncio.run(result)
    return int(result or 0)


def shard_options(args: argparse.Namespace) -> dict[str, object]:
    """``--shard-ids`` / ``--shard-count`` as the Discord adapter's options (none given:
    none); ValueError with a message for the user when they make no sense."""
    if args.shard_ids is None and args.shard_count is None:
        return {}
    if args.platform != "discord":
        raise ValueError("--shard-ids and --shard-count are for Discord.")
    from adapters.discord.shards import Shards, parse_shard_ids

    count = args.shard_count or 1
    ids = parse_shard_ids(args.shard_ids) if args.shard_ids else tuple(range(count))
    shards = Shards(ids, count)
    return {"shard_ids": shards.ids, "shard_count": shards.count}


async def _run_console(args: argparse.Namespace) -> int:
    from adapters.console.platform import ConsolePlatform
    from adapters.console.run import ConsoleOptions, run_console
    from adapters.console.screen import Screen

    name = args.name or os.environ.get("USER") or "you"
    interactive = sys.stdin.isatty()
    solo = args.solo or (interactive and args.name is None)
    if solo and args.images is None:
        args.images = SOLO_PICTURES  # the same pictures the chat platforms send
    screen = None
    if sys.stdout.isatty():
        screen = Screen(sys.stdout, f"console:{name}", device_seeds=solo)
    platform = ConsolePlatform(images_dir=args.images, screen=screen)
    app = await app_factory(args)(platform)
    options = ConsoleOptions(
        default_user=name,
        locale=args.lang or terminal_language(),
        solo=solo,
        interactive=interactive,
        seed_source=args.random_seed,
        ruleset=args.ruleset,
        target=args.target,
    )
    return await run_console(app, platform, options)


# --- export --------------------------------------------------------------------------------


def export_command(args: argparse.Namespace) -> int:
    return asyncio.run(_export(args))


async def _export(args: argparse.Namespace) -> int:
    from bot.app import BeloteApp
    from bot.proof.transcript import dumps
    from bot.store import is_postgres, open_store

    if not is_postgres(args.db) and not Path(args.db).exists():
        print(f"No database at {args.db}.", file=sys.stderr)
        return 2
    store = await open_store(args.db)
    try:
        if args.match is None:
            row = await store.latest_match()
        else:
            row = await store.match(args.match)
        if row is None:
            print("No such match in that database.", file=sys.stderr)
            return 1
        app = BeloteApp(store)
        try:
            transcript = await app.transcript(row.id)
        except LookupError as exc:
            print(str(exc), file=sys.stderr)
            return 1
    finally:
        await store.close()
    out = dumps(transcript)
    if args.output:
        Path(args.output).write_text(out + "\n", encoding="utf-8")
    else:
        sys.stdout.write(out + "\n")
    return 0
