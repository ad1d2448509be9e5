"""Read a die's value from the pips on an upright crop of its top face.

A die's pips sit on a 3x3 grid; each value lights a fixed subset of it (2 and 3 on either
diagonal, 6 in rows or in columns). The reader measures how much each grid place stands
out from the face's own colour and keeps the value whose pip places all stand out more
than every empty place does. Comparing places with each other, not with a fixed contrast,
keeps it working on soft, shaded or small pips, where counting blob peaks fails.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

import cv2
import numpy as np
from numpy.typing import NDArray

Image = NDArray[np.uint8]

# grid places, row-major: 0 1 2 / 3 4 5 / 6 7 8
LAYOUTS: tuple[tuple[int, frozenset[int]], ...] = (
    (1, frozenset({4})),
    (2, frozenset({0, 8})),
    (2, frozenset({2, 6})),
    (3, frozenset({0, 4, 8})),
    (3, frozenset({2, 4, 6})),
    (4, frozenset({0, 2, 6, 8})),
    (5, frozenset({0, 2, 4, 6, 8})),
    (6, frozenset({0, 3, 6, 2, 5, 8})),
    (6, frozenset({0, 1, 2, 6, 7, 8})),
)


@dataclass(frozen=True, slots=True)
class PipConfig:
    face_share: float = 0.95  # of the die's edge that a face crop covers (pips sit close to the edges)
    pitches: tuple[float, ...] = (0.22, 0.25, 0.28, 0.31)  # pip grid spacing tried, in die edges
    sigma: float = 0.045  # smoothing, in crop sides (about a pip's radius)
    reach: float = 0.05  # a pip may sit this far (crop sides) from its grid place
    min_contrast: float = 12.0  # Lab distance from the face that every pip place must exceed
    min_margin: float = 4.0  # weakest pip place over strongest empty place, Lab units
    sure_margin: float = 20.0  # a margin this large is certain
    dark_pips: bool = True  # the set's pips are darker than their face: only darker or other-coloured places count
    stray_share: float = 0.25  # a spot standing out this share as much as a read's pips is a pip too (see stray_pips)
    stray_reach: float = 0.15  # spots nearer each other than this (crop sides) are one
    stray_edge: float = 0.06  # and spots this near the crop's edge (crop sides) are left out: part of a face beside it


@lru_cache(maxsize=8)
def _places(side: int, cfg: PipConfig) -> tuple[NDArray[np.intp], NDArray[np.intp]]:
    """(pitches, 9) row and column of every grid place, for each pitch tried."""
    rows, cols = [], []
    for pitch in cfg.pitches:
        step = pitch / cfg.face_share * side
        g = np.array([-1, 0, 1], np.float64) * step + (side - 1) / 2
        rr, cc = np.meshgrid(g, g, indexing="ij")
        rows.append(np.clip(np.round(rr.ravel()), 0, side - 1).astype(np.intp))
        cols.append(np.clip(np.round(cc.ravel()), 0, side - 1).astype(np.intp))
    return np.array(rows), np.array(cols)


def medians_u8(channels: tuple[NDArray[np.uint8], ...]) -> list[np.float32]:
    """``np.median`` of each 8-bit channel (any shape), from their histograms (several times quicker on a die's
    crop or a blob's pixels)."""
    n = channels[0].size
    cumulative = np.cumsum([np.bincount(c.ravel(), minlength=256) for c in channels], axis=1)
    upper = (cumulative < n // 2 + 1).sum(axis=1)  # the order statistic n // 2 (from 0): a searchsorted per row
    if n % 2:
        return [np.float32(v) for v in upper]
    lower = (cumulative < n // 2).sum(axis=1)
    return [np.float32((int(lo) + int(up)) / 2) for lo, up in zip(lower, upper)]


def _contrast_map(face: Image, cfg: PipConfig) -> NDArray[np.float32]:
    """How far each pixel's colour is from the face's (Lab, smoothed to about a pip's radius)."""
    side = face.shape[0]
    lightness, a, b = channels = cv2.split(cv2.cvtColor(face, cv2.COLOR_BGR2LAB))
    # the face's colour is each channel's median: pips cover a sixth of a face at most
    ml, ma, mb = medians_u8(channels)
    dl = lightness.astype(np.float32) - ml
    if cfg.dark_pips:  # lighter than the face is a lamp's glint on the die, not a pip
        np.minimum(dl, 0.0, out=dl)
    da = a.astype(np.float32) - ma
    db = b.astype(np.float32) - mb
    dist = np.sqrt(dl * dl + da * da + db * db)
    return cv2.GaussianBlur(dist, (0, 0), max(0.5, side * cfg.sigma))


def place_contrast(face: Image, cfg: PipConfig = PipConfig()) -> NDArray[np.float32]:
    """(pitches, 9) how far each grid place's colour is from the face's, for each pitch tried."""
    return _at_places(_contrast_map(face, cfg), cfg)


def _at_places(smooth: NDArray[np.float32], cfg: PipConfig) -> NDArray[np.float32]:
    """(pitches, 9) the contrast map's highest value near each grid place, for each pitch tried."""
    side = smooth.shape[0]
    k = max(1, int(round(side * cfg.reach))) * 2 + 1
    near = cv2.dilate(smooth, np.ones((k, k), np.uint8))  # a pip a little off its place still counts
    rows, cols = _places(side, cfg)
    return near[rows, cols]


_VALUES = np.array([v for v, _ in LAYOUTS])
_MASKS = np.array([[k in pips for k in range(9)] for _, pips in LAYOUTS])  # (layouts, 9)
_VALUE_STARTS = np.array([int(np.argmax(_VALUES == v)) for v in range(1, 7)])  # each value's first layout


def read_pips(face: Image, cfg: PipConfig = PipConfig(), alone: bool = False) -> tuple[int | None, float, float]:
    """(value or None, confidence 0..1, margin) of an upright square crop of a die's top face.

    The margin (Lab units) is how far the weakest pip place of the best value stands out over
    the strongest empty place: it says how well the crop fits a face at all. With ``alone``, a crop
    showing more pips than the value it fits (see :func:`stray_pips`) reads no face.
    """
    if face.ndim != 3 or face.shape[0] < 12:
        return None, 0.0, -np.inf
    smooth = _contrast_map(face, cfg)
    on, off = _fits(smooth, cfg)
    per_layout = np.where(on >= cfg.min_contrast, on - off, -np.inf).max(axis=0)
    # each value's best layout (LAYOUTS runs in value order); in plain floats, as these few numbers are
    margins = [-math.inf] + np.maximum.reduceat(per_layout, _VALUE_STARTS).tolist()
    value = max(range(7), key=margins.__getitem__)
    best = margins[value]
    if not math.isfinite(best):
        return None, 0.0, -np.inf
    if best < cfg.min_margin:
        return None, 0.0, best
    if alone and _strays(smooth, value, on, off, cfg):
        return None, 0.0, -np.inf
    runner = max(m for v, m in enumerate(margins) if v != value)
    sure = min(best, best - runner) if math.isfinite(runner) else best
    return value, min(max(sure / cfg.sure_margin, 0.0), 1.0), best


def _fits(smooth: NDArray[np.float32], cfg: PipConfig) -> tuple[NDArray[np.float32], NDArray[np.float32]]:
    """(pitches, layouts) the weakest pip place of each layout, and its strongest empty place, on a contrast map."""
    contrast = _at_places(smooth, cfg)[:, None, :]  # (pitches, 1, 9)
    return np.where(_MASKS, contrast, np.inf).min(axis=2), np.where(_MASKS, -np.inf, contrast).max(axis=2)


def stray_pips(face: Image, value: int, cfg: PipConfig = PipConfig()) -> int:
    """How many more pips a crop read as ``value`` shows than that value has: spots, clear of the crop's edge,
    that stand out at least ``stray_share`` as much as the value's faintest pip. A crop that straddles a cocked
    die's top and a side face fits the two diagonal pips of a 2 with the pips of both faces around them."""
    smooth = _contrast_map(face, cfg)
    return _strays(smooth, value, *_fits(smooth, cfg), cfg)


def _strays(smooth: NDArray[np.float32], value: int, on: NDArray[np.float32], off: NDArray[np.float32], cfg: PipConfig) -> int:
    """:func:`stray_pips` on a crop's contrast map and its layouts' fits (see :func:`_fits`)."""
    side = smooth.shape[0]
    k = max(3, int(round(side * cfg.stray_reach)) | 1)
    peak = (smooth >= cv2.dilate(smooth, np.ones((k, k), np.uint8))) & (smooth >= cfg.min_contrast)
    rim = max(1, int(round(side * cfg.stray_edge)))
    inner = smooth[rim:side - rim, rim:side - rim][peak[rim:side - rim, rim:side - rim]]
    if inner.size <= value:
        return 0
    mine = _VALUES == value  # the faintest pip of the value's best fitting layout and pitch
    faintest = on[:, mine].ravel()[int(np.argmax((on - off)[:, mine]))]
    return max(0, int(np.count_nonzero(inner >= cfg.stray_share * faintest)) - value)
