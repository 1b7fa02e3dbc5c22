"""The web table's socket protocol: the frames, read strictly.

Every frame is one JSON object in a text frame, at most :data:`MAX_FRAME` bytes, with a
``type``. What the page sends:

``{"type": "hello", "token": T, "lang": "fr"}``
    the first frame, within :data:`HELLO_SECONDS` of the connect: ``T`` is the link's
    token (the page's address ``#k=...``) or the session token a ``welcome`` gave;
    ``lang`` (optional): the page's language, else the link's.
``{"type": "act", "seq": N, "action": A, "at": P}``
    a move: ``A`` is a choice's ``action`` from the view (``"play TD"``, ``"bid 90 H"``),
    ``P`` the view's ``seq`` it was chosen on, ``N`` the page's own sequence number (1 and
    up, one more for each new action, kept across reconnects): an ``N`` already sent is
    answered again and never applied twice.
``{"type": "seed", "seed": H}``
    the person's own seed for the fair deal (32 hex digits, drawn on their device), when
    their view says ``my_seed_due``; answered with an ``ack`` of ``seq`` 0.
``{"type": "ping"}``
    answered with ``pong`` (the page's own check that the line is alive).

What the server sends: ``welcome`` (the session token, the table, the seat, the last
``seq`` it applied), ``view`` (``bot.show.seat_view.view_json``: after every change of
the table), ``ack`` (``seq``, ``ok``, ``text``: a refusal in the person's language),
``notice`` (``text``: a frame refused) and ``bye`` (``text``, then the socket closes
with one of the :data:`CLOSE` codes).
"""

from __future__ import annotations

import json
from dataclasses import dataclass

#: Bytes a frame may have: a hello with its token is well under a kilobyte.
MAX_FRAME = 4096
#: Seconds a socket may stay open before its hello.
HELLO_SECONDS = 5.0
#: The highest sequence number (a page sends one a move: it never gets near).
MAX_SEQ = 2**31 - 1
#: An action's words: the longest is a card with its melds and belote.
MAX_ACTION = 40

#: Close codes (4000-4999 are the application's own).
CLOSE = {
    "refused": 4001,  # the token: forged, expired, used, or the table/seat is not theirs
    "gone": 4004,  # the table is not running any more
    "timeout": 4008,  # no hello in time
    "flood": 4029,  # far too many frames
}


class BadFrame(ValueError):
    """A frame that is not one of the protocol's (the socket is told, nothing changes)."""


@dataclass(frozen=True)
class Hello:
    token: str
    lang: str | None


@dataclass(frozen=True)
class Act:
    seq: int
    action: str
    at: int
    table: str | None  # when the page names them: they must be the session's
    seat: int | None


@dataclass(frozen=True)
class Seed:
    seed: str  # 32 hex digits


@dataclass(frozen=True)
class Ping:
    pass


Frame = Hello | Act | Seed | Ping


def read(text: str) -> Frame:
    """A frame from the socket's text, or :class:`BadFrame`."""
    if len(text) > MAX_FRAME:
        raise BadFrame("too long")
    try:
        d = json.loads(text)
    except ValueError:
        raise BadFrame("not JSON") from None
    if not isinstance(d, dict):
        raise BadFrame("not an object")
    kind = d.get("type")
    if kind == "hello":
        token = d.get("token")
        lang = d.get("lang")
        if not isinstance(token, str) or not token:
            raise BadFrame("no token")
        if lang is not None and (not isinstance(lang, str) or len(lang) > 16):
            raise BadFrame("bad lang")
        return Hello(token, lang)
    if kind == "act":
        seq, action, at = d.get("seq"), d.get("action"), d.get("at")
        if not _count(seq) or not 0 < seq <= MAX_SEQ:
            raise BadFrame("bad seq")
        if not isinstance(action, str) or not 0 < len(action) <= MAX_ACTION:
            raise BadFrame("bad action")
        if not _count(at) or not 0 <= at <= MAX_SEQ:
            raise BadFrame("bad position")
        if any(ch in action for ch in ":\n\r\t"):
            raise BadFrame("bad action")
        table, seat = d.get("table"), d.get("seat")
        if table is not None and not isinstance(table, str):
            raise BadFrame("bad table")
        if seat is not None and not _count(seat):
            raise BadFrame("bad seat")
        return Act(seq, action, at, table, seat)
    if kind == "seed":
        seed = d.get("seed")
        if not isinstance(seed, str) or len(seed) != 32:
            raise BadFrame("bad seed")
        try:
            bytes.fromhex(seed)
        except ValueError:
            raise BadFrame("bad seed") from None
        return Seed(seed.lower())
    if kind == "ping":
        return Ping()
    raise BadFrame("unknown type")


def _count(x: object) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


def dumps(kind: str, **values: object) -> str:
    """A server frame."""
    return json.dumps({"type": kind, **values}, separators=(",", ":"), ensure_ascii=False)
