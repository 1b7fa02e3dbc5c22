"""How much of the English catalog each language covers, and the sync tool that lists and
fills the gaps. The English catalog is still growing, so coverage fails only under 90 %;
the missing ids are reported as a warning either way."""

from __future__ import annotations

import shutil
import warnings
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.pofile import write_po

from tests.i18n import sources, sync_catalogs
from tests.i18n.sources import read_catalog, texts_of


@pytest.mark.parametrize("lang", ["fr", "bg"])
def test_coverage_of_the_english_catalog(lang: str) -> None:
    report = sync_catalogs.report(lang)
    if report.core_missing:
        warnings.warn(
            f"{lang} misses {len(report.core_missing)} English id(s): "
            + ", ".join(report.core_missing)
            + " (python -m tests.i18n.sync_catalogs)",
            stacklevel=1,
        )
    assert report.coverage >= sync_catalogs.THRESHOLD, "\n".join(report.lines())
    assert not report.placeholder_errors, report.placeholder_errors


@pytest.mark.parametrize("lang", ["fr", "bg"])
def test_pictures_and_discord_commands_are_translated(lang: str) -> None:
    report = sync_catalogs.report(lang)
    assert not report.extra_missing["render"]
    assert not report.extra_missing["discord"]


@pytest.fixture
def locale_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A copy of the real catalogs where the tests may remove and rewrite entries."""
    shutil.copytree(sources.LOCALE_DIR, tmp_path, dirs_exist_ok=True)
    monkeypatch.setattr(sources, "LOCALE_DIR", tmp_path)
    monkeypatch.setattr(sync_catalogs, "LOCALE_DIR", tmp_path)
    return tmp_path


def _write(path: Path, lang: str, texts: dict[str, str]) -> None:
    catalog = Catalog(locale=lang, domain="belote", fuzzy=False)
    for msgid, text in texts.items():
        catalog.add(msgid, text)
    with path.open("wb") as f:
        write_po(f, catalog)


def test_report_names_missing_ids_and_bad_placeholders(locale_dir: Path) -> None:
    english = sources.english_catalog()
    keep = dict(list(english.items())[: len(english) // 2])
    keep["seat-line"] = "Place {seat}: {nom}"  # wrong placeholder
    _write(sources.catalog_path("fr"), "fr", keep)
    report = sync_catalogs.report("fr")
    assert set(report.core_missing) == set(english) - set(keep)
    assert 0.4 < report.coverage < 0.6
    assert len(report.placeholder_errors) == 1 and "seat-line" in report.placeholder_errors[0]
    assert sync_catalogs.main(["fr", "--check", "--quiet"]) == 1
    assert sync_catalogs.main(["bg", "--check", "--quiet"]) == 0


def test_update_adds_missing_ids_and_keeps_translations(locale_dir: Path) -> None:
    before = texts_of(read_catalog("fr"))
    dropped = "label-pass"
    kept = {k: v for k, v in before.items() if k != dropped}
    kept["an-old-id"] = "Un vieux texte"
    _write(sources.catalog_path("fr"), "fr", kept)
    sync_catalogs.update("fr")
    catalog = read_catalog("fr")
    after = texts_of(catalog)
    assert catalog.get(dropped) is not None and not catalog.get(dropped).string
    assert after == {k: v for k, v in before.items() if k != dropped}
    assert "an-old-id" in catalog.obsolete
    assert any("en (core): Pass" in c for c in catalog.get(dropped).auto_comments)
    assert dropped in sync_catalogs.report("fr").core_missing
    # the obsolete text comes back if its id does
    sync_catalogs.update("fr", {"label-pass": "Passer"})
    assert texts_of(read_catalog("fr"))["label-pass"] == "Passer"


def test_languages_lists_every_catalog_but_english(locale_dir: Path) -> None:
    assert {"bg", "fr"} <= set(sync_catalogs.languages()) and "en" not in sync_catalogs.languages()


def test_a_translation_older_than_its_english_is_marked_fuzzy(locale_dir: Path) -> None:
    """The ``#. en`` comment records the English a text was translated from; when the
    English changes, ``--update`` marks the translation fuzzy (English shown meanwhile)."""
    path = sources.catalog_path("fr")
    catalog = read_catalog("fr")
    catalog.get("label-pass").auto_comments = ["en (core): Pass your turn"]
    with path.open("wb") as f:
        write_po(f, catalog, width=100)
    assert sync_catalogs.report("fr").stale == ["label-pass"]
    assert "label-pass" not in sync_catalogs.report("fr").core_missing  # still in use
    sync_catalogs.update("fr")
    entry = read_catalog("fr").get("label-pass")
    assert entry.fuzzy and entry.string == "Passer"
    assert entry.user_comments == ["English was: Pass your turn"]
    report = sync_catalogs.report("fr")
    assert report.stale == ["label-pass"] and "label-pass" in report.core_missing
    sync_catalogs.update("fr")  # stays fuzzy until a translator clears it
    assert read_catalog("fr").get("label-pass").fuzzy
    sync_catalogs.update("fr", {"label-pass": "Passer son tour"})
    entry = read_catalog("fr").get("label-pass")
    assert not entry.fuzzy and not entry.user_comments and entry.string == "Passer son tour"
    assert sync_catalogs.report("fr").stale == []
