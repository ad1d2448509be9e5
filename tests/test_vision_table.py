"""The board finder on tables and under lamps that give the board's wood or the table the leather's colours (seeded renders)."""

from __future__ import annotations


import cv2
import numpy as np
import pytest

from vision.board import _drop_table_islands, lamp_gains
from vision.calibrate import calibrate
from vision.config import CalibrationConfig
from vision.geometry import START_POINTS
from vision.read import BoardReader
from vision.render import random_scene, random_setup, render


def _calibrates_and_reads_back(base: int, setup_index: int) -> bool:
    """Whether bench_vision's setup ``setup_index`` of seed ``base`` calibrates on its start position and reads it back."""
    seed = base + 1000 * setup_index
    setup = random_setup(np.random.default_rng(seed))
    start, _ = render(random_scene(np.random.default_rng(seed + 1), setup.layout, start=True), setup, seed + 1)
    return BoardReader(calibrate(CalibrationConfig(), start))(start).to_json()["points"] == list(START_POINTS)


@pytest.mark.slow  # renders and calibrates several setups
def test_calibrates_on_a_mottled_olive_cloth() -> None:
    # setup 17 of bench_vision's seed 90210: olive patches of the cloth lie close around the frame
    assert _calibrates_and_reads_back(90210, 17)


def test_patches_inside_the_board_stay_and_patches_on_the_table_go() -> None:
    cfg = CalibrationConfig().finder
    img = np.full((200, 300, 3), (60, 90, 80), np.uint8)  # olive-grey cloth
    cv2.rectangle(img, (60, 40), (240, 160), (30, 60, 110), -1)  # walnut frame and field
    mask = np.zeros((200, 300), np.uint8)
    cv2.rectangle(mask, (80, 60), (100, 140), 255, -1)  # a point on the wood
    cv2.circle(mask, (30, 100), 12, 255, -1)  # a leather-coloured patch of cloth
    out = _drop_table_islands(cfg, img, mask)
    assert out[100, 90] and not out[100, 30]


def test_calibrates_under_a_warm_lamp_on_reddish_walnut() -> None:
    # setup 29 of bench_vision's seed 4711: the lamp turns the walnut field as orange as the leather and
    # the olive points' hue below olive; only the colours judged after undoing the lamp's cast find the board
    assert _calibrates_and_reads_back(4711, 29)


def test_lamp_gains_make_the_brightest_pixels_grey() -> None:
    cfg = CalibrationConfig().finder
    img = np.full((100, 100, 3), (40, 60, 90), np.uint8)  # walnut under a warm lamp (BGR)
    img[:10, :10] = (150, 200, 250)  # the cube, warm-tinted: 1% of the view
    gains = lamp_gains(cfg, img)
    grey = np.asarray((150, 200, 250), np.float32) * gains
    assert np.ptp(grey) < 1.0


@pytest.mark.slow  # renders and calibrates several setups
def test_calibrates_when_the_outline_misses_a_column_covered_end_to_end() -> None:
    # setup 15 of bench_vision's seed 3434343: the two five-stacks at the outer boards' end meet mid-board,
    # no leather shows in that column, and the board's fit lies a point's width off at that end; only
    # the refit to start checkers looked for farther afield finds the board
    # (without the wide refit it failed until s37, when the board finder tried the outline as the frame's edge
    # too; that counterfactual no longer holds and is not asserted)
    assert _calibrates_and_reads_back(3434343, 15)
