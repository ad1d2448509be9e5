"""Top-down views of a calibrated frame: the canonical warp, windows cut from it at any resolution, and the
strips past the board's outline (a die or the cube on the frame is seen shifted outwards, past the canonical image)."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import NamedTuple

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.blobs import WhiteBlob, local_background, white_blobs
from vision.calibration import Calibration
from vision.config import ReaderConfig

Image = NDArray[np.uint8]
Maps = tuple[NDArray[np.float32], NDArray[np.float32]]


class Warp(NamedTuple):
    """A top-down view's remap tables, reaching ``pad`` pixels past the view on every side (the cube on a
    long side's frame is read on a patch that may reach past the canonical image)."""

    maps: Maps
    pad: int = 0

    @property
    def view_size(self) -> tuple[int, int]:
        """(width, height) in pixels of the view itself."""
        return self.maps[0].shape[1] - 2 * self.pad, self.maps[0].shape[0] - 2 * self.pad

    def cut(self, x0: int, y0: int, w: int, h: int) -> Maps | None:
        """The tables of the view's pixels [x0, x0 + w) x [y0, y0 + h), or None where they reach past the warp."""
        x, y = x0 + self.pad, y0 + self.pad
        if x < 0 or y < 0 or x + w > self.maps[0].shape[1] or y + h > self.maps[0].shape[0]:
            return None
        return self.maps[0][y:y + h, x:x + w], self.maps[1][y:y + h, x:x + w]


def cube_pad(cfg: ReaderConfig) -> int:
    """Pixels past the canonical image (at ``cfg``'s resolution) that a cube's patch may reach: the cube may
    seem to lie ``cube_past_outline`` past the outline, and a patch reaches past its blob."""
    return int(np.ceil((cfg.cube_past_outline + cfg.geometry.cube_edge * (cfg.cube_patch + 1.0)) * cfg.px_per_mm))


def _crop(canon: Image, centre: tuple[float, float], size: tuple[float, float], angle: float, out: int) -> Image:
    """An upright ``out`` x ``out`` crop of the rectangle (centre, size, angle) in pixels."""
    (cx, cy), (w, h) = centre, size
    m = cv2.getRotationMatrix2D((cx, cy), angle, 1.0)
    sx, sy = out / max(w, 1.0), out / max(h, 1.0)  # each row scaled, then the centre moved to the crop's
    m[0] *= sx
    m[1] *= sy
    m[0, 2] += out / 2.0 - sx * cx
    m[1, 2] += out / 2.0 - sy * cy
    return cv2.warpAffine(canon, m, (out, out), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)


def board_patch(cfg: ReaderConfig, cal: Calibration, image: Image, centre_mm: tuple[float, float], half_mm: float) -> Image:
    """A top-down square of the camera image around ``centre_mm`` on the canonical plane, at the reader's
    resolution; unlike the canonical image it may reach past the board (a cube's top on the frame does)."""
    return board_window(cfg, cal, image, (centre_mm[0] - half_mm, centre_mm[1] - half_mm), (2 * half_mm, 2 * half_mm))


def board_window(cfg: ReaderConfig, cal: Calibration, image: Image, corner_mm: tuple[float, float],
                 size_mm: tuple[float, float]) -> Image:
    """A top-down rectangle of the camera image (top-left ``corner_mm``, ``size_mm``) on the canonical plane."""
    return _remap_window(image, window_maps(cfg, cal, corner_mm, size_mm))


def _remap_window(image: Image, maps: Maps) -> Image:
    # past the camera's image nothing is seen: black, not the edge pixels smeared outwards (a cube at the
    # image's edge would grow a light tail)
    return cv2.remap(image, maps[0], maps[1], cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT, borderValue=(0, 0, 0))


def window_maps(cfg: ReaderConfig, cal: Calibration, corner_mm: tuple[float, float], size_mm: tuple[float, float]) -> Maps:
    """Where each pixel of a top-down window of the canonical plane lies in the camera image (for cv2.remap)."""
    ppm = cfg.px_per_mm
    nx, ny = int(round(size_mm[0] * ppm)), int(round(size_mm[1] * ppm))
    yy, xx = np.mgrid[0:ny, 0:nx].astype(np.float64)
    mm = np.stack([corner_mm[0] + (xx + 0.5) / ppm, corner_mm[1] + (yy + 0.5) / ppm], axis=-1)
    und = cv2.perspectiveTransform(mm.reshape(-1, 1, 2), np.linalg.inv(cal.homography)).reshape(-1, 2)
    dist = cal.lens.distort(und).reshape(ny, nx, 2).astype(np.float32)
    return np.ascontiguousarray(dist[..., 0]), np.ascontiguousarray(dist[..., 1])


@dataclass(frozen=True, slots=True)
class OutlineBand:
    """A strip along one of the board's long sides reaching past its outline, warped from the camera image:
    what stands on the frame there is seen shifted outwards, often off the canonical image."""

    y0: float  # canonical mm of the strip's top edge
    image: Image  # BGR, the reader's resolution
    blobs: tuple[WhiteBlob, ...]  # light, die- or cube-sized blobs, in the strip's own pixels and mm


def band_maps(cfg: ReaderConfig, cal: Calibration) -> list[tuple[float, Maps]]:
    """(top edge mm, warp maps) of the two long sides' strips past the outline."""
    geo = cfg.geometry
    reach = cfg.cube_past_outline
    return [(y0, window_maps(cfg, cal, (0.0, y0), (geo.width, reach + geo.frame))) for y0 in (-reach, geo.depth - geo.frame)]


def outline_bands(cfg: ReaderConfig, cal: Calibration, image: Image, maps: list[tuple[float, Maps]] | None = None) -> list[OutlineBand]:
    """The two long sides' strips, where the players sit (the cube's place when owned; dice that miss the board)."""
    out = []
    for y0, m in (maps if maps is not None else band_maps(cfg, cal)):
        window = _remap_window(image, m)
        lab = cv2.cvtColor(window, cv2.COLOR_BGR2LAB)
        lightness = lab[..., 0].astype(np.float32)
        chroma = cv2.absdiff(lab[..., 1], 128).astype(np.int16) + cv2.absdiff(lab[..., 2], 128)
        counts = np.bincount(lab[..., 0].ravel(), minlength=256)
        counts[0] = 0  # past the camera's image the window is black
        if not counts.any():
            out.append(OutlineBand(y0, window, ()))
            continue
        ground, top = _levels(counts, (0.75, 0.995))  # frame or table, whichever is the lighter there
        # a lamp's sheen on the frame's edge can be lighter than the ground by the contrast too: a light thing
        # must also stand out by a share of the way up to the lightest there (a white cube or die)
        level = max(ground + cfg.cube_past_contrast, ground + cfg.cube_past_share * (top - ground))
        # and stand out from what lies around it: a lamp's hot spot on a pale table speckles it light
        local = local_background(cfg, lab[..., 0]) + cfg.cube_past_contrast
        light = ((lightness > np.maximum(local, level)) & (chroma < cfg.cube_max_chroma)).astype(np.uint8)
        blobs = tuple(b for b in white_blobs(cfg, cal, lab, light) if cfg.die_min_side <= b.size[0] <= b.size[1] <= cfg.band_max_footprint)
        out.append(OutlineBand(y0, window, blobs))
    return out


def _levels(counts: NDArray[np.int64], shares: tuple[float, ...]) -> tuple[float, ...]:
    """The lightness levels below which these shares of a histogram's pixels lie."""
    cum = np.cumsum(counts)
    return tuple(float(np.searchsorted(cum, share * cum[-1])) for share in shares)


def _on_canonical(cfg: ReaderConfig, band: OutlineBand, blob: WhiteBlob) -> WhiteBlob:
    """A band's blob in canonical mm and pixels (its pixels may lie past the canonical image)."""
    shift = np.array([0, int(round(band.y0 * cfg.px_per_mm))], np.int32)
    return replace(blob, centre=(blob.centre[0], blob.centre[1] + band.y0), contour=blob.contour + shift)


def on_long_frame(cfg: ReaderConfig, xy: tuple[float, float]) -> bool:
    """Whether canonical ``xy`` lies on (or past) the frame along a long side."""
    geo = cfg.geometry
    return not geo.frame <= xy[1] <= geo.depth - geo.frame
