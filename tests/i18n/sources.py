"""Every English text a catalog may translate, by where it comes from.

The English catalog is the reference, but some texts live elsewhere until the core moves
them there: the pictures' texts (``bot.show.render.messages``), the Discord command
descriptions (ids built by ``adapters.discord.translator``), and the English fallbacks of
tournaments and of the Telegram adapter. A translated catalog may hold any of these ids;
this module lists them so tests and ``sync_catalogs.py`` can check placeholders and
coverage against the right English text.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Callable
from functools import cache
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po

ROOT = Path(__file__).resolve().parents[2]
LOCALE_DIR = ROOT / "assets" / "locale"
DOMAIN = "belote"
DEFAULT_DESCRIPTION = "…"  # discord.py's text for an undescribed option: nothing to say
PLACEHOLDER = re.compile(r"(?<!\{)\{([A-Za-z_][A-Za-z0-9_]*)\}(?!\})")


def catalog_path(lang: str) -> Path:
    return LOCALE_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}.po"


def read_catalog(lang: str) -> Catalog:
    with catalog_path(lang).open("rb") as f:
        return read_po(f, locale=lang.replace("-", "_"))


def texts_of(catalog: Catalog) -> dict[str, str]:
    """Message id -> translated text (untranslated and fuzzy entries left out: gettext
    does not use them either)."""
    out: dict[str, str] = {}
    for message in catalog:
        if not message.id or not message.string or message.fuzzy:
            continue
        out[str(message.id)] = str(message.string)
    return out


def placeholders(text: str) -> set[str]:
    """The ``{named}`` placeholders of a text (``{{`` escapes are not placeholders)."""
    return set(PLACEHOLDER.findall(text))


def english_catalog() -> dict[str, str]:
    return texts_of(read_catalog("en"))


def render_texts() -> dict[str, str]:
    from bot.show.render.messages import MESSAGES, message_id

    return {message_id(english): english for english in MESSAGES}


@cache
def discord_texts() -> dict[str, str]:
    """The ids and English texts of every translatable part of the slash commands,
    collected by running discord.py's own translation pass with a recording translator."""
    import discord
    from discord import app_commands

    from adapters.discord.commands import register_commands
    from adapters.discord.translator import TRANSLATED, message_id

    found: dict[str, str] = {}

    class Recorder(app_commands.Translator):
        async def translate(
            self,
            string: app_commands.locale_str,
            locale: discord.Locale,
            context: app_commands.TranslationContextTypes,
        ) -> str | None:
            if context.location in TRANSLATED and string.message != DEFAULT_DESCRIPTION:
                found[message_id(string, context)] = string.message
            return None

    async def collect() -> None:
        client = discord.Client(intents=discord.Intents.none())
        tree = app_commands.CommandTree(client)
        register_commands(tree, adapter=None)  # type: ignore[arg-type]
        recorder = Recorder()
        for command in tree.get_commands():
            await command.get_translated_payload(tree, recorder)

    asyncio.run(collect())
    return found


def tournament_texts() -> dict[str, str]:
    from bot.tournaments.texts import ENGLISH

    return dict(ENGLISH)


def telegram_texts() -> dict[str, str]:
    from adapters.telegram.texts import ENGLISH

    return dict(ENGLISH)


SOURCES: dict[str, Callable[[], dict[str, str]]] = {
    "core": english_catalog,
    "render": render_texts,
    "discord": discord_texts,
    "tournaments": tournament_texts,
    "telegram": telegram_texts,
}


def all_english() -> dict[str, dict[str, str]]:
    """Origin -> {id: English text}. The English catalog wins over a fallback copy."""
    out: dict[str, dict[str, str]] = {}
    seen: set[str] = set()
    for origin, source in SOURCES.items():
        texts = {k: v for k, v in source().items() if k not in seen}
        seen.update(texts)
        out[origin] = texts
    return out


def english_of(msgid: str) -> str | None:
    for texts in all_english().values():
        if msgid in texts:
            return texts[msgid]
    return None
