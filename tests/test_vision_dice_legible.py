"""A die the camera saw too small to read is never reported surely (vision.dice_board): its size in camera pixels
comes from the calibration's homography and the camera's height, and caps the die's confidence below the
referee's "sure" (0.6). Expected values are worked by hand from the set's 16 mm die."""

from __future__ import annotations

import numpy as np
import pytest

from vision.config import ReaderConfig
from vision.dice_board import LEGIBLE_EDGE_PX, seen_edge_px, sure_of
from vision.pose import Viewpoint

CENTRE = (120.0, 160.0)  # canonical mm: on the leather of a half (neither frame nor bar)


def test_a_die_seen_straight_down_at_two_pixels_a_mm_spans_its_edge_twice() -> None:
    # image px -> mm halves: 2 px a mm; a camera so high that the die's top is seen at the plane's scale
    hom = np.diag([0.5, 0.5, 1.0])
    far = Viewpoint(nadir=CENTRE, height=1e9, plane=0.0)
    assert seen_edge_px(ReaderConfig(), hom, far, CENTRE) == pytest.approx(32.0, abs=1e-3)


def test_the_die_top_is_seen_larger_for_standing_nearer_the_camera() -> None:
    # 716 mm over the leather, the top 16 mm up: seen 716 / 700 larger
    hom = np.diag([0.5, 0.5, 1.0])
    near = Viewpoint(nadir=CENTRE, height=716.0, plane=0.0)
    assert seen_edge_px(ReaderConfig(), hom, near, CENTRE) == pytest.approx(32.0 * 716 / 700, abs=1e-3)


def test_a_squeezed_view_counts_the_area_a_mm_covers() -> None:
    # 3 px a mm across and 1.5 down (a tilted camera's foreshortening): sqrt(4.5) px a mm on average
    hom = np.diag([1 / 3, 1 / 1.5, 1.0])
    far = Viewpoint(nadir=CENTRE, height=1e9, plane=0.0)
    assert seen_edge_px(ReaderConfig(), hom, far, CENTRE) == pytest.approx(16 * 4.5 ** 0.5, abs=1e-3)


def _die(edge_px: float | None) -> dict[str, object]:
    die: dict[str, object] = {"value": 3, "flat": True, "half": "home", "confidence": 0.95, "xy_mm": [120.0, 160.0], "cocked": 0.02}
    return die if edge_px is None else {**die, "edge_px": edge_px}


def test_a_die_seen_at_fewer_pixels_than_millimetres_is_unsure() -> None:
    assert LEGIBLE_EDGE_PX == 16.0  # one camera pixel per mm of the 16 mm die
    assert sure_of(_die(12.0))["confidence"] == 0.5


def test_a_die_seen_large_enough_keeps_its_confidence() -> None:
    # the pips' 0.95 against the cocked network's |2 * 0.02 - 1| = 0.96
    assert sure_of(_die(24.0))["confidence"] == 0.95
    assert sure_of(_die(None))["confidence"] == 0.95
