"""The full-screen table through a whole deal at 80x24, as a person reads it: what the
prompt offers when a meld is in hand, the player's own seat, the log's order at the end of
a deal, and the deal's score left on screen while the next deal's auction goes on."""

from __future__ import annotations

import re

from textual.geometry import Region
from textual.widgets import Static

from adapters.console.tui import TableTui
from adapters.console.tui import cards as cards_text
from tests.console.test_tui import ME, Game, start_game, type_line

SMALL = (80, 24)


async def next_turn(game: Game, pilot) -> None:
    """Play the player's turn the plain way: take (or the first bid), or the card Enter
    plays."""
    v = game.view
    if v.phase == "auction":
        word = "take" if any(c.typed == "take" for c in v.choices) else v.choices[0].typed
        await type_line(pilot, word)
    else:
        await pilot.press("enter")


def drawn(tui: TableTui, widget: str) -> list[str]:
    """A widget's lines as the terminal shows them, wrapped to its width."""
    w = tui.query_one(widget)
    strips = w.render_lines(Region(0, 0, w.size.width, w.size.height))
    return ["".join(seg.text for seg in strip).rstrip() for strip in strips]


def screen_text(tui: TableTui) -> str:
    """Every line drawn outside the log pane, as the player reads it."""
    return "\n".join(str(w.render()) for w in tui.query(Static) if w.id != "log")


async def test_a_meld_in_hand_is_offered_once_beside_the_cards(tmp_path):
    tui = TableTui(ME, "en")
    async with tui.run_test(size=SMALL) as pilot:
        game = await start_game(tmp_path, tui)
        try:
            for _ in range(80):  # the seeded deals give the player a meld in deal 4
                assert await game.my_turn(pilot)
                if any(c.typed.endswith(" nomelds") for c in game.view.choices):
                    break
                await next_turn(game, pilot)
            v = game.view
            assert any(c.typed.endswith(" nomelds") for c in v.choices), "no meld came"
            prompt = game.shown("#prompt")
            offered = next(line for line in prompt.split("\n") if line.startswith("▶ You may:"))
            assert "nomelds" not in offered, prompt  # each card once
            shown = sorted(_symbols(c) for c in v.legal_cards)
            assert sorted(offered.removeprefix("▶ You may: ").split(", ")) == shown, prompt
            hints = [line for line in prompt.split("\n") if "nomelds" in line]
            assert len(hints) == 1, prompt  # said once, beside the list
            before = len(v.hand)
            card = sorted(v.legal_cards)[0]
            await type_line(pilot, f"{card} nomelds")  # still typed the long way
            await pilot.pause(0.1)
            assert len(game.view.hand) == before - 1, game.shown("#prompt")
            assert not re.search(r"ana \(team B\) shows", game.log_text())  # kept to herself
        finally:
            await game.app.stop()


async def test_the_players_own_seat_says_you_once(tmp_path):
    tui = TableTui("console:you", "en")  # `belote` with no $USER: the name is "you"
    async with tui.run_test(size=SMALL) as pilot:
        game = await start_game(tmp_path, tui, name="you")
        try:
            assert await game.my_turn(pilot)
            seat = game.shown("#seat-south")
            assert seat.split("\n")[0] == "you", seat
            assert "you (you)" not in screen_text(tui)
        finally:
            await game.app.stop()


async def test_a_deals_result_comes_after_its_last_trick_and_stays_on_screen(tmp_path):
    tui = TableTui(ME, "en")
    async with tui.run_test(size=SMALL) as pilot:
        game = await start_game(tmp_path, tui)
        try:
            while game.view.deal == 1:
                assert await game.my_turn(pilot)
                if game.view.deal == 1:
                    await next_turn(game, pilot)
            # the next deal came with no key pressed: nothing waits for the player
            assert await game.my_turn(pilot)
            log = game.tui.logged
            last = next(i for i, line in enumerate(log) if line.startswith("Trick 8:"))
            head = next(i for i, line in enumerate(log) if re.match(r"Deal 1: .*taken by", line))
            assert last < head, "\n".join(log[last - 2 : head + 3])
            assert sum(line.startswith("Trick 8:") for line in log) == 1  # not twice
            # the deal's score on the table while the next auction goes on
            assert game.view.deal == 2 and game.view.phase == "auction"
            shown = screen_text(tui)
            assert re.search(r"Deal 1: .*taken by ana", shown), shown
            assert re.search(r"team A [+-]?\d+, team B [+-]?\d+", shown), shown
            pane = drawn(tui, "#log")  # the log still shows its newest line
            assert any("Deal 2, dealer" in line for line in pane), "\n".join(pane)
            while game.view.phase == "auction" or not (
                game.view.trick or any(game.view.tricks_taken)
            ):
                assert await game.my_turn(pilot)
                await next_turn(game, pilot)
                await pilot.pause(0.1)
            assert "Deal 1:" not in screen_text(tui)  # gone once the next deal is played
        finally:
            await game.app.stop()


async def test_the_trick_is_drawn_whole_on_a_small_screen(tmp_path):
    tui = TableTui(ME, "en")
    async with tui.run_test(size=SMALL) as pilot:
        game = await start_game(tmp_path, tui)
        try:
            for _ in range(20):  # a trick with cards on both sides of the player
                assert await game.my_turn(pilot)
                v = game.view
                if v.phase == "play" and len(v.trick) >= 2:
                    break
                await next_turn(game, pilot)
            lines = drawn(tui, "#trick")
            for p in v.trick:  # each card whole on one line, not broken over two
                assert any(_symbols(p.card) in line for line in lines), "\n".join(lines)
            a, b = v.tricks_taken
            lines = drawn(tui, "#tricks")  # and the tricks taken, "A 1 – B 0" on one line
            assert any(f"A {a} – B {b}" in line for line in lines), "\n".join(lines)
        finally:
            await game.app.stop()


def _symbols(card: str) -> str:
    suit = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}[card[1]]
    return ("10" if card[0] == "T" else card[0]) + suit


async def test_the_log_keeps_its_newest_line_in_view_when_the_table_takes_its_rows():
    tui = TableTui(ME, "en")
    async with tui.run_test(size=SMALL) as pilot:
        for n in range(40):
            tui.notice(f"line {n}")
        await pilot.pause(0.1)
        assert any("line 39" in line for line in drawn(tui, "#log"))
        tui.ask("Type on to go on, or new for a new table with your options.")
        tui.refused = cards_text("A refusal, long enough to take a second line " * 2)
        tui.refresh_soon()
        await pilot.pause(0.1)
        assert tui.query_one("#log").size.height < 18  # the lines under it took rows
        pane = drawn(tui, "#log")
        assert any("line 39" in line for line in pane), "\n".join(pane)
