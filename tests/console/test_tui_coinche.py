"""A Coinche table in the full-screen terminal, at 80x24: a bid is picked in two steps with
←/→ and Enter (a value, then its contract, as the chat platforms' buttons do) or typed in
the line (``80 C``), the auction on screen shows it, and a bid the rules forbid is refused
with the rule's reason while nothing changes.

The deals are seeded ("tui"): ana (seat 2) speaks first; after her 80 Bruno bids 90 ♠ and
the others pass, so her next turn has 90 ♠ standing.
"""

from __future__ import annotations

from adapters.console.tui import TableTui
from bot.show.i18n import _ as tr
from tests.console.test_tui import ME, Game, start_game, type_line

SMALL = (80, 24)


def bids_row(tui: TableTui) -> list[str]:
    """The labels of the bid buttons under the table, the highlighted one in [brackets]."""
    return [
        f"[{b.label}]" if b.has_class("selected") else str(b.label)
        for b in tui.query("#bids Button")
    ]


async def coinche(tmp_path, tui: TableTui, pilot) -> Game:
    game = await start_game(tmp_path, tui, ruleset="coinche", target=1)
    assert await game.my_turn(pilot)
    assert game.view.ruleset == "coinche" and game.view.phase == "auction"
    return game


async def test_a_bid_is_a_value_then_a_contract_picked_with_the_arrows_and_enter(tmp_path):
    tui = TableTui(ME, "en")
    async with tui.run_test(size=SMALL) as pilot:
        game = await coinche(tmp_path, tui, pilot)
        try:
            assert not game.view.bids  # she speaks first
            values = ["80", "90", "100", "110", "120", "130", "140", "150", "160", "Capot"]
            assert bids_row(tui) == ["[80]", *values[1:], "Pass"]
            # → then Enter: the value 90 is picked, its contracts are offered, the first one
            # highlighted; nothing is sent to the table yet
            await pilot.press("right", "enter")
            await pilot.pause(0.05)
            assert bids_row(tui) == ["[90 ♣]", "90 ♦", "90 ♥", "90 ♠", "◀ Values", "Pass"]
            assert not game.view.bids
            # ← twice goes round to "◀ Values": back to the values
            await pilot.press("left", "left")
            await pilot.pause(0.05)
            assert bids_row(tui)[4] == "[◀ Values]"
            await pilot.press("enter")
            await pilot.pause(0.05)
            assert bids_row(tui) == ["[80]", *values[1:], "Pass"]
            # 80, then → to its diamonds, and Enter bids 80 ♦
            await pilot.press("enter")
            await pilot.pause(0.05)
            assert bids_row(tui)[:4] == ["[80 ♣]", "80 ♦", "80 ♥", "80 ♠"]
            await pilot.press("right", "enter")
            assert await game.my_turn(pilot)
            # her turn again: the auction on screen shows her bid, then Bruno's over it
            assert game.view.bids == ((2, "80 ♦"), (3, "90 ♠"), (4, "Pass"), (1, "Pass"))
            auction = game.shown("#info").split("\n")
            assert auction[:3] == ["Auction", "ana: 80 ♦", "Bruno: 90 ♠"], auction
            # and the values still open start above the standing 90 ♠, the first one lit
            row = [label.strip("[]") for label in bids_row(tui)]
            assert row[0] == "100" and "80" not in row and "90" not in row
            assert bids_row(tui)[0] == "[100]"
            assert row[-2:] == ["Pass", "Coinche!"]
        finally:
            await game.app.stop()


async def test_a_bid_below_the_standing_one_is_refused_with_its_reason(tmp_path):
    tui = TableTui(ME, "en")
    async with tui.run_test(size=SMALL) as pilot:
        game = await coinche(tmp_path, tui, pilot)
        try:
            await type_line(pilot, "80 C")  # typed in the line, as the welcome says
            assert await game.my_turn(pilot)
            before = game.view
            assert before.bids[:2] == ((2, "80 ♣"), (3, "90 ♠"))
            assert "Bruno: 90 ♠" in game.shown("#info")
            rule = tr("err-rule-bid-higher", "en", standing="90 ♠")
            for low in ("80 S", "90 H"):  # below the standing bid, and level with it
                await type_line(pilot, low)
                await pilot.pause(0.1)
                refusal, *rest = game.shown("#prompt").split("\n")
                assert refusal.startswith(rule), refusal
                assert rest and rest[-1].startswith("▶ You may: pass, 100…160"), rest
                after = game.view  # refused: nothing changed
                assert (after.bids, after.hand, after.to_move) == (
                    before.bids,
                    before.hand,
                    before.to_move,
                )
            # a bid over it is taken, and the refusal leaves the screen
            await type_line(pilot, "100 H")
            await pilot.pause(0.1)
            assert game.view.bids[len(before.bids)] == (2, "100 ♥")
            assert rule not in game.shown("#prompt")
        finally:
            await game.app.stop()
