"""The pip-grid reader of a die's top face, on faces painted by the project's renderer (seeded)."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.pips import PipConfig, place_contrast, read_pips, stray_pips
from vision.render import DIE_WHITE, _paint_face

PPM = 3.0  # px per mm of the painted faces
KEEP = 0.95  # the board reader crops this share of the die's edge


def _face(value: int, seed: int, colour: tuple[float, float, float] = DIE_WHITE, blur: float = 0.0,
          shift: tuple[float, float] = (0.0, 0.0), side: int = 48, squash: float = 1.0) -> np.ndarray:
    """An upright crop of a painted 16 mm die face, ``shift`` mm off its centre, with sensor noise; ``squash``
    foreshortens it across its turn (a tipped die's top)."""
    rng = np.random.default_rng(seed)
    canvas = np.empty((40 * int(PPM), 40 * int(PPM), 3), np.float32)
    canvas[:] = (0.35, 0.25, 0.18)  # walnut
    turn = 90.0 * int(rng.integers(4)) + float(rng.uniform(-2, 2))
    _paint_face(canvas, (20.0, 20.0), turn, 16.0, 16.0 * squash, value, colour, PPM, 45.0)
    img = np.clip(canvas * 255 + rng.normal(0, 3, canvas.shape), 0, 255).astype(np.uint8)
    if blur:
        img = cv2.GaussianBlur(img, (0, 0), blur * PPM)
    c = (20.0 + shift[0]) * PPM
    r = (20.0 + shift[1]) * PPM
    half = 8.0 * KEEP * PPM
    src = np.float32([[c - half, r - half], [c + half, r - half], [c - half, r + half]])
    dst = np.float32([[0, 0], [side, 0], [0, side]])
    return cv2.warpAffine(img, cv2.getAffineTransform(src, dst), (side, side), flags=cv2.INTER_AREA)


@pytest.mark.parametrize("value", range(1, 7))
@pytest.mark.parametrize("seed", range(3))
def test_reads_every_value_sharp_and_soft(value: int, seed: int) -> None:
    for blur in (0.0, 0.35):  # 0.35 mm: pips as soft as a photoreal render's at 2 px/mm
        got, conf, margin = read_pips(_face(value, 10 * seed + value, blur=blur))
        assert got == value, (blur, got)
        assert conf > 0.3 and margin > 10


@pytest.mark.parametrize("value", range(1, 7))
def test_coloured_die_with_light_pips(value: int) -> None:
    # pips are judged by their distance from the face's own colour, so a red die reads as well
    assert read_pips(_face(value, 100 + value, colour=(0.15, 0.12, 0.75)))[0] == value


def test_blank_face_reads_nothing() -> None:
    assert read_pips(np.full((48, 48, 3), 230, np.uint8))[0] is None
    assert read_pips(np.zeros((8, 8, 3), np.uint8))[0] is None  # too small to hold a face


@pytest.mark.parametrize("value", (2, 4, 5, 6))
def test_the_face_itself_fits_better_than_a_shifted_crop(value: int) -> None:
    # the board reader slides a crop over a die's footprint and keeps the best fit: the true face must win
    centred = read_pips(_face(value, 7 * value))[2]
    for shift in ((3.0, 0.0), (0.0, -3.0), (2.5, 2.5)):
        assert read_pips(_face(value, 7 * value, shift=shift))[2] < centred


@pytest.mark.parametrize("value", (2, 4, 5))
def test_a_glint_on_an_empty_place_is_no_pip(value: int) -> None:
    # Blender seed 4242001 setup 6: the lamp's glint beside a 5's centre pip stood out from the face as
    # much as the pips did, and the 5 read as nothing; the set's pips are darker than their face
    face = (_face(value, 3 * value) * 0.7).astype(np.uint8)  # a white die under a dim lamp: grey
    side = face.shape[0]
    glint = face.copy()
    cv2.circle(glint, (int(side * 0.8), side // 2), side // 12, (255, 255, 255), -1)  # the middle right place
    cv2.GaussianBlur(glint, (0, 0), 1.0, dst=glint)
    assert read_pips(glint)[0] == value
    cfg = PipConfig()
    assert place_contrast(glint, cfg)[:, 5].max() < cfg.min_contrast  # the glint's place stands out no more than the face
    assert place_contrast(glint, PipConfig(dark_pips=False))[:, 5].min() > 4 * cfg.min_contrast  # as a pip would


@pytest.mark.parametrize("value", range(1, 7))
@pytest.mark.parametrize("seed", range(3))
def test_a_face_shows_no_stray_pips(value: int, seed: int) -> None:
    # sharp or soft, centred or a little off (its neighbours' pips then show at the crop's edge), tipped or not
    for blur, shift, squash in ((0.0, (0.0, 0.0), 1.0), (0.35, (0.0, 0.0), 1.0), (0.35, (0.75, -0.75), 1.0),
                                (0.35, (0.0, 0.0), 0.85)):
        face = _face(value, 50 * seed + value, blur=blur, shift=shift, squash=squash)
        assert read_pips(face)[0] == value
        assert stray_pips(face, value) == 0, (blur, shift, squash)


def _astride(top: int, side: int, tilt: float, crop_at: float) -> np.ndarray:
    """A crop foreshortened to 0.8 of the die's edge, ``crop_at`` mm below the centre of a die cocked by ``tilt``
    degrees: its top face (``top``) above, its side face (``side``, a little dimmer) below."""
    rng = np.random.default_rng(int(tilt))
    canvas = np.empty((40 * int(PPM), 40 * int(PPM), 3), np.float32)
    canvas[:] = (0.35, 0.25, 0.18)
    c, s = np.cos(np.radians(tilt)), np.sin(np.radians(tilt))
    _paint_face(canvas, (20.0, 20.0 - 8 * s), 0.0, 16.0, 16.0 * c, top, DIE_WHITE, PPM, 45.0)
    _paint_face(canvas, (20.0, 20.0 + 8 * c), 0.0, 16.0, 16.0 * s, side, tuple(0.85 * np.array(DIE_WHITE)), PPM, 45.0)
    img = cv2.GaussianBlur(np.clip(canvas * 255 + rng.normal(0, 3, canvas.shape), 0, 255).astype(np.uint8), (0, 0), 0.35 * PPM)
    cx, cy, hw, hh = 20.0 * PPM, (20.0 + crop_at) * PPM, 8 * KEEP * PPM, 8 * KEEP * 0.8 * PPM
    src = np.float32([[cx - hw, cy - hh], [cx + hw, cy - hh], [cx - hw, cy + hh]])
    return cv2.warpAffine(img, cv2.getAffineTransform(src, np.float32([[0, 0], [48, 0], [0, 48]])), (48, 48), flags=cv2.INTER_AREA)


def test_a_crop_astride_a_cocked_die_s_top_and_side_face_shows_stray_pips() -> None:
    # the crop takes the 5's lower pips and the 6's upper row: they fit a 4, with the 6's middle pip past it
    for tilt, crop_at in ((25.0, 3.5), (28.0, 3.0), (32.0, 2.0)):  # where the crop reaches the 6's middle pip
        crop = _astride(5, 6, tilt, crop_at)
        value, _, margin = read_pips(crop)
        assert value == 4 and margin > 20
        assert stray_pips(crop, 4) >= 1
        top = _astride(5, 6, tilt, -8 * np.sin(np.radians(tilt)))  # the top's own crop
        assert read_pips(top)[0] == 5 and stray_pips(top, 5) == 0


@pytest.mark.parametrize("side", [12, 13, 47, 48])
def test_channel_medians_are_numpys(side: int) -> None:
    """The face's colour is each channel's median, taken from histograms: it must be np.median's, for odd and
    even pixel counts alike."""
    from vision.pips import medians_u8

    rng = np.random.default_rng(side)
    for _ in range(50):
        lab = rng.integers(0, int(rng.integers(2, 256)), (side, side, 3), np.uint8)
        channels = tuple(np.ascontiguousarray(lab[..., c]) for c in range(3))
        assert [float(m) for m in medians_u8(channels)] == [float(np.median(c)) for c in channels]
