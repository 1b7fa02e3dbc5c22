"""The page speaks English, French and Bulgarian: the browser's language first, a switch
at the top, every text of every language in web/verify/i18n.js."""

from __future__ import annotations

import re

import pytest

from tests.corpus import corpus

CASES = {c["file"]: c["text"] for c in corpus()}


def tables(page) -> dict[str, dict[str, str]]:
    return page.evaluate("() => window.BeloteVerify.i18n.TEXTS")


def open_in(browser, site, locale: str, query: str = ""):
    context = browser.new_context(locale=locale)
    page = context.new_page()
    page.goto(f"{site.url}/verify/index.html?drand=off{query}")
    page.wait_for_selector('html[data-state="idle"]')
    return context, page


def test_every_language_has_every_text_with_the_same_blanks(page, site):
    page.goto(f"{site.url}/verify/index.html")
    page.wait_for_selector('html[data-state="idle"]')
    texts = tables(page)
    assert set(texts) == {"en", "fr", "bg"}
    blanks = re.compile(r"\{([a-z]+)\}")
    for lang in ("fr", "bg"):
        assert set(texts[lang]) == set(texts["en"]), lang
        for key, en in texts["en"].items():
            assert set(blanks.findall(texts[lang][key])) == set(blanks.findall(en)), (lang, key)
    # translated, not copied: most texts differ from the English
    for lang in ("fr", "bg"):
        same = [k for k, v in texts[lang].items() if v == texts["en"][k]]
        assert len(same) < len(texts["en"]) // 10, (lang, same)
    assert any("\u0400" <= ch <= "\u04ff" for ch in texts["bg"]["verdict-fair"])


@pytest.mark.parametrize(
    ("locale", "lang", "button"),
    [("fr-FR", "fr", "Vérifier"), ("bg-BG", "bg", "Провери"), ("de-DE", "en", "Check")],
)
def test_the_page_follows_the_browsers_language(browser, site, locale, lang, button):
    context, page = open_in(browser, site, locale)
    assert page.get_attribute("html", "lang") == lang
    assert page.text_content("#check") == button
    assert page.input_value("#lang") == lang
    context.close()


def test_the_switch_changes_every_text_and_is_remembered(browser, site):
    context, page = open_in(browser, site, "en-GB")
    page.evaluate(
        "text => window.BeloteVerify.verify.check(text)", CASES["revoke-club-drand-1.json"]
    )
    page.wait_for_selector('html[data-state="done"]')
    english = page.text_content("#summary")
    deal = page.get_attribute("html", "data-deal")
    assert f"deal {deal}." in english
    page.select_option("#lang", "bg")
    assert page.get_attribute("html", "lang") == "bg"
    bulgarian = page.text_content("#summary")
    assert bulgarian != english and f"раздаване {deal}." in bulgarian
    assert "раздаване" in page.text_content("#checks")
    assert page.get_attribute("html", "data-deal") == deal  # the machine answer stays
    assert "Обявяване" in page.text_content("#table")  # the replay too
    assert page.text_content("#play") == "▶ Пусни"
    page.select_option("#lang", "fr")
    assert f"donne {deal}." in page.text_content("#summary")
    page.reload()
    page.wait_for_selector('html[data-state="idle"]')
    assert page.get_attribute("html", "lang") == "fr"  # remembered on this device
    assert page.title().startswith("Vérifier une partie de belote")
    context.close()


def test_lang_in_the_address_wins(browser, site):
    context, page = open_in(browser, site, "fr-FR", "&lang=bg")
    assert page.get_attribute("html", "lang") == "bg"
    context.close()
