"""The frame as the lamp meter (its light normalised to calibration's) and the camera's viewpoint over the board."""

from __future__ import annotations


import cv2
import numpy as np
from numpy.typing import NDArray

from vision.blobs import off_surface
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


def unclipped_gains(cfg: ReaderConfig, raw: Image, gains: NDArray[np.float32]) -> NDArray[np.float32]:
    """``gains`` (the light normalisation's, which scale the frame's wood to its calibrated colour), scaled down as a
    whole when they would clip the playing surface's leather: when more than ``unclipped_share`` of its pixels would
    pass 255 in a channel. Dark walnut under a bright lamp takes a gain of two or more, which clips mid leather to the
    white of the dice (on the evaluation renderer's dev split, most of the playing surface clipped in every dark
    walnut setup, and on mid leather sharp dice went unseen); scaled down, the leather is darker than the dice
    again and every ratio of lightness is kept, while the dice (a small share) may still clip as they did. The
    same ``gains`` when the leather does not clip."""
    on = ~off_surface(cfg)
    step = 2  # every other pixel each way tells the share as well
    lit = (raw[::step, ::step].astype(np.float32) * gains[::step, ::step]).max(axis=2)[on[::step, ::step]]
    if lit.size == 0:
        return gains
    top = float(np.percentile(lit, 100.0 * (1.0 - cfg.unclipped_share)))
    return gains if top <= 255.0 else gains * np.float32(255.0 / top)
