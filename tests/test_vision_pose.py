"""The camera's pose from a calibration's homography (pinholes built by hand, and the Blender fixture)."""

from __future__ import annotations

import json
import math
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.calibrate import camera_of
from vision.config import CalibrationConfig
from vision.pose import camera_pose, estimate_pose, focal_from_homography

SIZE = (1280, 720)
DATA = Path(__file__).parent / "data" / "vision_blender"


def _homography(tilt_deg: float, focal: float, height: float, azimuth_deg: float = 30.0) -> np.ndarray:
    """Undistorted image px -> board mm of a pinhole ``height`` mm over the board point (240, 170), tilted."""
    axis = np.array([math.cos(math.radians(azimuth_deg)), math.sin(math.radians(azimuth_deg)), 0.0])
    rot, _ = cv2.Rodrigues(axis * math.radians(tilt_deg))
    rot = rot @ np.diag([1.0, -1.0, -1.0])  # camera looking down: its z axis is the board's -z
    centre = np.array([240.0, 170.0, height])
    t = -rot.T @ centre
    k = np.array([[focal, 0, SIZE[0] / 2], [0, focal, SIZE[1] / 2], [0, 0, 1]])
    img_from_board = k @ np.column_stack([rot.T[:, 0], rot.T[:, 1], t])
    return np.linalg.inv(img_from_board)


@pytest.mark.parametrize("tilt", [8.0, 12.0, 15.0])
def test_a_tilted_pinhole_gives_back_its_focal_length_tilt_and_height(tilt: float) -> None:
    hom = _homography(tilt, 1100.0, 600.0)
    assert focal_from_homography(hom, SIZE) == pytest.approx(1100.0, rel=1e-6)
    pose, measured = estimate_pose(hom, SIZE, 985.0)
    assert measured
    assert pose.tilt_deg == pytest.approx(tilt, abs=1e-6)
    assert pose.height == pytest.approx(600.0, rel=1e-6)


def test_the_foot_of_the_camera_is_where_it_hangs() -> None:
    pose = camera_pose(_homography(10.0, 1000.0, 550.0), SIZE, 1000.0)
    assert pose.nadir == pytest.approx((240.0, 170.0), abs=1e-6)


def test_a_camera_looking_straight_down_falls_back_on_the_prior_lens() -> None:
    pose, measured = estimate_pose(_homography(2.0, 1100.0, 600.0), SIZE, 985.0)
    assert not measured and pose.focal == 985.0
    assert pose.tilt_deg == pytest.approx(2.0, abs=0.5)
    assert pose.height == pytest.approx(600.0 * 985.0 / 1100.0, rel=0.02)  # the height scales with the assumed lens


def test_the_blender_fixture_camera_is_found_within_the_estimates_errors(calibrated) -> None:
    true = json.loads((DATA / "truth.json").read_text())["camera"]
    camera = camera_of(CalibrationConfig(), calibrated(DATA / "start.jpg"))
    assert abs(camera["tilt_deg"] - true["tilt_deg"]) < 2.0
    assert abs(camera["height_mm"] / true["height_mm"] - 1) < 0.25
