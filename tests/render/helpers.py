"""Reading pictures back: which card is drawn where, colours at a point."""

from __future__ import annotations

import io

from PIL import Image, ImageChops

from bot.show.render import cards

INSET = 14  # past the rounded corners and edge, where a face is fully opaque


def decode(data: bytes) -> Image.Image:
    img = Image.open(io.BytesIO(data))
    img.load()
    return img


def face_core(
    card: int, width: int, four_colour: bool = False, dimmed: bool = False
) -> Image.Image:
    face = cards.face(card, width, four_colour, dimmed)
    return face.convert("RGB").crop((INSET, INSET, face.width - INSET, face.height - INSET))


def identify(
    img: Image.Image,
    box: tuple[int, int, int, int],
    *,
    four_colour: bool = False,
    dimmed: bool = False,
) -> int | None:
    """The card whose face is drawn exactly in ``box`` (None if no face matches)."""
    x0, y0, x1, y1 = box
    width = x1 - x0
    crop = img.convert("RGB").crop((x0 + INSET, y0 + INSET, x1 - INSET, y1 - INSET))
    for card in range(32):
        if (
            ImageChops.difference(crop, face_core(card, width, four_colour, dimmed)).getbbox()
            is None
        ):
            return card
    return None


def mean_diff(a: Image.Image, b: Image.Image) -> float:
    diff = ImageChops.difference(a.convert("RGB"), b.convert("RGB")).convert("L")
    hist = diff.histogram()
    return sum(i * n for i, n in enumerate(hist)) / (a.width * a.height)


def share_differing(a: Image.Image, b: Image.Image, threshold: int = 48) -> float:
    diff = ImageChops.difference(a.convert("RGB"), b.convert("RGB")).convert("L")
    hist = diff.histogram()
    return sum(hist[threshold:]) / (a.width * a.height)


def close(c1: tuple[int, ...], c2: tuple[int, ...], tol: int = 6) -> bool:
    return all(abs(a - b) <= tol for a, b in zip(c1[:3], c2[:3], strict=True))
