"""The light the dice are looked for in: the light normalisation scales the frame's wood to its calibrated
colour, and dark walnut under a bright lamp takes a gain of two or more, which would clip mid leather to the
white of the dice. Values written by hand from that picture, not from the reader."""

from __future__ import annotations

import cv2
import numpy as np

from vision.blobs import off_surface
from vision.config import ReaderConfig
from vision.light import unclipped_gains

CFG = ReaderConfig()
LEATHER = (97, 121, 175)  # BGR of mid (pinkish) leather as a camera sees it under a cool lamp
DIE = (162, 177, 189)  # a white die beside it: lighter in every channel
GAIN = 2.3  # what dark walnut (brightest channel near 48) takes to reach the wood level of 110


def _board(leather: tuple[int, int, int]) -> tuple[np.ndarray, tuple[int, int]]:
    """A canonical view: the leather everywhere, a 16 mm die in the middle of the right half's playing surface."""
    h, w = off_surface(CFG).shape
    raw = np.empty((h, w, 3), np.uint8)
    raw[:] = leather
    ppm, geo = CFG.px_per_mm, CFG.geometry
    x, y = int((geo.bar_x[1] + geo.width) / 2 * ppm), int(geo.depth / 2 * ppm)
    half = int(geo.die_edge / 2 * ppm)
    raw[y - half:y + half, x - half:x + half] = DIE
    return raw, (x, y)


def _lightness(bgr: np.ndarray, at: tuple[int, int]) -> float:
    return float(cv2.cvtColor(bgr, cv2.COLOR_BGR2LAB)[at[1], at[0], 0])


def test_leather_clipped_to_the_dice_white_is_scaled_back_below_it() -> None:
    raw, die_at = _board(LEATHER)
    gains = np.full(raw.shape, GAIN, np.float32)
    leather_at = (die_at[0], die_at[1] - 40)
    clipped = cv2.multiply(raw, gains, dtype=cv2.CV_8U)
    # the picture's trouble: leather (223, 278, 402) clips to (223, 255, 255), a die to white; hardly apart
    assert _lightness(clipped, die_at) - _lightness(clipped, leather_at) < 5
    scaled = unclipped_gains(CFG, raw, gains)
    # the leather's red (175 x 2.3 = 402) brought to 255: every gain scaled by 255 / 402, ratios kept
    np.testing.assert_allclose(scaled, GAIN * 255.0 / (175 * GAIN), rtol=1e-3)
    lit = cv2.multiply(raw, scaled, dtype=cv2.CV_8U)
    # leather (141, 176, 255) against a die at (236, 255, 255): a white die on light leather again
    assert _lightness(lit, die_at) - _lightness(lit, leather_at) > 15


def test_leather_that_does_not_clip_keeps_its_gains() -> None:
    raw, _ = _board((60, 70, 90))  # dark leather: 90 x 2.3 = 207, below 255
    gains = np.full(raw.shape, GAIN, np.float32)
    assert unclipped_gains(CFG, raw, gains) is gains
