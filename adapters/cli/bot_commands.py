"""``belote run`` (console, Discord or Telegram) and ``belote export``.

The chat adapters are imported lazily, by name, only when chosen: the console needs
neither discord.py nor python-telegram-bot loaded. Each chat adapter exposes
``async def run(app_factory)``; ``app_factory(platform)`` returns a BeloteApp (not yet
started) wired to that platform.

``belote run`` reads its settings once (:mod:`bot.ops.settings`: the options typed, the
environment, ``.env``), checks them and the machine before anything opens, and says each
problem in one log line (exit status 2: fix the settings). Whatever it opened is closed
on every way out, so a failed start ends the process instead of leaving it hanging.
Exit status: 0 a clean stop, 1 a fault that may pass (a server unreachable), 2 the
settings or the database need the operator, 130 Ctrl-C.
"""

from __future__ import annotations

import argparse
import asyncio
import importlib
import inspect
import logging
import os
import sqlite3
import sys
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from adapters.cli import game_options, settings_options, types
from bot.ops import settings as settings_model

log = logging.getLogger("belote")


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser(
        "run",
        help="run the bot: in the terminal, or on Discord / Telegram",
        description="Run the bot. With no chat token configured, plays in the terminal.",
    )
    settings_options.add(p, settings_options.RUN_OPTIONS)
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
    p.add_argument("--fast", action="store_true", help="no pause, no seed window")
    game_options.declare(p)
    p.add_argument("--name", default=None, help="console: who types lines with no NAME:")
    p.add_argument("--solo", action="store_true", help="console: open a table with 3 bots")
    p.add_argument("--random-seed", default=None, help=argparse.SUPPRESS)  # tests only
    p.set_defaults(func=run_command)

    e = subparsers.add_parser(
        "export",
        help="write a match transcript (JSON)",
        description="Write the fair-deal transcript of a match (the last finished one when "
        "MATCH is left out) for `belote verify`. The database is opened read-only.",
    )
    e.add_argument(
        "match", nargs="?", type=types.match_id, default=None, help="match id, e.g. m12 or 12"
    )
    settings_options.add(e, settings_options.DB_OPTIONS)
    e.add_argument("-o", "--output", default=None, help="file to write (default: stdout)")
    e.set_defaults(func=export_command)


def database_setting(args: argparse.Namespace) -> str:
    """The database a command names: ``--db``, else ``DATABASE_URL`` / ``BELOTE_DB`` (the
    environment or ``.env``), else belote.db; checked as ``belote run`` checks it
    (:class:`~bot.ops.settings.SettingsInvalid`)."""
    given = settings_options.given(args, settings_options.DB_OPTIONS)
    env = settings_model.environment()  # SettingsInvalid when .env cannot be read
    try:
        return settings_model.BeloteSettings.model_validate(
            {"db": given.get("db") or _db_from(env)}
        ).db
    except settings_model.ValidationError as exc:
        raise settings_model.SettingsInvalid(settings_model.problems_of(exc, given, env)) from None


def _db_from(env: dict[str, str]) -> str:
    return env.get("DATABASE_URL", "").strip() or env.get("BELOTE_DB", "").strip() or "belote.db"


def terminal_language(env: dict[str, str] | None = None) -> str:
    """The person's language as the terminal's environment says (``fr_FR.UTF-8`` -> fr)."""
    env = dict(os.environ) if env is None else env
    for var in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(var, "").split(".")[0].split("@")[0]
        if value and value not in ("C", "POSIX"):
            return value.replace("_", "-")
    return "en"


# --- platform choice ---------------------------------------------------------------------

#: The settings' one ``.env`` reader, under the name this module used.
read_dotenv = settings_model.read_env_file


def choose_platform(explicit: str | None, env: dict[str, str] | None = None) -> str:
    if explicit:
        return explicit
    env = settings_model.environment() if env is None else env
    if env.get("DISCORD_TOKEN", "").strip():
        return "discord"
    if env.get("TELEGRAM_TOKEN", "").strip():
        return "telegram"
    return "console"


# --- building the app ----------------------------------------------------------------------


def app_factory(
    args: argparse.Namespace, s: settings_model.BeloteSettings, opened: list[Any]
) -> Callable[..., Awaitable]:
    """``await factory(platform)`` -> a BeloteApp on the settings' database (not
    started). Every store it opens is put in ``opened``, for the caller to close whatever
    happens."""

    async def factory(platform):
        from bot.app import BeloteApp, Settings
        from bot.ops.clock import SeededRandomness, SystemRandomness
        from bot.store import open_store

        settings = Settings(
            bot_delay=s.bot_delay,
            fast=args.fast,
            drand=not s.no_drand,
            timer=s.timer,
            seed_window=s.window,
            ruleset=s.ruleset or "club",
            render_images=bool(getattr(args, "pictures", None)) or args.platform != "console",
            tournaments=True,
            metrics_port=s.metrics_port,
            long_running=True,
        )
        from bot.ops.verify_site import page_url

        settings.public_url = s.public_url
        if s.web_port is not None:  # the web table: links under the public address
            from bot.play.seat_links import derive_key

            if settings.public_url is None:  # this machine's own address, for a try
                settings.public_url = f"http://localhost:{s.web_port}"
            secret = s.web_secret.get_secret_value() if s.web_secret else None
            tokens = [t.get_secret_value() for t in (s.discord_token, s.telegram_token) if t]
            keep = None if s.is_postgres or s.db == ":memory:" else Path(s.db + ".web-key")
            settings.web_key = derive_key(secret, tokens, keep)
        page = page_url(settings.public_url, s.verify_page)
        if page:
            settings.verify_page = page
        drand = None
        if not s.no_drand:
            from bot.proof.drand import PUBLIC_RELAYS, DrandClient

            drand = DrandClient(s.drand_relays or list(PUBLIC_RELAYS))
        randomness = SeededRandomness(args.random_seed) if args.random_seed else SystemRandomness()
        store = await open_store(s.db, exclusive=True, owner=s.owner, lease_seconds=s.lease)
        opened.append(store)
        app = BeloteApp(store, platform, drand=drand, settings=settings, randomness=randomness)
        if s.web_port is not None:
            from adapters.web.server import WebTable

            origins = (settings.public_url or "", *s.web_origins)
            web = WebTable(app, s.web_host, s.web_port, deliver=platform.deliver, origins=origins)
            app.attach(web)
        return app

    return factory


def run_command(args: argparse.Namespace) -> int:
    from bot.ops import lifecycle, logs

    given = settings_options.given(args)
    env: dict[str, str] = dict(os.environ)
    try:
        env = settings_model.environment()
        s = settings_model.load(given, env)
    except settings_model.SettingsInvalid as exc:
        _early_logging(given, env)
        _warn_unknown(env)
        for problem in exc.problems:
            log.error("%s", problem.line())
        return 2
    logs.setup(s.log_level, s.log_format, env={**env, **s.secrets()}, wire=s.log_wire)
    _warn_unknown(env)
    problems = settings_model.preflight(s, given, env, interactive=sys.stdin.isatty())
    try:
        shard_options(argparse.Namespace(**{**vars(args), "platform": s.chosen_platform()}))
    except ValueError as exc:
        problems.append(settings_model.Problem("--shard-ids, --shard-count", str(exc)))
    if problems:
        for problem in problems:
            log.error("%s", problem.line())
        return 2
    try:
        code = _run(args, s, given, env)
    except KeyboardInterrupt:
        code = 130
    except Exception as exc:
        code = _fault(exc, s, given, env)
    lifecycle.stopped(code)
    return code


def _warn_unknown(env: dict[str, str]) -> None:
    for text in settings_model.warnings(env):
        log.warning("%s", text)


def _early_logging(given: dict[str, Any], env: dict[str, str]) -> None:
    """Logging for the settings' own refusals: their format if it is one, else text."""
    from bot.ops import logs

    fmt = str(given.get("log_format") or env.get("BELOTE_LOG_FORMAT") or "text").strip().lower()
    logs.setup("WARNING", fmt if fmt in settings_model.LOG_FORMATS else "text", env={})


def _fault(
    exc: BaseException, s: settings_model.BeloteSettings, given: dict, env: dict[str, str]
) -> int:
    """One line for what stopped the bot; its exit status. A fault nobody foresaw is
    logged with its traceback (on the same line, see bot.ops.logs)."""
    from bot.store.base import StoreError
    from bot.store.lock import DatabaseInUse

    db = settings_model.source_name("db", given, env)
    if isinstance(exc, settings_model.StartRefused):
        log.error("%s", exc.problem.line())
        return 2
    if isinstance(exc, DatabaseInUse):
        log.error("%s: %s: stop it first (one process per SQLite database)", db, exc)
        return 2
    if isinstance(exc, StoreError):
        log.error("%s: %s", db, exc)
        return 2 if exc.fix_settings else 1
    if isinstance(exc, sqlite3.OperationalError) and "locked" in str(exc):
        log.error("%s: %s is locked by another program for more than 5 s", db, s.db)
        return 1
    if network := _network_problem(exc, s.chosen_platform() or "console"):
        log.error("%s", network)
        return 1
    log.exception("the bot stopped on an error")
    return 1


def _network_problem(exc: BaseException, platform: str) -> str | None:
    """A platform's server out of reach (no network, DNS, a refused connection)."""
    seen: list[BaseException] = []
    while exc is not None and exc not in seen:
        seen.append(exc)
        kind = type(exc)
        if kind.__module__.startswith("telegram") and kind.__name__ in ("NetworkError", "TimedOut"):
            return f"Telegram cannot be reached: {exc} (is the network up, does DNS answer?)"
        if isinstance(exc, OSError | TimeoutError):
            reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
            return (
                f"{platform.capitalize()} cannot be reached: {reason or type(exc).__name__} "
                "(is the network up, does DNS answer?)"
            )
        exc = exc.__cause__ or exc.__context__
    return None


async def _closing(work: Awaitable[Any], opened: list[Any]) -> Any:
    """``work``, then every store the factory opened closed, however ``work`` ended: an
    aiosqlite connection left open would keep the process alive after an error."""
    try:
        return await work
    finally:
        for store in opened:
            try:
                await store.close()
            except Exception:
                log.exception("the database did not close cleanly")


def _run(
    args: argparse.Namespace,
    s: settings_model.BeloteSettings,
    given: dict[str, Any],
    env: dict[str, str],
) -> int:
    from bot.play import thinking
    from bot.show.render import assets

    args.platform = s.chosen_platform() or "console"
    try:
        options = shard_options(args)
    except ValueError as exc:
        log.error("%s", exc)
        return 2
    thinking.CONFIGURED = s.thinkers
    thinking.CONFIGURED_THREADS = s.search_threads
    assets.use(s.assets)
    opened: list[Any] = []
    factory = app_factory(args, s, opened)
    if args.platform == "console":
        return asyncio.run(_closing(_run_console(args, s, factory), opened))
    module = importlib.import_module(f"adapters.{args.platform}")
    run = getattr(module, "run", None)
    if run is None:
        log.error("The %s adapter cannot run yet.", args.platform)
        return 2
    params = inspect.signature(run).parameters
    if "token" in params:
        options["token"] = s.token(args.platform)
    if args.platform == "discord":
        options["guild_ids"] = tuple(s.discord_guild_ids)
    if "app_factory" in params:
        result = run(app_factory=factory, **options)
    else:
        result = run(factory, **options)
    if inspect.isawaitable(result):
        result = asyncio.run(_closing(result, opened))
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


async def _run_console(
    args: argparse.Namespace, s: settings_model.BeloteSettings, factory: Callable[..., Awaitable]
) -> int:
    from adapters.console.platform import DEFAULT_NAME, ConsolePlatform
    from adapters.console.run import ConsoleOptions, run_console
    from adapters.console.screen import Screen

    name = args.name or os.environ.get("USER") or DEFAULT_NAME
    interactive = sys.stdin.isatty()
    solo = args.solo or (interactive and args.name is None)
    locale = args.lang or terminal_language()
    screen: object | None = None
    # Textual draws on stderr: the full screen only when that is the terminal too
    # (`belote 2>errors.txt` gets the compact screen on stdout instead)
    full = sys.stdout.isatty() and sys.stderr.isatty() and interactive
    if full and game_options.terminal_is_full_screen():
        from adapters.console.tui import TableTui  # Textual is loaded for a person only

        screen = TableTui(f"console:{name}", locale)
    elif sys.stdout.isatty():
        screen = Screen(sys.stdout, f"console:{name}", device_seeds=solo)
    platform = ConsolePlatform(images_dir=args.pictures, screen=screen)
    app = await factory(platform)
    options = ConsoleOptions(
        default_user=name,
        locale=locale,
        solo=solo,
        interactive=interactive,
        seed_source=args.random_seed,
        ruleset=s.ruleset,
        target=args.target,
        table_options=game_options.table_options(args),
        timer=args.timer,  # typed on the command line only: a solo table has none else
        pictures=args.pictures,
    )
    return await run_console(app, platform, options)


# --- export --------------------------------------------------------------------------------


def export_command(args: argparse.Namespace) -> int:
    return asyncio.run(_export(args))


async def _export(args: argparse.Namespace) -> int:
    from bot.app import BeloteApp
    from bot.proof.transcript import dumps
    from bot.store import open_store
    from bot.store.base import StoreError

    try:
        db = database_setting(args)
    except settings_model.SettingsInvalid as exc:
        return _refused(exc.problems[0].line())
    sqlite = not db.startswith(("postgresql://", "postgres://"))
    if sqlite and (problems := settings_model.sqlite_problems(Path(db), write=False)):
        return _refused(problems[0])
    try:
        store = await open_store(db, read_only=True)
    except StoreError as exc:
        return _refused(str(exc), 2 if exc.fix_settings else 1)
    try:
        if args.match is None:  # the last finished one: a match in progress has no proof yet
            finished = await store.matches("over")
            row = max(finished, key=lambda m: m.id) if finished else None
            if row is None:
                print(
                    "No match has finished in that database yet: finish one, or name one"
                    " (belote export m12).",
                    file=sys.stderr,
                )
                return 1
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


def _refused(line: str, code: int = 2) -> int:
    print(f"belote: {line}", file=sys.stderr)
    return code
