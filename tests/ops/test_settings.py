"""The settings model: where each value comes from, what each refusal says."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from bot.ops import settings
from bot.ops.settings import SettingsInvalid, environment, load, read_env_file


def test_the_command_line_wins_over_the_environment_which_wins_over_dotenv(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    for key in [k for k in os.environ if k.startswith("BELOTE_")]:
        monkeypatch.delenv(key)
    monkeypatch.delenv("DATABASE_URL", raising=False)
    (tmp_path / ".env").write_text(
        "BELOTE_TIMER=30\nBELOTE_WINDOW=5\nBELOTE_THINKERS=2\nDISCORD_GUILD_IDS=1, 2\n"
        "BELOTE_DB=from-dotenv.db\nBELOTE_LOG_LEVEL=\n"
    )
    monkeypatch.setenv("BELOTE_WINDOW", "7")
    s = load({"timer": 12.0}, environment())
    assert (s.timer, s.window, s.thinkers, s.discord_guild_ids) == (12.0, 7.0, 2, [1, 2])
    assert s.db == "from-dotenv.db" and s.log_level == "WARNING"  # empty: the default
    monkeypatch.setenv("DATABASE_URL", "postgresql://u:pw@h/db")
    s = load({}, environment())
    assert s.is_postgres and s.db_shown() == "postgresql://u:[redacted]@h/db"
    assert load({"db": "x.db"}, environment()).db == "x.db"


def _problems(given: dict, env: dict[str, str]) -> list[str]:
    with pytest.raises(SettingsInvalid) as caught:
        load(given, env)
    return [p.line() for p in caught.value.problems]


def test_every_problem_is_one_line_naming_its_setting(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(settings, "OPTIONS", {"log_level": "--log-level", "db": "--db"})
    env = {
        "BELOTE_LOG_FORMAT": "xml",
        "BELOTE_PLATFORM": "Slack",
        "BELOTE_DRAND_RELAYS": "https://ok.example, gopher://old",
        "TELEGRAM_TOKEN": "no-colon-secret",
        "TELEGRAM_WEBHOOK_URL": "http://plain.example/hook",
        "BELOTE_METRICS_PORT": "-1",
    }
    lines = _problems({"log_level": "loud", "db": "mysql://root:pw@h/z"}, env)
    assert len(lines) == 8, lines
    text = "\n".join(lines)
    assert "--log-level: 'LOUD' is not accepted: DEBUG, INFO, WARNING, ERROR or CRITICAL" in text
    assert "BELOTE_LOG_FORMAT: 'xml' is not accepted: text or json" in text
    assert "BELOTE_PLATFORM: 'slack' is not accepted" in text
    assert "--db: a mysql:// URL is not accepted" in text
    assert "BELOTE_DRAND_RELAYS" in text and "TELEGRAM_WEBHOOK_URL" in text
    assert "TELEGRAM_TOKEN: the value is not accepted" in text
    assert "BELOTE_METRICS_PORT: '-1'" in text
    assert "no-colon-secret" not in text and "pw" not in text  # no secret repeated
    assert all("\n" not in line for line in lines)


def test_a_database_url_names_its_variable(monkeypatch: pytest.MonkeyPatch) -> None:
    lines = _problems({}, {"DATABASE_URL": "mysql://x@y/z"})
    assert lines == [
        "DATABASE_URL: a mysql:// URL is not accepted: give a SQLite file's path or a "
        "postgresql:// URL"
    ]
    assert _problems({}, {"BELOTE_DB": ":memory:"})[0].startswith("BELOTE_DB: ':memory:'")


def test_unknown_variables_and_bad_dotenv_lines_are_warnings(tmp_path: Path) -> None:
    dotenv = tmp_path / ".env"
    dotenv.write_text("BELOTE_TIMMER=30\nnot a setting line\nexport OK='x'\n")
    values = read_env_file(dotenv)
    assert values == {"BELOTE_TIMMER": "30", "OK": "x"}
    said = settings.warnings({**values, "BELOTE_DB": "x", "BELOTE_RULESET": "club"})
    assert any("line 2 is not KEY=value" in w for w in said)
    assert [w for w in said if "BELOTE_" in w] == [
        "BELOTE_TIMMER is not a setting of the bot and is ignored (docs/operations.md lists them)"
    ]


def test_an_unreadable_dotenv_is_one_problem(tmp_path: Path) -> None:
    dotenv = tmp_path / ".env"
    dotenv.write_bytes(b"\xff\xfe=\x00\n")
    with pytest.raises(SettingsInvalid) as caught:
        read_env_file(dotenv)
    assert caught.value.problems[0].line().endswith(".env: cannot be read (UnicodeDecodeError)")


def test_search_threads_are_one_to_eight() -> None:
    assert load({}, {"BELOTE_SEARCH_THREADS": "4"}).search_threads == 4
    for bad in ("0", "9", "two"):
        (line,) = _problems({}, {"BELOTE_SEARCH_THREADS": bad})
        assert line.startswith("BELOTE_SEARCH_THREADS:") and "1 to 8" in line, line
