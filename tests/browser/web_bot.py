"""The real core with the web table's listener on 127.0.0.1, on an event loop of its own
(the browser is driven synchronously from the test), for the web page's browser tests and
its screenshots.

The core is the test harness's (SQLite, fake time, ``fast``: no pause, no seed window):
four people at a table, so nothing moves but what they do; a ticker runs what the core
scheduled for now (the next deal, the match's end) without moving the clock, so no turn
timer ever runs out under a slow browser.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
from pathlib import Path
from typing import Any

from tests.web.harness import KEY, PUBLIC, token_of

PEOPLE = ("alice", "bob", "carol", "dave")


class WebBot:
    def __init__(self, path: Path, **settings: Any) -> None:
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()
        self.h, self.web = self.run(self._start(path, settings))
        self.url = f"http://127.0.0.1:{self.web.port}"
        self._ticker = asyncio.run_coroutine_threadsafe(self._tick(), self.loop)

    async def _start(self, path: Path, settings: dict[str, Any]) -> Any:
        from adapters.web.server import WebTable
        from tests.core.harness import make_harness

        settings.setdefault("fast", True)
        h = await make_harness(path, web_key=KEY, public_url=PUBLIC, **settings)
        web = WebTable(h.app, "127.0.0.1", 0, deliver=h.platform.deliver)
        await web.start()
        return h, web

    async def _tick(self) -> None:
        while True:
            await asyncio.sleep(0.05)
            with contextlib.suppress(Exception):
                await self.h.advance(0)

    def run(self, coro: Any, timeout: float = 60) -> Any:
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result(timeout=timeout)

    def call(self, fn: Any) -> Any:
        """``fn()`` on the core's loop (to read its state between its steps)."""

        async def go() -> Any:
            return fn()

        return self.run(go())

    def cmd(self, who: str, text: str) -> list[Any]:
        return self.run(self.h.cmd(who, text))

    def table(self, tid: int = 1) -> Any:
        return self.h.app.tables[tid]

    def seat_table(self, ruleset: str, target: int = 1, names: tuple[str, ...] = PEOPLE) -> int:
        """A table of ``names`` (four people, or fewer and bots), its match started: its id."""
        [r] = self.cmd(names[0], f"/table create {ruleset} --target {target}")
        assert r.ok, r.text
        tid = max(self.h.app.tables)
        for n in names[1:]:
            [r] = self.cmd(n, f"/join t{tid}")
            assert r.ok, r.text
        for _ in range(4 - len(names)):
            [r] = self.cmd(names[0], f"/addbot t{tid}")
            assert r.ok, r.text
        [r] = self.cmd(names[0], f"/start t{tid}")
        assert r.ok, r.text
        return tid

    def link(self, who: str, *args: str) -> str:
        """The page's address from ``/web`` (the bot's answer names its public address)."""
        [r] = self.cmd(who, " ".join(["/web", *args]))
        assert r.ok, r.text
        return f"{self.url}/table/#k={token_of(r.text)}"

    def close(self) -> None:
        self._ticker.cancel()
        self.run(self.web.stop())
        self.run(self.h.app.stop())
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(timeout=5)


__all__ = ["PEOPLE", "PUBLIC", "WebBot"]
