"""The real ``belote`` process started with each misconfiguration an operator meets: every
one ends within seconds (nothing left open keeps the process alive), with the right exit
status and ONE line that names the setting and what it accepts; no traceback, no secret.

Exit status: 2 when the operator must change something, 1 when it may pass by itself
(a server unreachable). The process runs in a fresh folder with a scrubbed environment,
so no .env or variable of the machine running the tests takes part.
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import sqlite3
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
#: Seconds a refused start may take at most (the interpreter's start and imports included,
#: on a shared machine): a hang is caught by the timeout, not by waiting forever.
WITHIN = 20.0


def belote(
    args: list[str],
    cwd: Path,
    env: dict[str, str] | None = None,
    stdin: str = "",
    user: int | None = None,
) -> tuple[int, list[str], float]:
    """Run ``belote ARGS``; (exit status, the stderr lines, seconds taken)."""
    base = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("BELOTE_", "DISCORD_", "TELEGRAM_", "DATABASE_URL", "PG"))
    }
    base["PYTHONPATH"] = str(ROOT)
    started = time.monotonic()

    def demote() -> None:
        if user is not None:
            os.setgid(user)
            os.setuid(user)

    res = subprocess.run(
        [sys.executable, "-m", "adapters.cli", *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=WITHIN,
        cwd=cwd,
        env={**base, **(env or {})},
        preexec_fn=demote if user is not None else None,
    )
    lines = [line for line in res.stderr.splitlines() if line.strip()]
    return res.returncode, lines, time.monotonic() - started


def one_error(lines: list[str], *words: str) -> str:
    """The one line of the refusal (warnings aside), which says each of ``words``."""
    errors = [line for line in lines if " WARNING " not in line]
    assert len(errors) == 1, lines
    line = errors[0]
    assert "Traceback" not in line
    for word in words:
        assert word in line, line
    return line


def not_sqlite(folder: Path) -> Path:
    path = folder / "notdb.db"
    path.write_text("these are my notes, not a database\n" * 20)
    return path


CONSOLE = ["run", "--platform", "console", "--no-drand"]


def test_a_taken_metrics_port_is_one_line(tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("0.0.0.0", 0))
        taken.listen()
        port = taken.getsockname()[1]
        code, lines, _ = belote([*CONSOLE, "--metrics-port", str(port)], tmp_path)
    assert code == 2
    one_error(lines, "--metrics-port", str(port), "in use")
    assert not (tmp_path / "belote.db").exists()  # checked before anything opened


@pytest.mark.parametrize(
    ("args", "env", "words"),
    [
        (["--db", "notdb.db"], {}, ("--db", "not a SQLite database")),
        (["--db", "missing/x.db"], {}, ("--db", "missing", "does not exist")),
        (["--db", ""], {}, ("--db", "''", "postgresql://")),
        (["--db", "mysql://x@y/z"], {}, ("--db", "mysql://", "postgresql://")),
        (["--log-level", "LOUD"], {}, ("--log-level", "'LOUD'", "DEBUG, INFO, WARNING")),
        ([], {"BELOTE_LOG_FORMAT": "xml"}, ("BELOTE_LOG_FORMAT", "'xml'", "text or json")),
        ([], {"BELOTE_THINKERS": "abc"}, ("BELOTE_THINKERS", "'abc'", "whole number")),
        ([], {"BELOTE_TIMER": "soon"}, ("BELOTE_TIMER", "'soon'", "3600")),
        ([], {"BELOTE_METRICS_PORT": "99999"}, ("BELOTE_METRICS_PORT", "65535")),
        ([], {"BELOTE_ASSETS": "/nowhere"}, ("BELOTE_ASSETS", "not a folder")),
    ],
)
def test_a_bad_setting_is_one_line_and_exit_2(
    tmp_path: Path, args: list[str], env: dict[str, str], words: tuple[str, ...]
) -> None:
    not_sqlite(tmp_path)
    code, lines, seconds = belote([*CONSOLE, *args], tmp_path, env)
    assert code == 2, lines
    one_error(lines, *words)
    assert seconds < WITHIN
    created = {p.name for p in tmp_path.iterdir()} - {"notdb.db"}
    assert created == set(), created  # no database, no folder named like a URL


def test_an_unknown_platform_and_every_other_problem_at_once(tmp_path: Path) -> None:
    env = {"BELOTE_PLATFORM": "slack", "BELOTE_LOG_FORMAT": "json", "BELOTE_WINDOW": "-1"}
    code, lines, _ = belote(["run"], tmp_path, env)
    assert code == 2
    events = [json.loads(line) for line in lines]  # JSON logs: only log records
    assert [e["level"] for e in events] == ["ERROR", "ERROR"]
    said = " ".join(e["message"] for e in events)
    assert "BELOTE_PLATFORM: 'slack' is not accepted: console, discord or telegram" in said
    assert "BELOTE_WINDOW" in said


def test_no_token_and_no_terminal_says_which_tokens_it_looked_for(tmp_path: Path) -> None:
    """.env.example copied to .env, the token left empty, started by a service manager."""
    (tmp_path / ".env").write_text((ROOT / ".env.example").read_text())
    code, lines, _ = belote(["run"], tmp_path)
    assert code == 2
    one_error(lines, "DISCORD_TOKEN", "TELEGRAM_TOKEN", "not a terminal", "BELOTE_PLATFORM=console")
    assert not (tmp_path / "belote.db").exists()


def test_every_setting_may_be_a_dotenv_line(tmp_path: Path) -> None:
    (tmp_path / ".env").write_text("BELOTE_PLATFORM=console\nBELOTE_THINKERS=abc\n")
    code, lines, _ = belote(["run"], tmp_path)
    assert code == 2
    one_error(lines, "BELOTE_THINKERS")
    (tmp_path / ".env").write_text("BELOTE_PLATFORM=console\nDISCORD_GUILD_IDS=12,x\n")
    code, lines, _ = belote(["run"], tmp_path)
    assert code == 2
    one_error(lines, "DISCORD_GUILD_IDS")


def test_an_unknown_belote_variable_is_warned_about(tmp_path: Path) -> None:
    code, lines, _ = belote(
        [*CONSOLE, "--db", "a.db"], tmp_path, {"BELOTE_TIMMER": "30"}, stdin="me: /help\n"
    )
    assert code == 0, lines
    warned = [line for line in lines if "BELOTE_TIMMER" in line]
    assert len(warned) == 1 and " WARNING " in warned[0]


def test_an_unreachable_postgresql_is_one_line_and_exit_1(tmp_path: Path) -> None:
    url = "postgresql://belote:hunter2secret@127.0.0.1:1/belote"  # nothing listens there
    code, lines, _ = belote(CONSOLE, tmp_path, {"DATABASE_URL": url})
    assert code == 1
    line = one_error(lines, "DATABASE_URL", "127.0.0.1:1", "cannot be reached")
    assert "hunter2secret" not in line


def test_a_postgresql_database_that_does_not_exist(tmp_path: Path, pg_server) -> None:
    url = pg_server.url("no_such_database")
    code, lines, _ = belote([*CONSOLE, "--db", url], tmp_path)
    assert code == 2
    one_error(lines, "--db", "no_such_database", "does not exist")


def test_a_newer_schema_is_refused_naming_both_versions(tmp_path: Path) -> None:
    from bot.store import MIGRATIONS

    db = tmp_path / "new.db"
    with sqlite3.connect(db) as conn:
        conn.execute("PRAGMA user_version=99")
    code, lines, _ = belote([*CONSOLE, "--db", str(db)], tmp_path)
    assert code == 2
    one_error(lines, "version 99", f"({len(MIGRATIONS)})")
    with sqlite3.connect(db) as conn:
        assert conn.execute("PRAGMA user_version").fetchone() == (99,)
        assert conn.execute("SELECT count(*) FROM sqlite_master").fetchone() == (0,)
    code, lines, _ = belote(["export", "--db", str(db)], tmp_path)
    assert code == 2 and "version 99" in lines[-1]


def test_admin_on_a_file_that_is_not_sqlite(tmp_path: Path) -> None:
    path = not_sqlite(tmp_path)
    before = path.read_bytes()
    for args in (["admin", "--db", "notdb.db", "tables"], ["export", "--db", "notdb.db"]):
        code, lines, _ = belote(args, tmp_path)
        assert code == 2
        one_error(lines, "notdb.db", "not a SQLite database")
    assert path.read_bytes() == before


def test_no_network_on_the_way_to_discord(tmp_path: Path) -> None:
    """This machine has no way out: the login cannot reach discord.com."""
    code, lines, _ = belote(["run", "--db", "d.db"], tmp_path, {"DISCORD_TOKEN": "not.a.token"})
    line = one_error(lines, "Discord")
    if "cannot be reached" in line:
        assert code == 1
    else:  # a machine with a way out: Discord itself refuses the token
        assert code == 2 and "refused" in line
    assert "not.a.token" not in "\n".join(lines)


def _nobody() -> int:
    import pwd

    return pwd.getpwnam("nobody").pw_uid


needs_root = pytest.mark.skipif(os.geteuid() != 0, reason="changes user: needs root")


def belote_as(uid: int, args: list[str], env: dict[str, str], cwd: Path) -> tuple[int, list[str]]:
    """``belote ARGS`` as user ``uid``, in a forked copy of this process (the interpreter
    of the tests may live where that user cannot read it: nothing is imported after the
    fork that the refusal needs)."""
    import adapters.cli
    import bot.ops.logs  # noqa: F401

    adapters.cli.build_parser()  # every command module imported before the fork

    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: never returns into pytest
        code = 70
        try:
            os.dup2(write, 2)
            sys.stderr = os.fdopen(2, "w", buffering=1)
            os.chdir(cwd)
            for key in [k for k in os.environ if k.startswith(("BELOTE_", "DISCORD_"))]:
                del os.environ[key]
            os.environ.update(env)
            os.setgid(uid)
            os.setuid(uid)
            from adapters.cli import main

            code = main(args)
        except BaseException:
            import traceback

            traceback.print_exc()
        finally:
            os._exit(code)
    os.close(write)
    with os.fdopen(read) as f:
        err = f.read()
    _, status = os.waitpid(pid, 0)
    return os.waitstatus_to_exitcode(status), [line for line in err.splitlines() if line]


@pytest.fixture
def shared_dir() -> Iterator[Path]:
    """A folder every user may reach (pytest's tmp_path is root's alone)."""
    folder = Path(tempfile.mkdtemp(prefix="belote-ops-"))
    folder.chmod(0o755)
    try:
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)


@needs_root
def test_a_database_restored_as_root_is_one_line(shared_dir: Path) -> None:
    """The documented restore, done as root, leaves a file the bot's user cannot write."""
    tmp_path = shared_dir
    tmp_path.chmod(0o777)
    db = tmp_path / "belote.db"
    with sqlite3.connect(db) as conn:
        conn.execute("CREATE TABLE x (y)")
    db.chmod(0o644)  # root's, readable by all, writable by root only
    code, lines = belote_as(_nobody(), [*CONSOLE, "--db", str(db)], {}, tmp_path)
    assert code == 2
    one_error(lines, "--db", "not writable", "chown")


@needs_root
def test_a_data_folder_the_bot_may_not_write(shared_dir: Path) -> None:
    tmp_path = shared_dir
    data = tmp_path / "data"
    data.mkdir(mode=0o755)  # root's
    tmp_path.chmod(0o755)
    env = {"BELOTE_DB": str(data / "belote.db")}
    code, lines = belote_as(_nobody(), CONSOLE, env, tmp_path)
    assert code == 2
    one_error(lines, "BELOTE_DB", str(data), "not writable")
    assert not (data / "belote.db").exists()


def test_version() -> None:
    from bot.ops.version import VERSION

    res = subprocess.run(
        [sys.executable, "-m", "adapters.cli", "--version"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        timeout=WITHIN,
    )
    assert res.returncode == 0 and res.stdout.strip() == f"belote {VERSION}"
    assert VERSION != "0+unknown"


def test_the_start_line_names_version_platform_database_and_tables(tmp_path: Path) -> None:
    from bot.ops.version import VERSION

    url_free = str(tmp_path / "s.db")
    script = "me: /table create\n"
    code, lines, _ = belote(
        [*CONSOLE, "--db", url_free, "--log-format", "json"], tmp_path, stdin=script
    )
    assert code == 0, lines
    code, lines, _ = belote(
        [*CONSOLE, "--db", url_free, "--log-format", "json"], tmp_path, stdin=""
    )
    assert code == 0, lines
    events = [json.loads(line) for line in lines]  # every stderr line is a log record
    start = [e for e in events if " started: " in e["message"]]
    assert len(start) == 1
    assert start[0]["message"] == (
        f"belote {VERSION} started: platform console, database sqlite {url_free}, "
        "1 tables resumed (0 playing)"
    )


def test_a_database_another_program_holds_locked_is_one_line(tmp_path: Path) -> None:
    """A sqlite3 shell left in a write transaction: the start waits its 5 s, then says so
    (exit status 1: it may pass) instead of a traceback."""
    db = tmp_path / "held.db"
    code, lines, _ = belote([*CONSOLE, "--db", str(db)], tmp_path)  # made and migrated
    assert code == 0, lines
    other = sqlite3.connect(db, isolation_level=None)
    try:
        other.execute("BEGIN EXCLUSIVE")
        code, lines, _ = belote([*CONSOLE, "--db", str(db)], tmp_path)
    finally:
        other.close()
    assert code == 1
    one_error(lines, "--db", "locked by another program")
