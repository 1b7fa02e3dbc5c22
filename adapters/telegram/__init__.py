"""The Telegram adapter: the core's tables, hands and commands on python-telegram-bot 22.

Entry point: :func:`run_telegram` (``belote run --platform telegram``); see
docs/telegram.md for the setup (BotFather, token, webhook, self-hosted Bot API server).
"""

from .config import ConfigError, TelegramConfig, Webhook
from .runner import AppFactory, RateLimits, TelegramAdapter, run_telegram

__all__ = [
    "ConfigError",
    "RateLimits",
    "TelegramAdapter",
    "TelegramConfig",
    "Webhook",
    "run",
    "run_telegram",
]


async def run(app_factory: AppFactory) -> int:
    """What ``belote run --platform telegram`` calls: settings from the environment."""
    import logging

    try:
        TelegramConfig.from_env()
    except ConfigError as exc:
        logging.getLogger("belote").error("Telegram: %s. See docs/telegram.md.", exc)
        return 2
    await run_telegram(app_factory)
    return 0
