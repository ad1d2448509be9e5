"""Colour classes and colour profiles sampled along each point and along the bar."""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.config import ReaderConfig
from vision.geometry import BoardGeometry, Layout, point_axis, transform

Image = NDArray[np.uint8]
Lab = NDArray[np.float32]


def lab_image(bgr: Image) -> Lab:
    """Lab with L, a, b on 0..255 (OpenCV's 8-bit scaling) as float32."""
    return cv2.cvtColor(bgr, cv2.COLOR_BGR2LAB).astype(np.float32)


def lab8_image(bgr: Image) -> Image:
    """Lab with L, a, b on 0..255 as uint8 (cheap; profiles convert only what they sample)."""
    return cv2.cvtColor(bgr, cv2.COLOR_BGR2LAB)


def gaussian_loglik(lab: NDArray[Any], mean: NDArray[np.float32], std: NDArray[np.float32], floor: float) -> NDArray[np.float32]:
    """-1/2 the squared distance of each Lab sample (last axis) from ``mean`` in units of ``std`` (both broadcast
    against ``lab``), but no lower than ``floor``."""
    # channel by channel: arithmetic on whole (..., 3) arrays and sums over a last axis of 3 are slow
    lab, mean, std = np.asarray(lab), np.asarray(mean), np.asarray(std)

    def squared(c: int) -> NDArray[np.float32]:
        z = np.subtract(lab[..., c], mean[..., c], dtype=np.float32)
        z /= std[..., c]
        z *= z
        return z

    q = squared(0)
    q += squared(1)
    q += squared(2)
    q *= np.float32(-0.5)
    return np.maximum(q, np.float32(floor), out=q)


@dataclass(frozen=True, slots=True)
class ColourClass:
    """A diagonal Gaussian in Lab."""

    mean: tuple[float, float, float]
    std: tuple[float, float, float]

    @classmethod
    def fit(cls, pixels: NDArray[np.float32], min_std: tuple[float, float, float]) -> ColourClass:
        px = np.asarray(pixels, np.float32).reshape(-1, 3)
        if len(px) == 0:
            raise ValueError("no pixels to learn a colour from")
        mean = np.median(px, axis=0)
        mad = np.median(np.abs(px - mean), axis=0) * 1.4826
        std = np.maximum(mad, np.asarray(min_std, np.float32))
        return cls(tuple(float(v) for v in mean), tuple(float(v) for v in std))  # type: ignore[arg-type]

    def loglik(self, lab: NDArray[np.float32], floor: float) -> NDArray[np.float32]:
        return gaussian_loglik(lab, np.asarray(self.mean, np.float32), np.asarray(self.std, np.float32), floor)

    def to_json(self) -> dict[str, Any]:
        return {"mean": [round(v, 3) for v in self.mean], "std": [round(v, 3) for v in self.std]}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> ColourClass:
        return cls(tuple(float(v) for v in data["mean"]), tuple(float(v) for v in data["std"]))  # type: ignore[arg-type]


@dataclass(frozen=True, slots=True)
class Profiles:
    """Mean Lab colour at each sample position along each point and each half of the bar."""

    positions: NDArray[np.float64]  # mm from the point's base
    points: NDArray[np.float32]  # (24, lines x S, 3), dark's numbering; lines = cfg.lateral_lines
    bar_positions: NDArray[np.float64]  # mm from the board's centre
    bar_dark: NDArray[np.float32]  # (B, 3)
    bar_light: NDArray[np.float32]


Grid = tuple[NDArray[np.intp], NDArray[np.intp]]


@lru_cache(maxsize=16)
def _sample_grid(cfg: ReaderConfig, layout: Layout) -> tuple[Grid, Grid, NDArray[np.float64], NDArray[np.float64]]:
    """Pixel (rows, cols) of every profile sample x lateral offset: 24 points, then the 2 bar halves."""
    geo = cfg.geometry
    s = np.arange(0.0, cfg.profile_length, cfg.profile_step)
    lat = np.linspace(-cfg.strip_half_width, cfg.strip_half_width, 3)
    xs, ys = [], []
    for p in range(1, 25):
        (bx, by), (dx, dy) = point_axis(geo, layout, p)
        px, py = [], []
        for line in cfg.lateral_lines:
            off = line + lat
            px.append(bx + dx * s[:, None] - dy * off[None, :])
            py.append(by + dy * s[:, None] + dx * off[None, :])
        xs.append(np.concatenate(px))
        ys.append(np.concatenate(py))
    bs = np.arange(cfg.bar_profile_start, geo.depth_inner / 2, cfg.profile_step)
    bxs, bys = _bar_axis(geo, layout, bs, lat)
    return _pixels(cfg, np.array(xs), np.array(ys)), _pixels(cfg, np.array(bxs), np.array(bys)), s, bs


def _pixels(cfg: ReaderConfig, xs: NDArray[np.float64], ys: NDArray[np.float64]) -> Grid:
    ppm, geo = cfg.px_per_mm, cfg.geometry
    cols = np.clip(np.round(xs * ppm - 0.5).astype(np.intp), 0, int(round(geo.width * ppm)) - 1)
    rows = np.clip(np.round(ys * ppm - 0.5).astype(np.intp), 0, int(round(geo.depth * ppm)) - 1)
    return rows, cols


def _bar_axis(geo: BoardGeometry, layout: Layout, bs: NDArray[np.float64], lat: NDArray[np.float64]) -> tuple[list[Any], list[Any]]:
    xs, ys = [], []
    cx, cy = geo.centre
    for towards_dark in (True, False):
        sign = 1.0 if towards_dark else -1.0  # standard layout: dark's side is +y
        arr = np.array([[transform(geo, layout, (cx + lt, cy + sign * b)) for lt in lat] for b in bs])
        xs.append(arr[..., 0])
        ys.append(arr[..., 1])
    return xs, ys


def sample_profiles(cfg: ReaderConfig, lab: Lab | Image, layout: Layout) -> Profiles:
    (prow, pcol), (brow, bcol), s, bs = _sample_grid(cfg, layout)
    pts = _lateral_mean(lab, prow, pcol)
    bar = _lateral_mean(lab, brow, bcol)
    return Profiles(s, pts, bs, bar[0], bar[1])


def _lateral_mean(lab: Lab | Image, rows: NDArray[np.intp], cols: NDArray[np.intp]) -> NDArray[np.float32]:
    """The mean colour over the last axis of the sample grid (the offsets across a strip), as float32: what
    ``lab[rows, cols].astype(np.float32).mean(axis=2)`` gives; an 8-bit image's sums are taken in integers, which
    is quicker and, its values being whole, the same."""
    if lab.dtype != np.uint8 or rows.shape[-1] > 257:
        return lab[rows, cols].astype(np.float32).mean(axis=2)
    picked = lab.reshape(-1, lab.shape[-1])[rows * lab.shape[1] + cols]  # one gather through flat indices
    total = picked[..., 0, :].astype(np.uint16)
    for k in range(1, rows.shape[-1]):
        total += picked[..., k, :]
    return total.astype(np.float32) / np.float32(rows.shape[-1])


def sample_mask(cfg: ReaderConfig, mask: Image, layout: Layout) -> tuple[NDArray[np.bool_], NDArray[np.bool_], NDArray[np.bool_]]:
    """Whether each profile sample (points, dark bar half, light bar half) hits ``mask``."""
    (prow, pcol), (brow, bcol), _, _ = _sample_grid(cfg, layout)
    pts = mask[prow, pcol].max(axis=2) > 0
    bar = mask[brow, bcol].max(axis=2) > 0
    return pts, bar[0], bar[1]


def frame_band(cfg: ReaderConfig, canon: NDArray[Any]) -> NDArray[Any]:
    """Pixels of the frame (the outer wooden band), as an (N, 3) array."""
    ppm, geo = cfg.px_per_mm, cfg.geometry
    f = int(geo.frame * ppm)
    inset = max(1, f // 4)
    h, w = canon.shape[:2]
    parts = [canon[inset:f - inset, inset:w - inset], canon[h - f + inset:h - inset, inset:w - inset],
             canon[f:h - f, inset:f - inset], canon[f:h - f, w - f + inset:w - inset]]
    return np.concatenate([p.reshape(-1, canon.shape[2] if canon.ndim == 3 else 1) for p in parts])


def wood_cells(cfg: ReaderConfig, grey: Image, ppm: float) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """Centres (mm) and mean brightness of small cells of bare wood (frame and bar) in ``grey`` (``ppm`` px per mm)."""
    geo = cfg.geometry
    step, f = cfg.light_cell, geo.frame
    inset = f / 4
    b0, b1 = geo.bar_x
    boxes: list[tuple[float, float, float, float]] = []  # x0, y0, x1, y1 in mm
    for x in np.arange(inset, geo.width - inset - step / 2, step):
        boxes += [(x, inset, x + step, f - inset), (x, geo.depth - f + inset, x + step, geo.depth - inset)]
    for y in np.arange(f, geo.depth - f - step / 2, step):
        boxes += [(inset, y, f - inset, y + step), (geo.width - f + inset, y, geo.width - inset, y + step)]
        boxes.append((b0 + inset, y, b1 - inset, y + step))
    box = np.array(boxes)
    c0, r0 = (box[:, 0] * ppm).astype(int), (box[:, 1] * ppm).astype(int)
    c1 = np.minimum((box[:, 2] * ppm).astype(int), grey.shape[1])
    r1 = np.minimum((box[:, 3] * ppm).astype(int), grey.shape[0])
    ok = (c1 > c0) & (r1 > r0)
    total = cv2.integral(grey)  # cell means in O(1) each; the fit drops cells a die or the cube spoils
    sums = total[r1, c1] - total[r0, c1] - total[r1, c0] + total[r0, c0]
    level = sums / np.maximum((r1 - r0) * (c1 - c0), 1)
    xy = np.column_stack([(box[:, 0] + box[:, 2]) / 2, (box[:, 1] + box[:, 3]) / 2])
    return xy[ok], level[ok].astype(np.float64)


def _quadratic_terms(x: NDArray[np.float64], y: NDArray[np.float64]) -> NDArray[np.float64]:
    return np.stack([np.ones_like(x), x, y, x * x, y * y, x * y], axis=-1)


def light_field(cfg: ReaderConfig, canon: Image) -> NDArray[np.float32]:
    """How bright the lamp makes the wood (its brightest channel) at every canonical pixel: a smooth
    surface fitted to the frame and bar.

    A log-quadratic in position, refitted without the cells it explains worst (a die, the cube,
    a hand or a checker on the bar lies on some of them).
    """
    geo, s = cfg.geometry, cfg.background_step
    h, w = canon.shape[:2]
    small = cv2.resize(canon, (w // s, h // s), interpolation=cv2.INTER_AREA)
    grey = cv2.max(cv2.max(small[..., 0], small[..., 1]), small[..., 2]) if small.ndim == 3 else small  # (NumPy's max over axis 2 is slow)
    ppm = cfg.px_per_mm * grey.shape[1] / w
    xy, level = wood_cells(cfg, grey, ppm)
    keep = level > 1.0
    u = (xy[:, 0] - geo.width / 2) / geo.width
    v = (xy[:, 1] - geo.depth / 2) / geo.width
    a = _quadratic_terms(u, v)
    target = np.log(np.maximum(level, 1.0))
    coef = np.array([float(np.median(target)), 0, 0, 0, 0, 0])
    for _ in range(cfg.light_fit_rounds):
        if keep.sum() < 8:
            break
        coef = np.linalg.lstsq(a[keep], target[keep], rcond=None)[0]
        resid = np.abs(target - a @ coef)
        cut = max(cfg.light_fit_min_cut, 3.0 * 1.4826 * float(np.median(resid[keep])))
        keep = (resid <= cut) & (level > 1.0)
    gx = ((np.arange(grey.shape[1]) + 0.5) / ppm - geo.width / 2) / geo.width
    gy = ((np.arange(grey.shape[0]) + 0.5) / ppm - geo.depth / 2) / geo.width
    c0, cx, cy, cxx, cyy, cxy = coef  # the terms of _quadratic_terms, summed by broadcasting a row and a column
    row, col = (c0 + cx * gx + cxx * gx * gx)[None, :], (cy * gy + cyy * gy * gy)[:, None]
    field = np.exp((row + col + cxy * gy[:, None] * gx[None, :]).astype(np.float32))
    return cv2.resize(field, (w, h), interpolation=cv2.INTER_LINEAR)


def flatten_light(cfg: ReaderConfig, canon: Image, level: float, reference: NDArray[np.float32] | None = None) -> Image:
    """The canonical image with the lamp's falloff divided out, so bare wood reads ``level`` everywhere;
    with a ``reference`` (BGR of the frame at calibration), each channel is then scaled to match it."""
    return cv2.multiply(canon, light_gains(cfg, canon, level, reference), dtype=cv2.CV_8U)


def light_gains(cfg: ReaderConfig, canon: Image, level: float, reference: NDArray[np.float32] | None = None) -> NDArray[np.float32]:
    """The (H, W, 3) gains :func:`flatten_light` multiplies the canonical image by."""
    gain = np.maximum(light_field(cfg, canon), np.float32(1.0))
    np.divide(np.float32(level), gain, out=gain)
    np.clip(gain, cfg.min_gain, cfg.max_gain, out=gain)
    tint = np.ones(3, np.float32)
    if reference is not None:  # the frame's median colour: every other pixel each way tells it as well
        half = replace(cfg, px_per_mm=cfg.px_per_mm / 2)
        now = np.median(frame_band(half, canon[::2, ::2]).astype(np.float32) * frame_band(half, gain[::2, ::2]), axis=0)
        tint = np.clip(np.asarray(reference, np.float32) / np.maximum(now, 1.0), cfg.min_gain, cfg.max_gain)
    return cv2.merge([gain * float(t) for t in tint])
