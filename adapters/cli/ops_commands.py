"""The operator's shell commands: ``belote backup`` and ``belote admin``.

``backup`` copies a live SQLite database with SQLite's online backup API: the copy is
one consistent moment of the database even while the bot writes to it (a plain ``cp`` of
a database in WAL mode can miss the last commits or catch a half-written page). ``admin``
lists tables, closes a stuck one and exports every finished match's transcript.
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

from adapters.cli import types
from adapters.cli.bot_commands import DB_HELP, _env, default_db

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
    b.add_argument("--db", default=default_db(), help="the live SQLite database")
    b.set_defaults(func=backup_command)

    h = subparsers.add_parser(
        "healthcheck",
        help="ask the running bot's /healthz: exit 0 when healthy (container health checks)",
    )
    h.add_argument("--host", default="127.0.0.1")
    h.add_argument("--port", type=types.whole(1, 65535), default=_env("BELOTE_METRICS_PORT", 9100))
    h.add_argument("--timeout", type=types.seconds(0.1, 60), default=4.0, metavar="S")
    h.set_defaults(func=healthcheck_command)

    a = subparsers.add_parser(
        "admin",
        help="operator commands: list tables, close a table, export every match",
        description="Operator commands on the bot's database.",
    )
    a.add_argument("--db", default=default_db(), help=DB_HELP)
    sub = a.add_subparsers(dest="admin_command", required=True)
    t = sub.add_parser("tables", help="the tables not closed: where, status, seats, match")
    t.set_defaults(func=lambda args: asyncio.run(_tables(args)))
    c = sub.add_parser(
        "close",
        help="close a table (its match, if any, is aborted); stop the bot first",
        description="Close a table as a server admin would with /table close: a match in "
        "progress is aborted (logged as such, the server seed then revealed by /verify). "
        "A running bot keeps its tables in memory: stop it first, or close the table in "
        "the chat as a server admin.",
    )
    c.add_argument("table", help="the table, e.g. t3")
    c.set_defaults(func=lambda args: asyncio.run(_close(args)))
    e = sub.add_parser(
        "export-all", help="write every finished match's transcript to DIR (m12.json, ...)"
    )
    e.add_argument("dir", help="the directory to write into (created if missing)")
    e.set_defaults(func=lambda args: asyncio.run(_export_all(args)))


# --- healthcheck ---------------------------------------------------------------------------


def healthcheck_command(args: argparse.Namespace) -> int:
    """0 when /healthz says healthy, 1 when it says not (its report printed), 2 when
    nothing answers (the bot is down, or was started without --metrics-port)."""
    url = f"http://{args.host}:{args.port}/healthz"
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
    db, out = Path(args.db), Path(args.out)
    if "://" in str(args.db):
        print(
            "That is a database server: back it up with its own tools "
            "(PostgreSQL: pg_dump -Fc DATABASE_URL > belote.dump). See docs/operations.md.",
            file=sys.stderr,
        )
        return 2
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
    return 0


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
    ]
    if len(copied) > 1:
        lines.append(f"     and its Discord message map: cp {copied[1]} {db}.discord.json")
    lines.append("  4. start the bot: it resumes every unfinished table from the copy.")
    return "\n".join(lines)


# --- admin ---------------------------------------------------------------------------------


async def _open(args: argparse.Namespace):  # -> Store | None
    from bot.store import open_store

    if "://" not in str(args.db) and not Path(args.db).is_file():
        print(f"No database at {args.db}.", file=sys.stderr)
        return None
    return await open_store(args.db)


async def _tables(args: argparse.Namespace) -> int:
    store = await _open(args)
    if store is None:
        return 2
    try:
        rows = await store.open_tables()
    finally:
        await store.close()
    if not rows:
        print("No table is open.")
        return 0
    now = time.time()
    print(f"{'table':<7}{'status':<9}{'ruleset':<10}{'match':<8}{'idle':>8}  channel / seats")
    for r in rows:
        seats = ", ".join(
            (s.get("name") or "?") + (" (bot)" if s.get("kind") == "bot" else "") if s else "-"
            for s in r.seats
        )
        ruleset = r.settings.get("ruleset", "?")
        match = f"m{r.match_id}" if r.match_id else "-"
        idle = _duration(now - r.updated_at)
        print(f"t{r.id:<6}{r.status:<9}{ruleset:<10}{match:<8}{idle:>8}  {r.channel} / {seats}")
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
    resumed, no bot moves): the same log entries as ``/table close`` in the chat."""
    from bot.app import BeloteApp, Settings
    from bot.commands.parse import table_ref
    from bot.ops.clock import SystemClock
    from bot.ops.scheduler import FakeScheduler
    from bot.platform import Channel, NullPlatform, User
    from bot.refused import Refused

    try:
        table_id = table_ref(args.table)
    except Refused:  # written like a table id, but not one (t0, t², 30 digits)
        table_id = None
    if table_id is None:
        print("A table is named like t3.", file=sys.stderr)
        return 2
    store = await _open(args)
    if store is None:
        return 2
    row = await store.table(table_id)
    if row is None or row.status == "closed":
        await store.close()
        print(f"No open table {args.table.lower()} in that database.", file=sys.stderr)
        return 1
    settings = Settings(render_images=False)
    # a scheduler that never fires by itself: nothing moves while the table is closed
    idle = FakeScheduler(SystemClock())
    app = BeloteApp(store, NullPlatform(), settings=settings, scheduler=idle)
    await app.adopt_tables([row])  # rebuilt from its log, as at a start
    t = app.tables[table_id]
    try:
        operator = User(OPERATOR, "operator", is_admin=True)
        replies = await app.command(operator, Channel(t.channel), f"/table close {t.tid}")
    finally:
        await app.stop()
    for reply in replies:
        print(reply.text, file=sys.stdout if reply.ok else sys.stderr)
    if all(r.ok for r in replies):
        print("If the bot was running, restart it: it keeps its tables in memory.")
        return 0
    return 1


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
