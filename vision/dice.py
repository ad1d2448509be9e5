"""Read dice in a photo without a board: find die faces, read their values.

OpenCV + NumPy: a die is a compact blob that stands out from the local background (by
colour or by its outline). A small learned perceptron (``vision.dice_model``) drops the
blobs that are no die faces, a die-or-not guard network (``vision/dice_guard.json``) the
laptop keys, labels and side faces left, and the value of each die found is read by the
value stage both dice readers share (:mod:`vision.die_face`: a small convolutional network,
``vision.dice_cnn``, fitted on the train split of real photos and on rendered dice). All ship
as small JSON weight files; nothing is downloaded.

Stages are pure functions ``(cfg, image) -> result``; thresholds live in
:class:`DiceConfig`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from functools import cache, partial

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.dice_cnn import load_die_guard
from vision.dice_config import DiceConfig as DiceConfig, _odd, count_pips as count_pips  # re-exported: part of vision.dice's surface
from vision.dice_model import MODEL_PATH, face_features, load_face_model
from vision.die_face import read_faces
from vision.errors import VisionError

Image = NDArray[np.uint8]


@dataclass(frozen=True, slots=True)
class Die:
    """One die found in an image: its value (None if unreadable) and top-face box."""

    value: int | None
    box: tuple[int, int, int, int]  # x, y, w, h in image pixels
    confidence: float
    face_lightness: float  # 0..255, L of the face colour (white dice are high)

    @property
    def centre(self) -> tuple[float, float]:
        x, y, w, h = self.box
        return (x + w / 2.0, y + h / 2.0)

    def to_json(self) -> dict[str, object]:
        return {
            "value": self.value,
            "box": list(self.box),
            "confidence": round(self.confidence, 3),
            "face_lightness": round(self.face_lightness, 1),
        }


def background_distance(cfg: DiceConfig, image: Image) -> NDArray[np.float32]:
    """Per-pixel Lab distance from a smooth estimate of the background."""
    h, w = image.shape[:2]
    scale = cfg.background_scale / max(h, w)
    small = cv2.resize(image, (max(1, round(w * scale)), max(1, round(h * scale))), interpolation=cv2.INTER_AREA)
    bg = cv2.resize(cv2.medianBlur(small, _odd(cfg.background_blur)), (w, h), interpolation=cv2.INTER_LINEAR)
    lab = cv2.cvtColor(image, cv2.COLOR_BGR2LAB).astype(np.float32)
    bgl = cv2.cvtColor(bg, cv2.COLOR_BGR2LAB).astype(np.float32)
    return np.sqrt(((lab - bgl) ** 2).sum(axis=2))


def _filled_outlines(cfg: DiceConfig, image: Image, max_area: float) -> Image:
    """Closed outlines (edges in any Lab channel) filled in, up to ``max_area`` pixels."""
    blur = cv2.GaussianBlur(image, (3, 3), 0)
    edges = np.zeros(image.shape[:2], np.uint8)
    for channel in cv2.split(cv2.cvtColor(blur, cv2.COLOR_BGR2LAB)):
        edges |= cv2.Canny(channel, cfg.canny_low, cfg.canny_high)
    edges = cv2.dilate(edges, np.ones((3, 3), np.uint8))
    contours, _ = cv2.findContours(edges, cv2.RETR_LIST, cv2.CHAIN_APPROX_SIMPLE)
    filled = np.zeros_like(edges)
    small = [c for c in contours if cv2.contourArea(c) <= max_area]
    cv2.drawContours(filled, small, -1, 255, -1)
    return filled


def die_mask(cfg: DiceConfig, image: Image) -> Image:
    """Binary mask of pixels that probably belong to dice."""
    short = min(image.shape[:2])
    max_area = (cfg.max_die_frac * short) ** 2 * 2.5
    mask = (background_distance(cfg, image) > cfg.colour_diff).astype(np.uint8) * 255
    mask |= _filled_outlines(cfg, image, max_area)
    k = max(3, _odd(round(cfg.min_die_frac * short * 0.35)))
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k))
    mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, kernel)
    return cv2.morphologyEx(fill_holes(mask, max_area), cv2.MORPH_OPEN, kernel)


def fill_holes(mask: Image, max_area: float) -> Image:
    """Fill the holes of a binary mask that are smaller than ``max_area`` pixels."""
    contours, hierarchy = cv2.findContours(mask, cv2.RETR_CCOMP, cv2.CHAIN_APPROX_SIMPLE)
    out = mask.copy()
    if hierarchy is None:
        return out
    holes = [c for c, h in zip(contours, hierarchy[0]) if h[3] >= 0 and cv2.contourArea(c) <= max_area]
    cv2.drawContours(out, holes, -1, 255, -1)
    return out


def outer_contours(mask: Image) -> list[NDArray[np.int32]]:
    """Outer boundary of every connected component, including those inside holes."""
    contours, hierarchy = cv2.findContours(mask, cv2.RETR_CCOMP, cv2.CHAIN_APPROX_SIMPLE)
    if hierarchy is None:
        return []
    return [c for c, h in zip(contours, hierarchy[0]) if h[3] < 0]


def _split_blob(blob: Image, dist: NDArray[np.float32], side: float, split_depth: float) -> list[Image]:
    """Split a blob of several touching dice by the peaks of its distance transform ``dist``."""
    peaks = (dist >= split_depth * side).astype(np.uint8)
    n, labels = cv2.connectedComponents(peaks)
    if n <= 2:
        return _kmeans_split(blob, side)
    markers = labels.astype(np.int32) + 1
    markers[(blob > 0) & (peaks == 0)] = 0
    colour = cv2.cvtColor(blob, cv2.COLOR_GRAY2BGR)
    cv2.watershed(colour, markers)
    return [((markers == i + 1) & (blob > 0)).astype(np.uint8) * 255 for i in range(1, n)]


def _kmeans_split(blob: Image, side: float, iterations: int = 10) -> list[Image]:
    """Split a blob of about k dice areas into k compact parts (deterministic k-means on pixel positions)."""
    ys, xs = np.nonzero(blob)
    k = int(round(len(xs) / (side * side)))
    if k < 2:
        return [blob]
    k = min(k, 6)
    px, py = xs.astype(np.float64), ys.astype(np.float64)
    first = int(np.argmin(px + py))
    cx, cy = [px[first]], [py[first]]
    d = np.full(len(px), np.inf)
    for _ in range(1, k):  # farthest-point start: no random numbers
        d = np.minimum(d, (px - cx[-1]) ** 2 + (py - cy[-1]) ** 2)
        far = int(np.argmax(d))
        cx.append(px[far])
        cy.append(py[far])
    cen_x, cen_y = np.array(cx), np.array(cy)
    for _ in range(iterations):
        label = _nearest(px, py, cen_x, cen_y)
        count = np.bincount(label, minlength=k)
        has = count > 0
        cen_x[has] = np.bincount(label, px, k)[has] / count[has]
        cen_y[has] = np.bincount(label, py, k)[has] / count[has]
    parts = []
    for i in range(k):
        part = np.zeros_like(blob)
        part[ys[label == i], xs[label == i]] = 255
        parts.append(part)
    return parts


def _nearest(px: NDArray[np.float64], py: NDArray[np.float64], cen_x: NDArray[np.float64], cen_y: NDArray[np.float64]) -> NDArray[np.intp]:
    """The index of each point's nearest centre (the first on a tie, as ``argmin``), one centre at a time:
    twice as fast as an argmin over a (points, centres) array."""
    best = (px - cen_x[0]) ** 2 + (py - cen_y[0]) ** 2
    label = np.zeros(len(px), np.intp)
    for i in range(1, len(cen_x)):
        d = (px - cen_x[i]) ** 2 + (py - cen_y[i]) ** 2
        closer = d < best
        best = np.where(closer, d, best)
        label[closer] = i
    return label


def _typical_side(areas: list[float], cfg: DiceConfig, short: int) -> float:
    lo, hi = (cfg.min_die_frac * short) ** 2, (cfg.max_die_frac * short) ** 2
    ok = [a for a in areas if lo <= a <= hi]
    return float(np.sqrt(np.median(ok))) if ok else cfg.min_die_frac * short * 2


def die_regions(cfg: DiceConfig, image: Image) -> list[NDArray[np.int32]]:
    """Contours of single-die regions (touching dice split apart)."""
    return _regions(cfg, image)[0]


def _gradient(image: Image) -> NDArray[np.complex128]:
    """The image's lightness gradient, x + iy."""
    grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    return cv2.Sobel(grey, cv2.CV_32F, 1, 0, ksize=3) + 1j * cv2.Sobel(grey, cv2.CV_32F, 0, 1, ksize=3)


def _regions(cfg: DiceConfig, image: Image, gradient: Callable[[], NDArray[np.complex128]] | None = None
             ) -> tuple[list[NDArray[np.int32]], list[NDArray[np.int32]], list[NDArray[np.int32]]]:
    """Contours of single-die regions (touching dice split apart), grid cells of the
    elongated or oversized ones (:func:`_tiles`) and squares searching the oversized ones (:func:`_windows`).
    ``gradient`` gives the image's :func:`_gradient` (taken when first needed, shared by the proposal variants)."""
    gradient = gradient or cache(partial(_gradient, image))
    mask = die_mask(cfg, image)
    short = min(image.shape[:2])
    contours = outer_contours(mask)
    side = _typical_side([cv2.contourArea(c) for c in contours], cfg, short)
    out: list[NDArray[np.int32]] = []
    tiles: list[NDArray[np.int32]] = []
    windows: list[NDArray[np.int32]] = []
    for c in contours:
        tiles += _tiles(c, side, cfg)
        area = cv2.contourArea(c)
        if area <= cfg.split_ratio * side * side:
            out.append(c)
            continue
        x, y, w, h = cv2.boundingRect(c)
        blob = np.zeros((h + 2, w + 2), np.uint8)
        cv2.drawContours(blob, [c], -1, 255, -1, offset=(1 - x, 1 - y))
        origin = np.array([x - 1, y - 1], np.int32)  # the blob's pixel (0, 0) in the image
        dist = cv2.distanceTransform(blob, cv2.DIST_L2, 5)
        limit = cfg.window_max_dice * side  # larger, it is a tray's edge or a hand, no cluster of dice
        if cfg.window_step > 0 and area <= limit * side and max(cv2.minAreaRect(c)[1]) <= limit:
            windows += _windows(gradient(), dist, origin, side, cfg)
        for part in _split_blob(blob, dist, side, cfg.split_depth):
            out.extend(s + origin for s in outer_contours(part))
    return ([c for c in out if _plausible_die(cfg, c, short)], [c for c in tiles if _plausible_die(cfg, c, short)],
            [c for c in windows if _plausible_die(cfg, c, short)])


def _tiles(contour: NDArray[np.int32], side: float, cfg: DiceConfig) -> list[NDArray[np.int32]]:
    """Touching dice the mask merged into one region: its fitted rectangle cut into a grid of
    nearly square cells, about a die each (the rectangle's short side for a row of dice, else the
    typical die side); the face filter drops the cells that are no die's face."""
    if cfg.tile_max < 2:
        return []
    (cx, cy), (w, h), angle = cv2.minAreaRect(contour)
    lo, hi = min(w, h), max(w, h)
    if hi < cfg.tile_aspect * max(lo, 1.0) and cv2.contourArea(contour) <= cfg.split_ratio * side * side:
        return []
    cell = lo if lo < cfg.tile_max_side * side else side
    nx, ny = max(1, round(w / cell)), max(1, round(h / cell))
    if not 2 <= nx * ny <= cfg.tile_max:
        return []
    cw, ch = w / nx, h / ny
    if max(cw, ch) > cfg.tile_cell_aspect * min(cw, ch):
        return []
    t = np.deg2rad(angle)
    ux, uy, vx, vy = np.cos(t), np.sin(t), -np.sin(t), np.cos(t)
    out = []
    for i in range(nx):
        for j in range(ny):
            a, b = (i + 0.5) * cw - w / 2, (j + 0.5) * ch - h / 2
            centre = (cx + a * ux + b * vx, cy + a * uy + b * vy)
            out.append(cv2.boxPoints((centre, (cw, ch), angle)).round().astype(np.int32).reshape(-1, 1, 2))
    return out


def _windows(gradient: NDArray[np.complex128], dist: NDArray[np.float32], origin: NDArray[np.int32], side: float,
             cfg: DiceConfig) -> list[NDArray[np.int32]]:
    """Touching dice the mask merged into one region of any shape (``dist``, its distance transform, whose
    pixel (0, 0) is the image's ``origin``): die-sized squares at a grid of places inside it, each turned to
    the edges around it (a die's sides run at one angle, mod 90°, found from the image's ``gradient`` as
    x + iy); the face filter and the value reader keep the ones on a whole face."""
    inside = dist >= cfg.window_inside * side
    step = max(1, int(round(cfg.window_step * side)))
    half = int(round(side / 2))
    out = []
    for by in range(step // 2, dist.shape[0], step):
        for bx in range(step // 2, dist.shape[1], step):
            if not inside[by, bx]:
                continue
            cx, cy = bx + int(origin[0]), by + int(origin[1])
            y0, y1, x0, x1 = max(0, cy - half), cy + half + 1, max(0, cx - half), cx + half + 1
            g = gradient[y0:y1, x0:x1]
            angle = float(np.degrees(np.angle(np.sum(g ** 4 / np.maximum(np.abs(g), 1e-6) ** 3))) / 4)  # sum of |g| e^{4i angle}
            out.append(cv2.boxPoints(((float(cx), float(cy)), (side, side), angle)).round().astype(np.int32).reshape(-1, 1, 2))
    return out


def _plausible_die(cfg: DiceConfig, contour: NDArray[np.int32], short: int) -> bool:
    (_, _), (w, h), _ = cv2.minAreaRect(contour)
    if min(w, h) < cfg.min_die_frac * short or max(w, h) > cfg.max_die_frac * short:
        return False
    if max(w, h) > cfg.max_aspect * max(min(w, h), 1.0):
        return False
    return cv2.contourArea(contour) >= cfg.min_fill * w * h


def _face_crop(image: Image, contour: NDArray[np.int32], inset: float) -> tuple[Image, float]:
    """The die face warped to an upright square, and its side in pixels."""
    (cx, cy), (w, h), angle = cv2.minAreaRect(contour)
    side = float(np.sqrt(max(w * h, 1.0)))
    out = 48
    keep = side * (1.0 - 2 * inset)
    rot = cv2.getRotationMatrix2D((cx, cy), angle, out / keep)
    rot[0, 2] += out / 2 - cx
    rot[1, 2] += out / 2 - cy
    crop = cv2.warpAffine(image, rot, (out, out), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    return crop, side


def read_face(face: Image) -> tuple[int | None, float]:
    """The value of an upright square BGR crop of a die's top face (about 48x48, the face filling
    0.7 to 1.0 of it), and a confidence 0..1; None when it does not look like a die's face
    (:mod:`vision.die_face`, the crop read in all its quarter turns and mirrors)."""
    read = read_faces([[face]], 8)[0]
    if read.not_die >= 0.5:
        return None, read.not_die
    return read.value, read.confidence


def candidate_regions(cfg: DiceConfig, image: Image) -> list[NDArray[np.int32]]:
    """Regions that may be die faces, from every proposal variant (overlaps are resolved later)."""
    return _candidates(cfg, image)[0]


def _candidates(cfg: DiceConfig, image: Image) -> tuple[list[NDArray[np.int32]], list[NDArray[np.int32]], list[NDArray[np.int32]]]:
    """:func:`candidate_regions`, and the grid cells and search squares of merged regions from every variant."""
    out: list[NDArray[np.int32]] = []
    tiles: list[NDArray[np.int32]] = []
    windows: list[NDArray[np.int32]] = []
    gradient = cache(partial(_gradient, image))
    for diff, low, high, blur in cfg.proposals:
        variant = replace(cfg, colour_diff=diff, canny_low=low, canny_high=high, background_blur=blur)
        regions, cells, squares = _regions(variant, image, gradient)
        out += regions
        tiles += cells
        windows += squares
    return out, tiles, windows


def read_dice(cfg: DiceConfig, image: Image) -> list[Die]:
    """Find every die in a photo and read its value. Pure: no I/O.

    The face model (``vision/dice_model.json``) classifies each candidate region as not-a-die
    or a value 1..6; overlapping candidates are one die. Each die's best proposals and squares
    grown from its elongated ones (half a die) are read once by the value stage
    (:mod:`vision.die_face`), the ones read most surely give the die's box and are read again
    turned and mirrored for its value.
    """
    model = load_face_model()
    if model is None:
        raise VisionError(f"the dice face filter {MODEL_PATH.name} is missing beside vision/dice_model.py: reinstall bgref")
    regions, tiles, windows = _candidates(cfg, image)
    kept: list[tuple[tuple[float, float], float, list[NDArray[np.int32]], Image, NDArray[np.float32]]] = []
    # the grid cells and search squares of merged regions come last: they only add dice no region found. A square is
    # measured by its own side, and a die found before it that is far larger is two dice taken for one: it hides nothing
    for contours, not_die, nms, same, own in ((regions, cfg.not_die_prob, cfg.nms_dist, cfg.nms_dist, False),
                                              (tiles, cfg.tile_not_die_prob, cfg.tile_nms_dist, cfg.nms_dist, False),
                                              (windows, cfg.window_not_die_prob, cfg.window_nms_dist, cfg.window_nms_dist, True)):
        found = []
        for contour in contours:
            face, side = _face_crop(image, contour, cfg.face_inset)
            probs = model.probabilities(face_features(face))[0]
            if probs[0] < not_die:
                found.append((float(1.0 - probs[0]), cv2.minAreaRect(contour)[0], side, contour, face, probs))
        found.sort(key=lambda f: -f[0])
        before = len(kept)  # dice of the pass before: a cell near one is dropped, never merged into it
        for _, centre, side, contour, face, probs in found:
            near = [i for i, k in enumerate(kept) if np.hypot(centre[0] - k[0][0], centre[1] - k[0][1])
                    < (nms if i < before else same) * (side if own else max(side, k[1]))
                    and not (own and k[1] > cfg.window_big * side)]
            if not near:
                kept.append((centre, side, [contour], face, probs.copy()))
            elif near[0] >= before:
                kept[near[0]][4][:] += probs  # overlapping proposals of one die vote on its value
                kept[near[0]][2].append(contour)
    # the value stage, over each die's best proposals and crop insets, turned and mirrored
    if cfg.value_pool > 1:
        kept = _surest(image, kept, cfg)
    groups = [[_face_crop(image, c, inset)[0] for c in k[2][:cfg.value_crops] for inset in cfg.value_insets] for k in kept]
    read = read_faces(groups, cfg.value_turns)
    guard = load_die_guard()  # a network fitted with hard negatives: laptop keys, labels, side faces, parts of dice
    doubt = guard.read_groups(groups, cfg.value_turns)[:, 0] if guard is not None and groups else np.zeros(len(kept))
    dice: list[Die] = []
    for (_, _, contours, face, _), faced, d in zip(kept, read, doubt):
        if d >= cfg.guard_not_die or faced.not_die >= cfg.value_not_die:
            continue
        x, y, w, h = cv2.boundingRect(contours[0])
        light = float(np.median(cv2.cvtColor(face, cv2.COLOR_BGR2LAB)[..., 0]))
        dice.append(Die(faced.value, (int(x), int(y), int(w), int(h)), faced.confidence, light))
    return dice


def _squares(contour: NDArray[np.int32], min_aspect: float) -> list[NDArray[np.int32]]:
    """For an elongated proposal (a die cut in two, or half hidden), the two squares of its long
    side that extend it across its short side, one either way."""
    (cx, cy), (w, h), angle = cv2.minAreaRect(contour)
    lo, hi = min(w, h), max(w, h)
    if hi < min_aspect * max(lo, 1.0):
        return []
    t = np.deg2rad(angle)
    ux, uy = (np.cos(t), np.sin(t)) if w < h else (-np.sin(t), np.cos(t))  # along the short side
    d = (hi - lo) / 2
    return [cv2.boxPoints(((cx + k * d * ux, cy + k * d * uy), (hi, hi), angle)).round().astype(np.int32).reshape(-1, 1, 2)
            for k in (-1, 1)]


def _surest(image: Image, kept: list, cfg: DiceConfig) -> list:
    """Each die's proposals (its ``value_pool`` best, and squares grown from the elongated ones)
    ordered by how surely the network reads a value on them: a whole face reads surely, half a
    die or a die with its shadow does not. Dice whose surest proposals now coincide are one."""
    pools = []
    for k in kept:
        pool = list(k[2][:cfg.value_pool])
        pool += [q for c in pool for q in _squares(c, cfg.square_aspect)]
        pools.append(pool)
    crops = [[_face_crop(image, c, cfg.value_insets[0])[0]] for pool in pools for c in pool]
    sure = np.array([f.sureness for f in read_faces(crops, cfg.pick_turns)])
    ranked, at = [], 0
    for k, pool in zip(kept, pools):
        score = sure[at:at + len(pool)]
        at += len(pool)
        order = np.argsort(-score, kind="stable")
        ranked.append((float(score[order[0]]), [pool[i] for i in order], [float(score[i]) for i in order], k))
    ranked.sort(key=lambda r: -r[0])
    out: list = []
    for best, pool, scores, k in ranked:
        (cx, cy), (w, h), _ = cv2.minAreaRect(pool[0])
        side = float(np.sqrt(max(w * h, 1.0)))
        near = [o for o in out if np.hypot(cx - o[0][0], cy - o[0][1]) < cfg.nms_dist * max(side, o[1])]
        if near:  # the same die found twice: its proposals join the surer reading's
            merged = sorted(zip(near[0][4] + scores, range(len(near[0][2]) + len(pool)), near[0][2] + pool), key=lambda m: (-m[0], m[1]))
            near[0][2][:] = [c for _, _, c in merged]
            near[0][4][:] = [q for q, _, _ in merged]
        else:
            out.append(((cx, cy), side, pool, k[3], scores))
    return [o[:4] + (None,) for o in out]
