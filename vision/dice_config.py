"""The free-standing dice reader's thresholds, and a classical pip counter: a feature of the learned face
filter of :mod:`vision.dice_model` (which was fitted on it), so it lives apart from :mod:`vision.dice`. No
die's value is taken from it: the value stage is :mod:`vision.die_face`."""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np
from numpy.typing import NDArray

Image = NDArray[np.uint8]


@dataclass(frozen=True, slots=True)
class DiceConfig:
    """Thresholds of the free-standing dice reader (sizes are fractions of the die side)."""

    background_scale: int = 160  # side of the downscaled image used to estimate the background
    background_blur: int = 31  # median kernel on that downscaled image
    colour_diff: float = 22.0  # Lab distance from background that marks a die pixel
    canny_low: int = 30
    canny_high: int = 80
    min_die_frac: float = 0.025  # smallest die side, as a fraction of the image's short side
    max_die_frac: float = 0.25
    max_aspect: float = 1.9  # of the fitted rectangle
    min_fill: float = 0.55  # blob area / rectangle area
    split_ratio: float = 1.6  # a blob this many times the typical die area is split
    split_depth: float = 0.33  # die cores: distance to the blob edge >= this x die side
    tile_aspect: float = 1.5  # a region this elongated, or one to be split, is also cut into a grid of die squares
    tile_max: int = 9  # ... of at most this many cells (0: no grid)
    tile_max_side: float = 1.25  # ... cut across at its short side when that is below this x the typical die side
    tile_cell_aspect: float = 1.35  # ... whose cells are no more elongated than this
    tile_not_die_prob: float = 0.5  # a cell is a die when its 'not a die' probability is below this
    tile_nms_dist: float = 0.7  # ... and its centre is farther than this x die side from every die found otherwise (5-fold CV: 0.7 beat 1.0)
    window_step: float = 0.34  # a merged region is also searched with die-sized squares this x die side apart (0: not)
    window_inside: float = 0.3  # ... whose centres lie at least this x die side inside it
    window_max_dice: float = 6.0  # ... when its area is at most this many dice and its length at most this many die sides
    window_not_die_prob: float = 0.2  # ... a square is a die when its 'not a die' probability is below this
    window_nms_dist: float = 0.9  # ... and its centre is farther than this x its side from every die found otherwise
    window_big: float = 1.5  # ... but for those this many times its side (two dice taken for one)
    face_inset: float = 0.10  # fraction of the side trimmed off the face before counting
    pip_margin: float = 0.06  # fraction of the crop side where no pip centre may lie
    pip_sigma: float = 0.05  # smoothing of the colour distance, fraction of the side
    pip_spacing: float = 0.2  # two pips are at least this far apart (fraction of the side)
    pip_min_contrast: float = 14.0  # smoothed Lab distance of a pip from the face
    pip_rel_height: float = 0.72  # a pip peak is at least this fraction of the strongest
    pip_min_gap: float = 0.1  # pips must stand out from the next peak by this fraction of the strongest
    not_die_prob: float = 0.5  # a candidate whose learned 'not a die' probability reaches this is dropped
    # proposal variants for the learned reader: (colour_diff, canny_low, canny_high, background_blur);
    # their union finds dice by the tray's edge, white dice on light trays and touching dice
    proposals: tuple[tuple[float, int, int, int], ...] = (
        (22.0, 30, 80, 31), (35.0, 60, 150, 31), (50.0, 100, 200, 31), (35.0, 60, 150, 7), (70.0, 150, 300, 31))
    nms_dist: float = 0.5  # candidates whose centres are closer than this x die side are one die
    value_crops: int = 2  # the convolutional reader reads this many of a die's best proposals
    value_insets: tuple[float, ...] = (0.10,)  # ... each cropped with these insets (fractions of the side)
    value_turns: int = 4  # ... each in this many of its quarter turns and mirrors, and averages
    value_pool: int = 4  # when above 1: this many proposals (by die probability), and squares grown from the
    square_aspect: float = 1.25  # ... proposals at least this elongated, are read first in
    pick_turns: int = 1  # ... this many turns, and the value_crops read most surely (top value probability) are kept
    value_not_die: float = 0.5  # a die whose averaged 'not a die' probability from the convolutional reader reaches this is dropped
    guard_not_die: float = 0.5  # ... or whose 'not a die' probability from the guard network (``vision/dice_guard.json``) does


def _odd(n: int) -> int:
    return n if n % 2 else n + 1


def count_pips(cfg: DiceConfig, face: Image) -> tuple[int | None, float, float]:
    """Count the pips on an upright square crop of a die's top face.

    Pips are the peaks of the smoothed colour distance from the face colour, inside
    the face. Returns (value or None, confidence 0..1, face lightness 0..255).
    """
    side = face.shape[0]
    lab = cv2.cvtColor(face, cv2.COLOR_BGR2LAB).astype(np.float32)
    m = max(1, round(side * cfg.pip_margin))
    inner = lab[m:side - m, m:side - m].reshape(-1, 3)
    face_colour = np.median(inner, axis=0)
    dist = np.sqrt(((lab - face_colour) ** 2).sum(axis=2))
    sigma = side * cfg.pip_sigma
    smooth = cv2.GaussianBlur(dist, (0, 0), sigma)
    k = _odd(max(3, round(side * cfg.pip_spacing)))
    peaks = (smooth >= cv2.dilate(smooth, np.ones((k, k), np.uint8))) & (smooth > cfg.pip_min_contrast)
    peaks[:m, :] = False
    peaks[side - m:, :] = False
    peaks[:, :m] = False
    peaks[:, side - m:] = False
    ys, xs = np.nonzero(peaks)
    light = float(face_colour[0])
    if len(xs) == 0:
        return None, 0.0, light
    heights = np.sort(smooth[ys, xs])[::-1].astype(np.float64)
    top = float(heights[0])
    padded = np.concatenate([heights, np.zeros(7)])
    # the count is where the sorted peak heights drop most: pips are alike, noise is lower
    gaps = [(padded[c - 1] - padded[c]) / top if padded[c - 1] >= cfg.pip_rel_height * top else -1.0 for c in range(1, 7)]
    count = 1 + int(np.argmax(gaps))
    gap = gaps[count - 1]
    if gap < cfg.pip_min_gap:
        return None, 0.0, light
    return count, float(np.clip(gap, 0.0, 1.0)), light
