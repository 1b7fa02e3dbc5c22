"""Reference pictures: the sample scenes must still look as they did.

A deliberate change of look: run ``python -m bot.show.render.samples --references`` (and
``--docs`` for the README pictures), look at the new PNGs, and commit them with the change.
The tolerance absorbs font-rasteriser and resampling differences between machines, not a
moved card or a changed colour.
"""

from __future__ import annotations

import pytest
from PIL import Image

from bot.show.render import samples
from tests.render.helpers import mean_diff, share_differing

IMAGES = samples.reference_images()


@pytest.mark.parametrize("name", sorted(IMAGES))
def test_picture_matches_its_reference(name):
    path = samples.REFERENCE_DIR / f"{name}.png"
    assert path.exists(), f"missing {path}: python -m bot.show.render.samples --references"
    reference = Image.open(path).convert("RGB")
    current = IMAGES[name].convert("RGB")
    assert current.size == reference.size, f"{name}: size changed"
    assert mean_diff(current, reference) < 1.5, f"{name}: looks different (regenerate if meant)"
    assert share_differing(current, reference) < 0.005, f"{name}: a region changed"


def test_the_check_catches_a_small_change():
    """The tolerance is tight enough to see one card's worth of change."""
    img = IMAGES["hand"].convert("RGB").copy()
    reference = img.copy()
    img.paste((255, 0, 0), (300, 100, 380, 200))
    assert share_differing(img, reference) >= 0.005
