"""A replay: an animated GIF of a whole deal, card by card, every hand shown.

Only for a finished deal (its record holds all four hands). One frame per card played,
a longer pause on each completed trick with its winner ringed, and a last frame with the
points. GIF because every chat shows it inline (Telegram turns it into a looping clip);
frames share one palette taken from the first frame, which holds every card.
"""

from __future__ import annotations

import io
from collections.abc import Callable, Sequence
from typing import Any

from PIL import Image, ImageDraw

from bot.show.render import cards, paint, text, theme
from bot.show.render.history import Play, tricks_of
from bot.show.render.order import sort_hand
from bot.show.render.views import bid_value_word
from engine import card_points
from engine.core import COINCHE_POINTS

WIDTH, HEIGHT = 1000, 760
HEADER_H = 70
MINI_W = 54
MINI_H = cards.card_size(MINI_W)[1]
TRICK_W = 92
TRICK_H = cards.card_size(TRICK_W)[1]
CX, CY = WIDTH // 2, HEADER_H + (HEIGHT - HEADER_H) // 2
TRICK_OFFSETS = ((0, 70), (110, 0), (0, -70), (-110, 0))
CARD_MS, TRICK_MS, START_MS, END_MS = 700, 1600, 2500, 5000


def _hand_origin(place: int, count: int) -> list[tuple[int, int]]:
    """Top-left corners of a seat's cards: a row at the bottom and top, 2 x 4 at the sides."""
    step = MINI_W + 6
    if place in (0, 2):
        row_w = count * step - 6
        x0 = CX - row_w // 2
        y = HEIGHT - MINI_H - 20 if place == 0 else HEADER_H + 52
        return [(x0 + i * step, y) for i in range(count)]
    x0 = 24 if place == 3 else WIDTH - 24 - (4 * step - 6)
    y0 = CY - MINI_H - 3
    return [(x0 + (i % 4) * step, y0 + (i // 4) * (MINI_H + 6)) for i in range(count)]


def _name_anchor(place: int) -> tuple[int, int, str]:
    if place == 0:
        return CX, HEIGHT - MINI_H - 44, "mm"
    if place == 2:
        return CX, HEADER_H + 28, "mm"
    x = 24 if place == 3 else WIDTH - 24
    return x, CY - MINI_H - 30, "lm" if place == 3 else "rm"


def _frame(
    base: Image.Image,
    hands: list[list[int]],
    trick: Sequence[Play],
    winner: int | None,
    to_move: int | None,
    note: dict[int, str],
    shown: list[str],
    status: str,
    four_colour: bool,
) -> Image.Image:
    img = base.copy()
    draw = ImageDraw.Draw(img)
    for seat in range(4):
        place = seat  # seat 0 at the bottom, counter-clockwise
        for card, xy in zip(hands[seat], _hand_origin(place, len(hands[seat])), strict=True):
            paint.paste_card(img, cards.face(card, MINI_W, four_colour), xy, with_shadow=False)
        x, y, anchor = _name_anchor(place)
        fnt = text.font_for(shown[seat], 22, True)
        label = shown[seat] + (f"  · {note[seat]}" if seat in note else "")
        fnt = text.font_for(label, 22, True)
        label = text.fit(label, fnt, 420)
        bbox = draw.textbbox((x, y), label, font=fnt, anchor=anchor)
        pad = (12, 6)
        ring = (bbox[0] - pad[0], bbox[1] - pad[1], bbox[2] + pad[0], bbox[3] + pad[1])
        fill = theme.TEAM[seat % 2]
        draw.rounded_rectangle(ring, 10, fill=fill)
        if seat in (winner, to_move):
            draw.rounded_rectangle(
                (ring[0] - 4, ring[1] - 4, ring[2] + 4, ring[3] + 4),
                12,
                outline=theme.WINNER,
                width=4,
            )
        draw.text((x, y), label, font=fnt, fill=(255, 255, 255), anchor=anchor)
    for play in trick:
        dx, dy = TRICK_OFFSETS[play.seat]
        xy = (CX + dx - TRICK_W // 2, CY + dy - TRICK_H // 2)
        if play.seat == winner:
            draw.rounded_rectangle(
                (xy[0] - 5, xy[1] - 5, xy[0] + TRICK_W + 4, xy[1] + TRICK_H + 4),
                12,
                outline=theme.WINNER,
                width=4,
            )
        paint.paste_card(img, cards.face(play.card, TRICK_W, four_colour), xy)
    draw.text(
        (WIDTH - 24, HEADER_H // 2),
        status,
        font=text.font(22, bold=True),
        fill=theme.HEADER_INK,
        anchor="rm",
    )
    return img


def compose_replay(
    record: Any,
    names: Sequence[str],
    *,
    table_id: str | None = None,
    four_colour: bool = False,
    tr: Callable[[str], str] = text.no_translation,
) -> tuple[list[Image.Image], list[int]]:
    """The replay's frames and their durations (ms)."""
    if len(names) != 4:
        raise ValueError("A replay needs four names, one per seat.")
    shown = [text.clean_name(n, tr("Seat {seat}").format(seat=i + 1)) for i, n in enumerate(names)]
    contract = record.contract
    accent = theme.accent_for(table_id) if table_id else theme.GOLD
    base = Image.new("RGB", (WIDTH, HEIGHT), theme.FELT)
    draw = ImageDraw.Draw(base)
    draw.rectangle((0, 0, WIDTH, HEADER_H), fill=theme.HEADER)
    draw.rectangle((0, HEADER_H - 3, WIDTH, HEADER_H), fill=accent)
    title = text.font(26, bold=True)
    label = tr("Deal {number}").format(number=record.k + 1)
    if table_id:
        label = tr("Table {table_id} · deal {number}").format(
            table_id=table_id, number=record.k + 1
        )
    label = text.fit(label, title, 380)
    draw.text((24, HEADER_H // 2), label, font=title, fill=accent, anchor="lm")
    x = 24 + text.text_width(label, title) + 18
    if contract is None:
        draw.text(
            (x, HEADER_H // 2),
            tr("Redeal: everyone passed"),
            font=text.font(22),
            fill=theme.INK_DIM,
            anchor="lm",
        )
    else:
        x = (
            paint.contract_mark(
                base,
                draw,
                (x, HEADER_H // 2 - 16),
                contract.trump,
                32,
                four_colour=four_colour,
                ink=theme.HEADER_INK,
                no_trump=tr("No trump"),
                all_trump=tr("All trump"),
            )
            + 10
        )
        who = shown[contract.taker]
        if contract.bid is not None:  # Coinche: the value bid before the taker's name
            who = f"{bid_value_word(contract.bid, tr)} · {who}"
        if contract.multiplier > 1:
            coinche = contract.bid is not None
            if contract.multiplier == 2:
                shape = "{name}, coinche" if coinche else "{name}, contre"
            else:
                shape = "{name}, surcoinche" if coinche else "{name}, recontre"
            who = tr(shape).format(name=who)
        fnt = text.font_for(who, 22)
        draw.text(
            (x, HEADER_H // 2),
            text.fit(who, fnt, 300),
            font=fnt,
            fill=theme.HEADER_INK,
            anchor="lm",
        )

    hands = [sort_hand(h, contract.trump if contract else None) for h in record.hands]
    frames: list[Image.Image] = []
    durations: list[int] = []
    lead = (record.dealer + 1) % 4
    frames.append(
        _frame(
            base, hands, (), None, lead if contract else None, {}, shown, tr("Start"), four_colour
        )
    )
    durations.append(START_MS)
    if contract is None:
        return frames, durations
    won = [0, 0]
    tricks = tricks_of(record)
    for n, trick in enumerate(tricks, start=1):
        for i, play in enumerate(trick.plays):
            hands[play.seat] = [c for c in hands[play.seat] if c != play.card]
            note: dict[int, str] = {}
            if play.belote:
                note[play.seat] = tr("Belote")
            elif play.melds:
                note[play.seat] = tr("Melds")
            winner = trick.winner if i == len(trick.plays) - 1 else None
            if winner is not None:  # the trick's last card
                pts = sum(_points(p.card, contract) for p in trick.plays) + (10 if n == 8 else 0)
                won[winner % 2] += pts
                status = tr("Trick {number}: {name} +{points}").format(
                    number=n, name=shown[winner], points=pts
                )
                nxt = None
            else:
                status = tr("Trick {number} of 8").format(number=n)
                nxt = (play.seat + 1) % 4
            frames.append(
                _frame(
                    base,
                    hands,
                    trick.plays[: i + 1],
                    winner,
                    nxt,
                    note,
                    shown,
                    text.fit(status, text.font(22, bold=True), 420),
                    four_colour,
                )
            )
            durations.append(TRICK_MS if winner is not None else CARD_MS)
    empty: list[list[int]] = [[], [], [], []]
    final = _frame(base, empty, (), None, None, {}, shown, tr("Deal over"), four_colour)
    frames.append(_summary(final, record, shown, won, tr))
    durations.append(END_MS)
    return frames, durations


def _summary(
    last: Image.Image, record: Any, shown: list[str], won: list[int], tr: Callable[[str], str]
) -> Image.Image:
    """The last frame: the final trick dimmed under a box with each team's points."""
    img = last.copy()
    draw = ImageDraw.Draw(img)
    box = (CX - 230, CY - 100, CX + 230, CY + 100)
    paint.panel(draw, box, fill=theme.HEADER, edge=theme.GOLD, width=3)
    result = record.result
    outcome = getattr(result, "outcome", None) if result is not None else None
    words = {
        "made": tr("Contract made"),
        "set": tr("Contract set"),
        "dispute": tr("Dispute: points held"),
        "hanging": tr("Points left hanging"),
    }.get(outcome or "", tr("Card points"))
    draw.text((CX, CY - 62), words, font=text.font(30, bold=True), fill=theme.GOLD, anchor="mm")
    totals = getattr(result, "points", None) if result is not None else None
    values = totals if totals is not None else won
    for team in (0, 1):
        y = CY - 10 + team * 48
        pair = text.pair(tr, shown[team], shown[team + 2])
        fnt = text.font_for(pair, 20, True)
        draw.rounded_rectangle((box[0] + 20, y - 18, box[0] + 26, y + 18), 3, fill=theme.TEAM[team])
        draw.text((box[0] + 38, y), text.fit(pair, fnt, 300), font=fnt, fill=theme.INK, anchor="lm")
        draw.text(
            (box[2] - 24, y),
            str(values[team]),
            font=text.font(28, bold=True),
            fill=theme.TEAM[team],
            anchor="rm",
        )
    return img


def render_replay(
    record: Any,
    names: Sequence[str],
    *,
    table_id: str | None = None,
    four_colour: bool = False,
    tr: Callable[[str], str] = text.no_translation,
) -> bytes:
    """GIF bytes replaying a finished deal (a ``DealRecord``). Never call it on a deal in
    progress: it shows every hand."""
    frames, durations = compose_replay(
        record, names, table_id=table_id, four_colour=four_colour, tr=tr
    )
    palette_src = frames[0].quantize(colors=255, method=Image.Quantize.MEDIANCUT)
    paletted = [f.quantize(palette=palette_src, dither=Image.Dither.NONE) for f in frames]
    buf = io.BytesIO()
    paletted[0].save(
        buf,
        "GIF",
        save_all=True,
        append_images=paletted[1:],
        duration=durations,
        loop=0,
        optimize=False,
        disposal=1,
    )
    return buf.getvalue()


def _points(card: int, contract: Any) -> int:
    """A card's points under the deal's contract (Coinche's No Trump and All Trump count
    to 162 by their own table)."""
    if contract.bid is not None:
        return COINCHE_POINTS[contract.code][card]
    return card_points(card, contract.trump)
