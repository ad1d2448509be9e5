"""How legible a drawn cube face is (``benchmarks.train_cube.legibility``), from the physical picture: sharp enough
and, under a dim lamp, with its strokes standing off the sensor's noise."""

from __future__ import annotations

import pytest

pytest.importorskip("PIL", reason="the cube-face generator draws typefaces with Pillow (the train extra)")
from benchmarks.train_cube import legibility  # noqa: E402


def test_a_sharp_face_under_full_light_is_legible() -> None:
    # 40 camera pixels per edge, no defocus or motion: the edge over the blur (0.7 px) is 57, far above 12
    assert legibility(40.0, 0.0, 0.0) == 1.0
    assert legibility(40.0, 0.0, 0.0, level=1.0, noise=4.0) == 1.0  # strokes 90 grey levels off, noise 4


def test_a_face_whose_strokes_stand_no_further_off_than_the_noise_is_illegible() -> None:
    # a lamp at a tenth of the light: strokes 9 grey levels off the face, the noise 10: nothing to read, however sharp
    assert legibility(40.0, 0.0, 0.0, level=0.1, noise=10.0) == 0.0


def test_a_dim_face_is_as_legible_as_its_strokes_stand_off_the_noise() -> None:
    # 90 * 0.25 / 9 = 2.5 over the noise: halfway between 1 (none) and 4 (clear)
    assert legibility(40.0, 0.0, 0.0, level=0.25, noise=9.0) == pytest.approx(0.5)
    # and a blurred face no more so than its sharpness allows: edge 10 px, blur 0.7 px -> 14.3 over it: sharp; 5 px
    # of defocus -> 10 / 5.05 = 1.98, below 6: a smudge, whatever the light
    assert legibility(10.0, 5.0, 0.0, level=1.0, noise=2.0) == 0.0
