"""The page's replay is in the colours of the bot's pictures (bot/show/render/theme.py)."""

from __future__ import annotations

import re
from pathlib import Path

from bot.show.render import theme

CSS = Path(__file__).resolve().parents[2] / "web" / "verify" / "style.css"
SUITS = {"clubs": 0, "diamonds": 1, "hearts": 2, "spades": 3}


def page_colours() -> dict[str, tuple[int, int, int]]:
    root = CSS.read_text(encoding="utf-8").split(":root {", 1)[1].split("}", 1)[0]
    return {
        name: (int(r), int(g), int(b))
        for name, r, g, b in re.findall(r"--([a-z0-9-]+):\s*rgb\((\d+) (\d+) (\d+)\)", root)
    }


def theme_colour(name: str) -> tuple[int, int, int]:
    if name.startswith("suit-"):
        return theme.SUIT_TWO[SUITS[name[5:]]]
    if name.startswith("team-"):
        return theme.TEAM[int(name[5:])]
    return getattr(theme, name.upper().replace("-", "_"))


def test_every_colour_of_the_page_is_the_pictures():
    colours = page_colours()
    assert {"felt", "card-face", "suit-hearts", "team-0", "team-1", "winner"} <= set(colours)
    wrong = {n: (c, theme_colour(n)) for n, c in colours.items() if c != theme_colour(n)}
    assert wrong == {}
