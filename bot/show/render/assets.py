"""Where the renderer finds what it reads (fonts), so nothing depends on system fonts.

The assets live in the repository's ``assets/`` folder; the ``BELOTE_ASSETS`` setting may
point elsewhere (an installed package, a container image): ``belote run`` hands it to
:func:`use` from the settings model before anything is drawn.
"""

from __future__ import annotations

import os
from pathlib import Path

DEFAULT_DIR = Path(__file__).resolve().parents[3] / "assets"
ASSETS_DIR = Path(os.environ.get("BELOTE_ASSETS") or DEFAULT_DIR)
FONTS_DIR = ASSETS_DIR / "fonts"

REGULAR = FONTS_DIR / "DejaVuSans.ttf"
BOLD = FONTS_DIR / "DejaVuSans-Bold.ttf"
CONDENSED_BOLD = FONTS_DIR / "DejaVuSansCondensed-Bold.ttf"


def use(folder: str | Path | None) -> None:
    """Read the fonts from ``folder`` from now on (None: the repository's)."""
    global ASSETS_DIR, FONTS_DIR, REGULAR, BOLD, CONDENSED_BOLD
    ASSETS_DIR = Path(folder) if folder else DEFAULT_DIR
    FONTS_DIR = ASSETS_DIR / "fonts"
    REGULAR = FONTS_DIR / "DejaVuSans.ttf"
    BOLD = FONTS_DIR / "DejaVuSans-Bold.ttf"
    CONDENSED_BOLD = FONTS_DIR / "DejaVuSansCondensed-Bold.ttf"
