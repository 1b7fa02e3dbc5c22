"""The table: four seats, who deals, whose turn, the trick in play, contract, score, clock.

The public picture is drawn from a spectator's view (``match.view(None)``), so it never
holds a hidden card; seats show only how many cards they hold. With a seat's view the
picture turns so that seat sits at the bottom.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw

from bot.show.render import cards, encode, paint, text, theme
from bot.show.render.hand import SEAT_BASE
from bot.show.render.views import bid_value_word, bid_words, doubling_word

WIDTH, HEIGHT = 1000, 740
HEADER_H = 96
CX, CY = WIDTH // 2, HEADER_H + (HEIGHT - HEADER_H) // 2
PANEL_W, PANEL_H = 270, 86
TRICK_W = 100
TRICK_H = cards.card_size(TRICK_W)[1]
MINI_W = 56
BACK_W = 20
# Where each place sits, counter-clockwise from the bottom (play passes to the right).
PANEL_CENTRES = ((CX, HEIGHT - 64), (WIDTH - 160, CY), (CX, HEADER_H + 64), (160, CY))
TRICK_OFFSETS = ((0, 78), (118, 0), (0, -78), (-118, 0))


@dataclass
class TableLayout:
    """Where everything went, for tests: seat panels, names, trick cards, badges."""

    size: tuple[int, int]
    panels: dict[int, tuple[int, int, int, int]] = field(default_factory=dict)
    names: dict[int, tuple[int, int, int, int]] = field(default_factory=dict)
    shown_names: dict[int, str] = field(default_factory=dict)
    trick: list[tuple[int, int, tuple[int, int, int, int]]] = field(default_factory=list)
    last_trick: list[tuple[int, int, tuple[int, int, int, int]]] = field(default_factory=list)
    dealer_badge: tuple[int, int, int, int] | None = None


@lru_cache(maxsize=16)
def _background(accent: tuple[int, int, int]) -> Image.Image:
    """The felt with its oval and the header band: drawn once per accent colour."""
    scale = 2
    big = Image.new("RGB", (WIDTH * scale, (HEIGHT - HEADER_H) * scale), theme.FELT_DARK)
    d = ImageDraw.Draw(big)
    m = 14 * scale
    d.rounded_rectangle((m, m, big.width - m, big.height - m), 220 * scale, fill=theme.FELT_LIGHT)
    d.rounded_rectangle(
        (m + 6 * scale, m + 6 * scale, big.width - m - 6 * scale, big.height - m - 6 * scale),
        214 * scale,
        fill=theme.FELT,
    )
    felt = big.resize((WIDTH, HEIGHT - HEADER_H), Image.Resampling.LANCZOS)
    img = Image.new("RGB", (WIDTH, HEIGHT), theme.HEADER)
    img.paste(felt, (0, HEADER_H))
    draw = ImageDraw.Draw(img)
    draw.rectangle((0, 0, 12, HEADER_H), fill=accent)
    draw.rectangle((0, HEADER_H - 3, WIDTH, HEADER_H), fill=accent)
    return img


def _place(seat: int, bottom: int) -> int:
    """0 bottom, 1 right, 2 top, 3 left."""
    return (seat - bottom) % 4


def _clock(
    draw: ImageDraw.ImageDraw, centre: tuple[int, int], r: int, ink: tuple[int, int, int]
) -> None:
    x, y = centre
    draw.ellipse((x - r, y - r, x + r, y + r), outline=ink, width=3)
    draw.line((x, y, x, y - r + 5), fill=ink, width=3)
    draw.line((x, y, x + r - 6, y), fill=ink, width=3)


def format_time(seconds: float) -> str:
    s = max(0, int(seconds + 0.999))  # 0.2 s left still shows 0:01, not 0:00
    return f"{s // 60}:{s % 60:02d}"


def compose_table(
    view: Any,
    *,
    table_id: str,
    names: Sequence[str],
    time_left: float | None = None,
    show_last_trick: bool = False,
    four_colour: bool = False,
    tr: Callable[[str], str] = text.no_translation,
) -> tuple[Image.Image, TableLayout]:
    """The table picture as an image, with its layout."""
    if len(names) != 4:
        raise ValueError("A table picture needs four names, one per seat.")
    accent = theme.accent_for(table_id)
    img = _background(accent).copy()
    draw = ImageDraw.Draw(img)
    layout = TableLayout(size=img.size)
    bottom = view.seat if view.seat is not None else 0
    shown = [
        text.clean_name(n, tr("Seat {seat}").format(seat=i + SEAT_BASE))
        for i, n in enumerate(names)
    ]

    _header(img, draw, view, table_id, shown, time_left, accent, four_colour, tr)

    last_bid: dict[int, str] = {}
    for seat, bid in getattr(view, "bids", ()) or ():
        last_bid[seat] = bid
    belote_seats = {seat for seat, _ in (getattr(view, "belotes", ()) or ())}
    meld_points: dict[int, int] = {}
    for seat, meld, counts in getattr(view, "melds", ()) or ():
        if counts:
            meld_points[seat] = meld_points.get(seat, 0) + meld.points
    contract = getattr(view, "contract", None)
    for seat in range(4):
        _seat_panel(
            img,
            draw,
            layout,
            view,
            seat,
            _place(seat, bottom),
            shown[seat],
            last_bid.get(seat),
            seat in belote_seats,
            meld_points.get(seat, 0),
            contract,
            four_colour,
            tr,
        )

    # The centre: the trick in play, or the turned card while bidding.
    if view.trick:
        for seat, card in view.trick:
            dx, dy = TRICK_OFFSETS[_place(seat, bottom)]
            xy = (CX + dx - TRICK_W // 2, CY + dy - TRICK_H // 2)
            box = paint.paste_card(img, cards.face(card, TRICK_W, four_colour), xy)
            layout.trick.append((seat, card, box))
    elif contract is None and getattr(view, "turned", None) is not None:
        xy = (CX - TRICK_W // 2, CY - TRICK_H // 2 - 10)
        paint.paste_card(img, cards.face(view.turned, TRICK_W, four_colour), xy)
        fnt = text.font(20, bold=True)
        draw.text((CX, xy[1] + TRICK_H + 22), tr("Turned"), font=fnt, fill=theme.INK, anchor="mm")

    if str(getattr(view, "phase", "")) == "over":
        _match_over(draw, view, shown, tr)

    if show_last_trick and getattr(view, "tricks", None):
        _last_trick(img, draw, layout, view.tricks[-1], bottom, shown, four_colour, tr)
    return img, layout


def _header(
    img: Image.Image,
    draw: ImageDraw.ImageDraw,
    view: Any,
    table_id: str,
    shown: list[str],
    time_left: float | None,
    accent: tuple[int, int, int],
    four_colour: bool,
    tr: Callable[[str], str],
) -> None:
    title = text.font(28, bold=True)
    small = text.font(20)
    label = text.fit(tr("Table {table_id}").format(table_id=table_id), title, 330)
    draw.text((30, 30), label, font=title, fill=accent, anchor="lm")
    x = 30 + text.text_width(label, title) + 16
    sub = tr("{ruleset} · deal {number}").format(
        ruleset=getattr(view, "ruleset", ""), number=getattr(view, "k", 0) + 1
    )
    draw.text((x, 31), sub, font=small, fill=theme.INK_DIM, anchor="lm")

    # Score: one coloured block per team, then the target and any hanging points.
    scores = getattr(view, "scores", (0, 0))
    big = text.font(26, bold=True)
    rx = WIDTH - 20
    if time_left is not None:
        left = format_time(time_left)
        ink = theme.BAD if time_left < 10 else theme.HEADER_INK
        draw.text((rx, 30), left, font=big, fill=ink, anchor="rm")
        rx -= text.text_width(left, big) + 10
        _clock(draw, (rx - 13, 30), 13, ink)
        rx -= 26 + 24
    target_label = tr("to {target}").format(target=getattr(view, "target", ""))
    draw.text((rx, 31), target_label, font=small, fill=theme.INK_DIM, anchor="rm")
    rx -= text.text_width(target_label, small) + 12
    for team in (1, 0):
        value = str(scores[team])
        w = max(64, text.text_width(value, big) + 20)
        draw.rounded_rectangle((rx - w, 12, rx, 48), 8, fill=theme.TEAM[team])
        text.draw_centered(draw, (rx - w, 12, rx, 48), value, big, (255, 255, 255))
        rx -= w + 8

    # Second line: the contract and its team, doubling, hanging points.
    y = 72
    contract = getattr(view, "contract", None)
    fnt = text.font(22, bold=True)
    if contract is None:
        phase = tr("Bidding")
        draw.text((30, y), phase, font=fnt, fill=theme.HEADER_INK, anchor="lm")
    else:
        label = tr("Contract")
        draw.text((30, y), label, font=small, fill=theme.INK_DIM, anchor="lm")
        x = 30 + text.text_width(label, small) + 10
        if getattr(contract, "bid", None) is not None:  # Coinche: the value bid, first
            value = bid_value_word(contract.bid, tr)
            draw.text((x, y), value, font=fnt, fill=theme.HEADER_INK, anchor="lm")
            x += text.text_width(value, fnt) + 8
        x = (
            paint.contract_mark(
                img,
                draw,
                (x, y - 15),
                contract.trump,
                30,
                four_colour=four_colour,
                ink=theme.HEADER_INK,
                no_trump=tr("No trump"),
                all_trump=tr("All trump"),
            )
            + 12
        )
        team = contract.taker % 2
        team_names = text.pair(tr, shown[team], shown[team + 2])
        draw.rounded_rectangle((x, y - 6, x + 12, y + 6), 3, fill=theme.TEAM[team])
        x += 20
        if contract.multiplier > 1:
            dbl = doubling_word(contract, tr)
            pw = paint.pill_width(dbl, fnt, 12)
            names_w = max(60, WIDTH - 300 - x - pw)
            team_names = text.fit(team_names, text.font_for(team_names, 22, True), names_w)
            draw.text(
                (x, y),
                team_names,
                font=text.font_for(team_names, 22, True),
                fill=theme.HEADER_INK,
                anchor="lm",
            )
            x += text.text_width(team_names, text.font_for(team_names, 22, True)) + 12
            paint.pill(draw, (x, y - 15, x + pw, y + 15), theme.BAD, dbl, fnt, (255, 255, 255))
        else:
            team_names = text.fit(team_names, text.font_for(team_names, 22, True), WIDTH - 300 - x)
            draw.text(
                (x, y),
                team_names,
                font=text.font_for(team_names, 22, True),
                fill=theme.HEADER_INK,
                anchor="lm",
            )
    hanging = getattr(view, "hanging", 0) or 0
    if hanging:
        hang = tr("{points} hanging").format(points=hanging)
        draw.text((WIDTH - 20, y), hang, font=small, fill=theme.WARN, anchor="rm")


def _seat_panel(
    img: Image.Image,
    draw: ImageDraw.ImageDraw,
    layout: TableLayout,
    view: Any,
    seat: int,
    place: int,
    name: str,
    bid: str | None,
    belote: bool,
    melds: int,
    contract: Any,
    four_colour: bool,
    tr: Callable[[str], str],
) -> None:
    cx, cy = PANEL_CENTRES[place]
    box = (cx - PANEL_W // 2, cy - PANEL_H // 2, cx + PANEL_W // 2, cy + PANEL_H // 2)
    layout.panels[seat] = box
    team = seat % 2
    is_turn = view.to_move == seat
    if is_turn:
        ring = (box[0] - 6, box[1] - 6, box[2] + 6, box[3] + 6)
        draw.rounded_rectangle(ring, 20, outline=theme.TURN, width=5)
    paint.panel(draw, box)
    draw.rounded_rectangle((box[0], box[1], box[0] + 10, box[3]), 5, fill=theme.TEAM[team])
    x = box[0] + 22
    # The dealer's disc, right of the name line.
    if view.dealer == seat:
        r = 15
        bx, by = box[2] - 12 - r, box[1] + 12 + r
        draw.ellipse((bx - r, by - r, bx + r, by + r), fill=theme.DEALER)
        text.draw_centered(
            draw,
            (bx - r, by - r, bx + r, by + r + 1),
            tr("D"),
            text.font(18, bold=True),
            theme.HEADER,
        )
        layout.dealer_badge = (bx - r, by - r, bx + r, by + r)
    name_w = box[2] - x - (46 if view.dealer == seat else 12)
    shown, fnt = text.fit_name(name, 26, name_w, fallback=name, min_size=18)
    ny = box[1] + 27
    draw.text((x, ny), shown, font=fnt, fill=theme.INK, anchor="lm")
    nb = draw.textbbox((x, ny), shown, font=fnt, anchor="lm")
    layout.names[seat] = (int(nb[0]), int(nb[1]), int(nb[2]), int(nb[3]))
    layout.shown_names[seat] = shown

    # Second line: the cards held (backs), then what this seat said or holds.
    held = view.hand_sizes[seat] if getattr(view, "hand_sizes", None) else 0
    by = box[3] - 34
    bw = BACK_W
    for i in range(held):
        back = cards.back(bw)
        img.paste(back, (x + i * 9, by), back)
    x2 = x + (max(held, 1) - 1) * 9 + bw + 12
    small = text.font(16, bold=True)
    tags: list[tuple[str, tuple[int, int, int], tuple[int, int, int]]] = []
    if contract is not None and contract.taker == seat:
        tags.append((tr("Taker"), theme.GOLD, theme.HEADER))
    if belote:
        tags.append((tr("Belote"), (250, 250, 250), theme.HEADER))
    if melds:
        tags.append((tr("Melds {points}").format(points=melds), (150, 210, 255), theme.HEADER))
    if contract is None and bid is not None:
        words, suit = bid_words(bid, tr)
        if suit is not None:
            size = 26
            paint.contract_mark(
                img,
                draw,
                (x2, by + 1),
                suit,
                size,
                four_colour=four_colour,
                ink=theme.INK,
                no_trump="",
                all_trump="",
            )
            x2 += size + 8
        else:
            tags.append((words, (90, 100, 110), theme.INK))
    for label, fill, ink in tags:
        w = paint.pill_width(label, small, 8)
        if x2 + w > box[2] - 8:
            break
        paint.pill(draw, (x2, by + 1, x2 + w, by + 27), fill, label, small, ink)
        x2 += w + 6


def _match_over(
    draw: ImageDraw.ImageDraw, view: Any, shown: list[str], tr: Callable[[str], str]
) -> None:
    """A banner in the middle naming the winning team (the higher score: a match never
    ends level)."""
    scores = view.scores
    team = 0 if scores[0] > scores[1] else 1
    box = (CX - 200, CY - 60, CX + 200, CY + 60)
    paint.panel(draw, box, fill=theme.HEADER, edge=theme.TEAM[team], width=4)
    title = text.font(30, bold=True)
    draw.text((CX, CY - 22), tr("Match over"), font=title, fill=theme.GOLD, anchor="mm")
    winners = tr("Won by {team}").format(team=text.pair(tr, shown[team], shown[team + 2]))
    winners, fnt = text.fit_name(winners, 22, 370, fallback=winners, min_size=16)
    draw.text((CX, CY + 24), winners, font=fnt, fill=theme.TEAM[team], anchor="mm")


def _last_trick(
    img: Image.Image,
    draw: ImageDraw.ImageDraw,
    layout: TableLayout,
    trick: Any,
    bottom: int,
    shown: list[str],
    four_colour: bool,
    tr: Callable[[str], str],
) -> None:
    """The last trick in the bottom-left corner: four small cards, the winner's ringed."""
    w, h = MINI_W, cards.card_size(MINI_W)[1]
    n = len(trick.cards)
    box = (24, HEIGHT - h - 74, 24 + 16 + n * (w + 8) + 8, HEIGHT - 20)
    paint.panel(draw, box, fill=theme.FELT_DARK)
    fnt = text.font(17, bold=True)
    draw.text((box[0] + 12, box[1] + 16), tr("Last trick"), font=fnt, fill=theme.INK, anchor="lm")
    tiny = text.font(14)
    for i, (seat, card) in enumerate(trick.cards):
        x = box[0] + 12 + i * (w + 8)
        y = box[1] + 32
        if seat == trick.winner:
            draw.rounded_rectangle(
                (x - 4, y - 4, x + w + 3, y + h + 3), 8, outline=theme.WINNER, width=3
            )
        cbox = paint.paste_card(img, cards.face(card, w, four_colour), (x, y), with_shadow=False)
        layout.last_trick.append((seat, card, cbox))
        initial = text.fit(shown[seat], tiny, w + 6)
        draw.text(
            (x + w // 2, y + h + 12),
            initial,
            font=tiny,
            fill=theme.WINNER if seat == trick.winner else theme.INK_DIM,
            anchor="mm",
        )


def render_table(
    view: Any,
    *,
    table_id: str,
    names: Sequence[str],
    time_left: float | None = None,
    show_last_trick: bool = False,
    four_colour: bool = False,
    tr: Callable[[str], str] = text.no_translation,
) -> bytes:
    """PNG bytes of the table as ``view`` sees it (use a spectator's view for the channel)."""
    img, _ = compose_table(
        view,
        table_id=table_id,
        names=names,
        time_left=time_left,
        show_last_trick=show_last_trick,
        four_colour=four_colour,
        tr=tr,
    )
    return encode.png(img)
