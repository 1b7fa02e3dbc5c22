"""The web table's listener: the page (``web/table/``), its socket, the browser check.

A public listener of its own (``--web-port``), never the operator's metrics port:
``/table/`` serves the page's files with a strict Content-Security-Policy, ``/table/ws``
is the socket (:mod:`adapters.web.protocol`), ``/table/transcripts/mN.json`` the
transcript of a match that is over (the browser check of ``/verify/`` reads it), and
``/verify/`` that check itself. Behind a TLS proxy (docs/operations.md) the bot's public
address is the proxy's ``https://`` one; the socket is then ``wss://`` on the same host.

A socket is refused before the upgrade when its Origin is another site's; then it must
sign in with its first frame within a few seconds, or it is closed. Nothing a socket
sends can raise out of here or change anything but through the core.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
from dataclasses import replace
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from aiohttp import WSMsgType, web

from adapters.web import protocol
from adapters.web.hub import FLOOD_CLOSE, Deliver, Session, WebHub
from bot.ops import metrics
from bot.ops.verify_site import PAGE_DIR as VERIFY_DIR
from bot.ops.verify_site import VerifySite
from bot.proof.transcript import dumps
from bot.refused import Refused
from bot.show.i18n import _

log = logging.getLogger(__name__)

PAGE_DIR = Path(__file__).resolve().parents[2] / "web" / "table"
#: The page's policy: its own files only; its socket on the same host.
POLICY = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "font-src 'self'; connect-src 'self'; manifest-src 'self'; base-uri 'none'; "
    "form-action 'none'; frame-ancestors 'none'"
)
_TRANSCRIPT = re.compile(r"^m([0-9]{1,12})\.json$")


def origin_of(url: str) -> str:
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}".lower()


class WebTable:
    """The listener. ``app``: the core; ``deliver``: the chat platform's (a move from the
    web also updates the person's hand in the chat); ``origins``: the sites whose pages
    may open a socket (the bot's public address; more for embedded hosts)."""

    def __init__(
        self,
        app: Any,
        host: str,
        port: int,
        *,
        deliver: Deliver | None = None,
        origins: tuple[str, ...] = (),
        page_dir: Path = PAGE_DIR,
    ) -> None:
        self._app = app
        self._host = host
        self._port = port
        self._origins = {o.rstrip("/").lower() for o in origins}
        self.hub = WebHub(app, deliver)
        self.hub.on_gone = self._gone
        self._page_dir = page_dir
        self._runner: web.AppRunner | None = None
        self._sockets: set[web.WebSocketResponse] = set()
        self.port: int | None = None

    # --- life -----------------------------------------------------------------------------

    def application(self) -> web.Application:
        server = web.Application(client_max_size=4096)
        server.router.add_get("/", self._to_page)
        server.router.add_get("/table/ws", self._socket)
        server.router.add_get("/table/transcripts/{name}", self._transcript)
        VerifySite(self._page_dir, "/table", POLICY).register(server.router)
        VerifySite(VERIFY_DIR).register(server.router)
        return server

    async def start(self) -> None:
        self._runner = web.AppRunner(self.application(), access_log=None, shutdown_timeout=1.0)
        await self._runner.setup()
        site = web.TCPSite(self._runner, self._host, self._port)
        await site.start()
        server = getattr(site, "_server", None)
        sockets = getattr(server, "sockets", None) or []
        self.port = sockets[0].getsockname()[1] if sockets else self._port

    async def stop(self) -> None:
        for ws in list(self._sockets):
            with contextlib.suppress(Exception):
                await ws.close(code=1001, message=b"the bot is restarting")
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    # --- the page -------------------------------------------------------------------------

    async def _to_page(self, request: web.Request) -> web.Response:
        raise web.HTTPFound("/table/")

    async def _transcript(self, request: web.Request) -> web.Response:
        """A match's transcript, once it is over (its server seed revealed): the browser
        check's input. A match in progress, or none: 404, as if it did not exist."""
        m = _TRANSCRIPT.match(request.match_info.get("name", ""))
        if m is None:
            raise web.HTTPNotFound(text="Not found.")
        try:
            transcript = await self._app.transcript(int(m.group(1)))
        except Exception:
            raise web.HTTPNotFound(text="Not found.") from None
        data = transcript.to_dict()
        if not data.get("server_seed"):
            raise web.HTTPNotFound(text="Not found.")
        return web.Response(
            text=dumps(transcript),
            content_type="application/json",
            headers={"Access-Control-Allow-Origin": "*", "Cache-Control": "no-cache"},
        )

    # --- the socket -----------------------------------------------------------------------

    def _origin_ok(self, request: web.Request) -> bool:
        origin = request.headers.get("Origin")
        if origin is None:  # not a browser: no page of another site is behind it
            return True
        origin = origin.rstrip("/").lower()
        own = f"{request.scheme}://{request.host}".lower()
        return origin == own or origin in self._origins

    async def _socket(self, request: web.Request) -> web.StreamResponse:
        if not self._origin_ok(request):
            metrics.WEB_REFUSED.labels("origin").inc()
            raise web.HTTPForbidden(text="Cross-site connections are refused.")
        ws = web.WebSocketResponse(max_msg_size=protocol.MAX_FRAME, heartbeat=30.0)
        await ws.prepare(request)
        self._sockets.add(ws)
        session: Session | None = None
        try:
            session = await self._sign_in(ws)
            if session is not None:
                kind = "seated" if session.grant.seated else "watching"
                metrics.WEB_SOCKETS.labels(kind).inc()
                try:
                    await self._serve(ws, session)
                finally:
                    metrics.WEB_SOCKETS.labels(kind).dec()
        except (ConnectionError, asyncio.CancelledError):
            pass
        except Exception:
            log.exception("a web table socket failed")
        finally:
            self._sockets.discard(ws)
            if session is not None:
                await self.hub.remove(session)
            with contextlib.suppress(Exception):
                await ws.close()
        return ws

    async def _bye(self, ws: web.WebSocketResponse, why: str, text: str) -> None:
        metrics.WEB_REFUSED.labels(why).inc()
        with contextlib.suppress(Exception):
            await ws.send_str(protocol.dumps("bye", reason=why, text=text))
            await ws.close(code=protocol.CLOSE[why], message=why.encode())

    async def _sign_in(self, ws: web.WebSocketResponse) -> Session | None:
        """The first frame must be a valid hello, in time; else the socket is closed."""
        loc = "en"
        try:
            msg = await asyncio.wait_for(ws.receive(), protocol.HELLO_SECONDS)
        except TimeoutError:
            await self._bye(ws, "timeout", _("web-sign-in-first", loc))
            return None
        if msg.type != WSMsgType.TEXT:
            await self._bye(ws, "refused", _("web-sign-in-first", loc))
            return None
        try:
            hello = protocol.read(msg.data)
        except protocol.BadFrame:
            hello = None
        if not isinstance(hello, protocol.Hello):
            await self._bye(ws, "refused", _("web-sign-in-first", loc))
            return None
        links = self._app.links
        now = self._app.clock.now()
        try:
            if links is None:
                raise Refused("web-off")
            grant = links.check(hello.token, now)
            loc = hello.lang if hello.lang in ("en", "fr", "bg") else grant.locale
            t = await self._app.find_table(grant.table_id)
            if t is None or t.status == "closed" or t.channel != grant.channel:
                raise Refused("web-table-gone")
            if grant.seated and t.seat_of(grant.user_id) is None:
                raise Refused("web-not-seated", table=t.tid)
            if not grant.seated and not t.settings.spectators:
                raise Refused("err-settings-spectators", table=t.tid)
            session_token = links.open_session(grant, now)
        except Refused as r:
            why = "gone" if r.key == "web-table-gone" else "refused"
            await self._bye(ws, why, _(r.key, loc, **r.kwargs))
            return None
        # the session's own grant: the link's, in the language the page asked for (its
        # token was just made from it: nothing to read back)
        grant = replace(grant, kind="session", locale=loc)
        session = Session(self.hub, ws.send_str, grant, ws.close)
        await ws.send_str(
            protocol.dumps(
                "welcome",
                session=session_token,
                table=f"t{grant.table_id}",
                seated=grant.seated,
                seq=self.hub.last_applied(session),
                locale=loc,
                verify=self._app.settings.verify_page,
            )
        )
        self.hub.add(session)
        return session

    async def _serve(self, ws: web.WebSocketResponse, s: Session) -> None:
        loc = s.user.locale
        async for msg in ws:
            if msg.type == WSMsgType.ERROR:
                return
            wait = s.bucket.take()
            if wait > 0:  # over the rate: this socket waits, the table does not
                if s.bucket.over >= FLOOD_CLOSE:
                    await self._bye(ws, "flood", _("web-slow-down", loc))
                    return
                if s.bucket.at - s.bucket.told > 2.0:
                    s.bucket.told = s.bucket.at
                    await s.send(protocol.dumps("notice", text=_("web-slow-down", loc)))
                await asyncio.sleep(wait)
            if msg.type != WSMsgType.TEXT:
                await s.send(protocol.dumps("notice", text=_("web-frame-bad", loc)))
                continue
            try:
                frame = protocol.read(msg.data)
            except protocol.BadFrame:
                metrics.WEB_REFUSED.labels("frame").inc()
                await s.send(protocol.dumps("notice", text=_("web-frame-bad", loc)))
                continue
            if isinstance(frame, protocol.Ping):
                await s.send(protocol.dumps("pong"))
            elif isinstance(frame, protocol.Act):
                await s.send(await self.hub.act(s, frame))
            elif isinstance(frame, protocol.Seed):
                await s.send(await self.hub.seed(s, frame))
            else:  # a second hello
                await s.send(protocol.dumps("notice", text=_("web-frame-bad", loc)))

    async def _gone(self, s: Session) -> None:
        """The table left this process or closed: the page reconnects (to whichever
        process runs it now) or says it is over."""
        await s.send(protocol.dumps("bye", reason="gone", text=_("web-table-gone", s.user.locale)))
        await s.close(code=protocol.CLOSE["gone"], message=b"gone")
