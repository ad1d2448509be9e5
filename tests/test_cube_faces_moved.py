"""The cube-face generator's moved, small, dim and sides varieties (``benchmarks/cube_faces.draw_crop(..., moved=True)``,
``small=True``, ``dim=True``, ``sides=True``): every moved face streaked by a share of its edge whatever the camera's
resolution; every small face seen far; every dim face under a dim lamp with the gain's noise; a face seen with its
side faces has their numerals beside it, and the crop may centre toward them."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("PIL", reason="the cube-face generator draws typefaces with Pillow (the train extra)")
from benchmarks import cube_faces  # noqa: E402

FAMILY = ["DejaVu Sans"]


@pytest.fixture(scope="module", autouse=True)
def _font_installed() -> None:
    if FAMILY[0] not in cube_faces.font_files():
        pytest.skip("DejaVu Sans is not installed (fonts-dejavu)")


@pytest.mark.parametrize("variety, seed", [("moved", 3), ("small", 4), ("dim", 5)])
def test_every_face_of_a_variety_is_drawn_as_it_says(variety: str, seed: int) -> None:
    rng = np.random.default_rng(seed)
    for _ in range(20):
        seen: dict[str, float] = {}
        crop = cube_faces.draw_crop(rng, 3, FAMILY, seen=seen, **{variety: True})
        assert crop.dtype == np.uint8 and crop.ndim == 3
        if variety == "moved":  # a tenth to two fifths of the face's edge (px camera pixels), however near the camera
            assert 0.1 * seen["px"] <= seen["motion"] <= 0.4 * seen["px"], seen
        elif variety == "small":  # a far cube: ten to twenty-eight camera pixels per edge (a board filling well under half the frame)
            assert 10.0 <= seen["px"] <= 28.0, seen
        else:  # a dim lamp: 15-50% of the light, and a camera gained up to match: noise of 3-10 grey levels
            assert 0.15 <= seen["level"] <= 0.5 and 3.0 <= seen["noise"] <= 10.0, seen


def test_a_face_seen_with_its_sides_shows_their_numerals_beside_it() -> None:
    """From above, the top face lies in the drawing's middle square; with ``sides`` one or two side faces lie
    against its edges, each holding another value's numeral: dark ink outside the top face, on the ivory strip."""
    H, C = 80, 200
    e0 = (C - H) // 2
    inked = 0
    for seed in range(10):
        rng = np.random.default_rng(seed)
        shift = [0.0, 0.0]
        img = cube_faces._face_drawing(rng, 1, FAMILY, C, H, sides=True, shift=shift)
        grey = img.mean(axis=2)
        ring = np.zeros((C, C), bool)
        ring[e0 - 56:e0 + H + 56, e0 - 56:e0 + H + 56] = True
        ring[e0:e0 + H, e0:e0 + H] = False  # the side strips lie in this ring, a side face at most 0.7 of an edge deep
        assert shift != [0.0, 0.0]  # the light seen (top and sides) is centred off the top face, towards a side
        assert max(abs(shift[0]), abs(shift[1])) <= 0.35 * H + 1  # at most half a strip's depth along each axis
        inked += int((grey[ring] < 60).sum() > 20)
    assert inked >= 7  # dark ink of a side's numeral beside the top (not every numeral is dark: some inks and lamps are light)



def test_a_camera_sees_one_side_face_or_two_adjacent_ones_never_two_opposite() -> None:
    rng = np.random.default_rng(7)
    counts = set()
    for _ in range(200):
        sides = cube_faces.sides_seen(rng)
        counts.add(len(sides))
        assert len(set(sides)) == len(sides) and not {0, 1} <= set(sides) and not {2, 3} <= set(sides), sides
    assert counts == {1, 2}
