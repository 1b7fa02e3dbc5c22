"""Fonts and text: the shipped DejaVu fonts, names that fit, and names that degrade cleanly.

Player names are any Unicode. DejaVu Sans covers Latin, Cyrillic, Greek (and more); a
character it lacks would be drawn as the missing-glyph box ("tofu"), so such characters
are dropped, and a name left empty falls back to a label the caller gives ("Seat 3").
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable
from functools import lru_cache

from PIL import ImageDraw, ImageFont, features

from bot.show.render import assets

_HAS_RAQM = features.check("raqm")
_NOTDEF_PROBE = "\U0010fffd"  # a private-use code point no font we ship maps
ELLIPSIS = "…"
MAX_NAME = 120  # longer names are cut before anything else (no picture shows more)


@lru_cache(maxsize=64)
def font(size: int, bold: bool = False, *, condensed: bool = False) -> ImageFont.FreeTypeFont:
    """A shipped font with the simple layout engine (fast, enough for Latin/Cyrillic/Greek)."""
    path = assets.CONDENSED_BOLD if condensed else assets.BOLD if bold else assets.REGULAR
    return ImageFont.truetype(str(path), size, layout_engine=ImageFont.Layout.BASIC)


@lru_cache(maxsize=32)
def _shaping_font(size: int, bold: bool) -> ImageFont.FreeTypeFont:
    """The same font with complex shaping (Arabic, Hebrew, combining marks) when available."""
    path = assets.BOLD if bold else assets.REGULAR
    engine = ImageFont.Layout.RAQM if _HAS_RAQM else ImageFont.Layout.BASIC
    return ImageFont.truetype(str(path), size, layout_engine=engine)


def font_for(text: str, size: int, bold: bool = False) -> ImageFont.FreeTypeFont:
    """The fast font for simple scripts, the shaping one when the text needs it."""
    if any(ord(ch) >= 0x0590 for ch in text):
        return _shaping_font(size, bold)
    return font(size, bold)


@lru_cache(maxsize=1)
def _notdef_mask() -> tuple[tuple[int, int], bytes]:
    probe = font(24)
    mask = probe.getmask(_NOTDEF_PROBE)
    return mask.size, bytes(mask)


@lru_cache(maxsize=4096)
def has_glyph(ch: str) -> bool:
    """True when the shipped font draws ``ch`` as itself rather than the missing-glyph box."""
    if unicodedata.category(ch) in ("Cc", "Cf", "Zl", "Zp"):
        return False  # controls and invisible formatting: never worth drawing
    if ch.isspace():
        return True
    mask = font(24).getmask(ch)
    return (mask.size, bytes(mask)) != _notdef_mask()


def clean_name(name: str, fallback: str) -> str:
    """The name with the characters the font lacks removed; ``fallback`` if nothing is left.

    Whitespace runs collapse to one space, so "Ann\\u200b\\u200b  Lee" stays tidy.
    """
    name = unicodedata.normalize("NFC", name[:MAX_NAME])
    kept = "".join(ch if has_glyph(ch) else " " for ch in name)
    kept = " ".join(kept.split())
    if not any(ch.isalnum() or unicodedata.category(ch).startswith("S") for ch in kept):
        return fallback
    return kept


def text_width(text: str, fnt: ImageFont.FreeTypeFont) -> int:
    return round(fnt.getlength(text))


def fit(text: str, fnt: ImageFont.FreeTypeFont, width: int) -> str:
    """``text`` cut with an ellipsis so that it is at most ``width`` pixels wide."""
    if fnt.getlength(text) <= width:
        return text
    lo, hi = 0, len(text)
    while lo < hi:  # the longest prefix that fits with the ellipsis
        mid = (lo + hi + 1) // 2
        if fnt.getlength(text[:mid].rstrip() + ELLIPSIS) <= width:
            lo = mid
        else:
            hi = mid - 1
    return text[:lo].rstrip() + ELLIPSIS if lo else ELLIPSIS


def fit_name(
    name: str,
    size: int,
    width: int,
    *,
    bold: bool = True,
    fallback: str,
    min_size: int | None = None,
) -> tuple[str, ImageFont.FreeTypeFont]:
    """A player's name made safe to draw, shrunk a little (down to ``min_size``, default
    ``size - 4``) then cut with an ellipsis to fit ``width``."""
    shown = clean_name(name, fallback)
    smallest = size - 4 if min_size is None else min_size
    for step in range(size, smallest - 1, -2):
        fnt = font_for(shown, step, bold)
        if fnt.getlength(shown) <= width:
            return shown, fnt
    fnt = font_for(shown, smallest, bold)
    return fit(shown, fnt, width), fnt


def draw_centered(
    draw: ImageDraw.ImageDraw,
    box: tuple[int, int, int, int],
    text: str,
    fnt: ImageFont.FreeTypeFont,
    fill: tuple[int, int, int],
) -> None:
    """Draw ``text`` centred in ``box`` (middle anchor, so ascenders do not shift it)."""
    x = (box[0] + box[2]) / 2
    y = (box[1] + box[3]) / 2
    draw.text((x, y), text, font=fnt, fill=fill, anchor="mm")


def no_translation(message: str) -> str:
    """The default ``tr``: English as written. The bot passes its gettext for the locale."""
    return message


def _isolate(name: str) -> str:
    """Wrap a name that needs shaping in Unicode isolates, so a right-to-left name joined
    to a left-to-right one keeps each in its own order."""
    if any(ord(ch) >= 0x0590 for ch in name):
        return "\u2068" + name + "\u2069"
    return name


def pair(tr: Callable[[str], str], first: str, second: str) -> str:
    """Two partners' names as one text ("Alice & Carol"), safe for mixed scripts."""
    return tr("{first} & {second}").format(first=_isolate(first), second=_isolate(second))
