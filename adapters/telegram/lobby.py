"""A plain picture for a table message that has none yet (the lobby).

Telegram cannot turn a text message into a photo, so a table message that starts as
text would have to be deleted and posted again when the match starts and the core's
table picture appears. Giving the lobby a picture of its own keeps one photo message for
the table's whole life: joins and bots edit its caption, the match edits its media.
"""

from __future__ import annotations

import io
from functools import cache
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

from bot.platform import Post

FONT = Path(__file__).resolve().parents[2] / "assets" / "fonts" / "DejaVuSans-Bold.ttf"
FELT = (21, 94, 58)
RIM = (12, 60, 36)
INK = (240, 236, 220)
RED = (214, 64, 58)


def is_table_post(post: Post) -> bool:
    """The core's table message (its key is ``table:<id>``)."""
    return post.to_user is None and post.key.startswith("table:")


@cache
def lobby_picture() -> bytes:
    """A green felt with the four suits: drawn once, the same bytes every time."""
    width, height = 800, 320
    img = Image.new("RGB", (width, height), RIM)
    draw = ImageDraw.Draw(img)
    draw.rounded_rectangle((16, 16, width - 16, height - 16), radius=120, fill=FELT)
    try:
        font = ImageFont.truetype(str(FONT), 84)
    except OSError:
        font = ImageFont.load_default()
    suits = (("♠", INK), ("♥", RED), ("♣", INK), ("♦", RED))
    step = 130
    x = (width - step * (len(suits) - 1)) / 2
    for symbol, colour in suits:
        draw.text((x, height / 2), symbol, font=font, fill=colour, anchor="mm")
        x += step
    out = io.BytesIO()
    img.save(out, "PNG", optimize=True)
    return out.getvalue()
