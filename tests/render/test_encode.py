"""The PNG writer: standard, lossless, any size."""

from __future__ import annotations

import io
import random

import pytest
from PIL import Image, ImageChops

from bot.show.render import encode, samples


@pytest.mark.parametrize("mode", ["RGB", "RGBA", "L"])
@pytest.mark.parametrize("size", [(1, 1), (3, 7), (257, 31)])
def test_png_round_trips_exactly(mode, size):
    rng = random.Random(size[0] * 1000 + size[1])
    img = Image.frombytes(
        mode, size, bytes(rng.randrange(256) for _ in range(size[0] * size[1] * len(mode)))
    )
    data = encode.png(img)
    assert data.startswith(b"\x89PNG\r\n\x1a\n")
    back = Image.open(io.BytesIO(data))
    back.verify()  # checks chunk CRCs
    back = Image.open(io.BytesIO(data))
    expected = img if mode in ("RGB", "RGBA") else img.convert("RGB")
    assert back.mode == expected.mode and back.size == size
    assert ImageChops.difference(back, expected).getbbox() is None


def test_sample_picture_round_trips():
    img = samples.reference_images()["table"]
    back = Image.open(io.BytesIO(encode.png(img)))
    assert ImageChops.difference(back.convert("RGB"), img).getbbox() is None
