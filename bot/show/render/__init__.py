"""Pictures of the game, platform-neutral: engine views in, image bytes out.

See docs/render.md. Every function takes what a seat may see (a ``SeatView``) or public
records, and returns PNG bytes (GIF for the replay). Nothing here posts or reads a file
but the shipped fonts.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from bot.show.render.deal_result import render_deal_result
    from bot.show.render.hand import render_hand
    from bot.show.render.messages import translator
    from bot.show.render.replay import render_replay
    from bot.show.render.standings import StandingRow, render_standings
    from bot.show.render.table import render_table

#: name -> its module. Loaded at first use, not with the package: a table with no pictures
#: (the terminal's) never loads Pillow and the drawing code (0.1 to 0.2 s at start).
_LAZY = {
    "render_deal_result": "deal_result",
    "render_hand": "hand",
    "translator": "messages",
    "render_replay": "replay",
    "StandingRow": "standings",
    "render_standings": "standings",
    "render_table": "table",
}


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{module}"), name)
    globals()[name] = value
    return value


__all__ = [
    "StandingRow",
    "render_deal_result",
    "render_hand",
    "render_replay",
    "render_standings",
    "render_table",
    "translator",
    "warm_up",
]


def warm_up(four_colour: bool = False) -> None:
    """Draw and cache every card face and the felt once (about 0.1-0.2 s), e.g. at start,
    so that the first picture of a table is as fast as the others."""
    from bot.show.render import cards, hand, replay, table, theme

    for card in range(32):
        for width in (hand.CARD_W, table.TRICK_W, table.MINI_W):
            cards.face(card, width, four_colour)
        cards.face(card, hand.CARD_W, four_colour, True)
    cards.back(table.BACK_W)
    for accent in theme.ACCENTS:
        table._background(accent)
        hand._background(accent)
    del replay  # imported so its module-level sizes are ready too
