"""A real Chromium (the OS package, driven by Playwright), the page served from 127.0.0.1,
the fake drand relay in a thread of its own, and transcripts the real bot made.

Chromium comes from the OS (``apt-get install chromium``; ``.ci/run`` installs it), never
from Playwright's own download, which needs the internet. Without it these tests fail and
say how to install it: they do not skip.
"""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import threading
from collections.abc import Iterator
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

from bot.proof.drand import DrandClient
from tests.fakes.drand_relay import FakeDrandRelay

WEB = Path(__file__).resolve().parents[2] / "web"


def chromium_path() -> str:
    for name in (os.environ.get("BELOTE_CHROMIUM", ""), "chromium", "chromium-browser"):
        if name and shutil.which(name):
            return shutil.which(name) or name
    pytest.fail(
        "The browser tests need Chromium from the OS packages: "
        "apt-get update && apt-get install -y chromium (or set BELOTE_CHROMIUM)."
    )


class Site:
    """The web/ folder at ``url``, and transcripts put at ``/t/NAME`` by :meth:`put`."""

    def __init__(self) -> None:
        self.files: dict[str, bytes] = {}
        self.requests: list[str] = []
        site = self

        class Handler(SimpleHTTPRequestHandler):
            def do_GET(self) -> None:
                site.requests.append(self.path)
                name = self.path.split("?")[0]
                if name.startswith("/t/"):
                    body = site.files.get(name[3:])
                    if body is None:
                        self.send_error(404)
                        return
                    self.send_response(200)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(body)))
                    self.end_headers()
                    self.wfile.write(body)
                    return
                super().do_GET()

            def log_message(self, *args: Any) -> None:
                return None

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), partial(Handler, directory=str(WEB)))
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def put(self, name: str, transcript: dict | str | bytes) -> str:
        body = transcript if isinstance(transcript, bytes) else None
        if body is None:
            text = transcript if isinstance(transcript, str) else json.dumps(transcript)
            body = text.encode("utf-8")
        self.files[name] = body
        return f"{self.url}/t/{name}"

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


class ThreadedRelay:
    """The fake drand relay, run by an event loop in its own thread, so that the browser
    (driven synchronously from the test) can ask it while the test waits."""

    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()
        self.relay = FakeDrandRelay()
        self.run(self.relay.start())

    def run(self, coro: Any) -> Any:
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result(timeout=60)

    @property
    def url(self) -> str:
        return self.relay.url

    def close(self) -> None:
        self.run(self.relay.stop())
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(timeout=5)
        self.loop.close()


@pytest.fixture(scope="session")
def site() -> Iterator[Site]:
    s = Site()
    yield s
    s.close()


@pytest.fixture(scope="session")
def relay() -> Iterator[ThreadedRelay]:
    r = ThreadedRelay()
    yield r
    r.close()


@pytest.fixture()
def relay_ok(relay: ThreadedRelay) -> Iterator[ThreadedRelay]:
    relay.relay.mode = "ok"
    yield relay
    relay.relay.mode = "ok"


async def _bot_match(tmp: Path, relay_url: str) -> tuple[str, Any]:
    """A whole match at a table of one player and three bots, dealt with drand from the
    fake relay; then ``/verify``: the transcript is the file its answer attaches."""
    from bot.proof.drand import QUICKNET_GENESIS
    from tests.core.harness import make_harness, table_with_bots

    client = DrandClient([relay_url], timeout=2.0)
    h = await make_harness(tmp / "b.db", start=QUICKNET_GENESIS - 20, drand=client, seed_window=0)
    try:
        await table_with_bots(h)
        await h.cmd("alice", "/start")
        run = h.table().run
        for _ in range(500):
            if run.phase == "play" and h.app.ceremony.drand_done(1):
                break
            await asyncio.sleep(0.02)
        await h.play_human_turns({0: "alice"})
        (reply,) = await h.cmd("alice", "/verify")
        return reply.file.decode("utf-8"), reply
    finally:
        await h.app.stop()
        await client.aclose()


@pytest.fixture(scope="session")
def bot_verify(relay: ThreadedRelay, tmp_path_factory: pytest.TempPathFactory) -> tuple[str, Any]:
    """(the transcript text, the /verify reply) of a match the real bot dealt and played.

    Run in a thread of its own: Playwright's sync API keeps an event loop in this one."""
    tmp = tmp_path_factory.mktemp("bot")
    out: list[Any] = []
    worker = threading.Thread(target=lambda: out.append(asyncio.run(_bot_match(tmp, relay.url))))
    worker.start()
    worker.join(timeout=300)
    assert out, "the bot's match did not finish"
    return out[0]


@pytest.fixture(scope="session")
def genuine(bot_verify: tuple[str, Any]) -> dict:
    return json.loads(bot_verify[0])


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """One Chromium per test module. Not per session: Playwright's sync API keeps an event
    loop running in this thread while it is open, which the async tests after it need."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=chromium_path(), args=["--no-sandbox"])
        yield b
        b.close()


@pytest.fixture()
def page(browser: Any) -> Iterator[Any]:
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    pg = context.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda exc: errors.append(str(exc)))
    pg.errors = errors
    yield pg
    context.close()
