"""List what the translated catalogs miss against the English texts, and fill the gaps.

    python -m tests.i18n.sync_catalogs            # report for every language but English
    python -m tests.i18n.sync_catalogs fr         # one language
    python -m tests.i18n.sync_catalogs --check    # exit 1 under 90 % or on a placeholder error
    python -m tests.i18n.sync_catalogs --update   # add missing ids (empty, English as comment)

The English catalog (assets/locale/en) is the reference for coverage. The other English
sources (the pictures' texts, the Discord command descriptions, the tournament and
Telegram fallbacks, see ``sources.py``) are reported apart: a language may translate them
too, and their placeholders are checked the same way. ``--update`` rewrites each catalog in
the order of the English sources, keeps every translation, writes ``#. en: ...`` above each
entry so a translator sees the English, and adds the missing ids with an empty text (an
empty text falls back to English at run time). Ids no source knows any more are kept as
obsolete (``#~``) entries.
"""

from __future__ import annotations

import argparse
import re
import sys
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

if __package__ in (None, ""):  # run as a file: make ``tests.i18n`` importable
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from babel.messages.catalog import Catalog, Message
from babel.messages.pofile import write_po

from tests.i18n.sources import (
    LOCALE_DIR,
    all_english,
    catalog_path,
    placeholders,
    read_catalog,
    texts_of,
)

THRESHOLD = 0.90
EN_COMMENT = re.compile(r"^en \([a-z]+\): ")
WIDTH = 100
GETTEXT_PLURALS = {"fr": (2, "(n > 1)"), "bg": (2, "(n != 1)"), "en": (2, "(n != 1)")}


@dataclass
class Report:
    """How one language stands against the English texts."""

    lang: str
    core_total: int
    core_missing: list[str]
    extra_missing: dict[str, list[str]]
    placeholder_errors: list[str] = field(default_factory=list)
    unknown: list[str] = field(default_factory=list)
    stale: list[str] = field(default_factory=list)

    @property
    def coverage(self) -> float:
        if not self.core_total:
            return 1.0
        return 1 - len(self.core_missing) / self.core_total

    def lines(self) -> list[str]:
        done = self.core_total - len(self.core_missing)
        out = [
            f"[{self.lang}] English catalog: {done}/{self.core_total} "
            f"({self.coverage:.1%}) translated"
        ]
        out += [f"  missing: {msgid}" for msgid in self.core_missing]
        for origin, missing in self.extra_missing.items():
            if missing:
                out.append(f"  {origin}: {len(missing)} not translated (English shown)")
                out += [f"    {msgid}" for msgid in missing]
        out += [f"  PLACEHOLDERS: {error}" for error in self.placeholder_errors]
        if self.stale:
            out.append(f"  {len(self.stale)} translation(s) older than their English (fuzzy):")
            out += [f"    {msgid}" for msgid in self.stale]
        if self.unknown:
            out.append(f"  {len(self.unknown)} id(s) no English source knows (obsolete?):")
            out += [f"    {msgid}" for msgid in self.unknown]
        return out


def _squash(text: str) -> str:
    return " ".join(text.split())


def recorded_english(catalog: Catalog) -> dict[str, str]:
    """Id -> the English an entry was translated from, as its ``#. en (...)`` comment says
    (whitespace squashed: the comment is wrapped)."""
    out: dict[str, str] = {}
    for message in catalog:
        comments = list(message.auto_comments)
        if message.id and comments and EN_COMMENT.match(comments[0]):
            out[str(message.id)] = _squash(EN_COMMENT.sub("", " ".join(comments), count=1))
    return out


def stale_ids(catalog: Catalog, english: dict[str, str]) -> list[str]:
    """Translated ids whose English changed since: marked fuzzy by ``--update`` (then
    unused, English shown), or not yet seen by it (still shown, maybe wrong)."""
    recorded = recorded_english(catalog)
    out = []
    for message in catalog:
        msgid = str(message.id)
        if not message.id or not message.string or msgid not in english:
            continue
        changed = msgid in recorded and recorded[msgid] != _squash(english[msgid])
        if message.fuzzy or changed:
            out.append(msgid)
    return out


def languages() -> list[str]:
    return sorted(
        p.name
        for p in LOCALE_DIR.iterdir()
        if p.is_dir() and p.name != "en" and catalog_path(p.name).exists()
    )


def placeholder_errors(translated: dict[str, str], english: dict[str, str]) -> list[str]:
    """Every translated text whose ``{placeholders}`` differ from its English text."""
    errors = []
    for msgid, text in translated.items():
        if msgid not in english:
            continue
        want, got = placeholders(english[msgid]), placeholders(text)
        if want != got:
            errors.append(f"{msgid}: English has {sorted(want)}, translation has {sorted(got)}")
    return errors


def report(lang: str, sources: dict[str, dict[str, str]] | None = None) -> Report:
    sources = sources if sources is not None else all_english()
    catalog = read_catalog(lang)
    translated = texts_of(catalog)
    english = {k: v for texts in sources.values() for k, v in texts.items()}
    core = sources["core"]
    return Report(
        lang=lang,
        core_total=len(core),
        core_missing=[k for k in core if k not in translated],
        extra_missing={
            origin: [k for k in texts if k not in translated]
            for origin, texts in sources.items()
            if origin != "core"
        },
        placeholder_errors=placeholder_errors(translated, english),
        unknown=sorted(k for k in translated if k not in english),
        stale=stale_ids(catalog, english),
    )


def update(lang: str, translations: dict[str, str] | None = None) -> Path:
    """Rewrite ``lang``'s catalog in source order, with every English id present.

    ``translations`` (id -> text) are merged over the catalog's own texts. A translation
    whose English changed since it was made (its ``#. en`` comment differs) is marked
    fuzzy, so players see the new English until a translator checks it, removes the
    ``#, fuzzy`` line and the ``# English was`` comment."""
    path = catalog_path(lang)
    old = read_catalog(lang) if path.exists() else None
    texts: dict[str, str] = {}
    fuzzy: dict[str, list[str]] = {}  # id -> its translator comments
    recorded: dict[str, str] = {}
    if old is not None:  # obsolete texts first: an id that comes back gets its text back
        texts.update({str(m.id): str(m.string) for m in old.obsolete.values() if m.string})
        for m in old:
            if m.id and m.string:
                texts[str(m.id)] = str(m.string)
                if m.fuzzy:
                    fuzzy[str(m.id)] = list(m.user_comments)
        recorded = recorded_english(old)
    for msgid in translations or {}:
        fuzzy.pop(msgid, None)
        recorded.pop(msgid, None)
    texts.update(translations or {})
    sources = all_english()
    catalog = Catalog(
        locale=lang.replace("-", "_"),
        domain="belote",
        project="belote-bot",
        version="0.1",
        charset="utf-8",
        fuzzy=False,
    )
    # gettext's usual plural rule for the language (CLDR's may differ), or the catalog's own
    plurals = GETTEXT_PLURALS.get(lang.split("-")[0].split("_")[0])
    if old is not None:
        plurals = (old.num_plurals, old.plural_expr)
    if plurals is not None:
        catalog._num_plurals, catalog._plural_expr = plurals
    if old is not None:
        catalog.revision_date = old.revision_date
        catalog.last_translator = old.last_translator
        catalog.language_team = old.language_team
        catalog.creation_date = old.creation_date
    if translations:
        catalog.revision_date = datetime.now(UTC)
    known: set[str] = set()
    for origin, english in sources.items():
        for msgid, text in english.items():
            known.add(msgid)
            first, *rest = text.split("\n")
            comments = fuzzy.get(msgid, [])
            if msgid in texts and recorded.get(msgid, _squash(text)) != _squash(text):
                comments = [f"English was: {recorded[msgid]}"]
            catalog.add(
                msgid,
                texts.get(msgid, ""),
                auto_comments=[f"en ({origin}): {first}", *rest],
                user_comments=comments,
                flags={"fuzzy"} if comments or msgid in fuzzy else (),
            )
    for msgid, text in texts.items():
        if msgid not in known:
            catalog.obsolete[msgid] = Message(msgid, text)
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("wb") as f:
        write_po(f, catalog, width=WIDTH, sort_output=False, include_previous=False)
    return path


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("langs", nargs="*", help="languages (default: every catalog but en)")
    parser.add_argument("--check", action="store_true", help="exit 1 under 90%% or on errors")
    parser.add_argument("--update", action="store_true", help="add missing ids to the catalogs")
    parser.add_argument("--quiet", action="store_true", help="one line per language")
    args = parser.parse_args(argv)
    langs = args.langs or languages()
    sources = all_english()
    failed = False
    for lang in langs:
        if args.update:
            print(f"updated {update(lang)}")
        r = report(lang, sources)
        lines = r.lines()
        print("\n".join(lines[:1] if args.quiet else lines))
        if r.coverage < THRESHOLD or r.placeholder_errors:
            failed = True
    return 1 if args.check and failed else 0


if __name__ == "__main__":
    sys.exit(main())
