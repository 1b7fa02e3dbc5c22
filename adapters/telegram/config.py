"""Settings from the environment (or a ``.env`` file): the token is all it takes.

- ``TELEGRAM_TOKEN``: the bot's token from @BotFather (required, never logged).
- ``TELEGRAM_API_URL``: another Bot API server, e.g. a self-hosted ``telegram-bot-api``
  (``http://127.0.0.1:8081``); ``/bot`` is appended when missing. Tests point it at
  their fake server.
- ``TELEGRAM_WEBHOOK_URL``: the public HTTPS URL Telegram should POST updates to; unset
  means long polling. ``TELEGRAM_WEBHOOK_LISTEN`` (default ``0.0.0.0``),
  ``TELEGRAM_WEBHOOK_PORT`` (default 8443) and ``TELEGRAM_WEBHOOK_SECRET`` (a secret token
  Telegram sends back in a header; random when unset) set up the local listener.
"""

from __future__ import annotations

import os
import secrets
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit

from bot.ops.settings import read_env_file


class ConfigError(ValueError):
    """A setting is missing or malformed; the text never contains the token."""


@dataclass(frozen=True)
class Webhook:
    url: str  # public URL Telegram POSTs to (its path is the one listened on)
    listen: str = "0.0.0.0"
    port: int = 8443
    secret: str = field(default_factory=lambda: secrets.token_urlsafe(32), repr=False)

    @property
    def path(self) -> str:
        return urlsplit(self.url).path or "/"


@dataclass(frozen=True)
class TelegramConfig:
    token: str = field(repr=False)
    api_url: str | None = None
    file_url: str | None = None
    webhook: Webhook | None = None

    @classmethod
    def from_env(
        cls, env: Mapping[str, str] | None = None, dotenv: str | Path | None = ".env"
    ) -> TelegramConfig:
        """Read the settings; the process environment wins over the ``.env`` file."""
        values: dict[str, str] = {}
        if dotenv is not None:
            values.update(read_dotenv(Path(dotenv)))
        values.update(os.environ if env is None else env)
        token = values.get("TELEGRAM_TOKEN", "").strip()
        if not token:
            raise ConfigError("TELEGRAM_TOKEN is not set (environment or .env)")
        if ":" not in token:
            raise ConfigError("TELEGRAM_TOKEN does not look like a bot token (id:secret)")
        api_url, file_url = api_urls(values.get("TELEGRAM_API_URL", "").strip() or None)
        webhook = None
        if url := values.get("TELEGRAM_WEBHOOK_URL", "").strip():
            try:
                port = int(values.get("TELEGRAM_WEBHOOK_PORT", "8443"))
            except ValueError as exc:
                raise ConfigError("TELEGRAM_WEBHOOK_PORT must be a number") from exc
            secret = values.get("TELEGRAM_WEBHOOK_SECRET", "").strip()
            webhook = Webhook(
                url=url,
                listen=values.get("TELEGRAM_WEBHOOK_LISTEN", "0.0.0.0"),
                port=port,
                **({"secret": secret} if secret else {}),
            )
        return cls(token=token, api_url=api_url, file_url=file_url, webhook=webhook)


def api_urls(api_url: str | None) -> tuple[str | None, str | None]:
    """PTB's ``base_url`` and ``base_file_url`` for a Bot API server's root URL."""
    if not api_url:
        return None, None
    root = api_url.rstrip("/").removesuffix("/bot")
    return f"{root}/bot", f"{root}/file/bot"


#: The settings' one ``.env`` reader (python-dotenv), under the name this module used.
read_dotenv = read_env_file
