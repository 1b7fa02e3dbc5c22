"""Where the renderer finds what it reads (fonts), so nothing depends on system fonts.

The assets live in the repository's ``assets/`` folder; ``BELOTE_ASSETS`` may point
elsewhere (an installed package, a container image).
"""

from __future__ import annotations

import os
from pathlib import Path

ASSETS_DIR = Path(os.environ.get("BELOTE_ASSETS", Path(__file__).resolve().parents[3] / "assets"))
FONTS_DIR = ASSETS_DIR / "fonts"

REGULAR = FONTS_DIR / "DejaVuSans.ttf"
BOLD = FONTS_DIR / "DejaVuSans-Bold.ttf"
CONDENSED_BOLD = FONTS_DIR / "DejaVuSansCondensed-Bold.ttf"
