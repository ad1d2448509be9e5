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


def _cube_face(text: str, turn: int, font: int = cv2.FONT_HERSHEY_DUPLEX) -> np.ndarray:
    """As :func:`_face`, the numeral as large as a cube's: its larger side 60% of the face's edge (a cube's numerals
    fill about half to two thirds of its face)."""
    (tw, th), _ = cv2.getTextSize(text, font, 1.0, 2)
    scale = 0.6 * 200 / max(tw, th)
    big = np.full((200, 200, 3), (215, 228, 235), np.uint8)
    (tw, th), _ = cv2.getTextSize(text, font, scale, int(2 * scale))
    cv2.putText(big, text, ((200 - tw) // 2, (200 + th) // 2), font, scale, (30, 30, 30), int(2 * scale), cv2.LINE_AA)
    crop = np.full((50, 50, 3), (40, 75, 120), np.uint8)
    crop[5:45, 5:45] = cv2.resize(np.ascontiguousarray(np.rot90(big, turn)), (40, 40), interpolation=cv2.INTER_AREA)
    return crop


def _patch_seen_by_camera(face: np.ndarray, px_per_edge: int, blur: float, turn_deg: float = 0.0) -> np.ndarray:
    """The reader's patch about a cube (2.6 face edges across at 2 px per mm: 104 px, the face 40 px) of a
    ``face`` crop (1.25 face edges across) seen by a camera at ``px_per_edge`` pixels per cube edge, defocused by
    ``blur`` camera pixels and turned ``turn_deg`` degrees on the board, then resampled to the patch."""
    wood = np.full((104, 104, 3), (40, 75, 120), np.uint8)
    wood[46:58] = (30, 60, 100)
    m = cv2.getRotationMatrix2D((face.shape[1] / 2, face.shape[0] / 2), turn_deg, 40 * 1.25 / face.shape[0])
    m[:, 2] += 52 - face.shape[0] / 2
    scene = cv2.warpAffine(face, m, (104, 104), dst=wood.copy(), borderMode=cv2.BORDER_TRANSPARENT)
    small = int(round(104 * px_per_edge / 40))
    cam = cv2.resize(scene, (small, small), interpolation=cv2.INTER_AREA)
    if blur:
        cam = cv2.GaussianBlur(cam, (0, 0), blur)
    return cv2.resize(cam, (104, 104), interpolation=cv2.INTER_LINEAR)


def _read_patch(patch: np.ndarray) -> tuple[float, int | None]:
    from vision.blobs import WhiteBlob
    from vision.config import ReaderConfig
    from vision.cube import _face_mask, _read_numeral
    cfg = ReaderConfig().detail()
    edge = cfg.geometry.cube_edge
    blob = WhiteBlob((0.0, 0.0), (edge, edge), 0.0, np.zeros((0, 1, 2), np.int32), (200.0, 128.0, 128.0), 1.0)
    return _read_numeral(cfg, patch, _face_mask(cfg, patch), blob, (51.5, 51.5))


@pytest.mark.parametrize("value", [2, 4, 8, 16, 32, 64])
def test_a_clear_face_at_a_known_turn_reads_its_value_surely(value: int) -> None:
    """The board reader's own face step on a cube seen at 40 camera pixels per edge (a board filling most of a
    1280 px frame), in focus, turned on the board by a quarter turn per face and 20 degrees more, the numeral in a
    typeface the network never trained on (OpenCV's Hershey duplex): that value, surely enough to be reported."""
    from vision.config import ReaderConfig
    turn = (2, 4, 8, 16, 32, 64).index(value) % 4
    p, read = _read_patch(_patch_seen_by_camera(_cube_face(str(value), turn), 40, 0.0, 20.0))
    assert read == value and p >= ReaderConfig().cube_value_min, (read, p)


@pytest.mark.parametrize("value", [2, 4, 8, 16, 32, 64])
def test_a_small_soft_face_at_a_known_turn_reads_its_value(value: int) -> None:
    """The same face seen at 22 px per cube edge (a board filling about half the frame) and a little out of focus
    (its numeral 11-13 camera pixels high): that value, though maybe less surely than the reader reports (then it
    is reported unread, never as another value)."""
    turn = (2, 4, 8, 16, 32, 64).index(value) % 4
    p, read = _read_patch(_patch_seen_by_camera(_cube_face(str(value), turn), 22, 0.6, 20.0))
    assert read == value, (read, p)


def test_a_die_seen_as_the_cube_would_be_is_no_cube() -> None:
    """A die's top (a five; its edge 0.8 of the cube's) where the cube might lie, seen at 22 px per cube edge:
    no cube face."""
    die = np.full((50, 50, 3), (40, 75, 120), np.uint8)
    cv2.rectangle(die, (9, 9), (40, 40), (235, 235, 235), -1)
    for x, y in ((16, 16), (16, 33), (25, 25), (33, 16), (33, 33)):
        cv2.circle(die, (x, y), 3, (20, 20, 20), -1, cv2.LINE_AA)
    for turn in (0.0, 30.0):
        p, read = _read_patch(_patch_seen_by_camera(die, 22, 0.6, turn))
        assert read is None, (turn, read, p)
