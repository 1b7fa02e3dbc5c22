"""Pictures of the game, platform-neutral: engine views in, image bytes out.

See docs/render.md. Every function takes what a seat may see (a ``SeatView``) or public
records, and returns PNG bytes (GIF for the replay).
"""

from bot.render.hand import render_hand
from bot.render.table import render_table

__all__ = ["render_hand", "render_table"]
