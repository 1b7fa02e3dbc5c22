"""The full-screen status line at 80x24: one line for every ruleset, every language and
every name a seat may carry (the lobby cuts none; Telegram's full names reach 129
characters), so the table below it never moves down."""

from __future__ import annotations

from dataclasses import replace

import pytest
from rich.cells import cell_len

from adapters.console.tui import TableTui
from engine import RULESETS
from tests.console.test_tui import ME, start_game
from tests.console.test_tui_deal import SMALL, drawn

NAMES = [
    "B",
    "Bruno",
    "Bruno Bernardo",
    "Bruno" + "x" * 27,  # Discord's 32
    "Bruno " + "Alexandrovich" * 9,  # past a Telegram full name
    "Брунo Тодоров-Константинов Шишманов-Драгомиров Петров",
    "李" * 40,  # wide characters: two cells each
    "Bruno\x1b[2J\u202e" + "y" * 50,  # escapes written out, and so longer
]


@pytest.mark.parametrize("ruleset", list(RULESETS))
async def test_the_status_line_fits_80_columns_whoever_is_to_play(tmp_path, ruleset):
    tui = TableTui(ME, "en")
    async with tui.run_test(size=SMALL) as pilot:
        game = await start_game(tmp_path, tui, ruleset=ruleset)
        try:
            assert await game.my_turn(pilot)
            base = game.view
            other = next(s.number for s in base.seats if s.number != base.my_seat)
            for locale in ("en", "fr", "bg"):
                tui.locale = locale
                for name in NAMES:
                    seats = tuple(
                        replace(s, name=name, label=name) if s.number == other else s
                        for s in base.seats
                    )
                    for trump, timer, left in (("NT", 0.0, None), ("H", 60.0, 59.0)):
                        tui.view = replace(
                            base,
                            seats=seats,
                            to_move=other,
                            deal=128,
                            trump=trump,
                            scores=(12345, 9876),
                            target=100_000,
                            timer=timer,
                            seconds_left=left,
                        )
                        tui.draw_status()
                        await pilot.pause()
                        lines = [line for line in drawn(tui, "#status") if line.strip()]
                        case = (ruleset, locale, name, trump)
                        assert len(lines) == 1, (case, lines)
                        assert cell_len(lines[0]) <= 80, (case, lines)
                        assert "12345" in lines[0] and "9876" in lines[0], (case, lines)
                        assert name[0] in lines[0], (case, lines)  # whose turn stays
        finally:
            await game.app.stop()
