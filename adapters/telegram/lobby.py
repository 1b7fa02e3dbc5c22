"""The table message in the lobby: a plain picture; and old "Add bot" buttons.

Telegram cannot turn a text message into a photo, so a table message that starts as
text would have to be deleted and posted again when the match starts and the core's
table picture appears. Giving the lobby a picture of its own keeps one photo message for
the table's whole life: joins and bots edit its caption, the match edits its media.

The core offers Join, Add bot and Start itself. Earlier versions of this adapter added
their own "Add bot" button (callback data ``tg:addbot:<table>``); such buttons may still
sit on table messages posted before an upgrade, so their presses are still understood
(:func:`add_bot_table`) and run the core's ``/addbot`` for that table.
"""

from __future__ import annotations

import io
import re
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


ADD_BOT = "tg:addbot:"  # + the core's table id: the old adapter-made button


def add_bot_table(data: str) -> str | None:
    """The table id of an "Add bot" press, else None."""
    table = data.removeprefix(ADD_BOT)
    return table if data.startswith(ADD_BOT) and re.fullmatch(r"t\d+", table) else None


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
