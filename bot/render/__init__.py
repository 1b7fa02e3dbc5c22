"""Pictures of the game, platform-neutral: engine views in, image bytes out.

See docs/render.md. Every function takes what a seat may see (a ``SeatView``) or public
records, and returns PNG bytes (GIF for the replay). Nothing here posts or reads a file
but the shipped fonts.
"""

from bot.render.deal_result import render_deal_result
from bot.render.hand import render_hand
from bot.render.replay import render_replay
from bot.render.standings import StandingRow, render_standings
from bot.render.table import render_table

__all__ = [
    "StandingRow",
    "render_deal_result",
    "render_hand",
    "render_replay",
    "render_standings",
    "render_table",
]
