"""Standings: a tournament's or a ladder's table of places, points and tie-breaks."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from PIL import Image, ImageDraw

from bot.show.render import encode, text, theme
from bot.show.render.views import get

WIDTH = 900
HEADER_H = 70
HEAD_ROW = 44
ROW_H = 46
MAX_ROWS = 40  # a longer table is cut with "and N more"; page it if you need all of it
MEDALS = {1: theme.GOLD, 2: theme.SILVER, 3: theme.BRONZE}


@dataclass(frozen=True)
class StandingRow:
    """One line of a table: ``tie_breaks`` in the order of the ``tie_break_names``."""

    place: int
    name: str
    points: float
    tie_breaks: tuple[float, ...] = ()
    played: int | None = None


@dataclass
class StandingsLayout:
    size: tuple[int, int]
    rows: list[tuple[int, str, tuple[int, int, int, int]]] = field(default_factory=list)


def number(value: float | int | None) -> str:
    """12 -> "12", 2.5 -> "2.5", 3.0 -> "3", None -> "–"."""
    if value is None:
        return "–"
    if isinstance(value, float):
        return str(int(value)) if value.is_integer() else f"{value:.2f}".rstrip("0")
    return str(value)


def compose_standings(
    title: str,
    rows: Sequence[Any],
    *,
    tie_break_names: Sequence[str] = (),
    subtitle: str | None = None,
    highlight: str | None = None,
    tr: Callable[[str], str] = text.no_translation,
) -> tuple[Image.Image, StandingsLayout]:
    shown_rows = list(rows[:MAX_ROWS])
    more = len(rows) - len(shown_rows)
    has_played = any(get(r, "played") is not None for r in shown_rows)
    height = HEADER_H + HEAD_ROW + ROW_H * max(1, len(shown_rows)) + (ROW_H if more else 0) + 24
    img = Image.new("RGB", (WIDTH, height), theme.FELT_DARK)
    draw = ImageDraw.Draw(img)
    layout = StandingsLayout(size=img.size)
    draw.rectangle((0, 0, WIDTH, HEADER_H), fill=theme.HEADER)
    draw.rectangle((0, HEADER_H - 3, WIDTH, HEADER_H), fill=theme.GOLD)
    title_font = text.font_for(title, 28, True)
    draw.text(
        (24, HEADER_H // 2),
        text.fit(text.clean_name(title, tr("Standings")), title_font, 560),
        font=title_font,
        fill=theme.HEADER_INK,
        anchor="lm",
    )
    if subtitle:
        sub = text.font_for(subtitle, 20)
        draw.text(
            (WIDTH - 24, HEADER_H // 2),
            text.fit(subtitle, sub, 280),
            font=sub,
            fill=theme.INK_DIM,
            anchor="rm",
        )

    # Columns from the right: tie-breaks, points, games played; the name takes the rest.
    num_cols: list[tuple[str, int]] = []
    x = WIDTH - 24
    for name in reversed(list(tie_break_names)):
        num_cols.insert(0, (name, x - 55))
        x -= 110
    num_cols.insert(0, (tr("Points"), x - 60))
    x -= 120
    if has_played:
        num_cols.insert(0, (tr("Played"), x - 50))
        x -= 100
    name_right = x - 10
    y = HEADER_H + HEAD_ROW // 2 + 4
    head = text.font(18, bold=True)
    draw.text((40, y), "#", font=head, fill=theme.INK_DIM, anchor="mm")
    draw.text((80, y), tr("Player"), font=head, fill=theme.INK_DIM, anchor="lm")
    for label, cx in num_cols:
        draw.text((cx, y), text.fit(label, head, 104), font=head, fill=theme.INK_DIM, anchor="mm")

    body = text.font(22)
    strong = text.font(24, bold=True)
    y = HEADER_H + HEAD_ROW
    if not shown_rows:
        draw.text(
            (WIDTH // 2, y + ROW_H // 2),
            tr("No results yet"),
            font=body,
            fill=theme.INK_DIM,
            anchor="mm",
        )
    for i, r in enumerate(shown_rows):
        place = int(get(r, "place"))
        name = str(get(r, "name"))
        box = (16, y + 3, WIDTH - 16, y + ROW_H - 3)
        if highlight is not None and name == highlight:
            draw.rounded_rectangle(box, 8, fill=(40, 80, 120))
        elif i % 2 == 0:
            draw.rounded_rectangle(box, 8, fill=theme.PANEL)
        mid = y + ROW_H // 2
        if place in MEDALS:
            draw.ellipse((40 - 16, mid - 16, 40 + 16, mid + 16), fill=MEDALS[place])
            text.draw_centered(
                draw,
                (24, mid - 16, 56, mid + 16),
                str(place),
                text.font(18, bold=True),
                theme.HEADER,
            )
        else:
            draw.text(
                (40, mid), str(place), font=text.font(20, bold=True), fill=theme.INK, anchor="mm"
            )
        shown, fnt = text.fit_name(name, 22, name_right - 80, bold=False, fallback="?")
        draw.text((80, mid), shown, font=fnt, fill=theme.INK, anchor="lm")
        values: list[float | int | None] = []
        if has_played:
            values.append(get(r, "played"))
        values.append(get(r, "points"))
        breaks = list(get(r, "tie_breaks", ()) or ())
        values.extend(
            breaks[: len(tie_break_names)] + [None] * (len(tie_break_names) - len(breaks))
        )
        for (label, cx), value in zip(num_cols, values, strict=True):
            is_points = label == tr("Points")
            draw.text(
                (cx, mid),
                number(value),
                font=strong if is_points else body,
                fill=theme.INK if is_points else theme.INK_DIM,
                anchor="mm",
            )
        layout.rows.append((place, shown, box))
        y += ROW_H
    if more:
        draw.text(
            (WIDTH // 2, y + ROW_H // 2),
            tr("and {count} more").format(count=more),
            font=body,
            fill=theme.INK_DIM,
            anchor="mm",
        )
    return img, layout


def render_standings(
    title: str,
    rows: Sequence[Any],
    *,
    tie_break_names: Sequence[str] = (),
    subtitle: str | None = None,
    highlight: str | None = None,
    tr: Callable[[str], str] = text.no_translation,
) -> bytes:
    """PNG bytes of a standings table. ``rows`` are ``StandingRow``s (or objects or dicts
    with ``place``, ``name``, ``points``, ``tie_breaks`` and optionally ``played``),
    already sorted; ``highlight`` shades the row of that name."""
    img, _ = compose_standings(
        title, rows, tie_break_names=tie_break_names, subtitle=subtitle, highlight=highlight, tr=tr
    )
    return encode.png(img)
