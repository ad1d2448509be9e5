"""Light blobs on the top-down view: what may be a die or the cube (white against the local background), and their footprints."""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.calibration import Calibration
from vision.config import ReaderConfig
from vision.dice import fill_holes
from vision.pips import medians_u8

Image = NDArray[np.uint8]


@dataclass(frozen=True, slots=True)
class WhiteBlob:
    centre: tuple[float, float]  # canonical mm
    size: tuple[float, float]  # (short, long) mm
    angle: float
    contour: NDArray[np.int32]  # canonical pixels
    colour: tuple[float, float, float]  # median Lab of the brighter half
    fill: float  # area / area of the fitted rectangle
    grown: WhiteBlob | None = None  # a die's whole footprint, dimmer faces and all (see die_footprint)
    lightness: float = 255.0  # median Lab L over the whole blob, pips and shade in
    tinted: bool = False  # found only by the tinted look (see tinted_dice): a die only with its pips read surely

    def die_like(self, cfg: ReaderConfig) -> bool:
        return (self.narrow(cfg) or cfg.die_min_side <= self.size[0] <= cfg.die_max_side) and self.fill >= cfg.min_fill

    def narrow(self, cfg: ReaderConfig) -> bool:
        """Too narrow for a flat die's top, but as long: the top of a cocked die, foreshortened by its tilt."""
        return cfg.tipped_min_side <= self.size[0] < cfg.die_min_side and self.size[1] >= cfg.tipped_min_long


@lru_cache(maxsize=4)
def off_surface(cfg: ReaderConfig) -> NDArray[np.bool_]:
    """Canonical pixels off the playing surface (frame and bar): where the cube lies."""
    geo, ppm = cfg.geometry, cfg.px_per_mm
    h, w = int(round(geo.depth * ppm)), int(round(geo.width * ppm))
    x = (np.arange(w) + 0.5) / ppm
    y = (np.arange(h) + 0.5) / ppm
    f = geo.frame
    b0, b1 = geo.bar_x
    cols = (x < f) | (x > geo.width - f) | ((x >= b0) & (x <= b1))
    rows = (y < f) | (y > geo.depth - f)
    return cols[None, :] | rows[:, None]


def local_background(cfg: ReaderConfig, lightness: Image) -> NDArray[np.float32]:
    """Lightness of the board around each pixel without anything smaller than a die or the cube on it.

    A lamp's hot spot makes bare walnut as light as a die under a dim lamp, so light is judged locally.
    """
    step = cfg.background_step
    small = cv2.resize(lightness, None, fx=1 / step, fy=1 / step, interpolation=cv2.INTER_AREA)
    k = max(3, int(round(cfg.px_per_mm * cfg.background_window / step)) | 1)
    bg = cv2.blur(cv2.medianBlur(small, k), (k, k)).astype(np.float32)
    return cv2.resize(bg, (lightness.shape[1], lightness.shape[0]), interpolation=cv2.INTER_LINEAR)


def white_ab(cal: Calibration | None) -> NDArray[np.float32]:
    """The (a, b) of white under this lamp and camera: the cube's, as calibration measured it on the board's
    light-normalised view. A lamp or a white balance off tints every white alike (dice, cube), so a die's
    colour is judged against it as well as against grey."""
    white = None if cal is None else cal.classes.get("white")
    return np.asarray(white.mean[1:] if white is not None else (128.0, 128.0), np.float32)


def white_chroma_l1(cal: Calibration | None, lab: Image) -> NDArray[np.int16]:
    """Per pixel, the L1 distance of (a, b) from grey or from the calibrated white (:func:`white_ab`), the nearer."""
    a, b = (int(round(float(v))) for v in white_ab(cal))
    grey = cv2.absdiff(lab[..., 1], 128).astype(np.int16) + cv2.absdiff(lab[..., 2], 128)
    tinted = cv2.absdiff(lab[..., 1], min(max(a, 0), 255)).astype(np.int16) + cv2.absdiff(lab[..., 2], min(max(b, 0), 255))
    return np.minimum(grey, tinted)


def tinted_blobs(cfg: ReaderConfig, cal: Calibration, lab: Image, base: NDArray[np.float32], mask: NDArray[np.uint8],
                 found: list[WhiteBlob]) -> list[WhiteBlob]:
    """The die footprints of :func:`tinted_dice`'s parts, marked ``tinted``, but none within a die's edge of a blob
    the grey test ``found`` (its shaded side faces, or the wood beside it, are no second die)."""
    edge = cfg.die_max_side
    out = []
    for b in white_blobs(cfg, cal, lab, tinted_dice(cfg, cal, lab, base, mask)):
        if all(np.hypot(b.centre[0] - f.centre[0], b.centre[1] - f.centre[1]) > edge for f in found):
            out.append(replace(die_footprint(cfg, lab, base, b), tinted=True))
    return out


def tinted_dice(cfg: ReaderConfig, cal: Calibration, lab: Image, base: NDArray[np.float32], mask: NDArray[np.uint8]) -> NDArray[np.uint8]:
    """Light things that :func:`white_mask`'s grey test (``mask``, judged against ``base``) missed, for the dice alone
    (the cube is found by the grey test): ivory dice, and white ones a tinted lamp or a white
    balance off colours (their chroma is judged from grey or from the calibrated white, :func:`white_chroma_l1`,
    up to ``die_max_chroma``). A light part where the grey test already found a die-sized blob is left to it,
    so the outline it found (a die's top, without its shaded side faces) stays as it was."""
    if cfg.die_max_chroma <= 0:
        return np.zeros_like(mask)
    near = white_chroma_l1(cal, lab)
    loose = (near < cfg.die_max_chroma * cfg.ivory_chroma_share) & (lab[..., 0] > base + cfg.white_min_lightness)
    if not loose.any():
        return np.zeros_like(mask)
    a, b = white_ab(cal)
    chroma = np.minimum(np.hypot(lab[..., 1].astype(np.float32) - 128, lab[..., 2].astype(np.float32) - 128),
                        np.hypot(lab[..., 1].astype(np.float32) - a, lab[..., 2].astype(np.float32) - b))
    loose &= chroma < cfg.die_max_chroma
    n, labels, stats, _ = cv2.connectedComponentsWithStats(loose.astype(np.uint8))
    out = np.zeros_like(mask)
    smallest = (cfg.die_min_side * cfg.px_per_mm) ** 2 * cfg.min_fill
    pad = int(round(cfg.white_close * cfg.px_per_mm)) + 2  # room for white_blobs' closing and opening
    for k in range(1, n):
        x, y, w, h, area = (int(v) for v in stats[k])
        if area < smallest:
            continue
        x0, y0, x1, y1 = max(0, x - pad), max(0, y - pad), min(mask.shape[1], x + w + pad), min(mask.shape[0], y + h + pad)
        part = labels[y0:y1, x0:x1] == k
        grey = (mask[y0:y1, x0:x1] > 0) & part
        if grey.any() and any(b.die_like(cfg) for b in white_blobs(cfg, cal, lab[y0:y1, x0:x1], grey.astype(np.uint8))):
            continue  # the grey test found a die's top here: its outline stands
        out[y0:y1, x0:x1] |= part.astype(np.uint8)
    return out


def white_mask(cfg: ReaderConfig, cal: Calibration, lab: Image, cream: bool = False,
               base: NDArray[np.float32] | None = None) -> tuple[NDArray[np.uint8], NDArray[np.float32]]:
    """Pixels as light and grey as a die, or as likely as the cube's learned colour.

    With ``cream``, off the playing surface the test is looser: the cube's ivory turns
    cream under a warm lamp at the board's edge, and calibration often saw it clipped to
    white. (Copper highlights on the bar pass that test too, so it is the second look.)
    Returns the mask and the lightness it was judged against (``base``, if given: a window's share of the
    whole image's).
    """
    base = np.maximum(local_background(cfg, lab[..., 0]), cal.wood_lightness) if base is None else base
    light = lab[..., 0] > base + cfg.white_min_lightness * cfg.ivory_lightness_share
    chroma_l1 = cv2.absdiff(lab[..., 1], 128).astype(np.int16) + cv2.absdiff(lab[..., 2], 128)
    light &= (chroma_l1 < cfg.white_max_chroma * cfg.ivory_chroma_share)
    px = lab[light].astype(np.float32)
    chroma = np.hypot(px[:, 1] - 128, px[:, 2] - 128)
    white = (px[:, 0] > base[light] + cfg.white_min_lightness) & (chroma < cfg.white_max_chroma)
    ivory = cal.classes["white"].loglik(px, cfg.loglik_floor) > cfg.cube_min_loglik
    mask = np.zeros(lab.shape[:2], np.uint8)
    mask[light] = white | ivory
    off = off_surface(cfg)
    if cream and off.shape == mask.shape:
        cream = (lab[..., 0] > cal.wood_lightness + cfg.cube_min_lightness) & (chroma_l1 < cfg.cube_max_chroma) & off
        mask[cream] = 1  # type: ignore[index]
    return mask, base


def _morph(mask: NDArray[np.uint8], op: int, mm: float, ppm: float) -> NDArray[np.uint8]:
    """``mask`` closed or opened with a disc ``mm`` across."""
    k = max(3, int(round(ppm * mm)) | 1)
    return cv2.morphologyEx(mask, op, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k)))


def _densest_square(mask: NDArray[Any], edge: int, ring: int = 0, near: tuple[float, float, float] | None = None) -> tuple[int, int]:
    """Pixel where an ``edge``-sided square covers most of ``mask``; with ``ring``, less the share of
    ``mask`` in the ``ring``-wide band around the square (a light table is light all round, the cube is not);
    with ``near`` (x, y, radius in pixels), only squares centred within that circle."""
    return _densest_squares(mask, edge, ring, near, 1)[0]


def _densest_squares(mask: NDArray[Any], edge: int, ring: int, near: tuple[float, float, float] | None,
                     count: int) -> list[tuple[int, int]]:
    """The ``count`` best such squares, each at least half an edge from the better ones."""
    m = mask.astype(np.float32)
    score = cv2.boxFilter(m, -1, (edge, edge), normalize=False, borderType=cv2.BORDER_CONSTANT)
    if ring > 0:  # shares of what lies inside the image: past its border nothing is known
        def box(a: NDArray[np.float32], side: int) -> NDArray[np.float32]:
            return cv2.boxFilter(a, -1, (side, side), normalize=False, borderType=cv2.BORDER_CONSTANT)
        seen = np.ones_like(m)
        inner_n, outer_n = box(seen, edge), box(seen, edge + 2 * ring)
        outer = box(m, edge + 2 * ring)
        score = score / np.maximum(inner_n, 1) - (outer - score) / np.maximum(outer_n - inner_n, 1)
    yy, xx = np.ogrid[: score.shape[0], : score.shape[1]]
    if near is not None:
        score = np.where((xx - near[0]) ** 2 + (yy - near[1]) ** 2 <= near[2] ** 2, score, -np.inf)
    out = []
    for _ in range(count):
        iy, ix = np.unravel_index(int(np.argmax(score)), score.shape)
        if out and not np.isfinite(score[iy, ix]):
            break
        out.append((int(ix), int(iy)))
        score = np.where((xx - ix) ** 2 + (yy - iy) ** 2 < (edge / 2) ** 2, -np.inf, score)
    return out


def _pixels_inside(image: Image, contour: NDArray[np.int32]) -> NDArray[np.uint8] | None:
    """The pixels (N, channels) of ``image`` inside ``contour``; None when its box lies wholly outside."""
    x, y, bw, bh = cv2.boundingRect(contour)
    x0, y0 = max(x, 0), max(y, 0)  # a piece cut off a blob may reach a pixel past the image
    x1, y1 = min(x + bw, image.shape[1]), min(y + bh, image.shape[0])
    if x1 <= x0 or y1 <= y0:
        return None
    inside = np.zeros((y1 - y0, x1 - x0), np.uint8)
    cv2.drawContours(inside, [contour - np.array([x0, y0], np.int32)], -1, 1, -1)
    return image[y0:y1, x0:x1][inside.astype(bool)]


def _column_medians(pixels: NDArray[np.uint8]) -> list[float]:
    """``np.median`` of each column of 8-bit pixels (N, channels)."""
    return [float(m) for m in medians_u8(tuple(pixels.T))]


def _blob(cfg: ReaderConfig, lab: Image, c: NDArray[np.int32]) -> WhiteBlob | None:
    ppm = cfg.px_per_mm
    if cv2.contourArea(c) < (cfg.blob_min_side * ppm) ** 2 * cfg.min_fill:
        return None
    (cx, cy), (w, h), ang = cv2.minAreaRect(c)
    short, long = sorted((w / ppm, h / ppm))
    if short < cfg.blob_min_side:
        return None
    inside = _pixels_inside(lab, c)
    if inside is None or len(inside) == 0:
        return None
    (middle,) = _column_medians(inside[:, :1])
    colour = tuple(_column_medians(inside[inside[:, 0] >= middle]))  # the lighter half's: pips and shade left out
    fill = float(cv2.contourArea(c)) / max(w * h, 1.0)
    return WhiteBlob((cx / ppm, cy / ppm), (short, long), ang, c, colour, fill, lightness=middle)  # type: ignore[arg-type]


def _opened_parts(cfg: ReaderConfig, contour: NDArray[np.int32], open_mm: float,
                  shape: tuple[int, ...] | None = None) -> list[NDArray[np.int32]]:
    """Outlines of the parts of ``contour`` that an opening of ``open_mm`` leaves (thin spurs and bridges gone).

    Worked on a window around the outline. With the ``shape`` of the image it lies in, the
    window reaches a kernel past the outline, so the parts are the whole image's opening (where
    the outline meets the image's edge, OpenCV's rule for edges applies); without, nothing
    lies outside the outline.
    """
    x, y, w, h = cv2.boundingRect(contour)
    if shape is None:
        x0, y0, x1, y1 = x - 1, y - 1, x + w + 1, y + h + 1
    else:
        reach = max(3, int(round(cfg.px_per_mm * open_mm)) | 1)
        x0, y0 = max(0, x - reach), max(0, y - reach)
        x1, y1 = min(shape[1], x + w + reach), min(shape[0], y + h + reach)
    one = np.zeros((y1 - y0, x1 - x0), np.uint8)
    cv2.drawContours(one, [contour - np.array([x0, y0], np.int32)], -1, 1, -1)
    parts = cv2.findContours(_morph(one, cv2.MORPH_OPEN, open_mm, cfg.px_per_mm), cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)[0]
    return [p + np.array([x0, y0], np.int32) for p in parts]


def _opened_outline(cfg: ReaderConfig, contour: NDArray[np.int32], open_mm: float) -> NDArray[np.int32] | None:
    """The largest of those parts, if any."""
    parts = _opened_parts(cfg, contour, open_mm)
    return max(parts, key=cv2.contourArea) if parts else None


def white_blobs(cfg: ReaderConfig, cal: Calibration, lab: Image, mask: NDArray[np.uint8]) -> list[WhiteBlob]:
    ppm = cfg.px_per_mm
    mask = _morph(mask, cv2.MORPH_CLOSE, cfg.white_close, ppm)
    mask = fill_holes(mask, (cfg.die_max_side * ppm) ** 2 * 0.5)
    mask = _morph(mask, cv2.MORPH_OPEN, cfg.white_open, ppm)
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    blobs = []
    for c in contours:
        blob = _blob(cfg, lab, c)
        if blob is None:
            continue
        if blob.size[1] <= cfg.max_footprint:
            if not blob.die_like(cfg):  # a copper highlight bridged to a die's edge spoils its square
                piece = _opened_outline(cfg, c, cfg.footprint_open)
                trimmed = None if piece is None else _blob(cfg, lab, piece)
                blob = trimmed if trimmed is not None and trimmed.die_like(cfg) else blob
            blobs.append(blob)
            continue
        # too long for one die or the cube: a highlight or a neighbour bridged to it; a wider opening parts them
        pieces = [_blob(cfg, lab, part) for part in _opened_parts(cfg, c, cfg.white_split_open, mask.shape)]
        pieces = [p for p in pieces if p is not None and p.size[1] <= cfg.max_footprint]
        if not pieces and blob.size[1] <= 2 * cfg.max_footprint:  # two dice side by side touch along an edge
            pieces = [p for p in (_blob(cfg, lab, half) for half in _cut_at_waist(cfg, c)) if p is not None and p.die_like(cfg)]
        blobs += pieces
    return blobs


def _cut_at_waist(cfg: ReaderConfig, contour: NDArray[np.int32]) -> list[NDArray[np.int32]]:
    """The two outlines of a long blob cut across its long axis where it is narrowest in its middle third."""
    (cx, cy), (w, h), ang = cv2.minAreaRect(contour)
    if w < h:
        ang, w, h = ang + 90.0, h, w
    side = int(np.ceil(np.hypot(w, h))) + 4
    rot = cv2.getRotationMatrix2D((cx, cy), ang, 1.0)
    rot[:, 2] += np.array([side / 2.0 - cx, side / 2.0 - cy])
    one = np.zeros((side, side), np.uint8)
    cv2.drawContours(one, [cv2.transform(contour.reshape(-1, 1, 2).astype(np.float32), rot).round().astype(np.int32)], -1, 1, -1)
    cols = np.nonzero(one.any(axis=0))[0]
    if len(cols) < 3:
        return []
    lo, hi = cols[0] + len(cols) // 3, cols[0] + 2 * len(cols) // 3
    cut = lo + int(np.argmin(one[:, lo:hi + 1].sum(axis=0)))
    back = cv2.invertAffineTransform(rot)
    out = []
    left, right = one.copy(), one.copy()
    left[:, cut:] = 0
    right[:, :cut + 1] = 0
    for part in (left, right):
        found = cv2.findContours(part, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)[0]
        if found:
            piece = max(found, key=cv2.contourArea).reshape(-1, 1, 2).astype(np.float32)
            out.append(cv2.transform(piece, back).round().astype(np.int32))
    return out


def die_footprint(cfg: ReaderConfig, lab: Image, base: NDArray[np.float32], blob: WhiteBlob) -> WhiteBlob:
    """A die-sized blob grown over the dimmer faces around it: a cocked die's side face is lit less
    than its top and may miss the white test. Unchanged when the grown outline is no die's."""
    if not blob.die_like(cfg):
        return blob
    ppm = cfg.px_per_mm
    reach = int(round(cfg.max_footprint * ppm))
    cx, cy = int(round(blob.centre[0] * ppm)), int(round(blob.centre[1] * ppm))
    h, w = lab.shape[:2]
    x0, y0, x1, y1 = max(0, cx - reach), max(0, cy - reach), min(w, cx + reach), min(h, cy + reach)
    win = lab[y0:y1, x0:x1]
    chroma = cv2.absdiff(win[..., 1], 128).astype(np.int16) + cv2.absdiff(win[..., 2], 128)
    loose = ((win[..., 0] > base[y0:y1, x0:x1] + cfg.side_min_lightness) & (chroma < cfg.side_max_chroma)).astype(np.uint8)
    cv2.drawContours(loose, [blob.contour - np.array([x0, y0], np.int32)], -1, 1, -1)
    loose = _morph(_morph(loose, cv2.MORPH_CLOSE, cfg.white_close, ppm), cv2.MORPH_OPEN, cfg.white_open, ppm)
    n, labels = cv2.connectedComponents(loose)
    at = labels[min(cy - y0, labels.shape[0] - 1), min(cx - x0, labels.shape[1] - 1)]
    if at == 0:
        return blob
    contours, _ = cv2.findContours((labels == at).astype(np.uint8), cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    grown = _blob(cfg, lab[y0:y1, x0:x1], max(contours, key=cv2.contourArea))
    if grown is None or grown.size[1] > cfg.max_footprint or grown.fill < cfg.min_fill:
        return blob
    contour = grown.contour + np.array([x0, y0], np.int32)
    footprint = replace(grown, centre=(grown.centre[0] + x0 / ppm, grown.centre[1] + y0 / ppm), contour=contour, colour=blob.colour)
    return replace(blob, grown=footprint)


def blob_at(cfg: ReaderConfig, lab: Image, base: NDArray[np.float32], blobs: list[WhiteBlob],
            centre: tuple[float, float]) -> WhiteBlob | None:
    """The light blob of a die that :mod:`vision.dice_find` placed near ``centre`` (canonical mm): the nearest
    die-like one of ``blobs`` within half a die's edge; else the light part there cut halfway between the board's
    lightness (``base``) and the spot's lightest (blur spreads a die's edge both ways, so halfway is where it
    lies), grown to the die's footprint. None when nothing light there has a die's shape (a window also sees a
    die beside its centre, or a copper rim's shine)."""
    near = [(float(np.hypot(b.centre[0] - centre[0], b.centre[1] - centre[1])), b) for b in blobs if b.die_like(cfg)]
    near = [t for t in near if t[0] < cfg.geometry.die_edge / 2]
    if near:
        return min(near, key=lambda t: t[0])[1]
    ppm, edge = cfg.px_per_mm, cfg.geometry.die_edge
    h, w = lab.shape[:2]
    cx, cy = int(round(centre[0] * ppm)), int(round(centre[1] * ppm))
    reach = int(round(cfg.max_footprint * ppm))
    x0, y0, x1, y1 = max(0, cx - reach), max(0, cy - reach), min(w, cx + reach + 1), min(h, cy + reach + 1)
    if x1 <= x0 or y1 <= y0:
        return None
    light = lab[y0:y1, x0:x1, 0].astype(np.float32)
    yy, xx = np.mgrid[y0:y1, x0:x1]
    inner = (xx - cx) ** 2 + (yy - cy) ** 2 <= (edge * ppm / 2) ** 2
    if not inner.any():
        return None
    ground = float(np.median(base[y0:y1, x0:x1]))
    peak = float(np.percentile(light[inner], 95))
    if peak <= ground:
        return None
    mask = (light > (ground + peak) / 2).astype(np.uint8)
    n, labels = cv2.connectedComponents(mask)
    on = labels[inner & (mask > 0)]
    if n < 2 or len(on) == 0:
        return None
    part = (labels == np.bincount(on).argmax()).astype(np.uint8)
    contour = max(cv2.findContours(part, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)[0], key=cv2.contourArea) + np.array([x0, y0], np.int32)
    blob = _blob(cfg, lab, contour)
    if blob is None or not blob.die_like(cfg) or blob.size[1] > cfg.max_footprint:
        return None  # a copper rim's shine or a checker's inlay beside a die the window also saw: no die's shape here
    return die_footprint(cfg, lab, base, blob)


def _grown(cfg: ReaderConfig, outlines: list[NDArray[np.int32]], shape: tuple[int, ...],
           margins: tuple[float, ...]) -> list[NDArray[np.uint8]]:
    """Masks of the filled outlines (canonical pixels), one grown by each of ``margins`` mm."""
    mask = cv2.drawContours(np.zeros(shape[:2], np.uint8), outlines, -1, 1, -1)
    boxes = [cv2.boundingRect(outline) for outline in outlines]
    grown = []
    for margin in margins:
        r = int(round(margin * cfg.px_per_mm))
        disc = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * r + 1, 2 * r + 1))
        out = np.zeros_like(mask)
        for x, y, w, h in boxes:  # each within its own box: the mask is mostly empty, and dilating it whole is slow
            x0, y0, x1, y1 = max(0, x - r), max(0, y - r), min(mask.shape[1], x + w + r), min(mask.shape[0], y + h + r)
            if x1 > x0 and y1 > y0:
                out[y0:y1, x0:x1] |= cv2.dilate(mask[y0:y1, x0:x1], disc)
        grown.append(out)
    return grown
