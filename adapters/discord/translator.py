"""Slash command descriptions and choice names in the user's language, from the catalog.

Discord shows each user the commands' descriptions in their client's language when the
bot registers localizations. They come from the same catalog as every other text, under
ids derived from where the text sits, for example::

    discord-command_description-table create     "Open a new table here"
    discord-parameter_description-play card      "The card, e.g. TD"
    discord-choice_name-announce belote          "annoncer la belote"
    discord-group_description-table              "Belote tables in this channel"

A language without an entry keeps the English text. Command and option *names* are not
translated: they are what people type, the same everywhere.
"""

from __future__ import annotations

from collections.abc import Callable

import discord
from discord import app_commands

from bot.show.i18n import _, has_text

Location = app_commands.TranslationContextLocation
TRANSLATED = (
    Location.command_description,
    Location.group_description,
    Location.parameter_description,
    Location.choice_name,
)


def message_id(string: app_commands.locale_str, context: app_commands.TranslationContext) -> str:
    """The catalog id of one text of a command (see the module docstring)."""
    location, data = context.location, context.data
    where = ""
    if location in (Location.command_description, Location.group_description):
        where = getattr(data, "qualified_name", "")
    elif location == Location.parameter_description:
        where = f"{data.command.qualified_name} {data.name}"
    elif location == Location.choice_name:
        where = string.message  # a choice is named by its English name
    return f"discord-{location.name}-{where}".strip()


class CatalogTranslator(app_commands.Translator):
    """Looks each text up in the catalog of the user's language (fr, bg, ...)."""

    def __init__(
        self,
        lookup: Callable[[str, str], str | None] | None = None,
    ) -> None:
        self._lookup = lookup or _catalog_lookup

    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        if context.location not in TRANSLATED:
            return None
        language = str(locale.value).split("-")[0].lower()
        if language == "en":
            return None
        text = self._lookup(message_id(string, context), language)  # type: ignore[arg-type]
        if not text:
            return None
        return text[:100]  # Discord's limit for descriptions and choice names


def _catalog_lookup(msgid: str, language: str) -> str | None:
    return _(msgid, language) if has_text(msgid, language) else None
