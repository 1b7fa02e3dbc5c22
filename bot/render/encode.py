"""Picture bytes: PNG for still pictures, GIF for the replay.

PNG with ``compress_level=1`` (fast zlib) encodes a flat-coloured table in a few ms and
stays far under 150 KB, losslessly (crisp text and card edges); see docs/render.md for the
measured comparison with WebP.
"""

from __future__ import annotations

import io

from PIL import Image

FORMAT = "png"
MIME = "image/png"


def png(img: Image.Image) -> bytes:
    buf = io.BytesIO()
    img.save(buf, "PNG", compress_level=1)
    return buf.getvalue()
