"""Arms, hands and sleeves over the board: where the reader must report ``occluded`` instead of guessing."""

from __future__ import annotations


import cv2
import numpy as np
from numpy.typing import NDArray

from vision.blobs import _morph
from vision.calibration import Calibration
from vision.config import ReaderConfig

Image = NDArray[np.uint8]


def arm_over_board(cfg: ReaderConfig, cal: Calibration, lab: Image, near_white: NDArray[np.uint8]) -> NDArray[np.uint8] | None:
    """Where an arm (or a sleeve, a cup held low) lies over the board, or None.

    An arm reaches in from outside, so it crosses the frame: a stretch of the frame band wider
    than a die or the cube whose colour is not the frame's all the way across, and is no wood
    at all (a shadow on the frame is still wood). From there it is followed inwards by its own
    colour. Skin is too like lit copper and leather for the points' colour classes to call it
    foreign, but it is never the frame's wood.
    """
    ppm, geo = cfg.px_per_mm, cfg.geometry
    f = int(round(geo.frame * ppm))
    h, w = lab.shape[:2]
    inset = max(1, f // 5)
    # the four sides of the frame band: (rows, columns, axis across the band); judged on the band alone, as
    # this runs on every frame
    sides = [(slice(inset, f - inset), slice(0, w), 0), (slice(h - f + inset, h - inset), slice(0, w), 0),
             (slice(0, h), slice(inset, f - inset), 1), (slice(0, h), slice(w - f + inset, w - inset), 1)]
    bands = [lab[r, c].astype(np.float32) for r, c, _ in sides]
    step = max(1, sum(b.shape[0] * b.shape[1] for b in bands) // 4000)  # some 4000 pixels tell the frame's colour
    wood = np.concatenate([b.reshape(-1, 3)[::step][near_white[r, c].ravel()[::step] == 0] for b, (r, c, _) in zip(bands, sides)])
    if len(wood) == 0:
        return None
    frame = np.median(wood, axis=0)
    foreign = np.zeros((h, w), bool)
    for band, (r, c, _) in zip(bands, sides):
        off = band - frame
        foreign[r, c] = (np.einsum("...k,...k->...", off, off) > cfg.arm_frame_distance ** 2) & (near_white[r, c] == 0)
    woods = [cal.classes[k] for k in ("field", "bar") if k in cal.classes]
    seeds = np.zeros((h, w), np.uint8)
    run = int(round(cfg.arm_min_width * ppm))
    for band, (rows, cols, across) in zip(bands, sides):
        # a strip of the band unlike the frame all along the side is no frame: its inner wall in shade, which a
        # tilted camera sees on the side away from it. Only the frame's own strips tell a crossing.
        look = np.median(band[:, ::4] if across == 0 else band[::4], axis=1 - across)  # (across, 3)
        own = np.linalg.norm(look - frame, axis=-1) <= cfg.arm_frame_distance
        strips = own if own.sum() >= 2 else np.ones_like(own)
        share = foreign[rows, cols][strips, :].mean(axis=0) if across == 0 else foreign[rows, cols][:, strips].mean(axis=1)
        crossed = (share >= cfg.arm_across_share).astype(np.uint8).reshape(1, -1)
        n, labels, stats, _ = cv2.connectedComponentsWithStats(crossed)
        for i in range(1, n):
            if stats[i, cv2.CC_STAT_WIDTH] < run:
                continue
            along = labels[0] == i
            part = np.zeros((h, w), bool)
            view = part[rows, cols]
            if across == 0:
                view[:, along] = True
            else:
                view[along, :] = True
            part &= foreign
            colour = np.median(lab[part].astype(np.float32), axis=0, keepdims=True)
            if any(c.loglik(colour, cfg.loglik_floor)[0] > cfg.arm_wood_loglik for c in woods):
                continue  # a shadow or a dark grain of the frame: wood, not an arm
            seeds[part] = 1
    if not seeds.any():
        return None
    arm = np.median(lab[seeds > 0].astype(np.float32), axis=0)
    alike = (np.linalg.norm(lab.astype(np.float32) - arm, axis=-1) < cfg.arm_colour_distance).astype(np.uint8)
    alike = _morph(alike | seeds, cv2.MORPH_CLOSE, cfg.white_close, ppm)
    _, labels = cv2.connectedComponents(alike)
    keep = np.unique(labels[seeds > 0])
    keep = keep[keep > 0]
    return np.isin(labels, keep).astype(np.uint8)
