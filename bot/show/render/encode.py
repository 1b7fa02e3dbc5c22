"""Picture bytes: PNG for still pictures (the replay writes its own GIF).

Pillow's PNG encoder tries every row filter (adaptive filtering), which costs more than
the compression itself and buys nothing on our flat-coloured pictures. ``png`` writes the
PNG itself: each row with filter type 0 (None), the whole image in one zlib stream at
level 1. It is a plain, standard PNG (signature, IHDR, IDAT, IEND), 2-3 times faster than
``Image.save(..., "PNG", compress_level=1)`` on the table and a little smaller.
See docs/render.md for the measurements and the comparison with WebP.
"""

from __future__ import annotations

import struct
import zlib

from PIL import Image

_SIGNATURE = b"\x89PNG\r\n\x1a\n"
_COLOUR_TYPE = {"RGB": 2, "RGBA": 6}


def _chunk(kind: bytes, data: bytes) -> bytes:
    crc = zlib.crc32(data, zlib.crc32(kind)) & 0xFFFFFFFF
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", crc)


def png(img: Image.Image, level: int = 1) -> bytes:
    """``img`` (RGB or RGBA; other modes are converted to RGB) as PNG bytes."""
    if img.mode not in _COLOUR_TYPE:
        img = img.convert("RGB")
    width, height = img.size
    stride = width * len(img.mode)
    raw = img.tobytes()
    rows = b"".join(b"\x00" + raw[y * stride : (y + 1) * stride] for y in range(height))
    header = struct.pack(">IIBBBBB", width, height, 8, _COLOUR_TYPE[img.mode], 0, 0, 0)
    return (
        _SIGNATURE
        + _chunk(b"IHDR", header)
        + _chunk(b"IDAT", zlib.compress(rows, level))
        + _chunk(b"IEND", b"")
    )
