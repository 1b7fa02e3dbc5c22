"""The command menu (``setMyCommands``) and the reading of typed commands.

Command texts are the core's, the same on every platform (``/play TD``); Telegram only
adds ``@botname`` after the command in groups, which is taken off here.
"""

from __future__ import annotations

from telegram import (
    BotCommand,
    BotCommandScope,
    BotCommandScopeAllGroupChats,
    BotCommandScopeAllPrivateChats,
    BotCommandScopeDefault,
)

from .texts import text

# In a group (or a forum topic): everything about the table.
GROUP_COMMANDS: tuple[str, ...] = (
    "table",
    "join",
    "leave",
    "addbot",
    "start",
    "bid",
    "pass",
    "coinche",
    "surcoinche",
    "play",
    "belote",
    "hand",
    "web",
    "score",
    "seed",
    "verify",
    "replay",
    "rules",
    "help",
    "back",
    "kick",
    "close",
    "settings",
    "tournament",
    "ladder",
    "stats",
    "leaderboard",
)
# In the private chat: what a player does with their own cards.
PRIVATE_COMMANDS: tuple[str, ...] = (
    "start",
    "hand",
    "bid",
    "pass",
    "coinche",
    "surcoinche",
    "play",
    "belote",
    "seed",
    "score",
    "verify",
    "rules",
    "help",
)


def menu(names: tuple[str, ...], locale: str = "en") -> list[BotCommand]:
    return [BotCommand(name, text(f"telegram-cmd-{name}", locale)[:256]) for name in names]


def menu_languages() -> list[str | None]:
    """None (every language) first, then each catalog that translates the menu."""
    from bot.show.i18n import LOCALE_DIR, has_text

    found = (
        sorted(p.name for p in LOCALE_DIR.iterdir() if p.is_dir()) if LOCALE_DIR.is_dir() else []
    )
    return [None, *(lang for lang in found if lang != "en" and has_text("telegram-cmd-join", lang))]


def core_commands(core: object) -> frozenset[str] | None:
    """The command names the core answers (``BeloteApp.command_names``); None when it
    cannot tell (then every command is listed)."""
    names = getattr(core, "command_names", None)
    return frozenset(names()) if callable(names) else None


def scopes(
    known: frozenset[str] | None = None, locale: str = "en"
) -> list[tuple[BotCommandScope, list[BotCommand]]]:
    """Which menu each kind of chat shows (only commands the core knows, when it says)."""

    def keep(names: tuple[str, ...]) -> tuple[str, ...]:
        # /start in the private chat is the adapter's own (deep links), always there
        return tuple(n for n in names if known is None or n in known or n == "start")

    return [
        (BotCommandScopeDefault(), menu(keep(GROUP_COMMANDS), locale)),
        (BotCommandScopeAllGroupChats(), menu(keep(GROUP_COMMANDS), locale)),
        (BotCommandScopeAllPrivateChats(), menu(keep(PRIVATE_COMMANDS), locale)),
    ]


def core_text(message_text: str, bot_username: str) -> str | None:
    """``/join@belote_bot 3`` -> ``/join 3``; None when the command is for another bot."""
    first, _sep, rest = message_text.strip().partition(" ")
    if not first.startswith("/"):
        return None
    name, at, target = first.partition("@")
    if at and target.lower() != bot_username.lower():
        return None
    name = name.lower()
    rest = " ".join(rest.split())
    return f"{name} {rest}" if rest else name
