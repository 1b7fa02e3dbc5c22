"""Secrets kept out of every log line: tokens, unrevealed server seeds, players' seeds.

Whoever holds a secret registers it here (a token at start, a server seed when its match
starts, a player's seed when it arrives) and forgets it when it may be seen (the reveal).
One :class:`RedactingFilter` on the root logger's handlers then replaces every registered
value, in the message, its arguments and the formatted traceback, before any handler
writes the record. A registry rather than patterns: a seed is 64 hex digits like any
hash, and only the holder knows which 64 digits are secret.
"""

from __future__ import annotations

import logging
import threading

MASK = "[redacted]"
_MIN_LENGTH = 8  # shorter values would mask ordinary words

_lock = threading.Lock()
_secrets: dict[str, int] = {}  # value -> how many holders registered it


def _forms(secret: str | bytes) -> list[str]:
    """The ways a secret shows up in text: as given, its hex (both cases), its repr."""
    if isinstance(secret, bytes):
        forms = [secret.hex(), secret.hex().upper(), repr(secret)]
    else:
        forms = [secret, secret.lower(), secret.upper()]
    return [f for f in dict.fromkeys(forms) if len(f) >= _MIN_LENGTH]


def register(secret: str | bytes) -> None:
    """Keep ``secret`` out of the logs from now on."""
    with _lock:
        for form in _forms(secret):
            _secrets[form] = _secrets.get(form, 0) + 1


def forget(secret: str | bytes) -> None:
    """``secret`` is public now (a revealed seed): the logs may show it."""
    with _lock:
        for form in _forms(secret):
            left = _secrets.get(form, 0) - 1
            if left > 0:
                _secrets[form] = left
            else:
                _secrets.pop(form, None)


def redact(text: str) -> str:
    """``text`` with every registered secret replaced by ``[redacted]``."""
    with _lock:
        values = sorted(_secrets, key=len, reverse=True)
    for value in values:
        if value in text:
            text = text.replace(value, MASK)
    return text


class RedactingFilter(logging.Filter):
    """Rewrites a record so no handler can print a registered secret.

    The message is formatted here (its arguments merged) and the traceback rendered and
    redacted, so formatters downstream (plain or JSON) only ever see the clean texts.
    """

    def filter(self, record: logging.LogRecord) -> bool:
        with _lock:
            empty = not _secrets
        if empty:
            return True
        record.msg = redact(record.getMessage())
        record.args = None
        if record.exc_info and not record.exc_text:
            record.exc_text = logging.Formatter().formatException(record.exc_info)
        if record.exc_text:
            record.exc_text = redact(record.exc_text)
            record.exc_info = None  # the redacted text stands in for it
        if record.stack_info:
            record.stack_info = redact(record.stack_info)
        return True


_installed = RedactingFilter()


def install(logger: logging.Logger | None = None) -> None:
    """Put the filter on every handler of ``logger`` (the root logger by default), and
    on the logger itself for records logged straight to it."""
    target = logger or logging.getLogger()
    if _installed not in target.filters:
        target.addFilter(_installed)
    for handler in target.handlers:
        if _installed not in handler.filters:
            handler.addFilter(_installed)
