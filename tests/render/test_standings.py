"""Standings: places, points, tie-breaks, medals, a cut for long tables."""

from __future__ import annotations

from bot.show.render import StandingRow, render_standings, samples, standings, theme
from bot.show.render.standings import compose_standings, number
from tests.render.helpers import close, decode


def test_picture_has_one_row_per_player_and_medals_for_the_top_three():
    rows = samples.standings_rows()
    data = render_standings(samples.STANDINGS_TITLE, rows, tie_break_names=samples.TIE_BREAKS)
    img = decode(data)
    assert img.format == "PNG" and img.width == standings.WIDTH
    assert img.height == standings.HEADER_H + standings.HEAD_ROW + standings.ROW_H * len(rows) + 24
    img, layout = compose_standings(
        samples.STANDINGS_TITLE, rows, tie_break_names=samples.TIE_BREAKS
    )
    assert [p for p, _, _ in layout.rows] == [r.place for r in rows]
    assert [n for _, n, _ in layout.rows] == [r.name for r in rows]
    for place, _, box in layout.rows:
        mid = (box[1] + box[3]) // 2
        px = img.getpixel((40 - 12, mid))  # inside the medal disc, left of the digit
        if place in standings.MEDALS:
            assert close(px, standings.MEDALS[place], 10), place
        else:
            assert not any(close(px, m, 30) for m in (theme.GOLD, theme.SILVER, theme.BRONZE))


def test_long_tables_are_cut():
    rows = [StandingRow(i + 1, f"Player {i + 1}", 100 - i) for i in range(55)]
    img, layout = compose_standings("Ladder", rows)
    assert len(layout.rows) == standings.MAX_ROWS
    assert img.height < 2400


def test_empty_table():
    img, layout = compose_standings("Ladder", [])
    assert layout.rows == [] and img.height > standings.HEADER_H


def test_rows_may_be_dicts():
    rows = [{"place": 1, "name": "Ана", "points": 3.5, "tie_breaks": [2]}]
    _, layout = compose_standings("Cup", rows, tie_break_names=["SB"])
    assert layout.rows[0][1] == "Ана"


def test_numbers():
    assert (
        number(3.0) == "3" and number(2.5) == "2.5" and number(12) == "12" and number(None) == "–"
    )
    assert number(27.25) == "27.25"
