"""The web table against the real core: a harness app (fake time) with the web listener on
127.0.0.1, and sockets opened with aiohttp's own WebSocket client, as a browser would."""

from __future__ import annotations

import asyncio
import json
import re
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import Any

import aiohttp

from adapters.web.server import WebTable
from tests.core.harness import Harness, make_harness, table_with_bots

PUBLIC = "http://127.0.0.1"
KEY = b"k" * 32


async def web_harness(path, **settings: Any) -> tuple[Harness, WebTable]:
    settings.setdefault("seed_window", 0)
    h = await make_harness(path, web_key=KEY, public_url=PUBLIC, **settings)
    web = WebTable(h.app, "127.0.0.1", 0, deliver=h.platform.deliver)
    await web.start()
    return h, web


async def started(tmp_path, *create: str, **settings: Any) -> tuple[Harness, WebTable]:
    """alice's table with three bots (``create``: its options), its match started, alice
    to move; the web listener beside it."""
    h, web = await web_harness(tmp_path / "w.db", **settings)
    await table_with_bots(h, "alice", *create)
    await h.cmd("alice", "/start")
    await h.until_turn(0)
    return h, web


async def stop(h: Harness, web: WebTable) -> None:
    await web.stop()
    await h.app.stop()


def token_of(reply_text: str) -> str:
    m = re.search(r"#k=([A-Za-z0-9_.-]+)", reply_text)
    assert m, reply_text
    return m.group(1)


async def link(h: Harness, who: str, *args: str) -> str:
    [r] = await h.cmd(who, " ".join(["/web", *args]))
    assert r.ok, r.text
    return token_of(r.text)


@dataclass
class Page:
    """One socket, as the page holds it: the frames it got, the views among them."""

    ws: aiohttp.ClientWebSocketResponse
    frames: list[dict] = field(default_factory=list)  # every frame received
    unread: list[dict] = field(default_factory=list)  # those no ``next`` has returned yet
    seq: int = 0

    async def next(self, kind: str | None = None, timeout: float = 20.0) -> dict:
        """The first unread frame of ``kind`` (any kind: None), waiting for it."""
        for frame in self.unread:
            if kind is None or frame["type"] == kind:
                self.unread.remove(frame)
                return frame
        while True:
            msg = await asyncio.wait_for(self.ws.receive(), timeout)
            if msg.type != aiohttp.WSMsgType.TEXT:
                raise ConnectionError(f"socket {msg.type.name}: {msg.data!r} {msg.extra!r}")
            frame = json.loads(msg.data)
            self.frames.append(frame)
            if kind is None or frame["type"] == kind:
                return frame
            self.unread.append(frame)

    async def view_where(self, test, timeout: float = 10.0) -> dict:
        """The first view (unread or to come) for which ``test(view)`` holds."""
        loop = asyncio.get_running_loop()
        end = loop.time() + timeout
        while True:
            v = await self.view(max(0.01, end - loop.time()))
            if test(v):
                return v

    async def latest_view(self, timeout: float = 0.3) -> dict:
        """The newest view, after the frames in flight have come."""
        views = [f for f in self.unread if f["type"] == "view"]
        self.unread = [f for f in self.unread if f["type"] != "view"]
        try:
            while True:
                views.append(await self.next("view", timeout))
        except TimeoutError:
            pass
        assert views, "no view came"
        return views[-1]["view"]

    async def view(self, timeout: float = 20.0) -> dict:
        return (await self.next("view", timeout))["view"]

    async def act(self, action: str, at: int, seq: int | None = None, **more: Any) -> dict:
        if seq is None:
            self.seq += 1
            seq = self.seq
        await self.ws.send_json({"type": "act", "seq": seq, "action": action, "at": at, **more})
        return await self.next("ack")


@asynccontextmanager
async def page(web: WebTable, token: str | None, *, lang: str | None = None, headers=None):
    async with aiohttp.ClientSession() as http:
        url = f"http://127.0.0.1:{web.port}/table/ws"
        async with http.ws_connect(url, headers=headers or {}) as ws:
            p = Page(ws)
            if token is not None:
                hello: dict[str, Any] = {"type": "hello", "token": token}
                if lang:
                    hello["lang"] = lang
                await ws.send_json(hello)
            yield p


__all__ = ["Harness", "Page", "link", "page", "started", "stop", "table_with_bots", "web_harness"]
