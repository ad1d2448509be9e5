"""One value reader for both dice paths (issue #45, item 5): the face network of ``vision.die_face``, the stage
``bgref dice`` reads real photos with, on crops of dice as the board camera sees them, cut as the board reader cuts
a top face (the board does not read its values with it yet: docs/dice-and-cube.md). The dice are painted here
with OpenCV from the set's description (a 16 mm white or ivory die, black pips 2.8 mm across, 4.4 mm apart) at the
board camera's sizes, not drawn by the product's renderer."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.die_face import read_face

PIPS = {1: [(0, 0)], 2: [(-1, -1), (1, 1)], 3: [(-1, -1), (0, 0), (1, 1)], 4: [(-1, -1), (1, -1), (-1, 1), (1, 1)],
        5: [(-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)], 6: [(-1, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (1, 1)]}
SUPER = 16  # painted this many times finer, then shrunk to the camera's pixels


def _board_crop(value: int, px_per_mm: float, turn: float, white: tuple[int, int, int], blur: float, seed: int,
                light: float = 1.0, streak: int = 0) -> np.ndarray:
    """A die's top on walnut as the board camera sees it, ``px_per_mm`` camera pixels a mm (16 mm: 16-26 px an
    edge), under a lamp giving ``light`` of full light, defocused by ``blur`` px, moved along a ``streak`` px
    streak at 30 degrees, and noisy; then cut as the board reader cuts a top face: a square of 0.95 of
    the edge round its centre, upright (the footprint's turn taken off: here the die lies turned by ``turn``
    degrees within the quarter turn the network reads in every way), resampled to 48 px."""
    rng = np.random.default_rng(seed)
    side_mm = 40.0
    n = int(round(side_mm * px_per_mm * SUPER))
    img = np.full((n, n, 3), (58, 92, 128), np.float32)  # lit walnut, BGR
    c = np.array([n / 2, n / 2])
    edge = 16.0 * px_per_mm * SUPER
    cv2.fillConvexPoly(img, np.round(cv2.boxPoints(((c[0], c[1]), (edge, edge), turn))).astype(np.int32), white, cv2.LINE_AA)
    t = np.deg2rad(turn)
    ax, ay = np.array([np.cos(t), np.sin(t)]), np.array([-np.sin(t), np.cos(t)])
    for i, j in PIPS[value]:
        p = c + 4.4 * px_per_mm * SUPER * (i * ax + j * ay)
        cv2.circle(img, (int(round(p[0])), int(round(p[1]))), int(round(1.4 * px_per_mm * SUPER)), (35, 35, 40), -1, cv2.LINE_AA)
    m = int(round(side_mm * px_per_mm))
    cam = cv2.resize(img, (m, m), interpolation=cv2.INTER_AREA)
    cam *= light
    if blur > 0:
        cam = cv2.GaussianBlur(cam, (0, 0), blur)
    if streak:
        kernel = np.zeros((2 * streak + 1, 2 * streak + 1), np.float32)
        for u in np.linspace(-streak, streak, 8 * streak):
            kernel[int(round(streak + u * np.sin(np.pi / 6))), int(round(streak + u * np.cos(np.pi / 6)))] = 1.0
        cam = cv2.filter2D(cam, -1, kernel / kernel.sum(), borderType=cv2.BORDER_REFLECT)
    cam = np.clip(cam + rng.normal(0, 3.0, cam.shape), 0, 255).astype(np.uint8)
    half = 0.95 * 16.0 * px_per_mm / 2
    rot = cv2.getRotationMatrix2D((m / 2, m / 2), turn, 48 / (2 * half))
    rot[:, 2] += (24 - m / 2, 24 - m / 2)
    return cv2.warpAffine(cam, rot, (48, 48), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)


@pytest.mark.parametrize("value", [1, 2, 3, 4, 5, 6])
@pytest.mark.parametrize("px_per_mm, white, blur", [(1.1, (238, 240, 242), 0.5), (1.6, (175, 222, 236), 0.8)])
def test_the_shared_value_stage_reads_the_board_cameras_small_dice(value: int, px_per_mm: float, white: tuple[int, int, int],
                                                                   blur: float) -> None:
    """A white die 18 camera pixels an edge and an ivory one 26 px, a little out of focus: the face network reads
    each painted value, though fitted on photos of dice 40-100 px an edge."""
    read = read_face([_board_crop(value, px_per_mm, 10.0 * value, white, blur, value)], 4)
    assert read.value == value, read.probabilities


# the shipped network (fitted on photos of large dice) reads half of these wrong, 3-5 as 2; the networks continued
# with the board camera's dice (session 43, not shipped: docs/dice-and-cube.md) read all 12. Strict: once a network
# that reads them ships, the mark must go.
DIM_MOVED_MISREAD = {3, 4, 5}


@pytest.mark.parametrize("value", [pytest.param(v, marks=pytest.mark.xfail(strict=True, reason="the shipped network misreads it"))
                                   if v in DIM_MOVED_MISREAD else v for v in range(1, 7)])
@pytest.mark.parametrize("px_per_mm, light, streak", [(1.2, 0.5, 2), (1.8, 0.45, 3)])
def test_the_shared_value_stage_reads_dim_moved_board_dice(value: int, px_per_mm: float, light: float, streak: int) -> None:
    """Under a dim lamp (half the light: the white face a mid grey) and a hand still moving (a 2-3 px streak),
    19 and 29 camera pixels an edge: the pips are grey smudges drawn out along the streak, and each is read."""
    read = read_face([_board_crop(value, px_per_mm, 10.0 * value, (238, 240, 242), 0.6, value, light, streak)], 4)
    assert read.value == value, read.probabilities

