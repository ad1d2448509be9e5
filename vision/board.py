"""Find the playing surface in a camera image and map it to the canonical plane.

Walnut and leather are strongly coloured; the largest strongly coloured region in view
is the board, and its convex outline is the outer edge of the frame. Barrel distortion
is estimated from how far that outline's edges bow away from straight lines, then a
homography maps the undistorted corners onto the canonical board (``vision.geometry``).
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.errors import BoardNotFoundError
from vision.geometry import BoardGeometry

Image = NDArray[np.uint8]
Points = NDArray[np.float64]


@dataclass(frozen=True, slots=True)
class BoardFinderConfig:
    """Thresholds of the board finder."""

    work_width: int = 640  # the image is searched at this width
    min_saturation: int = 50  # HSV saturation of walnut and leather (0..255)
    min_value: int = 35  # HSV value: ignore near-black pixels
    border_frac: float = 0.03  # the image's outer band shows the table around the board
    border_samples: int = 48  # table colours sampled evenly along the border
    min_surround_distance: float = 22.0  # Lab distance from every table colour
    open_frac: float = 0.015  # opening kernel, fraction of the work width (drops specks of table)
    close_frac: float = 0.03  # closing kernel, fraction of the work width
    trim_frac: float = 0.05  # opening of the board's region: cuts off things touching it
    min_area_frac: float = 0.06  # the surface covers at least this much of the image
    max_k1: float = 0.25  # barrel coefficient search range
    k1_steps: int = 26
    max_quad_residual: float = 0.01  # 75th percentile of the outline's distance to the fitted quad, fraction of its size
    min_aspect: float = 1.1  # long/short side of the board (nominal 480/340)
    max_aspect: float = 2.0


@dataclass(frozen=True, slots=True)
class Lens:
    """Radial barrel model: undistorted = c + d * (1 + k1 |d|^2), d normalised by ``norm``."""

    k1: float
    centre: tuple[float, float]
    norm: float

    def undistort(self, pts: Points) -> Points:
        c = np.asarray(self.centre)
        d = (pts - c) / self.norm
        r2 = (d**2).sum(axis=-1, keepdims=True)
        return c + d * (1 + self.k1 * r2) * self.norm

    def distort(self, pts: Points) -> Points:
        c = np.asarray(self.centre)
        u = (pts - c) / self.norm
        d = u.copy()
        for _ in range(8):
            d = u / (1 + self.k1 * (d**2).sum(axis=-1, keepdims=True))
        return c + d * self.norm


def surface_outline(cfg: BoardFinderConfig, image: Image) -> Points:  # noqa: C901
    """Outline (image pixels) of the largest strongly coloured region: the board."""
    h, w = image.shape[:2]
    scale = cfg.work_width / w
    small = cv2.resize(image, (cfg.work_width, max(1, round(h * scale))), interpolation=cv2.INTER_AREA)
    hsv = cv2.cvtColor(small, cv2.COLOR_BGR2HSV)
    coloured = (hsv[..., 1] >= cfg.min_saturation) & (hsv[..., 2] >= cfg.min_value)
    mask = (coloured & (_distance_from_surroundings(cfg, small) > cfg.min_surround_distance)).astype(np.uint8) * 255
    k = max(3, int(cfg.close_frac * cfg.work_width) | 1)
    o = max(3, int(cfg.open_frac * cfg.work_width) | 1)
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (o, o)))
    mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k)))
    n, labels, stats, _ = cv2.connectedComponentsWithStats(mask)
    if n < 2:
        raise BoardNotFoundError("no playing surface found: nothing in view looks like the leather points")
    best = 1 + int(np.argmax(stats[1:, cv2.CC_STAT_AREA]))
    if stats[best, cv2.CC_STAT_AREA] < cfg.min_area_frac * mask.size:
        raise BoardNotFoundError(
            f"no playing surface found: the largest leather-like region covers only "
            f"{100 * stats[best, cv2.CC_STAT_AREA] / mask.size:.1f}% of the image"
        )
    board = (labels == best).astype(np.uint8)
    s = max(3, int(cfg.trim_frac * cfg.work_width) | 1)
    board = cv2.morphologyEx(board, cv2.MORPH_OPEN, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (s, s)))
    n, labels, stats, _ = cv2.connectedComponentsWithStats(board)
    if n < 2:
        raise BoardNotFoundError("no playing surface found")
    board = (labels == 1 + int(np.argmax(stats[1:, cv2.CC_STAT_AREA]))).astype(np.uint8)
    contours, _ = cv2.findContours(board, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    outline = max(contours, key=cv2.contourArea).reshape(-1, 2).astype(np.float64)
    return (outline + 0.5) / scale - 0.5


def _distance_from_surroundings(cfg: BoardFinderConfig, small: Image) -> NDArray[np.float32]:
    """Lab distance of each pixel from the nearest colour seen along the image border (the table)."""
    lab = cv2.cvtColor(cv2.GaussianBlur(small, (5, 5), 0), cv2.COLOR_BGR2LAB).astype(np.float32)
    b = max(2, int(cfg.border_frac * min(lab.shape[:2])))
    ring = np.concatenate([lab[:b].reshape(-1, 3), lab[-b:].reshape(-1, 3), lab[:, :b].reshape(-1, 3), lab[:, -b:].reshape(-1, 3)])
    centres = ring[np.linspace(0, len(ring) - 1, cfg.border_samples).astype(int)]
    d = np.full(lab.shape[:2], np.inf, np.float32)
    for c in centres:
        d = np.minimum(d, np.sqrt(((lab - c) ** 2).sum(axis=2)))
    return d


def fit_quad(outline: Points) -> tuple[Points, float]:
    """Four corners of the convex hull of ``outline`` and the mean distance of the hull to them."""
    hull = cv2.convexHull(outline.astype(np.float32)).reshape(-1, 2)
    peri = cv2.arcLength(hull, True)
    quad = None
    for eps in np.linspace(0.005, 0.1, 40):
        approx = cv2.approxPolyDP(hull, eps * peri, True).reshape(-1, 2)
        if len(approx) == 4:
            quad = approx
            break
    if quad is None:
        raise BoardNotFoundError("the playing surface is not a quadrilateral")
    quad = refine_quad(outline, quad.astype(np.float64))
    return quad, _quad_residual(outline, quad)


def refine_quad(hull: Points, quad: Points) -> Points:
    """Refit each side as a line through the outline points nearest it; corners = intersections."""
    lines = []
    for i in range(4):
        a, b = quad[i], quad[(i + 1) % 4]
        ab = b - a
        length = float(np.hypot(*ab))
        t = ((hull - a) @ ab) / (length**2)
        dist = np.abs(np.cross(ab, hull - a)) / length
        sel = hull[(t > 0.1) & (t < 0.9) & (dist < 0.02 * length)]
        if len(sel) < 2:
            sel = np.array([a, b])
        vx, vy, x0, y0 = cv2.fitLine(sel.astype(np.float32), cv2.DIST_HUBER, 0, 0.01, 0.01).ravel()
        lines.append((np.array([x0, y0]), np.array([vx, vy])))
    out = []
    for i in range(4):
        (p1, d1), (p2, d2) = lines[i - 1], lines[i]
        m = np.array([d1, -d2]).T
        if abs(np.linalg.det(m)) < 1e-9:
            return quad
        s = np.linalg.solve(m, p2 - p1)
        out.append(p1 + s[0] * d1)
    return np.array(out)


def _quad_residual(outline: Points, quad: Points) -> float:
    poly = quad.astype(np.float32).reshape(-1, 1, 2)
    d = [abs(cv2.pointPolygonTest(poly, (float(x), float(y)), True)) for x, y in outline[:: max(1, len(outline) // 600)]]
    size = float(np.sqrt(cv2.contourArea(quad.astype(np.float32))))
    return float(np.percentile(d, 75)) / max(size, 1.0)


def estimate_lens(cfg: BoardFinderConfig, outline: Points, size: tuple[int, int]) -> tuple[Lens, Points]:
    """Barrel coefficient that makes the surface outline most quadrilateral; returns it and the quad."""
    w, h = size
    best: tuple[float, Lens, Points] | None = None
    for k1 in np.linspace(0.0, cfg.max_k1, cfg.k1_steps):
        lens = Lens(float(k1), (w / 2.0, h / 2.0), float(max(w, h)))
        try:
            quad, residual = fit_quad(lens.undistort(outline))
        except BoardNotFoundError:
            continue
        if best is None or residual < best[0]:
            best = (residual, lens, quad)
    if best is None:
        raise BoardNotFoundError("the playing surface is not a quadrilateral")
    if best[0] > cfg.max_quad_residual:
        raise BoardNotFoundError(f"the leather-like region is not a board (outline misfit {best[0]:.3f})")
    return best[1], best[2]


def order_corners(quad: Points) -> Points:
    """Corners clockwise (in image coordinates) starting so that side 0-1 is a long side."""
    centre = quad.mean(axis=0)
    ang = np.arctan2(quad[:, 1] - centre[1], quad[:, 0] - centre[0])
    q = quad[np.argsort(ang)]
    start = int(np.argmin(q.sum(axis=1)))
    q = np.roll(q, -start, axis=0)
    side01 = np.hypot(*(q[1] - q[0])) + np.hypot(*(q[3] - q[2]))
    side12 = np.hypot(*(q[2] - q[1])) + np.hypot(*(q[0] - q[3]))
    if side12 > side01:
        q = np.roll(q, -1, axis=0)
    return q


def check_aspect(cfg: BoardFinderConfig, quad: Points) -> None:
    long = (np.hypot(*(quad[1] - quad[0])) + np.hypot(*(quad[3] - quad[2]))) / 2
    short = (np.hypot(*(quad[2] - quad[1])) + np.hypot(*(quad[0] - quad[3]))) / 2
    aspect = long / max(short, 1.0)
    if not cfg.min_aspect <= aspect <= cfg.max_aspect:
        raise BoardNotFoundError(f"the region found has the wrong shape for a board (aspect {aspect:.2f})")


def outer_rectangle(geo: BoardGeometry) -> Points:
    return np.array([[0, 0], [geo.width, 0], [geo.width, geo.depth], [0, geo.depth]], np.float64)


def locate_board(cfg: BoardFinderConfig, image: Image, geo: BoardGeometry) -> tuple[Lens, NDArray[np.float64]]:
    """Lens and homography (undistorted image pixels -> canonical mm) of the board in ``image``."""
    h, w = image.shape[:2]
    outline = surface_outline(cfg, image)
    lens, quad = estimate_lens(cfg, outline, (w, h))
    quad = order_corners(quad)
    check_aspect(cfg, quad)
    return lens, homography_from_corners(quad, geo)


def homography_from_corners(quad: Points, geo: BoardGeometry) -> NDArray[np.float64]:
    hom, _ = cv2.findHomography(quad.astype(np.float64), outer_rectangle(geo))
    if hom is None:
        raise BoardNotFoundError("could not fit a homography to the board's corners")
    return hom


def canonical_maps(lens: Lens, hom: NDArray[np.float64], geo: BoardGeometry, ppm: float) -> tuple[NDArray[np.float32], NDArray[np.float32]]:
    """Remap tables: canonical pixel (ppm pixels per mm) -> distorted image pixel."""
    w, h = int(round(geo.width * ppm)), int(round(geo.depth * ppm))
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float64)
    mm = np.stack([(xx + 0.5) / ppm, (yy + 0.5) / ppm], axis=-1).reshape(-1, 1, 2)
    und = cv2.perspectiveTransform(mm, np.linalg.inv(hom)).reshape(-1, 2)
    dist = lens.distort(und).reshape(h, w, 2).astype(np.float32)
    return dist[..., 0].copy(), dist[..., 1].copy()


def to_canonical(image: Image, maps: tuple[NDArray[np.float32], NDArray[np.float32]]) -> Image:
    return cv2.remap(image, maps[0], maps[1], cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT)
