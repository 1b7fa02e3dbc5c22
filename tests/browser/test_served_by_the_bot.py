"""The bot's own HTTP server (``--metrics-port``) serves the browser check under
``/verify/``, and the page it serves checks a match in a real Chromium."""

from __future__ import annotations

import asyncio
import threading
from typing import Any

import httpx
import pytest

from bot.ops.verify_site import page_url
from tests.corpus import corpus


class ThreadedBot:
    """A whole BeloteApp (the test harness, SQLite) with its monitor on an ephemeral port,
    on an event loop of its own: the browser is driven synchronously from the test."""

    def __init__(self, path: Any) -> None:
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()
        self.h = self.run(self._start(path))
        self.url = f"http://127.0.0.1:{self.h.app.monitor.port}"

    async def _start(self, path: Any) -> Any:
        from tests.core.harness import make_harness

        return await make_harness(path, metrics_port=0)

    def run(self, coro: Any) -> Any:
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result(timeout=60)

    def close(self) -> None:
        self.run(self.h.app.stop())
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(timeout=5)


@pytest.fixture(scope="module")
def bot(tmp_path_factory: pytest.TempPathFactory):
    b = ThreadedBot(tmp_path_factory.mktemp("served") / "b.db")
    yield b
    b.close()


def test_the_bot_serves_the_page_and_nothing_else(bot):
    with httpx.Client(base_url=bot.url) as http:
        page = http.get("/verify/")
        assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
        assert "script-src 'self'" in page.headers["content-security-policy"]
        assert page.headers["x-content-type-options"] == "nosniff"
        assert 'src="engine.js"' in page.text
        js = http.get("/verify/engine.js")
        assert js.status_code == 200 and js.headers["content-type"].startswith("text/javascript")
        assert http.get("/verify", follow_redirects=False).headers["location"] == "/verify/"
        for bad in ("/verify/../pyproject.toml", "/verify/%2e%2e/pyproject.toml", "/verify/vendor"):
            assert http.get(bad).status_code == 404, bad
        assert http.get("/verify/nothing.js").status_code == 404
        assert http.get("/healthz").status_code in (200, 503)  # the monitor is still there


def test_the_page_the_bot_serves_checks_a_match(bot, browser):
    context = browser.new_context(locale="fr-FR")
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(f"{bot.url}/verify/?drand=off")
    page.wait_for_selector('html[data-state="idle"]')
    assert page.locator("html").get_attribute("lang") == "fr"  # the browser's language
    genuine = next(c for c in corpus() if c["file"] == "genuine-club-drand-1.json")
    page.evaluate("text => window.BeloteVerify.verify.check(text)", genuine["text"])
    page.wait_for_selector('html[data-state="done"]')
    assert page.locator("html").get_attribute("data-verdict") == "fair"
    assert page.text_content("#summary").startswith("Toutes les vérifications sont passées")
    assert not errors
    context.close()


def test_verify_links_to_the_bots_own_page_once_its_address_is_set():
    assert page_url("https://belote.example.org", None) == "https://belote.example.org/verify/"
    assert page_url("https://belote.example.org/", None) == "https://belote.example.org/verify/"
    assert page_url("https://b.example", "https://pages.example/v/") == "https://pages.example/v/"
    assert page_url(None, None) is None


def test_the_setting_is_read_from_the_environment(monkeypatch):
    from adapters.cli import build_parser

    monkeypatch.setenv("BELOTE_PUBLIC_URL", "https://belote.example.org")
    args = build_parser().parse_args(["run"])
    assert args.public_url == "https://belote.example.org"
