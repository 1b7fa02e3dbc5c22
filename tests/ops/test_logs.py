"""The log's shape: one line an event, text or JSON, errors with their traceback, the
secret settings masked."""

from __future__ import annotations

import io
import json
import logging
import threading
from collections.abc import Iterator

import pytest

from adapters.cli import main
from bot.ops import logs, redact
from tests.console.test_console import run_belote

TOKEN = "MTA4.discord-token-for-the-log-tests"
DB_PASSWORD = "pg-password-4-tests"


@pytest.fixture
def restore_logging() -> Iterator[None]:
    root = logging.getLogger()
    level = root.level
    yield
    root.setLevel(level)
    logs.teardown()
    redact.forget(TOKEN)
    redact.forget(DB_PASSWORD)


def log_an_error(stream: io.StringIO, fmt: str) -> str:
    env = {
        "DISCORD_TOKEN": TOKEN,
        "DATABASE_URL": f"postgresql://belote:{DB_PASSWORD}@db:5432/belote",
    }
    logs.setup("INFO", fmt, env=env, stream=stream)
    log = logging.getLogger("tests.ops")
    log.info("connected with %s", TOKEN)
    try:
        raise ConnectionError(f"refused for {TOKEN} at postgresql://belote:{DB_PASSWORD}@db")
    except ConnectionError:
        log.exception("could not reach\nthe database")
    return stream.getvalue()


def test_text_is_one_line_an_event_with_its_traceback(restore_logging: None) -> None:
    text = log_an_error(io.StringIO(), "text")
    lines = text.splitlines()
    assert len(lines) == 2
    assert lines[0].endswith("INFO tests.ops: connected with [redacted]")
    error = lines[1]
    assert " ERROR tests.ops: could not reach\\nthe database | Traceback" in error
    assert "ConnectionError: refused for [redacted]" in error and "test_logs.py" in error
    assert TOKEN not in text and DB_PASSWORD not in text


def test_json_is_one_object_an_event_with_its_traceback(restore_logging: None) -> None:
    text = log_an_error(io.StringIO(), "json")
    events = [json.loads(line) for line in text.splitlines()]
    assert [e["level"] for e in events] == ["INFO", "ERROR"]
    assert events[0]["message"] == "connected with [redacted]"
    assert events[0]["logger"] == "tests.ops" and events[0]["time"].endswith("Z")
    assert events[1]["message"] == "could not reach\nthe database"
    assert events[1]["exc_info"].startswith("Traceback (most recent call last):")
    assert "ConnectionError: refused for [redacted]" in events[1]["exc_info"]
    assert TOKEN not in text and DB_PASSWORD not in text


def test_a_thread_that_dies_is_one_event_with_its_traceback(restore_logging: None) -> None:
    stream = io.StringIO()
    logs.setup("INFO", "json", env={"DISCORD_TOKEN": TOKEN}, stream=stream)

    def work() -> None:
        raise RuntimeError(f"lost {TOKEN}")

    worker = threading.Thread(target=work, name="picture-1")
    worker.start()
    worker.join()
    [event] = [json.loads(line) for line in stream.getvalue().splitlines()]
    assert event["message"] == "thread picture-1 died" and event["level"] == "ERROR"
    assert "RuntimeError: lost [redacted]" in event["exc_info"]


def test_wire_dumps_stay_quiet_at_debug(restore_logging: None) -> None:
    stream = io.StringIO()
    logs.setup("DEBUG", "json", env={}, stream=stream)
    logging.getLogger("discord.gateway").debug("WebSocket Event: {raw payload}")
    logging.getLogger("telegram.ext.ExtBot").debug("getUpdates returned [raw updates]")
    logging.getLogger("bot.app").debug("the bot's own debug")
    assert [json.loads(line)["logger"] for line in stream.getvalue().splitlines()] == ["bot.app"]
    wire = io.StringIO()
    logs.setup("DEBUG", "json", env={}, stream=wire, wire=True)  # --log-wire: all of it
    logging.getLogger("discord.gateway").debug("WebSocket Event: {raw payload}")
    assert json.loads(wire.getvalue())["logger"] == "discord.gateway"
    logs.setup("DEBUG", "json", env={}, stream=wire)  # and off again
    assert logging.getLogger("discord.gateway").getEffectiveLevel() == logging.INFO
    with pytest.raises(ValueError):
        logs.setup("INFO", "xml", env={}, stream=stream)


def test_a_database_password_given_by_option_is_a_secret_too(restore_logging: None) -> None:
    url = f"postgresql://belote:{DB_PASSWORD}@127.0.0.1:1/belote"  # nothing listens there
    assert main(["run", "--platform", "console", "--db", url]) == 1
    assert redact.redact(f"connecting to {url}") == (
        "connecting to postgresql://belote:[redacted]@127.0.0.1:1/belote"
    )


def test_a_fatal_error_is_logged_with_its_traceback(tmp_path) -> None:
    """A fault nobody foresaw (here: a database of the right version whose tables were
    dropped by hand) is one event, with its traceback, and exit status 1."""
    import sqlite3

    from bot.store import MIGRATIONS

    db = tmp_path / "gutted.db"
    with sqlite3.connect(db) as conn:
        conn.execute(f"PRAGMA user_version={len(MIGRATIONS)}")
    res = run_belote(
        ["run", "--platform", "console", "--db", str(db), "--log-format", "json"],
        "",
    )
    assert res.returncode == 1
    events = [json.loads(line) for line in res.stderr.splitlines()]
    fatal = [e for e in events if e["message"] == "the bot stopped on an error"]
    assert len(fatal) == 1 and fatal[0]["level"] == "ERROR"
    assert "Traceback (most recent call last):" in fatal[0]["exc_info"]
