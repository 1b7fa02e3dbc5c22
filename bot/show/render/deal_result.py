"""The result of a deal: each team's points by source, the outcome, the match score.

The rows add up to the totals the engine compared (``DealResult.totals``): card points
less the last trick, the last trick (both doubled in No Trump), belote, melds, capot.
The scored line is what went on the match sheet (tens in Bulgarian).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from PIL import Image, ImageDraw

from bot.show.render import encode, paint, text, theme
from bot.show.render.history import last_trick_team
from bot.show.render.views import bid_value_word, doubling_word, get

WIDTH = 900
HEADER_H = 70
ROW_H = 44
COL_LABEL = 40
COL_TEAM = (460, 720)  # centres of the two team columns
CAPOT_BONUS = 90  # 252 - 162 in the French rulesets, +90 in Bulgarian

OUTCOME_COLOURS = {
    "made": theme.GOOD,
    "set": theme.BAD,
    "dispute": theme.WARN,
    "hanging": theme.WARN,
}


@dataclass
class ResultLayout:
    size: tuple[int, int]
    rows: dict[str, tuple[int, int]] = field(default_factory=dict)  # label -> both values


def result_rows(result: Any, last_team: int | None) -> list[tuple[str, tuple[int, int]]]:
    """(source, (team 0, team 1)) rows that sum to ``result.totals``."""
    contract = get(result, "contract")
    trump = get(contract, "trump")
    factor = 2 if trump == "NT" and get(contract, "bid") is None else 1  # Coinche: 162 already
    cards = list(get(result, "card_points"))
    tricks = get(result, "tricks")
    capot = get(result, "capot")
    last = [0, 0]
    if capot is not None:
        last_team = capot
    if last_team is not None:
        last[last_team] = 10
        cards[last_team] -= 10
    capot_row = [0, 0]
    if capot is not None:
        capot_row[capot] = CAPOT_BONUS
    elif tricks is not None and 0 in tricks:  # defensive: capot seen from the tricks
        t = 0 if tricks[1] == 0 else 1
        capot_row[t] = CAPOT_BONUS
    rows = [
        ("Cards", (cards[0] * factor, cards[1] * factor)),
        ("Last trick", (last[0] * factor, last[1] * factor)),
        ("Belote", tuple(get(result, "belotes"))),
        ("Melds", tuple(get(result, "melds"))),
        ("Capot", tuple(capot_row)),
    ]
    if last_team is None:
        rows.pop(1)
        rows[0] = ("Cards and last trick", rows[0][1])
    return rows


def compose_deal_result(
    result: Any,
    names: Sequence[str],
    *,
    record: Any = None,
    target: int | None = None,
    table_id: str | None = None,
    ruleset: str | None = None,
    four_colour: bool = False,
    tr: Callable[[str], str] = text.no_translation,
) -> tuple[Image.Image, ResultLayout]:
    shown = [text.clean_name(n, tr("Seat {seat}").format(seat=i + 1)) for i, n in enumerate(names)]
    rows = result_rows(result, last_trick_team(record) if record is not None else None)
    totals = tuple(get(result, "totals"))
    points = tuple(get(result, "points"))
    held = get(result, "held", 0) or 0
    paid = tuple(get(result, "paid", (0, 0)) or (0, 0))
    scores = tuple(get(result, "scores"))
    extra = (1 if any(paid) else 0) + (1 if held else 0)
    height = HEADER_H + 64 + ROW_H * (len(rows) + 2 + extra) + 150
    accent = theme.accent_for(table_id) if table_id else theme.GOLD
    img = Image.new("RGB", (WIDTH, height), theme.FELT_DARK)
    draw = ImageDraw.Draw(img)
    layout = ResultLayout(size=img.size)

    # Header: deal number, contract and its team, the outcome.
    draw.rectangle((0, 0, WIDTH, HEADER_H), fill=theme.HEADER)
    draw.rectangle((0, HEADER_H - 3, WIDTH, HEADER_H), fill=accent)
    title = text.font(28, bold=True)
    contract = get(result, "contract")
    k = get(result, "k", 0)
    label = tr("Deal {number}").format(number=k + 1)
    if table_id:
        label = tr("Table {table_id} · deal {number}").format(table_id=table_id, number=k + 1)
    label = text.fit(label, title, 360)
    draw.text((24, HEADER_H // 2), label, font=title, fill=theme.HEADER_INK, anchor="lm")
    x = 24 + text.text_width(label, title) + 20
    if get(contract, "bid") is not None:  # Coinche: the value bid, before the trump
        value = bid_value_word(get(contract, "bid"), tr)
        draw.text((x, HEADER_H // 2), value, font=title, fill=theme.HEADER_INK, anchor="lm")
        x += text.text_width(value, title) + 10
    x = (
        paint.contract_mark(
            img,
            draw,
            (x, HEADER_H // 2 - 17),
            get(contract, "trump"),
            34,
            four_colour=four_colour,
            ink=theme.HEADER_INK,
            no_trump=tr("No trump"),
            all_trump=tr("All trump"),
        )
        + 12
    )
    mult = get(contract, "multiplier", 1)
    small_bold = text.font(20, bold=True)
    if mult > 1:
        dbl = doubling_word(contract, tr)
        w = paint.pill_width(dbl, small_bold, 10)
        paint.pill(
            draw,
            (x, HEADER_H // 2 - 15, x + w, HEADER_H // 2 + 15),
            theme.BAD,
            dbl,
            small_bold,
            (255, 255, 255),
        )
        x += w + 10
    outcome = get(result, "outcome", "made")
    words = {
        "made": tr("Made"),
        "set": tr("Set"),
        "dispute": tr("Dispute"),
        "hanging": tr("Hanging"),
    }.get(outcome, outcome)
    big = text.font(24, bold=True)
    w = paint.pill_width(words, big, 16)
    paint.pill(
        draw,
        (WIDTH - 24 - w, 14, WIDTH - 24, HEADER_H - 14),
        OUTCOME_COLOURS.get(outcome, theme.WARN),
        words,
        big,
        theme.HEADER,
    )

    # The taker's team, then the column heads (team colour and names).
    taker = get(contract, "taker", 0)
    y = HEADER_H + 30
    sub = text.font(20)
    takers = tr("Contract taken by {name}").format(name=shown[taker])
    takers = text.fit(takers, text.font_for(takers, 20), WIDTH - 48)
    draw.text((24, y), takers, font=text.font_for(takers, 20), fill=theme.INK_DIM, anchor="lm")
    y += 40
    for team in (0, 1):
        cx = COL_TEAM[team]
        pair = text.pair(tr, shown[team], shown[team + 2])
        pair, fnt = text.fit_name(pair, 20, 236, fallback=pair)
        if team == taker % 2:  # the taking team's head gets a gold ring
            draw.rounded_rectangle(
                (cx - 130, y - 24, cx + 130, y + 24), 12, outline=theme.GOLD, width=3
            )
        draw.rounded_rectangle((cx - 124, y - 18, cx + 124, y + 18), 8, fill=theme.TEAM[team])
        text.draw_centered(draw, (cx - 124, y - 18, cx + 124, y + 18), pair, fnt, (255, 255, 255))
    y += 20

    body = text.font(22)
    num = text.font(24, bold=True)

    def row(
        label: str,
        values: tuple[int, int],
        *,
        strong: bool = False,
        shade: bool = False,
        signed: bool = False,
    ) -> None:
        nonlocal y
        top = y + 4
        if shade:
            draw.rounded_rectangle((16, top, WIDTH - 16, top + ROW_H - 4), 8, fill=theme.PANEL)
        mid = top + (ROW_H - 4) // 2
        fnt = text.font(22, bold=True) if strong else body
        draw.text((COL_LABEL, mid), tr(label), font=fnt, fill=theme.INK, anchor="lm")
        for team in (0, 1):
            v = values[team]
            shown_v = ("+" if signed and v > 0 else "") + str(v) if v else "–"
            draw.text(
                (COL_TEAM[team], mid),
                shown_v,
                font=num if strong else body,
                fill=theme.INK if v else theme.INK_DIM,
                anchor="mm",
            )
        layout.rows[label] = (values[0], values[1])
        y += ROW_H

    for i, (label, values) in enumerate(rows):
        row(label, values, shade=i % 2 == 0)
    draw.line((24, y + 2, WIDTH - 24, y + 2), fill=theme.PANEL_EDGE, width=2)
    row("Total", totals, strong=True)
    if any(paid):
        row("Held points paid", paid, signed=True)
    row(
        "Scored (in tens)" if ruleset == "bulgarian" else "Scored",
        points,
        strong=True,
        shade=True,
        signed=True,
    )
    if held:
        hang = tr("{points} points held for the winner of the next deal").format(points=held)
        draw.text((COL_LABEL, y + 22), hang, font=sub, fill=theme.WARN, anchor="lm")
        y += ROW_H

    # The match score, before and after, with progress towards the target.
    y += 20
    draw.text(
        (COL_LABEL, y + 20), tr("Match"), font=text.font(24, bold=True), fill=theme.INK, anchor="lm"
    )
    before = (scores[0] - points[0] - paid[0], scores[1] - points[1] - paid[1])
    for team in (0, 1):
        cx = COL_TEAM[team]
        draw.text(
            (cx, y + 20),
            str(scores[team]),
            font=text.font(30, bold=True),
            fill=theme.TEAM[team],
            anchor="mm",
        )
        draw.text(
            (cx, y + 50),
            tr("was {points}").format(points=before[team]),
            font=text.font(17),
            fill=theme.INK_DIM,
            anchor="mm",
        )
        if target:
            bar = (cx - 100, y + 70, cx + 100, y + 80)
            draw.rounded_rectangle(bar, 5, fill=theme.PANEL)
            filled = max(0.0, min(1.0, scores[team] / target))
            if filled > 0:
                draw.rounded_rectangle(
                    (bar[0], bar[1], bar[0] + max(10, round(200 * filled)), bar[3]),
                    5,
                    fill=theme.TEAM[team],
                )
    if target:
        draw.text(
            (COL_LABEL, y + 75),
            tr("to {target}").format(target=target),
            font=text.font(17),
            fill=theme.INK_DIM,
            anchor="lm",
        )
    layout.rows["Match"] = (scores[0], scores[1])
    return img, layout


def render_deal_result(
    result: Any,
    names: Sequence[str],
    *,
    record: Any = None,
    target: int | None = None,
    table_id: str | None = None,
    ruleset: str | None = None,
    four_colour: bool = False,
    tr: Callable[[str], str] = text.no_translation,
) -> bytes:
    """PNG bytes of a finished deal. ``result`` is a ``DealResult`` (or its event dict);
    give the deal's ``record`` to split the last trick from the cards."""
    img, _ = compose_deal_result(
        result,
        names,
        record=record,
        target=target,
        table_id=table_id,
        ruleset=ruleset,
        four_colour=four_colour,
        tr=tr,
    )
    return encode.png(img)
