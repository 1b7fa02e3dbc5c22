"""Colours and sizes shared by every picture, so the look changes in one place."""

from __future__ import annotations

RGB = tuple[int, int, int]

FELT: RGB = (22, 94, 62)
FELT_DARK: RGB = (14, 66, 44)
FELT_LIGHT: RGB = (30, 114, 76)
PANEL: RGB = (16, 44, 34)
PANEL_EDGE: RGB = (58, 110, 86)
INK: RGB = (245, 245, 240)
INK_DIM: RGB = (170, 196, 182)
HEADER: RGB = (24, 30, 38)
HEADER_INK: RGB = (236, 238, 242)

CARD_FACE: RGB = (255, 255, 255)
CARD_EDGE: RGB = (120, 126, 134)
COURT_FRAME: RGB = (232, 214, 160)
BACK: RGB = (40, 70, 150)
BACK_LINE: RGB = (90, 124, 200)

PLAYABLE: RGB = (255, 200, 40)  # the gold ring and bar of a card that may be played now
TURN: RGB = (255, 200, 40)  # the ring round the seat whose turn it is
DEALER: RGB = (240, 240, 240)
WINNER: RGB = (255, 200, 40)

# Two-colour deck: black and red. Four-colour deck: spades black, hearts red,
# diamonds blue, clubs green (the usual four-colour poker deck).
SUIT_TWO: dict[int, RGB] = {0: (20, 20, 24), 1: (206, 26, 36), 2: (206, 26, 36), 3: (20, 20, 24)}
SUIT_FOUR: dict[int, RGB] = {0: (18, 128, 44), 1: (22, 82, 200), 2: (206, 26, 36), 3: (20, 20, 24)}

TEAM: tuple[RGB, RGB] = ((70, 140, 240), (236, 120, 50))  # team 0 (seats 0, 2), team 1 (1, 3)

# Accent colours for table ids: a player at two tables sees two colours.
ACCENTS: tuple[RGB, ...] = (
    (230, 90, 80),
    (70, 150, 240),
    (240, 180, 40),
    (150, 100, 230),
    (60, 190, 150),
    (240, 120, 200),
    (130, 200, 60),
    (250, 140, 60),
)

GOLD: RGB = (232, 188, 60)
SILVER: RGB = (190, 196, 204)
BRONZE: RGB = (196, 128, 72)
GOOD: RGB = (90, 200, 110)
BAD: RGB = (236, 84, 84)
WARN: RGB = (250, 196, 70)


def suit_colour(suit: int, four_colour: bool = False) -> RGB:
    """The ink of a suit in the chosen deck."""
    return (SUIT_FOUR if four_colour else SUIT_TWO)[suit]


def accent_for(table_id: str) -> RGB:
    """A stable colour per table id (not Python's salted hash: the same on every run)."""
    total = 0
    for ch in table_id:
        total = (total * 31 + ord(ch)) % 1_000_003
    return ACCENTS[total % len(ACCENTS)]
