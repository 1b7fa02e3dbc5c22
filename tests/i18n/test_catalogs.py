"""The catalogs themselves: they parse, compile, and every translation keeps the English
placeholders, command names and card texts, and fits where it is shown."""

from __future__ import annotations

import io
import re

import pytest
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from PIL import ImageFont

from tests.i18n.sources import (
    LOCALE_DIR,
    all_english,
    catalog_path,
    placeholders,
    read_catalog,
    texts_of,
)

TRANSLATED = ("fr", "bg")
ALL = ("en", *TRANSLATED)
COMMAND = re.compile(r"(?<![\w/])/[a-z]+(?: (?:create|list))?")
CARD = re.compile(r"\b(?:[2-9TJQKA][CDHS])\b")
FONTS = ("DejaVuSans.ttf", "DejaVuSans-Bold.ttf", "DejaVuSansCondensed-Bold.ttf")


@pytest.fixture(scope="module")
def english() -> dict[str, str]:
    return {k: v for texts in all_english().values() for k, v in texts.items()}


def translated(lang: str) -> dict[str, str]:
    return texts_of(read_catalog(lang))


def test_every_expected_catalog_exists() -> None:
    for lang in ALL:
        assert catalog_path(lang).is_file(), lang
    found = {p.name for p in LOCALE_DIR.iterdir() if p.is_dir()}
    assert set(ALL) <= found


@pytest.mark.parametrize("lang", ALL)
def test_catalog_parses_strictly_and_compiles(lang: str) -> None:
    with catalog_path(lang).open("rb") as f:
        catalog = read_po(f, locale=lang, abort_invalid=True)
    assert str(catalog.locale) == lang
    assert catalog.charset.lower() == "utf-8"
    ids = [m.id for m in catalog if m.id]
    assert len(ids) == len(set(ids)), "duplicate message ids"
    problems = [(m.id, errors) for m, errors in catalog.check() if errors]
    assert not problems
    buf = io.BytesIO()
    write_mo(buf, catalog)
    assert len(buf.getvalue()) > 1000


@pytest.mark.parametrize("lang", TRANSLATED)
def test_plural_forms_are_gettext_ones(lang: str) -> None:
    catalog = read_catalog(lang)
    assert catalog.num_plurals == 2
    assert catalog.plural_expr in ("(n > 1)", "(n != 1)")


@pytest.mark.parametrize("lang", TRANSLATED)
def test_translations_keep_exactly_the_english_placeholders(
    lang: str, english: dict[str, str]
) -> None:
    wrong = {
        msgid: (sorted(placeholders(english[msgid])), sorted(placeholders(text)))
        for msgid, text in translated(lang).items()
        if msgid in english and placeholders(english[msgid]) != placeholders(text)
    }
    assert not wrong, f"{lang}: placeholders differ (English, translation): {wrong}"


@pytest.mark.parametrize("lang", TRANSLATED)
def test_translations_format_like_the_english(lang: str, english: dict[str, str]) -> None:
    """No stray brace: each text formats with its English placeholders filled in."""
    for msgid, text in translated(lang).items():
        if msgid not in english:
            continue
        values = {name: f"<{name}>" for name in placeholders(english[msgid])}
        formatted = text.format(**values)
        assert all(v in formatted for v in values.values()), msgid


@pytest.mark.parametrize("lang", TRANSLATED)
def test_command_names_and_card_texts_stay_as_typed(lang: str, english: dict[str, str]) -> None:
    for msgid, text in translated(lang).items():
        source = english.get(msgid)
        if source is None:
            continue
        assert set(COMMAND.findall(source)) <= set(COMMAND.findall(text)), msgid
        assert set(CARD.findall(source)) <= set(CARD.findall(text)), msgid


@pytest.mark.parametrize("lang", TRANSLATED)
def test_translations_are_not_english_copies(lang: str, english: dict[str, str]) -> None:
    """A text left in English by mistake shows as a copy; short words may coincide."""
    copies = [
        msgid
        for msgid, text in translated(lang).items()
        if text == english.get(msgid) and len(re.findall("[a-z]", re.sub("{\\w+}", "", text))) > 12
    ]
    assert not copies, f"{lang}: left in English: {copies}"


@pytest.mark.parametrize("lang", TRANSLATED)
def test_translations_are_in_the_right_script(lang: str) -> None:
    cyrillic = re.compile("[\u0400-\u04ff]")
    texts = translated(lang)
    with_cyrillic = [k for k, v in texts.items() if cyrillic.search(v)]
    if lang == "bg":
        words = [k for k, v in texts.items() if re.search(r"[a-z]{3,}", v) and not placeholders(v)]
        assert len(with_cyrillic) > 0.9 * len(texts)
        assert len(words) < len(texts)  # commands (/play) may be Latin
    else:
        assert not with_cyrillic


@pytest.mark.parametrize("lang", TRANSLATED)
def test_discord_texts_fit_discords_limit(lang: str) -> None:
    long = {k: len(v) for k, v in translated(lang).items() if k.startswith("discord-")}
    assert long, "no Discord texts translated"
    assert max(long.values()) <= 100, {k: n for k, n in long.items() if n > 100}


@pytest.mark.parametrize("lang", TRANSLATED)
def test_picture_fonts_draw_every_character(lang: str) -> None:
    """The pictures draw these texts with the shipped DejaVu fonts: no glyph may be missing
    (a missing one is drawn as the same box as an unassigned code point)."""
    chars = {c for k, v in translated(lang).items() if k.startswith("render-") for c in v}
    chars -= {" ", "\u00a0"}
    assert chars
    for name in FONTS:
        font = ImageFont.truetype(str(LOCALE_DIR.parent / "fonts" / name), 24)
        missing_box = bytes(font.getmask("\U0010fffd"))
        missing = sorted(c for c in chars if bytes(font.getmask(c)) == missing_box)
        assert not missing, f"{name} lacks {missing}"
