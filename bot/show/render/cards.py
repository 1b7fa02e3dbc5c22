"""Card faces and backs, drawn by code and cached.

A face is drawn at twice its size and scaled down, so edges, ranks and suit shapes stay
smooth; the result (RGBA, transparent corners) is cached per (card, width, deck, dimmed).
Ranks use the shipped bold font; suits are polygons and ellipses (see ``suits``).
"""

from __future__ import annotations

from functools import lru_cache

from PIL import Image, ImageDraw, ImageFilter

from bot.show.render import text, theme
from bot.show.render.suits import suit_mask

RANK_LABELS = ("7", "8", "9", "10", "J", "Q", "K", "A")
COURTS = (4, 5, 6)  # J Q K
ASPECT = 1.43
_SCALE = 2


def card_size(width: int) -> tuple[int, int]:
    return width, round(width * ASPECT)


def _draw_face(card: int, width: int, four_colour: bool) -> Image.Image:
    suit, rank = divmod(card, 8)
    w, h = card_size(width * _SCALE)
    ink = theme.suit_colour(suit, four_colour)
    img = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    draw = ImageDraw.Draw(img)
    radius = round(w * 0.09)
    edge = max(2, round(w * 0.014))
    draw.rounded_rectangle((0, 0, w - 1, h - 1), radius, fill=(*theme.CARD_EDGE, 255))
    draw.rounded_rectangle(
        (edge, edge, w - 1 - edge, h - 1 - edge), radius - edge, fill=(*theme.CARD_FACE, 255)
    )
    if rank in COURTS:  # a framed panel tells the courts apart at a glance
        draw.rounded_rectangle(
            (round(w * 0.36), round(h * 0.34), round(w * 0.94), round(h * 0.95)),
            round(w * 0.05),
            fill=(*theme.COURT_FRAME, 255),
        )
    label = RANK_LABELS[rank]
    rank_font = (
        text.font(round(w * 0.34), condensed=True)
        if label == "10"
        else text.font(round(w * 0.42), bold=True)
    )
    col_x = round(w * 0.21)
    top = round(w * (0.09 if label == "10" else 0.05))
    draw.text((col_x, top), label, font=rank_font, fill=(*ink, 255), anchor="mt")
    small = round(w * 0.26)
    img.paste((*ink, 255), (col_x - small // 2, round(w * 0.50)), suit_mask(suit, small))
    big = round(w * (0.62 if rank == 7 else 0.5))
    bx = round(w * 0.65) - big // 2
    by = round(h * 0.645) - big // 2
    img.paste((*ink, 255), (bx, by), suit_mask(suit, big))
    return img.resize(card_size(width), Image.Resampling.LANCZOS)


@lru_cache(maxsize=512)
def face(card: int, width: int, four_colour: bool = False, dimmed: bool = False) -> Image.Image:
    """The face of ``card`` (0..31), RGBA, ``width`` pixels wide. Cached: do not modify."""
    if not 0 <= card < 32:
        raise ValueError(f"no card {card}")
    img = _draw_face(card, width, four_colour)
    if dimmed:  # greyed out: still readable, clearly not on offer
        shade = Image.new("RGBA", img.size, (60, 66, 72, 255))
        mixed = Image.blend(img, shade, 0.5)
        mixed.putalpha(img.getchannel("A"))
        img = mixed
    return img


@lru_cache(maxsize=16)
def back(width: int) -> Image.Image:
    """The back of a card (a seat's hidden cards), RGBA. Cached: do not modify."""
    w, h = card_size(width * _SCALE)
    img = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    draw = ImageDraw.Draw(img)
    radius = round(w * 0.09)
    draw.rounded_rectangle(
        (0, 0, w - 1, h - 1),
        radius,
        fill=(255, 255, 255, 255),
        outline=(*theme.CARD_EDGE, 255),
        width=2,
    )
    inset = round(w * 0.08)
    inner = (inset, inset, w - 1 - inset, h - 1 - inset)
    draw.rounded_rectangle(inner, radius // 2, fill=(*theme.BACK, 255))
    pattern = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    pd = ImageDraw.Draw(pattern)
    step = max(6, round(w * 0.12))
    for x in range(-h, w + h, step):
        pd.line((x, 0, x + h, h), fill=(*theme.BACK_LINE, 255), width=max(2, w // 60))
        pd.line((x + h, 0, x, h), fill=(*theme.BACK_LINE, 255), width=max(2, w // 60))
    inner_mask = Image.new("L", (w, h), 0)
    ImageDraw.Draw(inner_mask).rounded_rectangle(
        (inset + 4, inset + 4, w - 5 - inset, h - 5 - inset), radius // 2, fill=255
    )
    img.paste(
        pattern,
        (0, 0),
        Image.composite(pattern.getchannel("A"), Image.new("L", (w, h), 0), inner_mask),
    )
    return img.resize(card_size(width), Image.Resampling.LANCZOS)


SHADOW_PAD = 6


@lru_cache(maxsize=16)
def shadow(width: int) -> Image.Image:
    """A soft dark mask a card's size plus ``SHADOW_PAD`` each side, pasted under a card."""
    w, h = card_size(width)
    pad = SHADOW_PAD
    mask = Image.new("L", (w + 2 * pad, h + 2 * pad), 0)
    ImageDraw.Draw(mask).rounded_rectangle(
        (pad, pad, pad + w - 1, pad + h - 1), round(w * 0.09), fill=110
    )
    return mask.filter(ImageFilter.GaussianBlur(3))
