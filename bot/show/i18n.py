"""The one translation function every user-facing text goes through.

Catalogs are gettext ``.po`` files under ``assets/locale/<lang>/LC_MESSAGES/belote.po``,
read with Babel and compiled in memory (no build step). Message ids are stable keys
(``"table-created"``); the English catalog holds every text, other languages fall back to
English key by key. Texts are whole sentences with ``{named}`` placeholders: nothing is
glued from fragments, so every language can order its words its own way.
"""

from __future__ import annotations

import gettext
import io
import logging
from functools import cache
from pathlib import Path

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

log = logging.getLogger(__name__)

LOCALE_DIR = Path(__file__).resolve().parents[2] / "assets" / "locale"
DOMAIN = "belote"
DEFAULT_LOCALE = "en"


@cache
def _catalog(lang: str) -> gettext.NullTranslations | None:
    path = LOCALE_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}.po"
    if not path.exists():
        return None
    with path.open("rb") as f:
        catalog = read_po(f, locale=lang)
    buf = io.BytesIO()
    write_mo(buf, catalog)
    buf.seek(0)
    return gettext.GNUTranslations(buf)


@cache
def _language(locale: str | None) -> str:
    if not locale:
        return DEFAULT_LOCALE
    return locale.replace("-", "_").split("_")[0].lower()


def has_text(msgid: str, locale: str = DEFAULT_LOCALE) -> bool:
    cat = _catalog(_language(locale))
    return cat is not None and cat.gettext(msgid) != msgid


@cache
def _lookup(msgid: str, lang: str) -> str:
    """The template of ``msgid`` in ``lang``, falling back to English (cached: texts are
    built for every move of every table)."""
    for candidate in (lang, DEFAULT_LOCALE):
        cat = _catalog(candidate)
        if cat is not None:
            found = cat.gettext(msgid)
            if found != msgid:
                return found
    log.warning("no text for message id %r", msgid)
    return msgid


def _(msgid: str, locale: str | None = DEFAULT_LOCALE, /, **kwargs: object) -> str:
    """The text of ``msgid`` in ``locale`` (English when missing), formatted with kwargs."""
    text = _lookup(msgid, _language(locale))
    if not kwargs:
        return text
    try:
        return text.format(**kwargs)
    except (KeyError, IndexError, ValueError):
        log.warning("bad placeholders in message %r", msgid)
        return text
