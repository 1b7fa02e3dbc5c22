"""The process's settings: one typed model, read once, validated whole before anything starts.

Where a setting comes from, the first that has it wins: the command line (argparse stays
the front: it hands the options a person typed in as init arguments), the process
environment, then a ``.env`` file in the working directory (read by python-dotenv, the
one ``.env`` reader of the project: the adapters ask :func:`environment` too). A setting
left empty counts as not set. pydantic-settings validates the whole model and reports
every bad field at once; :func:`problems_of` turns its report into one line a setting,
naming the setting (the variable, or the option when it was typed) and what it accepts,
never a secret's value.

What the model alone cannot know (is the port free, may this user write the database,
is that file SQLite at all, is there a terminal to play in) is checked by
:func:`preflight`, with the same one-line problems, before the database is opened.
"""

from __future__ import annotations

import io
import os
import socket
import sqlite3
from collections.abc import Mapping
from contextvars import ContextVar
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any, Literal
from urllib.parse import urlsplit, urlunsplit

from dotenv.parser import parse_stream
from pydantic import AliasChoices, Field, SecretStr, ValidationError, field_validator
from pydantic_settings import (
    BaseSettings,
    EnvSettingsSource,
    NoDecode,
    PydanticBaseSettingsSource,
    SettingsConfigDict,
)
from pydantic_settings.sources.utils import parse_env_vars

from bot.commands import parse
from bot.refused import Refused
from bot.show.i18n import _

ENV_FILE = ".env"
LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")
LOG_FORMATS = ("text", "json")
PLATFORMS = ("console", "discord", "telegram")
TOKENS = ("DISCORD_TOKEN", "TELEGRAM_TOKEN")
SQLITE_HEADER = b"SQLite format 3\x00"


def read_env_file(path: str | Path = ENV_FILE) -> dict[str, str]:
    """A ``.env`` file's ``KEY=value`` lines (python-dotenv: comments, ``export``, quotes;
    no expansion); nothing when there is no such file. The project's one ``.env`` reader:
    the settings model reads its values from here too. A file that exists but cannot be
    read is :class:`SettingsInvalid` (it says so, in one line)."""
    if not Path(path).is_file():
        return {}
    try:
        bindings = list(parse_stream(io.StringIO(Path(path).read_text(encoding="utf-8"))))
    except (OSError, UnicodeDecodeError) as exc:
        reason = getattr(exc, "strerror", None) or type(exc).__name__
        raise SettingsInvalid([Problem(str(path), f"cannot be read ({reason})")]) from None
    values: dict[str, str] = {}
    for b in bindings:
        if b.error or b.key is None:
            text = f"{path} line {b.original.line} is not KEY=value and is ignored"
            if text not in ENV_FILE_WARNINGS:
                ENV_FILE_WARNINGS.append(text)
        else:
            values[b.key] = b.value if b.value is not None else ""
    return values


#: What :func:`read_env_file` found wrong in a ``.env`` (said as warnings once logging runs).
ENV_FILE_WARNINGS: list[str] = []


#: The environment :func:`load` validates (set while it runs), else the process's own.
_ENVIRONMENT: ContextVar[Mapping[str, str] | None] = ContextVar("belote_env", default=None)


class _Environment(EnvSettingsSource):
    """The environment source of the model, over :func:`environment` (``.env`` lines under
    the process's variables) instead of ``os.environ`` alone: one reader of ``.env``."""

    def _load_env_vars(self) -> Mapping[str, str | None]:
        values = _ENVIRONMENT.get()
        if values is None:
            values = environment()
        return parse_env_vars(values, self.case_sensitive, self.env_ignore_empty, None)


def environment(env_file: str | Path | None = ENV_FILE) -> dict[str, str]:
    """The settings' environment: the ``.env`` file's lines under the process environment
    (which wins). Values are never printed anywhere."""
    values = read_env_file(env_file) if env_file is not None else {}
    return {**values, **os.environ}


def _refusal(reader: Any, *args: Any) -> Any:
    """A :mod:`bot.commands.parse` reader as a validator: the chat's texts (in English)."""

    def read(value: Any) -> Any:
        if not isinstance(value, str):
            return value  # typed already (the command line's argparse types)
        try:
            return reader(value.strip(), *args)
        except Refused as r:
            raise ValueError(_(r.key, "en", **r.kwargs)) from None

    return read


def _comma_list(value: Any) -> Any:
    if isinstance(value, str):
        return [v.strip() for v in value.split(",") if v.strip()]
    return value


def _http_url(value: str) -> str:
    parts = urlsplit(value)
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise ValueError("an http:// or https:// URL")
    return value


class BeloteSettings(BaseSettings):
    """Every setting of ``belote run``. The environment names are ``BELOTE_<FIELD>``
    unless a field says otherwise (the tokens, ``DATABASE_URL``, ``DISCORD_GUILD_IDS``,
    the ``TELEGRAM_*`` ones)."""

    model_config = SettingsConfigDict(
        env_prefix="BELOTE_",
        env_ignore_empty=True,
        extra="ignore",
        populate_by_name=True,
        hide_input_in_errors=True,
    )

    platform: Literal["console", "discord", "telegram"] | None = None
    db: str = Field("belote.db", validation_alias=AliasChoices("DATABASE_URL", "BELOTE_DB"))
    owner: str | None = None
    lease: float = 10.0
    bot_delay: float = 1.0
    timer: float = 60.0
    window: float = 20.0
    ruleset: str | None = None
    no_drand: bool = False
    drand_relays: Annotated[list[str], NoDecode] = Field(default_factory=list)
    verify_page: str | None = None
    public_url: str | None = None
    thinkers: int | None = Field(None, ge=0)
    search_threads: int | None = Field(None, ge=1, le=8)
    assets: Path | None = None
    log_level: Literal["DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"] = "WARNING"
    log_format: Literal["text", "json"] = "text"
    log_wire: bool = False
    metrics_port: int | None = Field(None, ge=0, le=65535)
    web_port: int | None = Field(None, ge=0, le=65535)
    web_host: str = "0.0.0.0"
    web_secret: SecretStr | None = None
    web_origins: Annotated[list[str], NoDecode] = Field(default_factory=list)
    discord_token: SecretStr | None = Field(None, validation_alias="DISCORD_TOKEN")
    discord_guild_ids: Annotated[list[int], NoDecode] = Field(
        default_factory=list, validation_alias="DISCORD_GUILD_IDS"
    )
    telegram_token: SecretStr | None = Field(None, validation_alias="TELEGRAM_TOKEN")
    telegram_api_url: str | None = Field(None, validation_alias="TELEGRAM_API_URL")
    telegram_webhook_url: str | None = Field(None, validation_alias="TELEGRAM_WEBHOOK_URL")
    telegram_webhook_listen: str = Field("0.0.0.0", validation_alias="TELEGRAM_WEBHOOK_LISTEN")
    telegram_webhook_port: int = Field(
        8443, ge=1, le=65535, validation_alias="TELEGRAM_WEBHOOK_PORT"
    )
    telegram_webhook_secret: SecretStr | None = Field(
        None, validation_alias="TELEGRAM_WEBHOOK_SECRET"
    )

    @classmethod
    def settings_customise_sources(
        cls,
        settings_cls: type[BaseSettings],
        init_settings: PydanticBaseSettingsSource,
        env_settings: PydanticBaseSettingsSource,
        dotenv_settings: PydanticBaseSettingsSource,
        file_secret_settings: PydanticBaseSettingsSource,
    ) -> tuple[PydanticBaseSettingsSource, ...]:
        """The options typed first, then the environment with ``.env`` under it."""
        return init_settings, _Environment(settings_cls)

    # --- what each field accepts (the validators' refusals are the one-line texts) ---

    @field_validator("db")
    @classmethod
    def _db(cls, value: str) -> str:
        value = value.strip()
        if not value:
            raise ValueError(
                "give a SQLite file's path or a postgresql:// URL (an empty one would be a "
                "temporary database, lost at exit)"
            )
        if "://" in value:
            scheme = value.split("://", 1)[0].lower()
            if scheme not in ("postgresql", "postgres"):
                raise ValueError("give a SQLite file's path or a postgresql:// URL")
            try:
                urlsplit(value).port  # noqa: B018 (a port that is not a number raises)
            except ValueError:
                raise ValueError(
                    "it does not parse: postgresql://user:password@host:5432/db"
                ) from None
        elif value.startswith("file:") or value == ":memory:":
            raise ValueError("give a SQLite file's path (a URI or :memory: is lost at exit)")
        return value

    @field_validator("platform", "ruleset", "log_format", mode="before")
    @classmethod
    def _lower(cls, value: Any) -> Any:
        return value.strip().lower() if isinstance(value, str) else value

    @field_validator("log_level", mode="before")
    @classmethod
    def _upper(cls, value: Any) -> Any:
        return value.strip().upper() if isinstance(value, str) else value

    _lease = field_validator("lease", mode="before")(_refusal(parse.seconds, 1, 600, "err-lease"))
    _bot_delay = field_validator("bot_delay", mode="before")(_refusal(parse.bot_delay))
    _timer = field_validator("timer", mode="before")(_refusal(parse.default_timer))
    _window = field_validator("window", mode="before")(_refusal(parse.seed_window))
    _ruleset = field_validator("ruleset", mode="before")(_refusal(parse.ruleset))

    @field_validator("drand_relays", "discord_guild_ids", "web_origins", mode="before")
    @classmethod
    def _split(cls, value: Any) -> Any:
        return _comma_list(value)

    @field_validator("drand_relays", "web_origins")
    @classmethod
    def _relays(cls, value: list[str]) -> list[str]:
        return [_http_url(v) for v in value]

    @field_validator("web_secret")
    @classmethod
    def _web_secret(cls, value: SecretStr | None) -> SecretStr | None:
        if value is not None and len(value.get_secret_value()) < 16:
            raise ValueError("at least 16 characters (it signs the web table's links)")
        return value

    @field_validator("verify_page", "public_url", "telegram_api_url")
    @classmethod
    def _url(cls, value: str | None) -> str | None:
        return None if value is None else _http_url(value)

    @field_validator("telegram_webhook_url")
    @classmethod
    def _https(cls, value: str | None) -> str | None:
        if value is not None and not value.startswith("https://"):
            raise ValueError("an https:// URL (Telegram posts to HTTPS only)")
        return value

    @field_validator("assets")
    @classmethod
    def _assets(cls, value: Path | None) -> Path | None:
        if value is not None and not value.is_dir():
            raise ValueError(f"{value} is not a folder: the folder of the card art and fonts")
        return value

    @field_validator("telegram_token")
    @classmethod
    def _telegram_token(cls, value: SecretStr | None) -> SecretStr | None:
        if value is not None and ":" not in value.get_secret_value():
            raise ValueError("not a Telegram bot token (id:secret, from @BotFather)")
        return value

    # --- what the rest of the program asks -----------------------------------------

    @property
    def is_postgres(self) -> bool:
        return self.db.startswith(("postgresql://", "postgres://"))

    def db_shown(self) -> str:
        """The database as a log line may show it: a URL's password masked."""
        return shown_db(self.db)

    def token(self, platform: str) -> str | None:
        secret = {"discord": self.discord_token, "telegram": self.telegram_token}.get(platform)
        return secret.get_secret_value() if secret is not None else None

    def chosen_platform(self) -> str | None:
        """The platform asked for, else the one whose token is set; None: no token."""
        if self.platform:
            return self.platform
        if self.discord_token is not None:
            return "discord"
        if self.telegram_token is not None:
            return "telegram"
        return None

    def secrets(self) -> dict[str, str]:
        """The settings whose values no log line may show (for the redacting filter)."""
        out = {"DATABASE_URL": self.db}
        for name, value in (
            ("DISCORD_TOKEN", self.discord_token),
            ("TELEGRAM_TOKEN", self.telegram_token),
            ("TELEGRAM_WEBHOOK_SECRET", self.telegram_webhook_secret),
            ("BELOTE_WEB_SECRET", self.web_secret),
        ):
            if value is not None:
                out[name] = value.get_secret_value()
        return out


def shown_db(target: str) -> str:
    try:
        parts = urlsplit(target)
    except ValueError:
        return "[a database URL that does not parse]"
    if parts.password is None:
        return target
    netloc = parts.netloc.rsplit("@", 1)[1]
    user = parts.username or ""
    return urlunsplit(parts._replace(netloc=f"{user}:[redacted]@{netloc}"))


# --- problems: one line each -------------------------------------------------------------

#: field -> (its environment variable, what it accepts) for the one-line refusals.
SETTINGS: dict[str, tuple[str, str]] = {
    "platform": ("BELOTE_PLATFORM", "console, discord or telegram"),
    "db": ("BELOTE_DB", "a SQLite file's path or a postgresql:// URL"),
    "owner": ("BELOTE_OWNER", "a name"),
    "lease": ("BELOTE_LEASE", "seconds from 1 to 600"),
    "bot_delay": ("BELOTE_BOT_DELAY", "seconds from 0 to 60"),
    "timer": ("BELOTE_TIMER", "seconds from 5 to 3600, or off"),
    "window": ("BELOTE_WINDOW", "seconds from 0 to 600"),
    "ruleset": ("BELOTE_RULESET", "classic, club or bulgarian"),
    "no_drand": ("BELOTE_NO_DRAND", "1 or 0 (true or false)"),
    "drand_relays": ("BELOTE_DRAND_RELAYS", "comma-separated https:// URLs"),
    "verify_page": ("BELOTE_VERIFY_PAGE", "an https:// URL"),
    "public_url": ("BELOTE_PUBLIC_URL", "an http:// or https:// URL"),
    "thinkers": ("BELOTE_THINKERS", "a whole number: 0 (a thread) or more processes"),
    "search_threads": ("BELOTE_SEARCH_THREADS", "a whole number from 1 to 8"),
    "assets": ("BELOTE_ASSETS", "a folder"),
    "log_level": ("BELOTE_LOG_LEVEL", "DEBUG, INFO, WARNING, ERROR or CRITICAL"),
    "log_format": ("BELOTE_LOG_FORMAT", "text or json"),
    "log_wire": ("BELOTE_LOG_WIRE", "1 or 0 (true or false)"),
    "metrics_port": ("BELOTE_METRICS_PORT", "a port number from 0 to 65535"),
    "web_port": ("BELOTE_WEB_PORT", "a port number from 0 to 65535"),
    "web_host": ("BELOTE_WEB_HOST", "an address to listen on"),
    "web_secret": ("BELOTE_WEB_SECRET", "a secret of at least 16 characters"),
    "web_origins": ("BELOTE_WEB_ORIGINS", "comma-separated http:// or https:// origins"),
    "discord_token": ("DISCORD_TOKEN", "the bot token from Discord's developer portal"),
    "discord_guild_ids": ("DISCORD_GUILD_IDS", "comma-separated server ids (digits)"),
    "telegram_token": ("TELEGRAM_TOKEN", "the token from @BotFather (id:secret)"),
    "telegram_api_url": ("TELEGRAM_API_URL", "an http:// or https:// URL"),
    "telegram_webhook_url": ("TELEGRAM_WEBHOOK_URL", "an https:// URL"),
    "telegram_webhook_listen": ("TELEGRAM_WEBHOOK_LISTEN", "an address to listen on"),
    "telegram_webhook_port": ("TELEGRAM_WEBHOOK_PORT", "a port number from 1 to 65535"),
    "telegram_webhook_secret": ("TELEGRAM_WEBHOOK_SECRET", "a secret"),
}
#: Settings whose value a refusal never repeats.
SECRET_FIELDS = {"discord_token", "telegram_token", "telegram_webhook_secret", "web_secret"}
#: Other variables the bot reads (not BELOTE_*, or read by the deploy files).
KNOWN_ELSEWHERE = {"BELOTE_DB"}
#: The test suite's and the tools' own knobs (tests/, bench/): not the bot's settings.
#: (what follows BELOTE_ in their names)
TOOL_PREFIXES = ("FUZZ_", "TEST_", "CHROMIUM")

#: field -> its command-line option (filled in by the command line, which declares them).
OPTIONS: dict[str, str] = {}


@dataclass(frozen=True)
class Problem:
    """One thing that stops the start: which setting, and what is wrong with it."""

    setting: str
    text: str

    def line(self) -> str:
        return f"{self.setting}: {self.text}"


class StartRefused(Exception):
    """Something the settings name cannot be used now (a port taken since the preflight):
    one line, exit status 2."""

    def __init__(self, problem: Problem) -> None:
        super().__init__(problem.line())
        self.problem = problem


class SettingsInvalid(Exception):
    """The settings as given cannot start the bot: every problem found, one line each."""

    def __init__(self, problems: list[Problem]) -> None:
        super().__init__("; ".join(p.line() for p in problems))
        self.problems = problems


def source_name(field: str, given: Mapping[str, Any], env: Mapping[str, str]) -> str:
    """How the operator wrote this setting: the option if typed, else its variable."""
    if field in given and field in OPTIONS:
        return OPTIONS[field]
    var = SETTINGS.get(field, (field.upper(), ""))[0]
    if field == "db" and env.get("DATABASE_URL", "").strip():
        return "DATABASE_URL"
    return var


def problems_of(
    error: ValidationError, given: Mapping[str, Any], env: Mapping[str, str]
) -> list[Problem]:
    out: list[Problem] = []
    for e in error.errors(include_input=True):
        field = _field_of(str(e["loc"][0]) if e["loc"] else "?")
        name = source_name(field, given, env)
        accepted = SETTINGS.get(field, ("", "see docs/operations.md"))[1]
        reason = None
        if e["type"] == "value_error":
            reason = str(e["msg"]).removeprefix("Value error, ")
        out.append(
            Problem(name, f"{_what(field, e.get('input'))} is not accepted: {reason or accepted}")
        )
    return out


def _field_of(loc: str) -> str:
    """The field an error is about (pydantic names it by the alias it was read under)."""
    if loc in BeloteSettings.model_fields:
        return loc
    for name, info in BeloteSettings.model_fields.items():
        alias = info.validation_alias
        names = alias.choices if isinstance(alias, AliasChoices) else [alias]
        if loc in names:
            return name
    return loc


def _what(field: str, value: Any) -> str:
    """The refused value as a refusal may repeat it: never a token, nor a URL (it may
    carry a password): only its scheme."""
    if field in SECRET_FIELDS:
        return "the value"
    if field == "db" and isinstance(value, str) and "://" in value:
        return f"a {value.split('://', 1)[0].lower()}:// URL"
    if isinstance(value, str | int | float) and not isinstance(value, bool):
        return repr(value)
    return "the value"


def load(given: Mapping[str, Any], env: Mapping[str, str] | None = None) -> BeloteSettings:
    """The settings from ``given`` (the options typed), the environment and ``.env``;
    :class:`SettingsInvalid` with every problem when any is wrong."""
    env = environment() if env is None else env
    token = _ENVIRONMENT.set(env)
    try:
        return BeloteSettings(**{k: v for k, v in given.items() if v is not None})
    except ValidationError as exc:
        raise SettingsInvalid(problems_of(exc, given, env)) from None
    finally:
        _ENVIRONMENT.reset(token)


def warnings(env: Mapping[str, str]) -> list[str]:
    """What is worth a warning, not a refusal: ``.env`` lines that are no setting at all,
    ``BELOTE_*`` variables no setting reads."""
    out = list(ENV_FILE_WARNINGS)
    out += [
        f"{name} is not a setting of the bot and is ignored (docs/operations.md lists them)"
        for name in unknown_variables(env)
    ]
    return out


def unknown_variables(env: Mapping[str, str]) -> list[str]:
    """``BELOTE_*`` variables no setting reads: a typo (``BELOTE_TIMMER``) would
    otherwise be ignored in silence."""
    known = {var for var, _ in SETTINGS.values()} | KNOWN_ELSEWHERE
    return sorted(
        k
        for k in env
        if k.upper().startswith("BELOTE_")
        and k.upper() not in known
        and not k.upper().removeprefix("BELOTE_").startswith(TOOL_PREFIXES)
    )


# --- preflight: what the model cannot know alone ---------------------------------------------


def preflight(
    s: BeloteSettings,
    given: Mapping[str, Any],
    env: Mapping[str, str],
    *,
    interactive: bool,
) -> list[Problem]:
    """Everything ``belote run`` needs from the machine, checked before anything opens:
    a platform to run on, a database it may write, free ports."""
    out: list[Problem] = []
    platform = s.chosen_platform()
    if platform is None and not interactive:
        out.append(
            Problem(
                "DISCORD_TOKEN, TELEGRAM_TOKEN",
                "no chat token: DISCORD_TOKEN and TELEGRAM_TOKEN are unset or empty (looked in "
                "the environment and ./.env), and standard input is not a terminal to play in;"
                " set a token, or BELOTE_PLATFORM=console to play on standard input",
            )
        )
    elif platform in ("discord", "telegram") and s.token(platform) is None:
        var = f"{platform.upper()}_TOKEN"
        looked = "unset or empty (looked in the environment and ./.env)"
        out.append(Problem(var, f"{looked}: the {platform} platform needs it"))
    name = source_name("db", given, env)
    if not s.is_postgres:
        out += [Problem(name, text) for text in sqlite_problems(Path(s.db), write=True)]
    if s.metrics_port and (text := port_problem("0.0.0.0", s.metrics_port)):
        out.append(Problem(source_name("metrics_port", given, env), text))
    if s.web_port and (text := port_problem(s.web_host, s.web_port)):
        out.append(Problem(source_name("web_port", given, env), text))
    if s.web_port is not None and s.metrics_port and s.web_port == s.metrics_port:
        text = "is the metrics port: the web table needs a port of its own (never /metrics)"
        out.append(Problem(source_name("web_port", given, env), text))
    webhook = platform == "telegram" and s.telegram_webhook_url
    if webhook and (text := port_problem(s.telegram_webhook_listen, s.telegram_webhook_port)):
        out.append(Problem("TELEGRAM_WEBHOOK_PORT", text))
    return out


def sqlite_problems(path: Path, *, write: bool) -> list[str]:
    """Why this SQLite database cannot be used (``write``: run or change it; else read
    it), or nothing. The folder must exist: a mistyped path is not a new database."""
    folder = path.parent
    if path.is_dir():
        return [f"{path} is a folder: name the database file in it (e.g. {path / 'belote.db'})"]
    if not folder.is_dir():
        return [f"the folder {folder} does not exist: create it, or name another database file"]
    if not path.exists():
        if not write:
            return [f"no database at {path}"]
        if not os.access(folder, os.W_OK | os.X_OK):
            return [f"the folder {folder} is not writable by this user (uid {os.getuid()})"]
        return []
    problems = []
    if not os.access(path, os.R_OK):
        return [f"{path} is not readable by this user (uid {os.getuid()})"]
    header = _header(path)
    if header and header != SQLITE_HEADER:
        return [f"{path} is not a SQLite database (its first bytes say otherwise)"]
    if write:
        for p in (path, Path(f"{path}-wal"), Path(f"{path}-shm")):
            if p.exists() and not os.access(p, os.W_OK):
                problems.append(
                    f"{p} is not writable by this user (uid {os.getuid()}): give it back "
                    f"(chown) to the user the bot runs as"
                )
        if not os.access(folder, os.W_OK | os.X_OK):
            problems.append(
                f"the folder {folder} is not writable by this user (uid {os.getuid()}): "
                "the bot writes its journal and lock files beside the database"
            )
    return problems


def _header(path: Path) -> bytes:
    try:
        with path.open("rb") as f:
            return f.read(len(SQLITE_HEADER))
    except OSError:
        return b""


def port_problem(host: str, port: int) -> str | None:
    """Why nothing could listen on ``host:port`` now (in use, not allowed), or None."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as sock:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as aiohttp listens
        try:
            sock.bind((host, port))
        except OSError as exc:
            return f"port {port} cannot be listened on ({exc.strerror or exc}): choose a free one"
    return None


def user_version(path: Path) -> int | None:
    """A SQLite database's schema version, read without changing anything (None when it
    cannot be read)."""
    try:
        conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    except sqlite3.Error:
        return None
    try:
        (version,) = conn.execute("PRAGMA user_version").fetchone()
        return int(version)
    except sqlite3.Error:
        return None
    finally:
        conn.close()
