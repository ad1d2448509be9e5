"""The cube-face generator's moved and small varieties (``benchmarks/cube_faces.draw_crop(..., moved=True)``, ``small=True``):
every moved face streaked by a share of its edge whatever the camera's resolution; every small face seen far."""

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


def test_every_moved_face_is_streaked_by_a_share_of_its_edge() -> None:
    rng = np.random.default_rng(3)
    for _ in range(20):
        seen: dict[str, float] = {}
        crop = cube_faces.draw_crop(rng, 3, FAMILY, seen=seen, moved=True)
        assert crop.dtype == np.uint8 and crop.ndim == 3
        # a tenth to two fifths of the face's edge (px camera pixels), however near the camera
        assert 0.1 * seen["px"] <= seen["motion"] <= 0.4 * seen["px"], seen



def test_every_small_face_is_seen_ten_to_twenty_eight_camera_pixels_across() -> None:
    rng = np.random.default_rng(4)
    for _ in range(20):
        seen: dict[str, float] = {}
        crop = cube_faces.draw_crop(rng, 5, FAMILY, seen=seen, small=True)
        assert crop.dtype == np.uint8 and crop.ndim == 3
        # a far cube: ten to twenty-eight camera pixels per edge (a board filling well under half the frame)
        assert 10.0 <= seen["px"] <= 28.0, seen
