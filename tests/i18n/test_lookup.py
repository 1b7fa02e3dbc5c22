"""What players see: ``bot.show.i18n._`` with a French or Bulgarian locale, the English fallback
key by key, the pictures' bridge and the Discord command descriptions."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import discord
import pytest
from babel.messages.catalog import Catalog
from babel.messages.pofile import write_po
from discord import app_commands

from bot.show import i18n
from bot.show.i18n import _
from bot.show.render.messages import translator
from tests.i18n.sources import english_catalog, read_catalog, texts_of


def _clear_caches() -> None:
    for cached in (i18n._catalog, i18n._language, i18n._lookup):
        cached.cache_clear()


@pytest.fixture
def locale_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A throwaway locale folder: English with two texts, French with only one."""

    def write(lang: str, texts: dict[str, str]) -> None:
        catalog = Catalog(locale=lang, domain="belote", fuzzy=False)
        for msgid, text in texts.items():
            catalog.add(msgid, text)
        path = tmp_path / lang / "LC_MESSAGES" / "belote.po"
        path.parent.mkdir(parents=True)
        with path.open("wb") as f:
            write_po(f, catalog)

    write("en", {"greet": "Hello {name}", "bye": "Goodbye {name}"})
    write("fr", {"greet": "Bonjour {name}"})
    monkeypatch.setattr(i18n, "LOCALE_DIR", tmp_path)
    _clear_caches()
    yield tmp_path
    _clear_caches()


@pytest.fixture(autouse=True)
def fresh_caches() -> Iterator[None]:
    _clear_caches()
    yield
    _clear_caches()


@pytest.mark.parametrize(
    ("msgid", "locale", "kwargs", "expected"),
    [
        ("label-pass", "fr", {}, "Passer"),
        ("contract-NT", "fr-FR", {}, "Sans-atout"),
        ("contract-AT", "fr_CA", {}, "Tout-atout"),
        ("err-seat-taken", "fr", {"seat": 3}, "La place 3 est prise."),
        ("contract-contre", "fr", {"trump": "Pique"}, "Pique, contré"),
        ("label-pass", "bg-BG", {}, "Пас"),
        ("contract-NT", "bg", {}, "Без коз"),
        ("contract-AT", "bg_BG", {}, "Всичко коз"),
        ("contract-recontre", "bg-BG", {"trump": "Купа"}, "Купа, реконтра"),
        ("err-seat-taken", "bg-BG", {"seat": 2}, "Място 2 е заето."),
    ],
)
def test_known_keys_in_french_and_bulgarian(
    msgid: str, locale: str, kwargs: dict[str, object], expected: str
) -> None:
    text = _(msgid, locale, **kwargs)
    assert text.replace("\u00a0", " ") == expected
    assert text != _(msgid, "en", **kwargs)


def test_card_text_and_commands_survive_formatting() -> None:
    fr = _("err-card-illegal", "fr", card="JS", choices="/play TD, /play 7C")
    bg = _("err-card-illegal", "bg-BG", card="JS", choices="/play TD, /play 7C")
    for text in (fr, bg):
        assert "JS" in text and "/play TD, /play 7C" in text
    assert "/table create" in _("list-none", "fr") and "/table create" in _("list-none", "bg")


def test_missing_key_falls_back_to_english(locale_dir: Path) -> None:
    assert _("greet", "fr", name="Ana") == "Bonjour Ana"
    assert _("bye", "fr", name="Ana") == "Goodbye Ana"  # fr lacks it: English
    assert _("bye", "bg-BG", name="Ana") == "Goodbye Ana"  # no bg catalog at all: English
    assert i18n.has_text("greet", "fr") and not i18n.has_text("bye", "fr")


def test_unknown_key_and_unknown_locale() -> None:
    assert _("no-such-key-anywhere", "fr") == "no-such-key-anywhere"
    assert _("label-pass", "xx") == _("label-pass", "en") == "Pass"
    assert _("label-pass", None) == "Pass"


def test_every_english_key_answers_in_french_and_bulgarian() -> None:
    """Each id gives its translation, or the English when the catalog lacks it: never the
    bare id."""
    for lang in ("fr", "bg-BG"):
        own = texts_of(read_catalog(lang.split("-")[0]))
        for msgid, english in english_catalog().items():
            text = i18n._lookup(msgid, i18n._language(lang))
            assert text == own.get(msgid, english), (lang, msgid)


def test_pictures_use_the_catalog() -> None:
    fr = translator(lambda key: _(key, "fr"))
    bg = translator(lambda key: _(key, "bg-BG"))
    assert fr("Last trick") == "Dernier pli"
    assert bg("Last trick") == "Последна ръка"
    assert fr("Trick {number} of 8").format(number=5) == "Pli 5 sur 8"
    assert bg("Trump") == "Коз"
    assert fr("Capot") == "Capot" and bg("Capot") == "Капо"
    assert fr("A text no catalog has") == "A text no catalog has"


async def test_discord_command_descriptions_come_from_the_catalog() -> None:
    from adapters.discord.commands import register_commands
    from adapters.discord.translator import CatalogTranslator

    client = discord.Client(intents=discord.Intents.none())
    tree = app_commands.CommandTree(client)
    register_commands(tree, adapter=None)  # type: ignore[arg-type]
    hand = tree.get_command("hand")
    assert isinstance(hand, app_commands.Command)
    context = app_commands.TranslationContext(
        app_commands.TranslationContextLocation.command_description, hand
    )
    string = app_commands.locale_str(hand.description)
    translate = CatalogTranslator().translate
    assert await translate(string, discord.Locale.french, context) == (
        "Montre ta main (toi seul la vois)"
    )
    assert await translate(string, discord.Locale.bulgarian, context) == (
        "Покажи картите си (само ти ги виждаш)"
    )
    assert await translate(string, discord.Locale.american_english, context) is None
    assert await translate(string, discord.Locale.german, context) is None


async def test_every_slash_command_is_described_in_french_and_bulgarian() -> None:
    """The payload discord.py sends when it syncs the commands, with the real catalogs."""
    from adapters.discord.commands import register_commands
    from adapters.discord.translator import CatalogTranslator

    client = discord.Client(intents=discord.Intents.none())
    tree = app_commands.CommandTree(client)
    register_commands(tree, adapter=None)  # type: ignore[arg-type]
    translator = CatalogTranslator()
    described = 0

    def check(item: dict[str, object]) -> None:
        nonlocal described
        if item.get("description") and item["description"] != "…":
            localized = item.get("description_localizations") or {}
            assert set(localized) >= {"fr", "bg"}, item["name"]
            assert all(0 < len(text) <= 100 for text in localized.values())
            described += 1
        for choice in item.get("choices") or []:
            assert set(choice.get("name_localizations") or {}) >= {"fr", "bg"}, choice
        for option in item.get("options") or []:
            check(option)

    for command in tree.get_commands():
        check(await command.get_translated_payload(tree, translator))
    assert described > 40
