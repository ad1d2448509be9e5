"""The die-or-not guard of ``bgref dice`` (``vision/dice_guard.json``) on crops drawn here by hand."""

from __future__ import annotations

import cv2
import numpy as np

from vision.dice_cnn import GUARD_PATH, load_die_guard


def _die(pips: list[tuple[int, int]]) -> np.ndarray:
    crop = np.full((48, 48, 3), (228, 230, 232), np.uint8)
    for x, y in pips:
        cv2.circle(crop, (x, y), 5, (20, 20, 20), -1, cv2.LINE_AA)
    return crop


def _key(legend: str, dark: bool) -> np.ndarray:
    """A laptop keycap filling the crop, its legend in OpenCV's own face (no typeface the guard was fitted with)."""
    crop = np.full((48, 48, 3), (45, 45, 48) if dark else (235, 235, 235), np.uint8)
    cv2.putText(crop, legend, (14, 33), cv2.FONT_HERSHEY_SIMPLEX, 0.9, (220, 220, 220) if dark else (40, 40, 40), 2, cv2.LINE_AA)
    return crop


def test_the_guard_is_small_and_keeps_die_faces() -> None:
    guard = load_die_guard()
    assert guard is not None and GUARD_PATH.stat().st_size < 1_000_000
    for value, pips in ((1, [(24, 24)]), (3, [(12, 12), (24, 24), (36, 36)]), (5, [(12, 12), (36, 12), (24, 24), (12, 36), (36, 36)])):
        p = guard.read([_die(pips)], 8)
        assert p[0] < 0.5 and int(np.argmax(p[1:])) + 1 == value


def test_the_guard_rejects_laptop_keys() -> None:
    guard = load_die_guard()
    for legend, dark in (("K", True), ("A", False), ("7", True)):
        assert guard.read([_key(legend, dark)], 8)[0] >= 0.5, legend
