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


@pytest.mark.parametrize("variety, seed", [("moved", 3), ("small", 4)])
def test_every_face_of_a_variety_is_drawn_as_it_says(variety: str, seed: int) -> None:
    rng = np.random.default_rng(seed)
    for _ in range(20):
        seen: dict[str, float] = {}
        crop = cube_faces.draw_crop(rng, 3, FAMILY, seen=seen, **{variety: True})
        assert crop.dtype == np.uint8 and crop.ndim == 3
        if variety == "moved":  # a tenth to two fifths of the face's edge (px camera pixels), however near the camera
            assert 0.1 * seen["px"] <= seen["motion"] <= 0.4 * seen["px"], seen
        else:  # a far cube: ten to twenty-eight camera pixels per edge (a board filling well under half the frame)
            assert 10.0 <= seen["px"] <= 28.0, seen
