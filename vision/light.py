"""The frame as the lamp meter (its light normalised to calibration's) and the camera's viewpoint over the board."""

from __future__ import annotations


import cv2
import numpy as np
from numpy.typing import NDArray

from vision.calibration import Calibration
from vision.config import ReaderConfig
from vision.pose import Viewpoint, viewpoint
from vision.profiles import light_gains

Image = NDArray[np.uint8]


def camera_view(cfg: ReaderConfig, cal: Calibration) -> Viewpoint:
    """The camera's viewpoint over the canonical plane, which calibration fits to the start checkers' tops."""
    return viewpoint(cal.homography, cal.image_size, cfg.focal_per_width * cal.image_size[0], cfg.geometry.checker_thickness)


def normalise_light(cfg: ReaderConfig, cal: Calibration, canon: Image) -> Image:
    """The frame as the lamp meter: its falloff divided out, then each channel scaled so the wood
    has its colour at calibration."""
    return cv2.multiply(canon, normalise_gains(cfg, cal, canon), dtype=cv2.CV_8U)


def normalise_gains(cfg: ReaderConfig, cal: Calibration, canon: Image) -> NDArray[np.float32]:
    """The (H, W, 3) gains :func:`normalise_light` multiplies the frame by."""
    return light_gains(cfg, canon, cfg.wood_level, np.asarray(cal.frame_reference, np.float32))
