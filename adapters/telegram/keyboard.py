"""Core buttons as inline keyboards, and texts cut to Telegram's sizes."""

from __future__ import annotations

import hashlib
import json
import logging
from collections.abc import Awaitable, Callable

from telegram import InlineKeyboardButton, InlineKeyboardMarkup

from bot.platform import Button, Buttons

CAPTION_LIMIT = 1024  # characters of a photo caption
TEXT_LIMIT = 4096  # characters of a message
NOTICE_LIMIT = 200  # characters of an answerCallbackQuery notice
DATA_LIMIT = 64  # bytes of callback_data
DISABLED_MARK = "· "  # before the label of a button the core disabled (no grey on Telegram)

log = logging.getLogger(__name__)

LinkFor = Callable[[Button], Awaitable[str | None]]


async def inline_keyboard(
    buttons: Buttons, link_for: LinkFor | None = None
) -> InlineKeyboardMarkup | None:
    """The core's buttons, rows kept.

    Telegram has no greyed-out buttons: a button the core disables (a card that may not
    be played now) is shown with a dot before its label and keeps the core's action, so
    the hand still shows every card, and a press on it gets the core's short refusal
    ("You can't play 7H now.") as a notice.
    ``link_for`` may turn a button into a URL button (a ``/start`` deep link); every other
    button carries the core's action as its callback data, which the core keeps within
    Telegram's 64 bytes (a longer one is a core bug: it is left out and logged, so the
    rest of the message still shows).
    """
    rows: list[list[InlineKeyboardButton]] = []
    for row in buttons:
        out: list[InlineKeyboardButton] = []
        for button in row:
            label = button.label if button.enabled else DISABLED_MARK + button.label
            url = button.url or (await link_for(button) if link_for and button.enabled else None)
            if url:
                out.append(InlineKeyboardButton(label, url=url))
            elif 0 < len(button.action.encode()) <= DATA_LIMIT:
                out.append(InlineKeyboardButton(label, callback_data=button.action))
            else:  # Telegram would refuse the whole message for it
                log.error(
                    "button %r left out: its action is over %d bytes", button.label, DATA_LIMIT
                )
        if out:
            rows.append(out)
    return InlineKeyboardMarkup(rows) if rows else None


def cut(text: str, limit: int) -> str:
    """Telegram refuses what is too long: keep the start and say that it was cut."""
    text = text.strip() or "…"
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def digest(*parts: bytes | str | None) -> str:
    h = hashlib.sha256()
    for part in parts:
        data = part.encode() if isinstance(part, str) else (part or b"")
        h.update(len(data).to_bytes(8, "big"))
        h.update(data)
    return h.hexdigest()[:32]


def markup_digest(markup: InlineKeyboardMarkup | None) -> str:
    return digest(json.dumps(markup.to_dict(), sort_keys=True) if markup else "")
