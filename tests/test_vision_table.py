"""The board finder on a table whose cloth has the colour of the leather points (seeded renders)."""

from __future__ import annotations

import cv2
import numpy as np

from vision.board import _drop_table_islands
from vision.calibrate import calibrate
from vision.config import CalibrationConfig
from vision.geometry import START_POINTS
from vision.read import BoardReader
from vision.render import random_scene, random_setup, render


def test_calibrates_on_a_mottled_olive_cloth() -> None:
    # setup 17 of bench_vision's seed 90210: olive patches of the cloth lie close around the frame
    seed = 90210 + 1000 * 17
    setup = random_setup(np.random.default_rng(seed))
    start, _ = render(random_scene(np.random.default_rng(seed + 1), setup.layout, start=True), setup, seed + 1)
    cal = calibrate(CalibrationConfig(), start)
    assert BoardReader(cal)(start)["points"] == list(START_POINTS)


def test_patches_inside_the_board_stay_and_patches_on_the_table_go() -> None:
    cfg = CalibrationConfig().finder
    img = np.full((200, 300, 3), (60, 90, 80), np.uint8)  # olive-grey cloth
    cv2.rectangle(img, (60, 40), (240, 160), (30, 60, 110), -1)  # walnut frame and field
    mask = np.zeros((200, 300), np.uint8)
    cv2.rectangle(mask, (80, 60), (100, 140), 255, -1)  # a point on the wood
    cv2.circle(mask, (30, 100), 12, 255, -1)  # a leather-coloured patch of cloth
    out = _drop_table_islands(cfg, img, mask)
    assert out[100, 90] and not out[100, 30]
