"""Find the playing surface in a camera image and map it to the canonical plane.

The leather points are found by a loose hue/saturation prior (burnt orange, olive); the
convex hull of the largest cluster of them is the inner playing surface, since the
outermost points' bases meet the frame at its inner corners. Barrel distortion is
estimated from how far that outline's edges bow away from straight lines, then a
homography maps the undistorted corners onto the canonical inner rectangle
(``vision.geometry``). Everything else about the set is learned at calibration.
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

# what to do when the board is not found: every refusal ends with it
AIM = "have the whole board in view and lit, or give the frame's four outer corners with --corners"


@dataclass(frozen=True, slots=True)
class LeatherPrior:
    """One way of telling leather from walnut by hue, saturation and brightness."""

    orange_min_saturation: int
    olive_min_saturation: int
    split_by_brightness: bool  # Otsu on the brightness of orange-hued pixels (walnut is darker)
    white_balance: bool = False  # judge colours after scaling each channel to the image's brightest (the lamp's colour)
    olive_hue: tuple[int, int] | None = None  # instead of the finder's (a warm lamp turns olive toward orange)


@dataclass(frozen=True, slots=True)
class BoardFinderConfig:
    """Thresholds of the board finder."""

    work_width: int = 640  # the image is searched at this width
    orange_hue: tuple[int, int] = (172, 16)  # OpenCV hue (0..180) wraps: >= first or <= second
    priors: tuple[LeatherPrior, ...] = (LeatherPrior(175, 95, False), LeatherPrior(140, 70, True), LeatherPrior(140, 70, True, True))
    # tried only when no fit of ``priors`` calibrates: a cool or dim lamp greys the leather (the orange
    # points at saturation 150-165, the olive at 60-80, under the Blender renders' cool lamp); a warm lamp
    # turns the olive toward orange (hue 21-23 on a Blender render whose start did not calibrate)
    fallback_priors: tuple[LeatherPrior, ...] = (LeatherPrior(110, 50, True), LeatherPrior(140, 70, True, olive_hue=(20, 50)))
    white_percentile: float = 99.5  # per channel: the lamp's colour, from the cube and the copper's highlights
    min_otsu_pixels: int = 500
    olive_hue: tuple[int, int] = (24, 50)
    min_value: int = 25  # HSV value: ignore near-black pixels
    orange_relative_value: float = 0.45  # fraction of the image's 99th-percentile brightness
    olive_relative_value: float = 0.25
    refine_ppm: float = 1.0  # canonical resolution for the ECC refinement
    refine_blur_mm: tuple[float, ...] = (10.0, 4.0, 1.5)
    refine_iterations: int = 120
    refine_max_move_mm: float = 60.0
    min_k1_gain: float = 0.15  # a barrel coefficient must cut the outline misfit by this fraction
    open_frac: float = 0.006  # opening kernel, fraction of the work width (drops specks)
    close_frac: float = 0.06  # leather within this (fraction of the work width) belongs together
    # leather covers at least this much of the image: a board filling 35% of the frame's shorter side, turned
    # across it, covers 5% of a 16:9 image; its points are a third of the board, the start's checkers hide a
    # quarter of them, and a dim cool lamp greys half of the rest out of the prior (0.03 refused fill 40-60%)
    min_area_frac: float = 0.006
    max_k1: float = 0.25  # barrel coefficient search range (used when k1_steps > 1)
    k1_steps: int = 1  # 1 = no barrel search: the outline of the points is too coarse to measure it reliably
    max_quad_residual: float = 0.1  # 75th percentile of the outline's distance to the fitted quad, fraction of its size
    table_band: int = 4  # px (at the work width) along the image border sampled as the table
    table_samples: int = 256  # table colours kept from that band
    table_ring: int = 3  # px around a leather-coloured patch that tell what surrounds it
    table_distance: float = 10.0  # Lab distance from a table colour that is table
    table_ring_share: float = 0.6  # a patch surrounded this much by table is the table's
    # the board told from the table by the table's own colours (sampled along the image border), whatever its hue:
    # a red cloth beside the orange leather, a warm lamp that turns the olive points brown
    table_colours: int = 8  # the border's colours, clustered
    off_table_min_distance: float = 8.0  # distance (:func:`_shares_and_level`) from every table colour below which a pixel is table
    off_table_percentile: float = 99.0  # the table's own spread: this percentile of its border pixels' distance ...
    off_table_spread: float = 1.5  # ... times this is still table
    off_table_close: float = 0.02  # fraction of the work width: gaps in the board (its shade, grain) closed
    min_aspect: float = 1.1  # long/short side of the board (nominal 480/340)
    max_aspect: float = 2.0
    same_fit_mm: float = 1.0  # two fits whose corners lie this near are one


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
        pts = np.asarray(pts, np.float64)
        # per coordinate: numpy broadcasts over a last axis of 2 slowly
        ux, uy = (pts[..., 0] - self.centre[0]) / self.norm, (pts[..., 1] - self.centre[1]) / self.norm
        k1_rho2 = self.k1 * (ux**2 + uy**2)
        scale, step = np.ones_like(k1_rho2), np.empty_like(k1_rho2)
        for _ in range(8):  # fixed point of d = u / (1 + k1 |d|^2), on the radial scale alone (d is along u)
            np.multiply(k1_rho2, scale, out=step)  # in place: a window's temporaries cost more than the sums
            step *= scale
            step += 1.0
            np.divide(1.0, step, out=scale)
        out = np.empty(pts.shape, np.float64)
        out[..., 0] = self.centre[0] + ux * scale * self.norm
        out[..., 1] = self.centre[1] + uy * scale * self.norm
        return out


def lamp_gains(cfg: BoardFinderConfig, image: Image) -> NDArray[np.float32]:
    """Per-channel gains that make the image's brightest pixels grey (a warm or cool lamp's cast undone)."""
    top = np.percentile(image.reshape(-1, 3), cfg.white_percentile, axis=0).astype(np.float32)
    return top.max() / np.maximum(top, 1.0)


def leather_mask(cfg: BoardFinderConfig, small: Image, prior: LeatherPrior | None = None,
                 gains: NDArray[np.float32] | None = None) -> Image:
    """Pixels with the hue and saturation of burnt-orange or olive leather (a loose prior).

    A white-balancing prior scales the channels by ``gains`` (default: :func:`lamp_gains` of ``small``)."""
    prior = prior or cfg.priors[0]
    if prior.white_balance:
        g = lamp_gains(cfg, small) if gains is None else gains
        small = np.clip(small.astype(np.float32) * g, 0, 255).astype(np.uint8)
    hsv = cv2.cvtColor(cv2.medianBlur(small, 5), cv2.COLOR_BGR2HSV)
    h, s, v = hsv[..., 0], hsv[..., 1], hsv[..., 2]
    top = float(np.percentile(v, 99))
    orange = ((h <= cfg.orange_hue[1]) | (h >= cfg.orange_hue[0])) & (s >= prior.orange_min_saturation)
    orange &= v >= cfg.orange_relative_value * top
    if prior.split_by_brightness and orange.sum() > cfg.min_otsu_pixels:
        cut, _ = cv2.threshold(v[orange].reshape(-1, 1), 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
        orange &= v > cut
    olive_hue = prior.olive_hue or cfg.olive_hue
    olive = (h >= olive_hue[0]) & (h <= olive_hue[1]) & (s >= prior.olive_min_saturation)
    olive &= v >= cfg.olive_relative_value * top
    return ((orange | olive) & (v >= cfg.min_value)).astype(np.uint8) * 255


def _drop_border_regions(mask: Image) -> Image:
    """Leather-coloured regions that run off the image are not points (a green or rust table cloth):
    the points lie inside the frame, which must be wholly in view."""
    return _set_regions(mask, mask, True, 0)


def _set_regions(mask: Image, regions: Image, at_border: bool, value: int, connectivity: int = 8) -> Image:
    """``mask`` with ``value`` set on the connected regions of ``regions`` (non-zero) that reach the image's border
    (``at_border``) or that do not."""
    _, labels, stats, _ = cv2.connectedComponentsWithStats((regions > 0).astype(np.uint8), connectivity=connectivity)
    h, w = mask.shape
    x, y, bw, bh = (stats[:, i] for i in (cv2.CC_STAT_LEFT, cv2.CC_STAT_TOP, cv2.CC_STAT_WIDTH, cv2.CC_STAT_HEIGHT))
    chosen = ((x == 0) | (y == 0) | (x + bw >= w) | (y + bh >= h)) == at_border
    chosen[0] = False  # the background label
    if not chosen.any():
        return mask
    out = mask.copy()
    out[chosen[labels]] = value
    return out


def _drop_table_islands(cfg: BoardFinderConfig, small: Image, mask: Image) -> Image:
    """Leather-coloured patches surrounded by the table (a mottled cloth) are not points: a point is
    bordered by the frame's wood or by other points. The table's colours are sampled along the image
    border, which the board never reaches. Nothing is dropped if that would drop most of the leather
    (a table the colour of the frame tells nothing)."""
    lab = cv2.cvtColor(cv2.medianBlur(small, 5), cv2.COLOR_BGR2LAB).astype(np.float32)
    h, w = mask.shape
    b = cfg.table_band
    border = np.concatenate([lab[:b].reshape(-1, 3), lab[-b:].reshape(-1, 3), lab[:, :b].reshape(-1, 3), lab[:, -b:].reshape(-1, 3)])
    table = border[:: max(1, len(border) // cfg.table_samples)]
    n, labels, stats, _ = cv2.connectedComponentsWithStats(mask)
    ring_k = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * cfg.table_ring + 1, 2 * cfg.table_ring + 1))
    drop = np.zeros(n, bool)
    for i in range(1, n):
        x, y, bw, bh = (int(v) for v in stats[i, :4])
        r = cfg.table_ring
        x0, y0, x1, y1 = max(0, x - r), max(0, y - r), min(w, x + bw + r), min(h, y + bh + r)
        comp = (labels[y0:y1, x0:x1] == i).astype(np.uint8)
        ring = (cv2.dilate(comp, ring_k) > 0) & (mask[y0:y1, x0:x1] == 0)
        px = lab[y0:y1, x0:x1][ring]
        if len(px) == 0:
            continue
        near = np.sqrt(((px[:, None, :] - table[None]) ** 2).sum(axis=2)).min(axis=1) < cfg.table_distance
        drop[i] = near.mean() > cfg.table_ring_share
    area = stats[:, cv2.CC_STAT_AREA]
    if not drop.any() or area[drop].sum() > 0.5 * area[1:].sum():
        return mask
    out = mask.copy()
    out[drop[labels]] = 0
    return out


def surface_outline(cfg: BoardFinderConfig, image: Image, prior: LeatherPrior | None = None, drop_islands: bool = False) -> Points:
    """Convex outline (image pixels) of the leather points: the inner playing surface (without
    leather-coloured patches of the table around the board, if ``drop_islands``)."""
    h, w = image.shape[:2]
    scale = cfg.work_width / w
    small = cv2.resize(image, (cfg.work_width, max(1, round(h * scale))), interpolation=cv2.INTER_AREA)
    mask = leather_mask(cfg, small, prior, lamp_gains(cfg, image) if prior is not None and prior.white_balance else None)
    o = max(3, int(cfg.open_frac * cfg.work_width) | 1)
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (o, o)))
    mask = _drop_border_regions(mask)
    if drop_islands:
        mask = _drop_table_islands(cfg, small, mask)
    k = max(3, int(cfg.close_frac * cfg.work_width) | 1)
    grown = cv2.dilate(mask, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k)))
    n, labels, stats, _ = cv2.connectedComponentsWithStats(grown)
    if n < 2:
        raise BoardNotFoundError(f"no board found: nothing in view looks like the leather points; {AIM}")
    best = 1 + int(np.argmax(stats[1:, cv2.CC_STAT_AREA]))
    leather = (mask > 0) & (labels == best)
    if leather.sum() < cfg.min_area_frac * mask.size:
        raise BoardNotFoundError(
            f"no board found: leather-like pixels cover only {100 * leather.sum() / mask.size:.1f}% of the image; {AIM}")
    ys, xs = np.nonzero(leather)
    hull = cv2.convexHull(np.column_stack([xs, ys]).astype(np.float32)).reshape(-1, 2).astype(np.float64)
    dense = np.concatenate([np.linspace(hull[i], hull[(i + 1) % len(hull)], 16, endpoint=False) for i in range(len(hull))])
    return (dense + 0.5) / scale - 0.5


def off_table_outline(cfg: BoardFinderConfig, image: Image, by_table: bool = False) -> Points:
    """Convex outline (image pixels) of the largest thing that is not the table: the frame's outer edge.

    The table's colours are sampled along the image border, which the board never reaches; a pixel is the
    board's when it lies farther from every one of them than the image's own split (Otsu) of those distances
    puts it, so it holds for a cloth of any hue, the leather's too. With ``by_table``, the split is the table's
    own: farther than its own pixels lie from its colours (``off_table_spread`` times their
    ``off_table_percentile``). Otsu's split follows the board's contents: a cloth of the leather's hue leaves
    the pale field and the olive as the board, and the walnut frame, nearer the cloth than they are, falls
    with the table; the table's own spread keeps the frame, which rings the leather. What the table cannot
    reach from the border, inside that ring, is the board's too (:func:`_filled`).
    """
    h, w = image.shape[:2]
    scale = cfg.work_width / w
    small = cv2.resize(image, (cfg.work_width, max(1, round(h * scale))), interpolation=cv2.INTER_AREA)
    feat = _shares_and_level(cv2.medianBlur(small, 5))
    b = cfg.table_band
    border = np.concatenate([feat[:b].reshape(-1, 3), feat[-b:].reshape(-1, 3), feat[:, :b].reshape(-1, 3), feat[:, -b:].reshape(-1, 3)])
    criteria = (cv2.TERM_CRITERIA_EPS | cv2.TERM_CRITERIA_MAX_ITER, 20, 0.5)
    _, _, table = cv2.kmeans(border, cfg.table_colours, None, criteria, 2, cv2.KMEANS_PP_CENTERS)  # type: ignore[call-overload]
    far = np.full(feat.shape[:2], np.inf, np.float32)
    for colour in table:
        far = np.minimum(far, np.sqrt(((feat - colour) ** 2).sum(axis=2)))
    far8 = np.clip(far * 4, 0, 255).astype(np.uint8)
    if by_table:
        own = np.sqrt(((border[:, None, :] - table[None]) ** 2).sum(axis=2)).min(axis=1)
        cut = 4.0 * cfg.off_table_spread * float(np.percentile(own, cfg.off_table_percentile))
    else:
        cut, _ = cv2.threshold(far8, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    mask = ((far8 > cut) & (far >= cfg.off_table_min_distance)).astype(np.uint8) * 255
    k = max(3, int(cfg.off_table_close * cfg.work_width) | 1)
    mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k)))
    o = max(3, int(cfg.open_frac * cfg.work_width) | 1)
    mask = _drop_border_regions(cv2.morphologyEx(mask, cv2.MORPH_OPEN, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (o, o))))
    mask = _filled(mask)
    n, labels, stats, _ = cv2.connectedComponentsWithStats(mask)
    if n < 2:
        raise BoardNotFoundError(f"no board found: nothing in view stands out from the table; {AIM}")
    best = 1 + int(np.argmax(stats[1:, cv2.CC_STAT_AREA]))
    if stats[best, cv2.CC_STAT_AREA] < cfg.min_area_frac * mask.size:
        raise BoardNotFoundError(f"no board found: nothing large stands out from the table; {AIM}")
    ys, xs = np.nonzero(labels == best)
    hull = cv2.convexHull(np.column_stack([xs, ys]).astype(np.float32)).reshape(-1, 2).astype(np.float64)
    dense = np.concatenate([np.linspace(hull[i], hull[(i + 1) % len(hull)], 16, endpoint=False) for i in range(len(hull))])
    return (dense + 0.5) / scale - 0.5


def _filled(mask: Image) -> Image:
    """``mask`` with its holes filled: what the table cannot reach from the image's border without crossing the mask.
    Leather or checkers of the table's colour (an orange cloth, or a warm lamp that makes a red one the leather's
    hue) are holes in what stands out from the table, but the walnut frame rings them: they are the board's."""
    return _set_regions(mask, (mask == 0).astype(np.uint8), False, 255, connectivity=4)


def _shares_and_level(bgr: Image) -> NDArray[np.float32]:
    """Per pixel: the blue and green channels' shares of its brightness (x 255) and 20 x the log of its brightness.
    A dim lamp's falloff moves the level alone; a cloth and the walnut frame of much the same lightness still
    differ in their shares."""
    f = bgr.astype(np.float32) + 1.0
    total = f.sum(axis=2, keepdims=True)
    return np.concatenate([f[..., :2] / total * 255.0, 20.0 * np.log(total / 3.0)], axis=2)


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
        raise BoardNotFoundError(f"no board found: the outline of what looks like the board has no four corners; {AIM}")
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
        rel = hull - a
        dist = np.abs(ab[0] * rel[:, 1] - ab[1] * rel[:, 0]) / length
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
    zero: tuple[float, Lens, Points] | None = None
    for k1 in np.linspace(0.0, cfg.max_k1, cfg.k1_steps):
        lens = Lens(float(k1), (w / 2.0, h / 2.0), float(max(w, h)))
        try:
            quad, residual = fit_quad(lens.undistort(outline))
        except BoardNotFoundError:
            continue
        if best is None or residual < best[0]:
            best = (residual, lens, quad)
        if k1 == 0.0:
            zero = (residual, lens, quad)
    if best is None:
        raise BoardNotFoundError(f"no board found: the outline of what looks like the board has no four corners; {AIM}")
    if best[1].k1 > 0 and zero is not None and best[0] > (1 - cfg.min_k1_gain) * zero[0]:
        best = zero  # not worth bending the image for
    if best[0] > cfg.max_quad_residual:
        raise BoardNotFoundError(f"no board found: what looks like the board is not a rectangle (its outline strays {best[0]:.0%} of "
                                 f"its size from four straight sides: part of it hidden, or the table's colours joined to it); {AIM}")
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
        raise BoardNotFoundError(f"no board found: what looks like the board is {aspect:.2f} times as long as wide, a board "
                                 f"{cfg.min_aspect:g} to {cfg.max_aspect:g} (part of it out of view or hidden, or the table's colours "
                                 f"joined to it); {AIM}")


def inner_rectangle(geo: BoardGeometry) -> Points:
    f = geo.frame
    return np.array([[f, f], [geo.width - f, f], [geo.width - f, geo.depth - f], [f, geo.depth - f]], np.float64)


def board_candidates(cfg: BoardFinderConfig, image: Image, geo: BoardGeometry,
                     drop_islands: bool = False) -> list[tuple[float, Lens, NDArray[np.float64]]]:
    """Every fit of the board (one per leather prior), best ECC alignment first."""
    h, w = image.shape[:2]
    fits: list[tuple[float, Lens, NDArray[np.float64]]] = []
    error: BoardNotFoundError | None = None
    for prior in cfg.priors:
        try:
            outline = surface_outline(cfg, image, prior, drop_islands)
            lens, quad = estimate_lens(cfg, outline, (w, h))
            quad = order_corners(quad)
            check_aspect(cfg, quad)
        except BoardNotFoundError as exc:
            error = exc
            continue
        # the outline is the leather's, or the frame's outer edge: where the table meets the frame, the blend of their
        # colours (and a JPEG's ringing) can take the leather's hues in a thin line round the whole board, most of all
        # when the board is small in the frame and dimly lit; the alignment with the points judges which it is
        for outer in (False, True):
            hom, score = refine_homography(cfg, image, lens, homography_from_corners(quad, geo, outer), geo, prior)
            fits.append((score, lens, hom))
    if drop_islands or not fits:
        # the board's outer edge against the table, whatever their hues: the leather's outline may have taken in a
        # cloth of its colour, or missed points a lamp turned from the priors' hues
        for by_table in (False, True):
            try:
                outline = off_table_outline(cfg, image, by_table)
                lens, quad = estimate_lens(cfg, outline, (w, h))
                quad = order_corners(quad)
                check_aspect(cfg, quad)
                outer = homography_from_corners(quad, geo, True)
                fits.append((-1.0, lens, outer))  # the frame's edge as found, whatever the leather's colours (none aligned)
                for prior in cfg.priors:
                    hom, score = refine_homography(cfg, image, lens, outer, geo, prior)
                    fits.append((score, lens, hom))
            except BoardNotFoundError as exc:
                error = error or exc
    if not fits:
        raise error or BoardNotFoundError("no board found")
    kept: list[tuple[float, Lens, NDArray[np.float64]]] = []
    for fit in sorted(fits, key=lambda f: -f[0]):  # fits that came to the same alignment are tried once
        if not any(fit[1] == k[1] and _same_fit(fit[2], k[2], geo, cfg.same_fit_mm) for k in kept):
            kept.append(fit)
    return kept


def _same_fit(a: NDArray[np.float64], b: NDArray[np.float64], geo: BoardGeometry, tolerance_mm: float) -> bool:
    """Whether two homographies put the playing surface's corners within ``tolerance_mm`` of each other."""
    corners = cv2.perspectiveTransform(inner_rectangle(geo).reshape(-1, 1, 2), np.linalg.inv(a))
    return bool(np.abs(cv2.perspectiveTransform(corners, b).reshape(-1, 2) - inner_rectangle(geo)).max() <= tolerance_mm)


def locate_board(cfg: BoardFinderConfig, image: Image, geo: BoardGeometry) -> tuple[Lens, NDArray[np.float64]]:
    """Lens and homography (undistorted image pixels -> canonical mm) of the board in ``image``.

    Each leather prior gives a fit; the one whose leather best matches the ideal points wins.
    """
    _, lens, hom = board_candidates(cfg, image, geo)[0]
    return lens, hom


def rescaled(hom: NDArray[np.float64], geo: BoardGeometry, factor: tuple[float, float], shift: tuple[float, float] = (0.0, 0.0)) -> NDArray[np.float64]:
    """The homography with the canonical plane scaled by ``factor`` (x, y) about the board's centre, then shifted (mm)."""
    cx, cy = geo.centre
    fx, fy = factor
    s = np.array([[fx, 0, cx * (1 - fx) + shift[0]], [0, fy, cy * (1 - fy) + shift[1]], [0, 0, 1]])
    return s @ hom


def points_template(geo: BoardGeometry, ppm: float) -> NDArray[np.float32]:
    """The 24 leather triangles drawn on the canonical plane (1 inside, 0 outside)."""
    h, w = int(round(geo.depth * ppm)), int(round(geo.width * ppm))
    tmpl = np.zeros((h, w), np.float32)
    pw = geo.point_width
    for x0 in (geo.frame, geo.bar_x[1]):
        for col in range(6):
            for base, tip in ((geo.frame, geo.frame + geo.point_length), (geo.depth - geo.frame, geo.depth - geo.frame - geo.point_length)):
                xa = x0 + col * pw
                tri = np.array([[xa, base], [xa + pw, base], [xa + pw / 2, tip]]) * ppm
                cv2.fillConvexPoly(tmpl, np.round(tri * 16).astype(np.int32), 1.0, cv2.LINE_AA, 4)
    return tmpl


def refine_homography(cfg: BoardFinderConfig, image: Image, lens: Lens, hom: NDArray[np.float64], geo: BoardGeometry,
                      prior: LeatherPrior | None = None) -> tuple[NDArray[np.float64], float]:
    """Align the leather seen on the canonical plane with the ideal triangles (ECC, homography).

    Returns the refined homography and the final correlation (-1 if nothing converged).
    """
    ppm = cfg.refine_ppm
    maps = canonical_maps(lens, hom, geo, ppm)
    gains = lamp_gains(cfg, image) if prior is not None and prior.white_balance else None
    seen = leather_mask(cfg, to_canonical(image, maps), prior, gains).astype(np.float32) / 255.0
    tmpl = points_template(geo, ppm)
    warp = np.eye(3, dtype=np.float32)
    score = -1.0
    criteria = (cv2.TERM_CRITERIA_EPS | cv2.TERM_CRITERIA_COUNT, cfg.refine_iterations, 1e-6)
    for blur in cfg.refine_blur_mm:  # coarse to fine: the coarse pass cannot lock onto a neighbouring point
        sigma = blur * ppm
        try:
            score, warp = cv2.findTransformECC(cv2.GaussianBlur(tmpl, (0, 0), sigma), cv2.GaussianBlur(seen, (0, 0), sigma),
                                               warp, cv2.MOTION_HOMOGRAPHY, criteria, None, 1)
        except cv2.error:
            continue  # this level did not converge: keep what the coarser levels found
    scale = np.diag([ppm, ppm, 1.0])
    step = np.linalg.inv(scale) @ np.linalg.inv(warp.astype(np.float64)) @ scale
    moved = np.abs(cv2.perspectiveTransform(inner_rectangle(geo).reshape(-1, 1, 2), step).reshape(-1, 2) - inner_rectangle(geo)).max()
    if moved > cfg.refine_max_move_mm:
        return hom, -1.0  # a jump this large is a wrong alignment, not a refinement
    return step @ hom, float(score)


def outer_rectangle(geo: BoardGeometry) -> Points:
    return np.array([[0, 0], [geo.width, 0], [geo.width, geo.depth], [0, geo.depth]], np.float64)


def outer_corners_in_image(cal: object, size: tuple[int, int]) -> Points:
    """Image pixels of the frame's outer corners under a calibration (for overlays and --corners)."""
    geo = BoardGeometry()
    hom = np.linalg.inv(getattr(cal, "homography"))
    und = cv2.perspectiveTransform(outer_rectangle(geo).reshape(-1, 1, 2), hom).reshape(-1, 2)
    return getattr(cal, "lens").distort(und)


def homography_from_corners(quad: Points, geo: BoardGeometry, outer: bool = False) -> NDArray[np.float64]:
    """Homography from four ordered image corners to the canonical inner (or outer) rectangle."""
    target = outer_rectangle(geo) if outer else inner_rectangle(geo)
    hom, _ = cv2.findHomography(quad.astype(np.float64), target)
    if hom is None:
        raise BoardNotFoundError("the board's four corners make no quadrilateral (three in a line, or two the same); give the "
                                 "frame's four outer corners with --corners")
    return hom


def canonical_maps(lens: Lens, hom: NDArray[np.float64], geo: BoardGeometry, ppm: float,
                   pad: int = 0) -> tuple[NDArray[np.float32], NDArray[np.float32]]:
    """Remap tables: canonical pixel (ppm pixels per mm) -> distorted image pixel; with ``pad``, reaching that
    many pixels past the canonical image on every side (table pixel (i, j) is canonical (i - pad, j - pad))."""
    w, h = int(round(geo.width * ppm)), int(round(geo.depth * ppm))
    yy, xx = np.mgrid[-pad:h + pad, -pad:w + pad].astype(np.float64)
    mm = np.stack([(xx + 0.5) / ppm, (yy + 0.5) / ppm], axis=-1).reshape(-1, 1, 2)
    und = cv2.perspectiveTransform(mm, np.linalg.inv(hom)).reshape(-1, 2)
    dist = lens.distort(und).reshape(h + 2 * pad, w + 2 * pad, 2).astype(np.float32)
    return dist[..., 0].copy(), dist[..., 1].copy()


def to_canonical(image: Image, maps: tuple[NDArray[np.float32], NDArray[np.float32]]) -> Image:
    return cv2.remap(image, maps[0], maps[1], cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT)


def image_px_per_mm(hom: NDArray[np.float64], at_mm: NDArray[np.float64]) -> NDArray[np.float64]:
    """Image pixels per mm of board (geometric mean of the two ways) at each place ``at_mm`` under the homography
    ``hom`` (image to board mm; the lens's distortion, small over a few mm, left out)."""
    inv = np.linalg.inv(hom)
    pts = np.asarray(at_mm, np.float64).reshape(-1, 1, 2)
    here = cv2.perspectiveTransform(pts, inv).reshape(-1, 2)
    dx = cv2.perspectiveTransform(pts + np.array([1.0, 0.0]), inv).reshape(-1, 2) - here
    dy = cv2.perspectiveTransform(pts + np.array([0.0, 1.0]), inv).reshape(-1, 2) - here
    return np.sqrt(np.abs(dx[:, 0] * dy[:, 1] - dx[:, 1] * dy[:, 0]))
