"""Signed links to the web table: who may open which table, and as what.

The bot hands a seated person a link (``/web``, or the table's "Web table" button) that
opens the web table at their seat; anyone may ask for a watch link when the table allows
spectators. A link is a token signed with the bot's web secret (HMAC-SHA256), naming the
person (their platform id, name and language), the table, its channel, what it grants
(``seat`` or ``watch``) and when it expires. The page sends it once, at connect, and gets
a session token in exchange, which it keeps for its reconnects: a seat link opens one
session only, so a link copied from a screen or a history is no use to anyone else.

Nothing here is secret but the key: a token says who it is for, in the clear, and the
signature proves the bot wrote it. The person's identity is the platform's, so a seat on
Discord is the same seat whether its cards are played from the chat or from the web.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import os
import secrets
from dataclasses import dataclass
from pathlib import Path

from bot.refused import Refused

#: How long a link handed out stays good, and a session token after its last use.
LINK_SECONDS = 2 * 3600.0
SESSION_SECONDS = 12 * 3600.0
#: A token longer than this is not read at all.
MAX_TOKEN = 1200
KINDS = ("seat", "watch", "session")


@dataclass(frozen=True)
class Grant:
    """What a valid token grants: a person, at a table, seated or watching."""

    kind: str  # "seat" | "watch" | "session" (a seat's or a watch's session)
    user_id: str
    name: str
    locale: str
    channel: str
    table_id: int
    expires: float
    nonce: str
    seated: bool  # a seat's grant (or a session of one): the person plays there


class SeatLinks:
    """Signs and checks the web table's tokens with ``key`` (bytes, kept secret)."""

    def __init__(self, key: bytes) -> None:
        if len(key) < 16:
            raise ValueError("the web table's key must have at least 16 bytes")
        self._key = key
        #: nonces of seat links that opened a session already (a link opens one only)
        self._used: dict[str, float] = {}

    def token(
        self,
        kind: str,
        user_id: str,
        name: str,
        locale: str,
        channel: str,
        table_id: int,
        now: float,
        seated: bool | None = None,
        nonce: str | None = None,
    ) -> str:
        """A signed token (URL-safe, no padding) for these values."""
        assert kind in KINDS
        life = SESSION_SECONDS if kind == "session" else LINK_SECONDS
        body = {
            "k": kind,
            "u": user_id,
            "n": name[:32],
            "l": locale[:16],
            "c": channel,
            "t": table_id,
            "e": int(now + life),
            "i": nonce or secrets.token_urlsafe(9),
            "s": kind == "seat" if seated is None else seated,
        }
        raw = json.dumps(body, separators=(",", ":"), ensure_ascii=False).encode()
        return _b64(raw) + "." + _b64(self._sign(raw))

    def check(self, token: object, now: float) -> Grant:
        """The grant of a token, or :class:`Refused` saying why not (``web-link-bad``:
        forged, altered or not a token; ``web-link-expired``)."""
        if not isinstance(token, str) or not 0 < len(token) <= MAX_TOKEN or "." not in token:
            raise Refused("web-link-bad")
        body_part, _, tag_part = token.partition(".")
        try:
            raw = _unb64(body_part)
            tag = _unb64(tag_part)
        except ValueError:
            raise Refused("web-link-bad") from None
        if not hmac.compare_digest(tag, self._sign(raw)):
            raise Refused("web-link-bad")
        try:
            d = json.loads(raw)
            grant = Grant(
                kind=str(d["k"]),
                user_id=str(d["u"]),
                name=str(d["n"]),
                locale=str(d["l"]),
                channel=str(d["c"]),
                table_id=int(d["t"]),
                expires=float(d["e"]),
                nonce=str(d["i"]),
                seated=bool(d["s"]),
            )
        except (ValueError, KeyError, TypeError):
            raise Refused("web-link-bad") from None
        if grant.kind not in KINDS:
            raise Refused("web-link-bad")
        if grant.expires < now:
            raise Refused("web-link-expired")
        return grant

    def open_session(self, grant: Grant, now: float) -> str:
        """Exchange a link's grant for a session token; a seat link opens one session
        only (``web-link-used`` the second time), a session renews itself."""
        if grant.kind == "seat":
            self._forget_old(now)
            if grant.nonce in self._used:
                raise Refused("web-link-used")
            self._used[grant.nonce] = grant.expires
        return self.token(
            "session",
            grant.user_id,
            grant.name,
            grant.locale,
            grant.channel,
            grant.table_id,
            now,
            seated=grant.seated,
            nonce=grant.nonce,
        )

    def _forget_old(self, now: float) -> None:
        if len(self._used) > 1000:
            self._used = {n: e for n, e in self._used.items() if e >= now}

    def _sign(self, raw: bytes) -> bytes:
        return hmac.new(self._key, b"belote-web-table\n" + raw, hashlib.sha256).digest()


def derive_key(secret: str | None, tokens: list[str], key_file: Path | None = None) -> bytes:
    """The key the links are signed with: the web secret when set, else one derived from
    the platform tokens (every process of one bot has them, so their links agree), else a
    random key kept in ``key_file`` (beside the SQLite database: a restart keeps the links
    and sessions good), else a random key for this process alone."""
    if secret:
        return hashlib.sha256(b"belote-web-secret\n" + secret.encode()).digest()
    if tokens:
        joined = "\n".join(sorted(tokens)).encode()
        return hmac.new(joined, b"belote web table links", hashlib.sha256).digest()
    if key_file is not None:
        try:
            kept = key_file.read_bytes()
            if len(kept) >= 32:
                return kept[:32]
        except FileNotFoundError:
            pass
        fresh = secrets.token_bytes(32)
        try:
            fd = os.open(key_file, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
            with os.fdopen(fd, "wb") as f:
                f.write(fresh)
        except OSError:
            pass  # a read-only folder: links last as long as this process
        return fresh
    return secrets.token_bytes(32)


def _b64(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


def _unb64(text: str) -> bytes:
    if not text or not all(c.isalnum() or c in "-_" for c in text):
        raise ValueError("not base64url")
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
