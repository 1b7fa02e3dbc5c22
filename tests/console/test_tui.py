"""The full-screen table driven headless by Textual's own pilot: the real core on a real
SQLite file, the player typing and pressing keys and clicking cards as a person would, at
80x24 (the smallest terminal it must fit) and larger."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path

import pytest
from textual.widgets import Static

from adapters.console.platform import ConsolePlatform
from adapters.console.run import ConsoleOptions, ConsoleSession
from adapters.console.tui import TableTui
from bot.app import BeloteApp, Settings
from bot.ops.clock import SeededRandomness
from bot.store import open_store

ME = "console:ana"


class Game:
    """A solo table on screen: the core, the session and the screen, wired as ``belote``
    wires them."""

    def __init__(self, app: BeloteApp, session: ConsoleSession, tui: TableTui) -> None:
        self.app, self.session, self.tui = app, session, tui

    @property
    def view(self):
        return self.session.views()[-1]

    def log_text(self) -> str:
        return "\n".join(self.tui.logged)

    def shown(self, widget: str) -> str:
        return str(self.tui.query_one(widget, Static).render())

    async def my_turn(self, pilot, timeout: float = 20.0) -> bool:
        """Wait for the player's turn (True) or the match's end (False)."""
        for _ in range(int(timeout / 0.02)):
            await pilot.pause(0.02)
            v = self.view
            shown = self.tui.view
            if (
                v.choices
                and shown is not None
                and (shown.choices, shown.hand)
                == (
                    v.choices,
                    v.hand,
                )
            ):  # and the screen shows it
                return True
            if v.phase == "over" or v.status == "open":
                return False
        raise AssertionError("the player's turn never came")


async def start_game(tmp_path: Path, tui: TableTui, name: str = "ana", **options) -> Game:
    store = await open_store(str(tmp_path / "t.db"))
    platform = ConsolePlatform(screen=tui)
    app = BeloteApp(
        store,
        platform,
        settings=Settings(bot_delay=0.0, fast=True, drand=False, render_images=False),
        randomness=SeededRandomness("tui"),
    )
    session = ConsoleSession(
        app,
        platform,
        ConsoleOptions(default_user=name, solo=True, seed_source="tui", **options),
    )
    tui.views = session.views
    tui.send = session.line
    tui.after_match = session.offer_new_match
    await app.start()
    await session.open_solo()
    tui.refresh_soon()
    return Game(app, session, tui)


async def type_line(pilot, text: str) -> None:
    for ch in text:
        await pilot.press(ch if ch != " " else "space")
    await pilot.press("enter")


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
async def test_a_whole_deal_by_keys_and_mouse_on_a_small_and_a_large_screen(tmp_path, size):
    tui = TableTui(ME, "en")
    async with tui.run_test(size=size) as pilot:
        game = await start_game(tmp_path, tui)
        try:
            assert "Belote in the terminal" in game.log_text()
            assert "your partner Chloe across the table" in game.log_text()
            assert "no timer" in game.shown("#status")
            assert "ana (you)" in game.shown("#seat-south")
            assert "Chloe" in game.shown("#seat-north")  # the partner across the table
            played = 0
            deal = game.view.deal
            while game.view.deal == deal and await game.my_turn(pilot):
                v = game.view
                if v.phase == "auction":
                    word = (
                        "take" if any(c.typed == "take" for c in v.choices) else v.choices[0].typed
                    )
                    await type_line(pilot, word)
                    continue
                before = len(v.hand)
                buttons = [b for b in tui.query("#hand Button") if not b.disabled]
                assert {str(b.label) for b in buttons} <= {_symbols(c) for c in v.legal_cards}
                assert len(buttons) == len(v.legal_cards)
                card = sorted(v.legal_cards)[0]
                if played % 4 == 0:  # a click on a card
                    await pilot.click(buttons[-1])
                elif played % 4 == 1:  # the arrows and Enter
                    await pilot.press("right", "left", "enter")
                elif played % 4 == 2:  # typed in lower case, the ten as 10: 10h
                    await type_line(pilot, card.lower().replace("t", "10"))
                else:  # pasted as the screen shows it: Q♥
                    tui.query_one("#line").value = _symbols(card)
                    await pilot.press("enter")
                await pilot.pause(0.05)
                assert len(game.view.hand) == before - 1 or game.view.deal != deal, game.shown(
                    "#prompt"
                )
                played += 1
            assert played == 8
            log = game.log_text()
            for n in range(1, 9):
                assert re.search(rf"Trick {n}: .*won by", log), n
            assert re.search(r"Deal 1: .*taken by", log)  # the deal's summary
            assert re.search(r"Scored: team A [+-]?\d+, team B", log)
            await pilot.press("f2")
            assert "Last trick" in game.shown("#last") or "No trick" in game.shown("#last")
        finally:
            await game.app.stop()


def _symbols(card: str) -> str:
    suit = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}[card[1]]
    return ("10" if card[0] == "T" else card[0]) + suit


async def test_a_refused_card_stays_on_screen_with_what_may_be_played(tmp_path):
    tui = TableTui(ME, "en")
    async with tui.run_test(size=(80, 24)) as pilot:
        game = await start_game(tmp_path, tui)
        try:
            assert await game.my_turn(pilot)
            await type_line(pilot, "zz")  # not a card nor a command
            await pilot.pause(0.05)
            prompt = game.shown("#prompt")
            assert "▶ You may:" in prompt and "zz" in prompt  # the core's answer, above
            for _ in range(40):  # a turn where some card of the hand may not be played
                assert await game.my_turn(pilot)
                v = game.view
                if v.phase == "auction":
                    word = "take" if any(c.typed == "take" for c in v.choices) else "pass"
                    await type_line(pilot, word)
                    continue
                illegal = [c for c in v.hand if c not in v.legal_cards]
                if illegal:
                    break
                await pilot.press("enter")
            seq = len(v.hand)
            await type_line(pilot, illegal[0].lower())
            await pilot.pause(0.05)
            prompt = game.shown("#prompt")
            assert len(game.view.hand) == seq  # refused: nothing changed
            refusal, *rest = prompt.split("\n")
            assert re.search(r"cannot|must", refusal), prompt  # the core's words, in red
            assert rest and rest[-1].startswith("▶ You may:"), prompt
            assert "/play" not in prompt, prompt
            shown = sorted(_symbols(c) for c in v.legal_cards)
            assert all(card in prompt for card in shown), prompt
        finally:
            await game.app.stop()


async def test_asked_timer_is_counted_down_on_screen(tmp_path):
    tui = TableTui(ME, "en")
    async with tui.run_test(size=(80, 24)) as pilot:
        game = await start_game(tmp_path, tui, timer=30.0)
        try:
            assert await game.my_turn(pilot)
            first = re.search(r"(\d+) s left", game.shown("#status"))
            assert first is not None, game.shown("#status")
            await pilot.pause(2.2)
            later = re.search(r"(\d+) s left", game.shown("#status"))
            assert later is not None and int(later[1]) < int(first[1])
        finally:
            await game.app.stop()


async def test_other_rules_asked_while_a_match_goes_on_are_offered_not_ignored(tmp_path):
    tui = TableTui(ME, "en")
    async with tui.run_test(size=(80, 24)) as pilot:
        game = await start_game(tmp_path, tui)
        assert await game.my_turn(pilot)
        await game.app.stop()
    tui = TableTui(ME, "en")
    async with tui.run_test(size=(80, 24)) as pilot:
        game = await start_game(tmp_path, tui, ruleset="bulgarian", target=151)
        try:
            log = game.log_text()
            assert "Match m1 at table t1 is in progress with club, first to 1000" in log
            assert "you asked for bulgarian, first to 151" in log
            assert "This table is closed" not in log
            await pilot.pause(0.05)
            assert "Type on to go on with match m1, or new" in game.shown("#prompt")
            await type_line(pilot, "new")
            await pilot.pause(0.2)
            v = game.view
            assert (v.table, v.ruleset, v.target) == ("t2", "bulgarian", 151)
            assert "This table is closed" not in game.log_text()
            assert "Type on" not in game.shown("#prompt")
        finally:
            await game.app.stop()


async def test_ctrl_c_leaves_the_screen(tmp_path):
    tui = TableTui(ME, "en")
    async with tui.run_test(size=(80, 24)) as pilot:
        game = await start_game(tmp_path, tui)
        try:
            assert tui.is_running
            await pilot.press("ctrl+c")
            for _ in range(50):
                if not tui.is_running:
                    break
                await asyncio.sleep(0.02)
            assert not tui.is_running
        finally:
            await game.app.stop()
