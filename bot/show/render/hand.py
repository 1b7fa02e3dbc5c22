"""A player's hand: their cards in a row, the playable ones raised, ringed and underlined.

Sent privately, so it is labelled with the table id (and a colour drawn from it) and the
seat: a player at two tables cannot mix them up. It draws ``view.hand`` and nothing else;
the caller cannot hand it another seat's cards.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw, ImageFont

from bot.show.render import cards, encode, paint, text, theme
from bot.show.render.order import card_label, sort_hand
from bot.show.render.views import bid_words, contract_trump, playable_cards

CARD_W = 116
CARD_H = cards.card_size(CARD_W)[1]
GAP = 10
MARGIN = 20
HEADER_H = 64
RAISE = 22  # how far a playable card stands above the others
BAR_H = 8
WIDTH = 2 * MARGIN + 8 * CARD_W + 7 * GAP
STRIP_H = 48  # the trick on the table, so a player in a private chat need not look away
ROW_TOP = HEADER_H + 3 + STRIP_H + 10
BAR_TOP = ROW_TOP + RAISE + CARD_H + 8
LABEL_Y = BAR_TOP + BAR_H + 16
HEIGHT = LABEL_Y + 22
SEAT_BASE = 1  # seats are shown 1..4 to people (the engine counts 0..3)


@dataclass
class HandLayout:
    """Where everything went: the tests read it to sample pixels."""

    size: tuple[int, int]
    cards: list[tuple[int, tuple[int, int, int, int]]] = field(default_factory=list)
    playable: frozenset[int] = frozenset()
    bars: dict[int, tuple[int, int, int, int]] = field(default_factory=dict)
    turn_to_play: bool = False


@lru_cache(maxsize=16)
def _background(accent: tuple[int, int, int]) -> Image.Image:
    img = Image.new("RGB", (WIDTH, HEIGHT), theme.FELT)
    draw = ImageDraw.Draw(img)
    draw.rectangle((0, 0, WIDTH, HEADER_H), fill=theme.HEADER)
    draw.rectangle((0, 0, 12, HEADER_H), fill=accent)
    draw.rectangle((0, HEADER_H, WIDTH, HEADER_H + 3), fill=accent)
    draw.rectangle((0, HEADER_H + 3, WIDTH, HEADER_H + 3 + STRIP_H), fill=theme.FELT_DARK)
    return img


def compose_hand(
    view: Any,
    *,
    table_id: str,
    seat_name: str,
    four_colour: bool = False,
    names: Sequence[str] | None = None,
    tr: Callable[[str], str] = text.no_translation,
) -> tuple[Image.Image, HandLayout]:
    """The hand picture as an image, with its layout (for tests and the README pictures)."""
    if view.seat is None:
        raise ValueError("A spectator's view has no hand to draw.")
    accent = theme.accent_for(table_id)
    img = _background(accent).copy()
    draw = ImageDraw.Draw(img)
    trump = contract_trump(view)
    playable = playable_cards(view)
    turn_to_play = bool(playable)
    layout = HandLayout(size=img.size, playable=playable, turn_to_play=turn_to_play)

    # Header: table and seat on the left, trump and turn on the right.
    title_font = text.font(28, bold=True)
    table_label = tr("Table {table_id}").format(table_id=table_id)
    table_label = text.fit(table_label, title_font, 360)
    draw.text((30, HEADER_H // 2), table_label, font=title_font, fill=accent, anchor="lm")
    x = 30 + text.text_width(table_label, title_font) + 18
    seat_label = tr("Seat {seat}").format(seat=view.seat + SEAT_BASE)
    small = text.font(22)
    draw.text((x, HEADER_H // 2), seat_label, font=small, fill=theme.INK_DIM, anchor="lm")
    x += text.text_width(seat_label, small) + 12
    right_x = WIDTH - MARGIN
    if view.to_move == view.seat:
        fnt = text.font(22, bold=True)
        label = tr("Your turn")
        w = paint.pill_width(label, fnt)
        paint.pill(
            draw,
            (right_x - w, 14, right_x, HEADER_H - 14),
            theme.PLAYABLE,
            label,
            fnt,
            theme.HEADER,
        )
        right_x -= w + 16
    if trump is not None:
        right_x = _trump_block(img, draw, right_x, trump, four_colour, tr)
    elif getattr(view, "turned", None) is not None:
        chip_w = 70
        paint.card_chip(img, draw, (right_x - chip_w, 16), view.turned, 32, four_colour=four_colour)
        label = tr("Turned")
        draw.text(
            (right_x - chip_w - 8, HEADER_H // 2),
            label,
            font=small,
            fill=theme.INK_DIM,
            anchor="rm",
        )
        right_x -= chip_w + 8 + text.text_width(label, small) + 16
    name, name_font = text.fit_name(seat_name, 24, max(40, right_x - x - 10), fallback="")
    draw.text((x, HEADER_H // 2), name, font=name_font, fill=theme.HEADER_INK, anchor="lm")

    _trick_strip(img, draw, view, names, four_colour, tr)

    # The row of cards, centred.
    hand = sort_hand(view.hand, trump)
    row_w = len(hand) * CARD_W + max(0, len(hand) - 1) * GAP
    x0 = (WIDTH - row_w) // 2
    label_font = text.font(18, bold=True)
    for i, card in enumerate(hand):
        cx = x0 + i * (CARD_W + GAP)
        can_play = card in playable
        dim = turn_to_play and not can_play
        y = ROW_TOP if can_play else ROW_TOP + RAISE
        if can_play:
            draw.rounded_rectangle(
                (cx - 5, y - 5, cx + CARD_W + 4, y + CARD_H + 4),
                14,
                outline=theme.PLAYABLE,
                width=4,
            )
        box = paint.paste_card(
            img, cards.face(card, CARD_W, four_colour, dim), (cx, y), with_shadow=not can_play
        )
        layout.cards.append((card, box))
        if can_play:
            bar = (cx + 8, BAR_TOP, cx + CARD_W - 8, BAR_TOP + BAR_H)
            draw.rounded_rectangle(bar, BAR_H // 2, fill=theme.PLAYABLE)
            layout.bars[card] = bar
        ink = theme.PLAYABLE if can_play else (theme.INK_DIM if dim else theme.INK)
        draw.text(
            (cx + CARD_W // 2, LABEL_Y), card_label(card), font=label_font, fill=ink, anchor="mm"
        )
    return img, layout


def _trump_block(
    img: Image.Image,
    draw: ImageDraw.ImageDraw,
    right_x: int,
    trump: str,
    four_colour: bool,
    tr: Callable[[str], str],
) -> int:
    """ "Trump" and the trump's mark, right-aligned at ``right_x``; returns the new right edge."""
    small = text.font(22)
    label = tr("Trump")
    if trump in ("NT", "AT"):
        words = tr("No trump") if trump == "NT" else tr("All trump")
        fnt = text.font(22, bold=True)
        draw.text((right_x, HEADER_H // 2), words, font=fnt, fill=theme.HEADER_INK, anchor="rm")
        return right_x - text.text_width(words, fnt) - 16
    icon = 36
    paint.contract_mark(
        img,
        draw,
        (right_x - icon, (HEADER_H - icon) // 2),
        trump,
        icon,
        four_colour=four_colour,
        ink=theme.HEADER_INK,
        no_trump="",
        all_trump="",
    )
    draw.text(
        (right_x - icon - 8, HEADER_H // 2), label, font=small, fill=theme.INK_DIM, anchor="rm"
    )
    return right_x - icon - 8 - text.text_width(label, small) - 16


def _trick_strip(
    img: Image.Image,
    draw: ImageDraw.ImageDraw,
    view: Any,
    names: Sequence[str] | None,
    four_colour: bool,
    tr: Callable[[str], str],
) -> None:
    """The cards already in the trick, each with who played it; while bidding, what each
    seat said last (all public information)."""
    mid = HEADER_H + 3 + STRIP_H // 2
    small = text.font(20)

    def who(seat: int, width: int) -> tuple[str, ImageFont.FreeTypeFont]:
        fallback = tr("Seat {seat}").format(seat=seat + SEAT_BASE)
        name = names[seat] if names is not None and len(names) == 4 else fallback
        return text.fit_name(name, 20, max(30, width), fallback=fallback)

    if getattr(view, "contract", None) is None and getattr(view, "bids", None):
        last: dict[int, str] = {}
        for seat, bid in view.bids:
            last[seat] = bid
        x = 30
        slot = (WIDTH - 30 - MARGIN) // 3
        for seat, bid in list(last.items())[-3:]:
            words, suit = bid_words(bid, tr)
            bold = text.font(20, bold=True)
            tail = text.text_width(words, bold) + (30 if suit else 0)
            shown, fnt = who(seat, slot - tail - 30)
            draw.text((x, mid), shown, font=fnt, fill=theme.INK, anchor="lm")
            x2 = x + text.text_width(shown, fnt) + 10
            if suit is not None:
                paint.contract_mark(
                    img,
                    draw,
                    (x2, mid - 13),
                    suit,
                    26,
                    four_colour=four_colour,
                    ink=theme.INK,
                    no_trump="",
                    all_trump="",
                )
            else:
                draw.text((x2, mid), words, font=bold, fill=theme.GOLD, anchor="lm")
            x += slot
        return
    if not getattr(view, "trick", ()):
        if view.to_move == view.seat and getattr(view, "contract", None) is not None:
            draw.text((30, mid), tr("You lead"), font=small, fill=theme.INK_DIM, anchor="lm")
        return
    label = tr("On the table")
    draw.text((30, mid), label, font=small, fill=theme.INK_DIM, anchor="lm")
    x = 30 + text.text_width(label, small) + 16
    slot = (WIDTH - x - MARGIN) // 3
    for seat, card in view.trick:
        end = paint.card_chip(img, draw, (x, mid - 16), card, 32, four_colour=four_colour)
        shown, fnt = who(seat, slot - (end - x) - 24)
        draw.text((end + 8, mid), shown, font=fnt, fill=theme.INK, anchor="lm")
        x += slot


def render_hand(
    view: Any,
    *,
    table_id: str,
    seat_name: str,
    four_colour: bool = False,
    names: Sequence[str] | None = None,
    tr: Callable[[str], str] = text.no_translation,
) -> bytes:
    """PNG bytes of ``view.hand`` (the view's own seat) for that player's private message."""
    img, _ = compose_hand(
        view, table_id=table_id, seat_name=seat_name, four_colour=four_colour, names=names, tr=tr
    )
    return encode.png(img)
