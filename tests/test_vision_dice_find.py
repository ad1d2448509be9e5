"""Finding dice on the board (vision.dice_find): a die blurred by a lens out of focus or a moving hand is found where
it lies; a light checker, the bare board and a lamp's glare are not dice. The pictures are painted here with OpenCV
from the set's description (walnut field, a 16 mm white die with black pips, a 30 mm light checker with its copper
rim), at the canonical view's 1 px/mm, not drawn by the product's renderer."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.blobs import local_background
from vision.config import ReaderConfig
from vision.dice_board import candidate_centres
from vision.dice_find import load_finder
from vision.profiles import lab8_image

PPM = 1.0  # the canonical view's resolution (ReaderConfig.px_per_mm)
WALNUT = (58, 92, 128)  # BGR of the lit walnut field, as the light-normalised view shows it
PIPS = {1: [(0, 0)], 2: [(-1, -1), (1, 1)], 3: [(-1, -1), (0, 0), (1, 1)], 4: [(-1, -1), (1, -1), (-1, 1), (1, 1)],
        5: [(-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)], 6: [(-1, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (1, 1)]}


def _board(rng: np.random.Generator, size: int = 120) -> np.ndarray:
    """A walnut field ``size`` mm square with a faint grain along x."""
    grain = cv2.resize(rng.normal(0, 6, (size, 6)).astype(np.float32), (size, size))[..., None]
    return np.clip(np.full((size, size, 3), WALNUT, np.float32) + grain, 0, 255)


def _die(img: np.ndarray, centre: tuple[float, float], value: int, turn: float, white: tuple[int, int, int]) -> None:
    """A 16 mm die's top seen from above: a white square turned by ``turn`` degrees with its pips (2.8 mm across,
    4.4 mm apart)."""
    corners = cv2.boxPoints((centre, (16 * PPM, 16 * PPM), turn))
    cv2.fillConvexPoly(img, np.round(corners * 16).astype(np.int32), white, lineType=cv2.LINE_AA, shift=4)
    t = np.deg2rad(turn)
    ax, ay = np.array([np.cos(t), np.sin(t)]), np.array([-np.sin(t), np.cos(t)])
    for i, j in PIPS[value]:
        p = np.asarray(centre) + 4.4 * PPM * (i * ax + j * ay)
        cv2.circle(img, tuple(int(v) for v in np.round(p * 16)), int(round(1.4 * PPM * 16)), (35, 35, 40), -1, cv2.LINE_AA, shift=4)


def _checker(img: np.ndarray, centre: tuple[float, float]) -> None:
    """A light checker from above: copper, 30 mm across, round a burnt-orange leather inlay 21 mm across, its rim
    shining toward the lamp (a near-white arc 2 mm wide over a quarter of it)."""
    c = tuple(int(round(v * 16)) for v in centre)
    cv2.circle(img, c, 15 * 16, (85, 135, 205), -1, cv2.LINE_AA, shift=4)
    cv2.ellipse(img, c, (13 * 16, 13 * 16), 0, 200, 290, (225, 235, 245), 2, cv2.LINE_AA, shift=4)
    cv2.circle(img, c, int(10.5 * 16), (35, 85, 180), -1, cv2.LINE_AA, shift=4)


def _seen(img: np.ndarray, blur: str, rng: np.random.Generator) -> np.ndarray:
    """The picture through a lens out of focus (Gaussian, 2.5 mm) or moving (a 9 mm streak at 30 degrees), or sharp;
    with sensor noise."""
    if blur == "defocus":
        img = cv2.GaussianBlur(img, (0, 0), 2.5 * PPM)
    elif blur == "motion":
        n = 9
        kernel = np.zeros((n, n), np.float32)
        for s in np.linspace(-n / 2, n / 2, 4 * n):
            kernel[int(round(n // 2 + s * np.sin(np.pi / 6))), int(round(n // 2 + s * np.cos(np.pi / 6)))] = 1.0
        img = cv2.filter2D(img, -1, kernel / kernel.sum(), borderType=cv2.BORDER_REFLECT)
    return np.clip(img + rng.normal(0, 2.0, img.shape), 0, 255).astype(np.uint8)


def _judged(img: np.ndarray) -> list[tuple[tuple[float, float], float]]:
    """Every candidate window of the picture and the finder's probability of a die there."""
    cfg = ReaderConfig()
    lab = lab8_image(img)
    base = np.maximum(local_background(cfg, lab[..., 0]), 0.0).astype(np.float32)
    centres = candidate_centres(cfg, lab, base, [])
    model = load_finder()
    assert model is not None, "vision/dice_find_cnn.json is shipped beside vision/dice_find.py"
    return list(zip(centres, model.judge(img, centres, cfg.px_per_mm).tolist()))


@pytest.mark.parametrize("blur", ["sharp", "defocus", "motion"])
@pytest.mark.parametrize("value, turn, white", [(5, 20.0, (238, 240, 242)), (2, -35.0, (175, 222, 236)), (6, 5.0, (185, 190, 196))])
def test_a_die_is_found_where_it_lies_sharp_or_blurred(blur: str, value: int, turn: float, white: tuple[int, int, int]) -> None:
    """White, ivory and shaded dice, sharp, out of focus or streaked: the window on the die's centre is a die,
    and no window 8 mm or more from it is."""
    rng = np.random.default_rng(value)
    img = _board(rng)
    at = (52.0, 61.0)
    _die(img, at, value, turn, white)
    judged = _judged(_seen(img, blur, rng))
    near = [p for (x, y), p in judged if np.hypot(x - at[0], y - at[1]) <= 4.0]
    far = [p for (x, y), p in judged if np.hypot(x - at[0], y - at[1]) >= 8.0]
    assert near and max(near) >= 0.5, judged
    assert all(p < 0.5 for p in far), judged


@pytest.mark.parametrize("blur", ["sharp", "defocus", "motion"])
def test_a_light_checker_beside_a_die_is_not_a_die(blur: str) -> None:
    """A light checker is lighter than the walnut and its copper rim shines as light as a die, but it is round and
    twice a die's size: only the die, 40 mm from it, is found."""
    rng = np.random.default_rng(7)
    img = _board(rng)
    _checker(img, (40.0, 60.0))
    _die(img, (80.0, 55.0), 3, 12.0, (238, 240, 242))
    judged = _judged(_seen(img, blur, rng))
    dice = [(x, y) for (x, y), p in judged if p >= 0.5]
    assert len(dice) == 1 and np.hypot(dice[0][0] - 80.0, dice[0][1] - 55.0) <= 4.0, judged


def test_the_bare_board_holds_no_die() -> None:
    rng = np.random.default_rng(11)
    judged = _judged(_seen(_board(rng), "defocus", rng))
    assert all(p < 0.5 for _, p in judged), judged
