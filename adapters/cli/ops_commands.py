"""The operator's shell commands: ``belote backup`` and ``belote admin``.

``backup`` copies a live SQLite database with SQLite's online backup API: the copy is
one consistent moment of the database even while the bot writes to it (a plain ``cp`` of
a database in WAL mode can miss the last commits or catch a half-written page). ``admin``
lists tables, closes a stuck one and exports every finished match's transcript.

What only reads (``admin tables``, ``admin export-all``, ``export``) opens the database
read-only and never changes it. What changes it (``admin close``) is refused while a live
bot holds the database (SQLite: its lock file) or the table's lease (PostgreSQL): the
running bot keeps its tables in memory and would bring the table back at its next write;
close it in the chat instead, or stop the bot first.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import shutil
import sqlite3
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

from adapters.cli import settings_options, types
from adapters.cli.bot_commands import database_setting
from bot.ops import settings as settings_model

#: The backups' names, the one pattern both units write and prune (belote-<when>.db,
#: belote-before-start-<when>.db, each with its .discord.json).
BACKUP_PATTERN = "belote-*.db"
#: Pages copied per step of the backup: the bot's writes go on between steps.
BACKUP_PAGES_PER_STEP = 1024
OPERATOR = "admin:shell"  # who the match log says closed a table from the shell


def register(subparsers: argparse._SubParsersAction) -> None:
    b = subparsers.add_parser(
        "backup",
        help="copy a live SQLite database consistently (and say how to restore it)",
        description="Copy the bot's SQLite database while it runs (SQLite's online backup "
        "API), check the copy, and print how to restore it.",
    )
    b.add_argument("out", help="the file to write (must not exist)")
    b.add_argument("--db", default=None, help="the live SQLite database (default: BELOTE_DB)")
    b.add_argument(
        "--if-migrating",
        action="store_true",
        help="copy only when this bot would migrate the database at its next start (the "
        "unit's copy before each start: a crash loop copies nothing)",
    )
    b.add_argument(
        "--prune-days",
        type=types.whole(1, 36_500),
        default=None,
        metavar="N",
        help=f"then delete the backups ({BACKUP_PATTERN}) older than N days beside OUT",
    )
    b.set_defaults(func=backup_command)

    h = subparsers.add_parser(
        "healthcheck",
        help="ask the running bot's /healthz: exit 0 when healthy (container health checks)",
    )
    h.add_argument("--host", default="127.0.0.1")
    h.add_argument(
        "--port",
        type=types.whole(1, 65535),
        default=None,
        help="the bot's metrics port (default: BELOTE_METRICS_PORT, else 9100)",
    )
    h.add_argument("--timeout", type=types.seconds(0.1, 60), default=4.0, metavar="S")
    h.add_argument(
        "--live", action="store_true", help="ask /livez (is it running) instead of /readyz"
    )
    h.set_defaults(func=healthcheck_command)

    a = subparsers.add_parser(
        "admin",
        help="operator commands: list tables, close a table, export every match",
        description="Operator commands on the bot's database.",
    )
    settings_options.add(a, settings_options.DB_OPTIONS)
    sub = a.add_subparsers(dest="admin_command", required=True)
    t = sub.add_parser(
        "tables",
        help="the tables not closed: status, match, idle since the last move, who runs it",
    )
    t.set_defaults(func=lambda args: asyncio.run(_tables(args)))
    c = sub.add_parser(
        "close",
        help="close a table (its match, if any, is aborted); refused while a bot runs it",
        description="Close a table as a server admin would with /table close: a match in "
        "progress is aborted (logged as such, the server seed then revealed by /verify). "
        "A running bot keeps its tables in memory, so this is refused while one holds the "
        "database (SQLite) or the table's lease (PostgreSQL): close it in the chat as a "
        "server admin, or stop the bot first.",
    )
    c.add_argument("table", help="the table, e.g. t3")
    c.set_defaults(func=lambda args: asyncio.run(_close(args)))
    e = sub.add_parser(
        "export-all", help="write every finished match's transcript to DIR (m12.json, ...)"
    )
    e.add_argument("dir", help="the directory to write into (created if missing)")
    e.set_defaults(func=lambda args: asyncio.run(_export_all(args)))
    for each in (t, c, e):  # `belote admin tables --db PATH` as well as `admin --db PATH tables`
        each.add_argument("--db", default=argparse.SUPPRESS, help=settings_options.DB_HELP)


# --- healthcheck ---------------------------------------------------------------------------


def healthcheck_command(args: argparse.Namespace) -> int:
    """0 when /healthz says healthy, 1 when it says not (its report printed), 2 when
    nothing answers (the bot is down, or was started without --metrics-port)."""
    port = args.port
    if port is None:
        try:
            env = settings_model.environment()
        except settings_model.SettingsInvalid:
            env = dict(os.environ)
        raw = env.get("BELOTE_METRICS_PORT", "").strip()
        port = int(raw) if raw.isdigit() and 0 < int(raw) < 65536 else 9100
    url = f"http://{args.host}:{port}/{'livez' if args.live else 'healthz'}"
    try:
        with urllib.request.urlopen(url, timeout=args.timeout) as resp:
            print(resp.read().decode("utf-8", "replace"))
            return 0
    except urllib.error.HTTPError as exc:
        print(exc.read().decode("utf-8", "replace"), file=sys.stderr)
        return 1
    except OSError as exc:
        print(f"Nothing answers at {url}: {exc}", file=sys.stderr)
        return 2


# --- backup --------------------------------------------------------------------------------


def backup_command(args: argparse.Namespace) -> int:
    try:
        target = database_setting(args)
    except settings_model.SettingsInvalid as exc:
        print(f"belote: {exc.problems[0].line()}", file=sys.stderr)
        return 2
    db, out = Path(target), Path(args.out)
    if "://" in target:
        print(
            "That is a database server: back it up with its own tools "
            "(PostgreSQL: pg_dump -Fc DATABASE_URL > belote.dump). See docs/operations.md.",
            file=sys.stderr,
        )
        return 2
    if args.if_migrating and not _migration_due(db):
        prune(out.parent, args.prune_days)
        return 0
    if not db.is_file():
        print(f"No database at {db}.", file=sys.stderr)
        return 2
    if out.exists():
        print(f"{out} exists already: name a new file.", file=sys.stderr)
        return 2
    out.parent.mkdir(parents=True, exist_ok=True)
    partial = out.with_name(out.name + ".partial")
    started = time.monotonic()
    try:
        pages = backup_sqlite(db, partial)
    except sqlite3.Error as exc:
        partial.unlink(missing_ok=True)
        print(f"The backup failed: {exc}", file=sys.stderr)
        return 1
    partial.replace(out)
    copied = [out]
    sidecar = Path(f"{db}.discord.json")  # which Discord message shows which table
    if sidecar.is_file():
        shutil.copy2(sidecar, f"{out}.discord.json")
        copied.append(Path(f"{out}.discord.json"))
    seconds = time.monotonic() - started
    print(f"Backed up {db} to {out} ({pages} pages, checked, {seconds:.1f} s).")
    print(restore_instructions(db, copied))
    prune(out.parent, args.prune_days, keep=set(copied))
    return 0


def _migration_due(db: Path) -> bool:
    """Would this bot migrate ``db`` at its start? (Says why not when it would not.)"""
    from bot.store import MIGRATIONS

    if not db.is_file():
        print(f"No database at {db} yet: nothing to copy.")
        return False
    version = settings_model.user_version(db)
    if version is not None and version >= len(MIGRATIONS):
        print(f"No migration due ({db} is at schema version {version}): no copy made.")
        return False
    return True


def prune(folder: Path, days: int | None, keep: set[Path] = frozenset()) -> int:
    """Delete the backups in ``folder`` (:data:`BACKUP_PATTERN`, with their Discord
    message maps) older than ``days``; returns how many files went."""
    if days is None or not folder.is_dir():
        return 0
    cutoff = time.time() - days * 86400
    gone = 0
    for path in folder.glob(BACKUP_PATTERN + "*"):
        if path in keep or not path.is_file():
            continue
        if path.stat().st_mtime < cutoff:
            path.unlink(missing_ok=True)
            gone += 1
    if gone:
        print(f"Pruned {gone} backup files older than {days} days from {folder}/.")
    return gone


def backup_sqlite(db: Path, out: Path) -> int:
    """Copy ``db`` to ``out`` with the online backup API, then check the copy; returns its
    page count. Raises ``sqlite3.Error`` if the copy is not sound."""
    src = sqlite3.connect(f"file:{db}?mode=ro", uri=True)  # never creates, never writes
    try:
        dst = sqlite3.connect(out)
        try:
            src.backup(dst, pages=BACKUP_PAGES_PER_STEP)
            dst.execute("PRAGMA journal_mode=DELETE")  # one self-contained file
            (verdict,) = dst.execute("PRAGMA integrity_check").fetchone()
            if verdict != "ok":
                raise sqlite3.DatabaseError(f"the copy does not check: {verdict}")
            (pages,) = dst.execute("PRAGMA page_count").fetchone()
        finally:
            dst.close()
    finally:
        src.close()
    return int(pages)


def restore_instructions(db: Path, copied: list[Path]) -> str:
    out = copied[0]
    lines = [
        "To restore it:",
        "  1. stop the bot (systemctl stop belote, or docker compose stop bot);",
        f"  2. move the damaged database aside: mv {db} {db}.broken; rm -f {db}-wal {db}-shm",
        f"  3. copy the backup in place: cp {out} {db}",
        "     and give it to the user the bot runs as (after a copy as root: "
        f"chown belote:belote {db}, in a container chown 10001:10001);",
    ]
    if len(copied) > 1:
        lines.append(f"     and its Discord message map: cp {copied[1]} {db}.discord.json")
    lines.append("  4. start the bot: it resumes every unfinished table from the copy.")
    return "\n".join(lines)


# --- admin ---------------------------------------------------------------------------------


async def _open(args: argparse.Namespace, *, read_only: bool = True, **options: object):
    """The store ``--db`` names (read-only unless asked), or None with the one line that
    says why not printed (exit status 2)."""
    from bot.store import open_store
    from bot.store.base import StoreError

    try:
        db = database_setting(args)
    except settings_model.SettingsInvalid as exc:
        print(f"belote: {exc.problems[0].line()}", file=sys.stderr)
        return None
    if "://" not in db and (problems := settings_model.sqlite_problems(Path(db), write=False)):
        print(f"belote: {problems[0]}", file=sys.stderr)
        return None
    try:
        return await open_store(db, read_only=read_only, **options)
    except StoreError as exc:
        print(f"belote: {exc}", file=sys.stderr)
        return None


async def _tables(args: argparse.Namespace) -> int:
    from bot.store.lock import holder_of

    store = await _open(args)
    if store is None:
        return 2
    try:
        rows = await store.open_tables()
        moves = await store.last_moves()
        leases = await store.lease_owners()
    finally:
        await store.close()
    if not rows:
        print("No table is open.")
        return 0
    now = time.time()
    runner = "-"
    if not store.shared:
        holder = holder_of(store.path)
        runner = f"pid {holder.pid}@{holder.host}" if holder is not None else "-"
    print(
        f"{'table':<7}{'status':<9}{'ruleset':<10}{'match':<8}{'idle':>8}  "
        f"{'run by':<24}channel / seats"
    )
    for r in rows:
        seats = ", ".join(
            (s.get("name") or "?") + (" (bot)" if s.get("kind") == "bot" else "") if s else "-"
            for s in r.seats
        )
        ruleset = r.settings.get("ruleset", "?")
        match = f"m{r.match_id}" if r.match_id else "-"
        idle = _duration(now - moves.get(r.id, r.updated_at))
        owner = runner
        if store.shared:
            lease = leases.get(r.id)
            owner = lease[0] if lease is not None and lease[1] > 0 and lease[0] else "- (free)"
        print(
            f"t{r.id:<6}{r.status:<9}{ruleset:<10}{match:<8}{idle:>8}  {owner:<24}"
            f"{r.channel} / {seats}"
        )
    return 0


def _duration(seconds: float) -> str:
    seconds = max(0, int(seconds))
    if seconds < 120:
        return f"{seconds}s"
    if seconds < 7200:
        return f"{seconds // 60}m"
    if seconds < 172800:
        return f"{seconds // 3600}h"
    return f"{seconds // 86400}d"


async def _close(args: argparse.Namespace) -> int:
    """The core's own close, as a server admin, on a core that never starts (nothing is
    resumed, no bot moves): the same log entries as ``/table close`` in the chat. Refused
    while a live bot holds the database (SQLite) or this table's lease (PostgreSQL)."""
    from bot.app import BeloteApp, Settings
    from bot.commands.parse import table_ref
    from bot.ops.clock import SystemClock
    from bot.ops.scheduler import FakeScheduler
    from bot.platform import Channel, NullPlatform, User
    from bot.refused import Refused
    from bot.store.lock import DatabaseInUse

    try:
        table_id = table_ref(args.table)
    except Refused:  # written like a table id, but not one (t0, t², 30 digits)
        table_id = None
    if table_id is None:
        print("A table is named like t3.", file=sys.stderr)
        return 2
    name = args.table.lower()
    try:
        store = await _open(args, read_only=False, exclusive=True, owner=OPERATOR)
    except DatabaseInUse as exc:
        print(
            f"belote: {name} not closed: a bot runs this database ({exc.holder.text()}); "
            f"close it in the chat as a server admin (/table close {name}), or stop the bot "
            "first",
            file=sys.stderr,
        )
        return 1
    if store is None:
        return 2
    try:
        row = await store.table(table_id)
        if row is None or row.status == "closed":
            print(f"No open table {name} in that database.", file=sys.stderr)
            return 1
        if store.shared and not await store.take_lease(table_id, OPERATOR):
            lease = (await store.lease_owners()).get(table_id)
            who = f"{lease[0]} (for {lease[1]:.0f} s more)" if lease else "another process"
            print(
                f"belote: {name} not closed: the bot {who} runs it; close it in the chat as "
                f"a server admin (/table close {name}), or stop that bot first",
                file=sys.stderr,
            )
            return 1
        settings = Settings(render_images=False)
        # a scheduler that never fires by itself: nothing moves while the table is closed
        idle = FakeScheduler(SystemClock())
        app = BeloteApp(store, NullPlatform(), settings=settings, scheduler=idle)
        await app.adopt_tables([row])  # rebuilt from its log, as at a start
        operator = User(OPERATOR, "operator", is_admin=True)
        # through the core's API, as every adapter: the command a server admin would type
        replies = await app.command(operator, Channel(row.channel), f"/table close {name}")
        if store.shared:
            await store.flush()
            await store.release_leases()
        await app.stop()
    finally:
        await store.close()
    for reply in replies:
        print(reply.text, file=sys.stdout if reply.ok else sys.stderr)
    return 0 if all(r.ok for r in replies) else 1


async def _export_all(args: argparse.Namespace) -> int:
    from bot.app import BeloteApp
    from bot.proof.transcript import dumps

    store = await _open(args)
    if store is None:
        return 2
    out = Path(args.dir)
    out.mkdir(parents=True, exist_ok=True)
    written = skipped = 0
    try:
        app = BeloteApp(store)
        for row in await store.matches():
            if row.status == "playing":
                skipped += 1  # its server seed is still secret
                continue
            try:
                transcript = await app.transcript(row.id)
            except LookupError:
                skipped += 1  # aborted before the deal: nothing to verify
                continue
            target = out / f"m{row.id}.json"
            tmp = target.with_name(target.name + ".partial")
            tmp.write_text(dumps(transcript) + "\n", encoding="utf-8")
            os.replace(tmp, target)
            written += 1
    finally:
        await store.close()
    print(f"Wrote {written} transcripts to {out}/ ({skipped} matches in progress or never dealt).")
    return 0
