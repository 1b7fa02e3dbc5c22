"""The browser check of a match (web/verify) served by the bot itself, under ``/verify/``.

A self-hosted bot has no published page to link to: with its public address set
(``BELOTE_PUBLIC_URL`` / ``--public-url``), ``/verify``'s answer links to
``<public address>/verify/`` and the bot's own HTTP server (the one behind
``--metrics-port``, :mod:`bot.ops.monitor`) serves the page's files. Only the files of the
folder are served, read-only, each with the page's own Content-Security-Policy as a header
too; anything else (a path out of the folder, a directory) is 404.

The page needs nothing else from the bot: the transcript is the file ``/verify`` attaches,
checked on the player's device.
"""

from __future__ import annotations

import logging
import mimetypes
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # aiohttp is loaded by the monitor that serves the page, not by page_url
    from aiohttp import web

log = logging.getLogger(__name__)

#: web/verify/ in the source tree (the repository's, as ``pip install -e .`` leaves it).
PAGE_DIR = Path(__file__).resolve().parents[2] / "web" / "verify"
PREFIX = "/verify"
#: The page's own policy (its <meta> says the same): its scripts only; connections to the
#: transcript's address and drand's relays, which the page asks for itself.
POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src *; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
)
_TYPES = {".js": "text/javascript", ".css": "text/css", ".html": "text/html", ".json": None}


def page_url(public_url: str | None, verify_page: str | None) -> str | None:
    """The address ``/verify`` links to: ``verify_page`` when given, else the bot's own
    page under its public address, else None (the caller's default)."""
    if verify_page:
        return verify_page
    if public_url:
        return public_url.rstrip("/") + PREFIX + "/"
    return None


class VerifySite:
    """Serves the files of ``root`` (web/verify) under ``prefix`` (``/verify/``), each with
    ``policy`` as its Content-Security-Policy (the web table's page is served the same
    way, with its own folder and policy)."""

    def __init__(self, root: Path = PAGE_DIR, prefix: str = PREFIX, policy: str = POLICY) -> None:
        self.root = root.resolve()
        self.prefix = prefix
        self.policy = policy

    def register(self, router: web.UrlDispatcher) -> None:
        if not (self.root / "index.html").is_file():  # an install without web/ beside it
            log.warning("no page to serve: %s/index.html is missing", self.root)
        router.add_get(self.prefix, self._to_folder)
        router.add_get(self.prefix + "/", self._file)
        router.add_get(self.prefix + "/{path:.+}", self._file)

    async def _to_folder(self, request: web.Request) -> web.Response:
        from aiohttp import web

        raise web.HTTPMovedPermanently(self.prefix + "/")

    async def _file(self, request: web.Request) -> web.StreamResponse:
        from aiohttp import web

        name = request.match_info.get("path", "") or "index.html"
        path = (self.root / name).resolve()
        if not path.is_relative_to(self.root) or not path.is_file():
            raise web.HTTPNotFound(text="Not found.")
        kind = _TYPES.get(path.suffix) or mimetypes.guess_type(path.name)[0]
        headers = {
            "Content-Security-Policy": self.policy,
            "X-Content-Type-Options": "nosniff",
            "Referrer-Policy": "no-referrer",
            "Cache-Control": "no-cache",
        }
        if kind:
            headers["Content-Type"] = kind + ("; charset=utf-8" if kind.startswith("text") else "")
        return web.FileResponse(path, headers=headers)


def register(router: web.UrlDispatcher, root: Path = PAGE_DIR) -> None:
    """Add ``/verify/`` to an aiohttp router (the monitor's)."""
    VerifySite(root).register(router)
