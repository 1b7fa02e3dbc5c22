"""The whole corpus (tests/corpus/) in the page, in a real headless Chromium: each
transcript gets the verdict and the deal its index says, as bot/proof/verify.py gives them
(tests/fairdeal/test_corpus.py), and nothing written in a transcript ever runs."""

from __future__ import annotations

import asyncio
import threading

import pytest

from bot.proof.transcript import TranscriptError, loads
from bot.proof.verify import verify_transcript
from tests.corpus import corpus

CASES = corpus()


async def _python_failures() -> dict[str, set[str]]:
    out = {}
    for case in CASES:
        try:
            report = await verify_transcript(loads(case["text"]))
        except TranscriptError:
            out[case["file"]] = set()
            continue
        out[case["file"]] = {c.name for c in report.checks if c.status == "fail"}
    return out


@pytest.fixture(scope="module")
def python_failures() -> dict[str, set[str]]:
    """The checks `belote verify` fails on each case (in a thread: Playwright's sync API
    keeps an event loop in this one)."""
    out: list[dict[str, set[str]]] = []
    worker = threading.Thread(target=lambda: out.append(asyncio.run(_python_failures())))
    worker.start()
    worker.join(timeout=600)
    return out[0]


@pytest.fixture(scope="module")
def corpus_page(browser, site):
    context = browser.new_context()
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(f"{site.url}/verify/index.html?drand=off&lang=en")
    page.wait_for_selector('html[data-state="idle"]')
    page.errors = errors
    yield page
    context.close()


def verdict_of(page, text: str) -> tuple[str, str, str]:
    """Check ``text`` as the Check button does; (verdict, deal, deals) from the DOM."""
    page.evaluate("text => window.BeloteVerify.verify.check(text)", text)
    page.wait_for_selector('html[data-state="done"]')
    html = page.locator("html")
    return (
        html.get_attribute("data-verdict"),
        html.get_attribute("data-deal"),
        html.get_attribute("data-deals"),
    )


@pytest.mark.parametrize("case", CASES, ids=[c["file"] for c in CASES])
def test_the_page_gives_each_transcript_its_verdict(corpus_page, python_failures, case):
    verdict, deal, deals = verdict_of(corpus_page, case["text"])
    failed = corpus_page.eval_on_selector_all(
        '#checks li[data-status="fail"]', "els => els.map(e => e.dataset.name)"
    )
    assert set(failed) == python_failures[case["file"]], case["what"]
    want = case["verdict"].replace(" ", "-")
    assert verdict == want, (case["what"], corpus_page.text_content("#summary"))
    if case["deal"] is None:
        assert deal == "", case["what"]
    elif case["ambiguous"]:
        assert str(case["deal"]) in deals.split(), (case["what"], deals)
    else:
        assert deal == str(case["deal"]), (case["what"], corpus_page.text_content("#summary"))
    # the summary says it in words too
    summary = corpus_page.text_content("#summary")
    if want == "unfair" and deal:
        assert f"deal {deal}." in summary
    assert corpus_page.evaluate("window.__injected") is None
    assert not corpus_page.errors, corpus_page.errors


def test_markup_in_a_transcript_shows_as_text(corpus_page):
    case = next(c for c in CASES if c["file"].startswith("inject-names-"))
    verdict_of(corpus_page, case["text"])
    assert corpus_page.locator("#inputs-list img, #replay img, #checks img").count() == 0
    assert "<img src=x" in corpus_page.text_content("#inputs-list")
    assert "<img src=x" in corpus_page.text_content("#title")
    assert corpus_page.evaluate("window.__injected") is None
