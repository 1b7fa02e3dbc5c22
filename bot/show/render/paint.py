"""Small drawing helpers shared by the pictures: pills, inline suits and cards, panels."""

from __future__ import annotations

from PIL import Image, ImageDraw, ImageFont

from bot.show.render import cards, text, theme
from bot.show.render.suits import paste_suit

RGB = tuple[int, int, int]
Box = tuple[int, int, int, int]


def paste_card(
    img: Image.Image, card_img: Image.Image, xy: tuple[int, int], *, with_shadow: bool = True
) -> Box:
    """Paste a card (RGBA) at ``xy`` with a soft shadow; returns the card's box."""
    x, y = xy
    if with_shadow:
        sh = cards.shadow(card_img.width)
        pad = cards.SHADOW_PAD
        img.paste(
            (0, 0, 0),
            (x - pad + 3, y - pad + 4, x - pad + 3 + sh.width, y - pad + 4 + sh.height),
            sh,
        )
    img.paste(card_img, (x, y), card_img)
    return (x, y, x + card_img.width, y + card_img.height)


def pill(
    draw: ImageDraw.ImageDraw,
    box: Box,
    fill: RGB,
    label: str,
    fnt: ImageFont.FreeTypeFont,
    ink: RGB,
) -> None:
    draw.rounded_rectangle(box, (box[3] - box[1]) // 2, fill=fill)
    text.draw_centered(draw, box, label, fnt, ink)


def pill_width(label: str, fnt: ImageFont.FreeTypeFont, pad: int = 14) -> int:
    return text.text_width(label, fnt) + 2 * pad


def contract_mark(
    img: Image.Image,
    draw: ImageDraw.ImageDraw,
    xy: tuple[int, int],
    trump: str,
    size: int,
    *,
    four_colour: bool,
    ink: RGB,
    no_trump: str,
    all_trump: str,
    on_light: bool = False,
) -> int:
    """Draw a contract's trump (a suit shape, or the words for NT / AT) with its top-left at
    ``xy``, ``size`` pixels high; returns the x where it ends."""
    x, y = xy
    if trump in ("NT", "AT"):
        label = no_trump if trump == "NT" else all_trump
        fnt = text.font(round(size * 0.8), bold=True)
        draw.text((x, y + size // 2), label, font=fnt, fill=ink, anchor="lm")
        return x + text.text_width(label, fnt)
    suit = "CDHS".index(trump)
    colour = theme.suit_colour(suit, four_colour)
    if not on_light:  # a suit on the dark felt sits on a white disc, so black stays visible
        draw.ellipse((x, y, x + size, y + size), fill=(255, 255, 255))
        inner = round(size * 0.66)
        off = (size - inner) // 2
        paste_suit(img, suit, (x + off, y + off), inner, colour)
    else:
        paste_suit(img, suit, (x, y), size, colour)
    return x + size


def card_chip(
    img: Image.Image,
    draw: ImageDraw.ImageDraw,
    xy: tuple[int, int],
    card: int,
    height: int,
    *,
    four_colour: bool,
) -> int:
    """A small white chip "rank + suit" for a card named inline; returns its right edge."""
    suit, rank = divmod(card, 8)
    colour = theme.suit_colour(suit, four_colour)
    fnt = text.font(round(height * 0.62), bold=True)
    label = cards.RANK_LABELS[rank]
    tw = text.text_width(label, fnt)
    icon = round(height * 0.6)
    w = 8 + tw + 4 + icon + 8
    x, y = xy
    draw.rounded_rectangle((x, y, x + w, y + height), round(height * 0.2), fill=(255, 255, 255))
    draw.text((x + 8, y + height // 2), label, font=fnt, fill=colour, anchor="lm")
    paste_suit(img, suit, (x + 8 + tw + 4, y + (height - icon) // 2), icon, colour)
    return x + w


def panel(
    draw: ImageDraw.ImageDraw,
    box: Box,
    *,
    fill: RGB = theme.PANEL,
    edge: RGB = theme.PANEL_EDGE,
    radius: int = 14,
    width: int = 2,
) -> None:
    draw.rounded_rectangle(box, radius, fill=fill, outline=edge, width=width)
