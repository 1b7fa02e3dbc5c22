"""Suit shapes drawn from polygons and ellipses (never font glyphs), anti-aliased.

Each shape is drawn 4x larger into a mask and scaled down with a Lanczos filter, so the
edges stay smooth on a phone screen whatever the size. Masks are cached per size.
"""

from __future__ import annotations

import math
from functools import lru_cache

from PIL import Image, ImageDraw

SUPERSAMPLE = 4
CLUBS, DIAMONDS, HEARTS, SPADES = range(4)

Point = tuple[float, float]


def _heart_outline(n: int = 160) -> list[Point]:
    """The classic parametric heart, normalised to the unit square (point at the bottom)."""
    raw = []
    for i in range(n):
        t = 2 * math.pi * i / n
        x = 16 * math.sin(t) ** 3
        y = 13 * math.cos(t) - 5 * math.cos(2 * t) - 2 * math.cos(3 * t) - math.cos(4 * t)
        raw.append((x, -y))
    xs = [p[0] for p in raw]
    ys = [p[1] for p in raw]
    x0, x1, y0, y1 = min(xs), max(xs), min(ys), max(ys)
    return [((x - x0) / (x1 - x0), (y - y0) / (y1 - y0)) for x, y in raw]


_HEART = _heart_outline()


def _scaled(points: list[Point], x: float, y: float, w: float, h: float) -> list[Point]:
    return [(x + px * w, y + py * h) for px, py in points]


def _stem(draw: ImageDraw.ImageDraw, s: float, top: float, half_width: float) -> None:
    """A flared foot: narrow at ``top``, wide at the bottom, with concave sides."""
    pts: list[Point] = []
    steps = 24
    for i in range(steps + 1):  # left edge, top to bottom, curving outwards
        t = i / steps
        pts.append((s * (0.5 - 0.04 - (half_width - 0.04) * t**2), s * (top + (0.98 - top) * t)))
    for i in range(steps, -1, -1):  # right edge, bottom to top
        t = i / steps
        pts.append((s * (0.5 + 0.04 + (half_width - 0.04) * t**2), s * (top + (0.98 - top) * t)))
    draw.polygon(pts, fill=255)


def _draw(suit: int, draw: ImageDraw.ImageDraw, s: float) -> None:
    if suit == HEARTS:
        draw.polygon(_scaled(_HEART, 0.02 * s, 0.06 * s, 0.96 * s, 0.88 * s), fill=255)
    elif suit == DIAMONDS:
        pts: list[Point] = []
        corners = [(0.5, 0.0), (0.9, 0.5), (0.5, 1.0), (0.1, 0.5)]
        for i in range(4):  # slightly concave sides: a quadratic curve pulled to the centre
            (ax, ay), (bx, by) = corners[i], corners[(i + 1) % 4]
            cx, cy = (ax + bx) / 2 * 0.84 + 0.5 * 0.16, (ay + by) / 2 * 0.84 + 0.5 * 0.16
            for k in range(16):
                t = k / 16
                x = (1 - t) ** 2 * ax + 2 * (1 - t) * t * cx + t**2 * bx
                y = (1 - t) ** 2 * ay + 2 * (1 - t) * t * cy + t**2 * by
                pts.append((x * s, y * s))
        draw.polygon(pts, fill=255)
    elif suit == SPADES:
        flipped = [(x, 1 - y) for x, y in _HEART]
        draw.polygon(_scaled(flipped, 0.02 * s, 0.0, 0.96 * s, 0.76 * s), fill=255)
        _stem(draw, s, 0.55, 0.2)
    elif suit == CLUBS:
        r = 0.225 * s
        for cx, cy in ((0.5, 0.24), (0.25, 0.56), (0.75, 0.56)):
            draw.ellipse((cx * s - r, cy * s - r, cx * s + r, cy * s + r), fill=255)
        draw.polygon(
            [(0.5 * s, 0.3 * s), (0.3 * s, 0.55 * s), (0.5 * s, 0.66 * s), (0.7 * s, 0.55 * s)],
            fill=255,
        )
        _stem(draw, s, 0.55, 0.2)
    else:
        raise ValueError(f"no suit {suit}")


@lru_cache(maxsize=256)
def suit_mask(suit: int, size: int) -> Image.Image:
    """An ``L`` mask ``size`` x ``size`` of the suit shape (255 inside), anti-aliased."""
    big = size * SUPERSAMPLE
    mask = Image.new("L", (big, big), 0)
    _draw(suit, ImageDraw.Draw(mask), big)
    return mask.resize((size, size), Image.Resampling.LANCZOS)


def paste_suit(
    img: Image.Image, suit: int, xy: tuple[int, int], size: int, colour: tuple[int, int, int]
) -> None:
    """Paint the suit shape in ``colour`` onto ``img`` with its top-left corner at ``xy``."""
    img.paste(colour, (xy[0], xy[1], xy[0] + size, xy[1] + size), suit_mask(suit, size))
