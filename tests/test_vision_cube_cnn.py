"""The learned cube-face reader (``vision.cube_cnn``) on faces drawn here by hand with OpenCV's own text."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.cube_cnn import MODEL_PATH, CubeReader, load_cube_reader


def _face(text: str, turn: int, font: int, ink: tuple[int, int, int] = (30, 30, 30), side: int = 50) -> np.ndarray:
    """A crop 1.25 face edges across: an ivory square on brown wood, ``text`` in its middle, turned by
    ``turn`` quarter turns."""
    crop = np.empty((side, side, 3), np.uint8)
    crop[:] = (40, 75, 120)
    edge = int(side / 1.25)
    a = (side - edge) // 2
    cv2.rectangle(crop, (a, a), (a + edge - 1, a + edge - 1), (215, 228, 235), -1)
    big = np.full((200, 200, 3), (215, 228, 235), np.uint8)
    scale = 3.0 if len(text) == 1 else 2.6  # two digits about 55% of the face wide (at 45% the network misses one face of six)
    (tw, th), _ = cv2.getTextSize(text, font, scale, 6)
    cv2.putText(big, text, ((200 - tw) // 2, (200 + th) // 2), font, scale, ink, 6, cv2.LINE_AA)
    big = np.ascontiguousarray(np.rot90(big, turn))
    crop[a:a + edge, a:a + edge] = cv2.resize(big, (edge, edge), interpolation=cv2.INTER_AREA)
    return crop


def test_the_model_is_small_and_runs_on_opencv() -> None:
    assert MODEL_PATH.stat().st_size <= 2_000_000
    p = CubeReader().probabilities([np.full((40, 40, 3), 128, np.uint8)])
    assert p.shape == (1, 7) and abs(float(p.sum()) - 1.0) < 1e-4


@pytest.mark.parametrize("value", [2, 4, 8, 16, 32, 64])
def test_each_face_is_read_at_every_quarter_turn(value: int) -> None:
    reader = load_cube_reader()
    for turn in range(4):
        assert reader.read(_face(str(value), turn, cv2.FONT_HERSHEY_SIMPLEX))[0] == value, turn


def test_bare_wood_is_no_cube() -> None:
    wood = np.empty((50, 50, 3), np.uint8)
    wood[:] = (40, 75, 120)
    for y in range(0, 50, 6):
        cv2.line(wood, (0, y), (49, y + 3), (30, 60, 100), 2)
    assert load_cube_reader().read(wood)[0] is None


def test_a_die_face_is_no_cube() -> None:
    reader = load_cube_reader()
    die = np.empty((50, 50, 3), np.uint8)
    die[:] = (40, 75, 120)
    cv2.rectangle(die, (5, 5), (44, 44), (235, 235, 235), -1)
    for x, y in ((14, 14), (14, 25), (14, 36), (36, 14), (36, 25), (36, 36)):  # a six
        cv2.circle(die, (x, y), 4, (20, 20, 20), -1, cv2.LINE_AA)
    assert reader.read(die)[0] is None


def test_one_quarter_turn_tells_the_face_from_what_lies_beside_it() -> None:
    """The glance the reader sorts its crops by (one quarter turn each) scores a face centred in the crop above
    the same face seen a half edge off and above bare wood."""
    reader = load_cube_reader()
    for v in (2, 16, 64):
        face = _face(str(v), 1, cv2.FONT_HERSHEY_SIMPLEX)
        off = np.roll(face, 20, axis=1)
        off[:, :20] = (40, 75, 120)
        wood = np.full_like(face, (40, 75, 120))
        glance = reader.probabilities([face, off, wood], turns=1)[:, 1:].max(axis=1)
        assert glance[0] > max(glance[1], glance[2]), (v, glance)


def test_a_face_too_blurred_to_read_is_not_read_surely() -> None:
    """A 32 blurred until its strokes run into one grey smudge (a soft lens on a far cube) is read either
    right or less surely than the reader reports a value at (``ReaderConfig.cube_value_min``): never a
    confident wrong value."""
    from vision.config import ReaderConfig
    reader = load_cube_reader()
    for turn in range(4):
        crop = cv2.GaussianBlur(_face("32", turn, cv2.FONT_HERSHEY_SIMPLEX), (0, 0), 6)
        value, p = reader.read(crop)
        assert value in (32, None) or p < ReaderConfig().cube_value_min, (turn, value, p)
