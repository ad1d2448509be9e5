"""The doubling cube: found among the light blobs off the playing surface, its value read from the numeral on its top face."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.blobs import WhiteBlob, _densest_square, _densest_squares, _morph, white_blobs, white_mask
from vision.calibration import Calibration
from vision.config import ReaderConfig
from vision.geometry import BoardGeometry, half_of, side_of
from vision.numerals import numeral_mask
from vision.windows import OutlineBand, Warp, _crop, _on_canonical, _remap_window, outline_bands, window_maps

Image = NDArray[np.uint8]


CUBE_FACES = (2, 4, 8, 16, 32, 64)


@lru_cache(maxsize=4)
def cube_templates(size: int, thickness: int) -> tuple[tuple[int, NDArray[np.float32]], ...]:
    """Ink masks of the cube's numerals (upright and turned by quarter turns)."""
    out = []
    for face in CUBE_FACES:
        t = cv2.GaussianBlur(numeral_mask(str(face), size, thickness), (3, 3), 0)
        for r in range(4):
            out.append((face, np.ascontiguousarray(np.rot90(t, r))))
    return tuple(out)


def _cube_centre(cfg: ReaderConfig, bright: NDArray[np.uint8], blob: WhiteBlob) -> tuple[float, float]:
    """Where a cube-sized square covers most bright pixels near the blob (the numerals break the blob up)."""
    ppm = cfg.px_per_mm
    edge = int(round(cfg.geometry.cube_edge * ppm))
    cx, cy = blob.centre[0] * ppm, blob.centre[1] * ppm
    r = edge
    h, w = bright.shape
    x0, y0 = max(0, int(cx - r)), max(0, int(cy - r))
    win = bright[y0:min(h, int(cy + r)), x0:min(w, int(cx + r))]
    if win.size == 0:
        return cx, cy
    ix, iy = _densest_square(win, edge)
    return float(x0 + ix), float(y0 + iy)


def cube_past_outline(cfg: ReaderConfig, cal: Calibration, image: Image, bright: NDArray[np.uint8],
                      bands: list[OutlineBand] | None = None, detail: Warp | None = None) -> dict[str, Any] | None:
    """The cube on the frame of a player's side, looked for in the strips that reach past the board's
    outline: the cube's top stands two heights (frame and cube) above the plane the calibration
    maps, so a tilted camera sees it shifted outwards, often off the board altogether."""
    found = [read_cube(cfg, cal, image, _on_canonical(cfg, band, blob), bright, detail)
             for band in (bands if bands is not None else outline_bands(cfg, cal, image)) for blob in band.blobs]
    found = [c for c in found if c["confidence"] >= cfg.cube_min_score]
    return max(found, key=lambda c: c["confidence"]) if found else None


def _face_mask(cfg: ReaderConfig, patch: Image) -> NDArray[np.uint8]:
    """The patch's pixels light and grey enough to be the cube's face."""
    lab = cv2.cvtColor(patch, cv2.COLOR_BGR2LAB)
    light = (lab[..., 0] > cfg.cube_face_share * float(np.percentile(lab[..., 0], 99))).astype(np.uint8)  # the lightest thing there
    chroma = cv2.absdiff(lab[..., 1], 128).astype(np.int16) + cv2.absdiff(lab[..., 2], 128)
    return light & (chroma < cfg.cube_max_chroma).astype(np.uint8)  # ivory, not copper or leather


def _square_centre(cfg: ReaderConfig, face: NDArray[np.uint8]) -> tuple[float, float]:
    """Pixel where a cube-sized square covers most of the light face mask and its surround least
    (the numerals break the face up; a light table beside the frame is light all round), within a
    cube's edge of the patch's middle, where the blob that led to it lies."""
    return _square_centres(cfg, face, 1)[0]


def _square_centres(cfg: ReaderConfig, face: NDArray[np.uint8], count: int) -> list[tuple[float, float]]:
    """The ``count`` best such places (a pale table beside the cube can score as well as its face)."""
    edge = int(round(cfg.geometry.cube_edge * cfg.px_per_mm))
    mid = ((face.shape[1] - 1) / 2, (face.shape[0] - 1) / 2, float(edge))
    return [(float(x), float(y)) for x, y in _densest_squares(face, edge, max(1, int(round(edge * cfg.cube_ring))), mid, count)]


def face_square(cfg: ReaderConfig, face: NDArray[np.uint8], centre: tuple[float, float]) -> tuple[float, NDArray[np.uint8]] | None:
    """The turn (mod 90°) and the pixels of the cube-sized light square at ``centre`` of the face mask, or
    None when what lies there is no square (a blob's own outline is bent by highlights stuck to it)."""
    edge = cfg.geometry.cube_edge * cfg.px_per_mm
    filled = _morph(face, cv2.MORPH_CLOSE, cfg.cube_numeral_close, cfg.px_per_mm)  # the numerals' ink filled in
    n, labels = cv2.connectedComponents(filled)
    x, y = min(int(round(centre[0])), face.shape[1] - 1), min(int(round(centre[1])), face.shape[0] - 1)
    at = labels[y, x]
    if at == 0:
        return None
    contours = cv2.findContours((labels == at).astype(np.uint8), cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)[0]
    outline = max(contours, key=cv2.contourArea)
    (_, (w, h), angle) = cv2.minAreaRect(outline)
    if not (1 - cfg.cube_square_tolerance) * edge <= min(w, h) <= max(w, h) <= (1 + cfg.cube_square_tolerance) * edge:
        return None
    square = np.zeros_like(face)
    cv2.fillConvexPoly(square, cv2.convexHull(outline), 1)  # with the ink the closing left out (a bold numeral's)
    return (angle + 45.0) % 90.0 - 45.0, square


def read_cube(cfg: ReaderConfig, cal: Calibration, image: Image, blob: WhiteBlob, bright: NDArray[np.uint8],
              detail: Warp | None = None) -> dict[str, Any]:
    """The cube's face value by matching numeral templates, turned as the cube's outline is.

    Read on a patch of the camera image around the blob, so a cube whose top overhangs the
    board's outline is read whole; where the outline cuts the blob, the face is looked for on
    the patch, at the few likeliest places, and the one whose numeral matches best is kept. The patch is
    cut from ``detail`` (the canonical image's warp at ``detail_px_per_mm``) where that covers it.
    """
    fine = cfg.detail()  # the patch's resolution
    ppm = fine.px_per_mm
    bx, by, bw, bh = cv2.boundingRect(blob.contour)
    whole = bx > 1 and by > 1 and bx + bw < bright.shape[1] - 1 and by + bh < bright.shape[0] - 1
    # a blob the outline cuts may hold only the cube's side: its face may lie up to an edge away
    half = cfg.geometry.cube_edge * (cfg.cube_patch if whole else cfg.cube_patch + 1.0)
    # the patch's corner and side in canonical pixels at its resolution
    x0, y0, n = int(round((blob.centre[0] - half) * ppm)), int(round((blob.centre[1] - half) * ppm)), int(round(2 * half * ppm))
    cut = None if detail is None else detail.cut(x0, y0, n, n)
    maps = cut if cut is not None else window_maps(fine, cal, (x0 / ppm, y0 / ppm), (n / ppm, n / ppm))
    patch = _remap_window(image, maps)
    face = _face_mask(fine, patch)
    if whole:
        cx, cy = _cube_centre(cfg, bright, blob)  # wholly on the canonical image: its light mask is the better guide
        k = ppm / cfg.px_per_mm
        places = [((cx + 0.5) * k - 0.5 - x0, (cy + 0.5) * k - 0.5 - y0)]
    else:  # cut by the board's outline: find the whole face on the patch
        places = _square_centres(fine, face, cfg.cube_face_tries)
        if (1 - cfg.cube_square_tolerance) * cfg.geometry.cube_edge <= blob.size[0] <= blob.size[1] <= (1 + cfg.cube_square_tolerance) * cfg.geometry.cube_edge:
            places.insert(0, (half * ppm, half * ppm))  # the blob is a whole face already (a strip's past the outline)
    h, w = image.shape[:2]
    seen = ((maps[0] >= 0) & (maps[0] <= w - 1) & (maps[1] >= 0) & (maps[1] <= h - 1)).astype(np.float32)
    edge = cfg.geometry.cube_edge * ppm
    places = [p for p in places if _share_seen(seen, p, edge) >= cfg.cube_min_seen] or places[:0]
    if not places:  # the face lies past the camera's image: nothing to read
        return {"value": None, "position": None, "confidence": 0.0, "xy_mm": [round(blob.centre[0], 1), round(blob.centre[1], 1)]}
    best, best_face, (px, py) = -1.0, None, places[0]
    for p in places:  # likeliest first; a numeral matched this well is not bettered at a less likely place
        score, value = _read_numeral(fine, patch, face, blob, p)
        if score > best:
            best, best_face, (px, py) = score, value, p
        if best >= cfg.cube_stop:
            break
    cx, cy = x0 + px, y0 + py
    geo = cfg.geometry
    centre = _is_centre(cfg, (cx / ppm, cy / ppm))
    value = 1 if (best_face == 64 and centre) else best_face
    position = "centre" if centre else side_of(geo, cal.layout, (cx / ppm, cy / ppm))
    return {"value": value, "position": position, "confidence": round(max(best, 0.0), 3),
            "xy_mm": [round(cx / ppm, 1), round(cy / ppm, 1)]}


def _share_seen(seen: NDArray[np.float32], at: tuple[float, float], edge: float) -> float:
    """Share of the face-sized square at ``at`` (on the patch) that lies in the camera's image."""
    h = int(round(edge / 2))
    x, y = int(round(at[0])), int(round(at[1]))
    window = seen[max(0, y - h):y + h, max(0, x - h):x + h]
    return float(window.mean()) if window.size else 0.0


def _read_numeral(cfg: ReaderConfig, patch: Image, face: NDArray[np.uint8], blob: WhiteBlob,
                  at: tuple[float, float]) -> tuple[float, int | None]:
    """(best template correlation, its face) of the cube's face centred at patch pixel ``at``."""
    ppm = cfg.px_per_mm
    px, py = at
    side = cfg.geometry.cube_edge * ppm * cfg.cube_crop
    size = int(round(cfg.geometry.cube_edge * ppm))
    margin = int(round(size * cfg.cube_search))
    templates = cube_templates(size, max(1, int(round(ppm))))
    best, best_face = -1.0, None
    turns = [(blob.angle + 45.0) % 90.0 - 45.0]  # the square's own turn (mod 90°): the numeral is upright in one of four
    square = face_square(cfg, face, (px, py))
    if square is not None and abs((square[0] - turns[0] + 45.0) % 90.0 - 45.0) > max(cfg.cube_angles):
        turns.append(square[0])  # the face's outline disagrees with the blob's: try both
    out = size + 2 * margin  # the crop's side in pixels, and what it spans on the patch
    span = (side * out / size,) * 2
    hull = None if square is None else square[1] * 255

    def ink_at(angle: float) -> NDArray[np.float32]:
        crop = _crop(patch, (px, py), span, angle, out)
        grey = cv2.cvtColor(crop, cv2.COLOR_BGR2GRAY).astype(np.float32)
        paper = float(np.percentile(grey, 90))
        ink = np.clip((paper - grey) / max(paper * cfg.cube_ink_depth, 1.0), 0, 1).astype(np.float32)
        if hull is not None:  # the wood or leather past the face's edge is no numeral's ink
            ink *= _crop(hull, (px, py), span, angle, out) > 127
        return ink

    def match(ink: NDArray[np.float32], k: int) -> float:
        return float(cv2.matchTemplate(ink, templates[k][1], cv2.TM_CCOEFF_NORMED).max())

    upright = ink_at(turns[0])
    if pip_spots(cfg, upright) > cfg.cube_max_spots:
        return 0.0, None  # a die's face: a six's pips match "64" about as well as a numeral half-seen
    for i, turn in enumerate(turns):
        # every numeral at the outline's own turn; then the small turns about it for the likeliest few only
        # (a numeral that fits badly upright does not fit well 5° off it), unless one already fits surely
        ink = ink_at(turn) if i else upright
        scores = [match(ink, k) for k in range(len(templates))]
        likely = sorted(range(len(templates)), key=lambda k: -scores[k])[:cfg.cube_refine]
        for d in cfg.cube_angles:
            if d and scores[likely[0]] < cfg.cube_stop:
                ink = ink_at(turn + d)
                for k in likely:
                    scores[k] = max(scores[k], match(ink, k))
        k = int(np.argmax(scores))
        if scores[k] > best:
            best, best_face = scores[k], templates[k][0]
        if best >= cfg.cube_stop:
            break
    return best, best_face


def pip_spots(cfg: ReaderConfig, ink: NDArray[np.float32]) -> int:
    """How many spots of ink on a face crop are pips: round, of a pip's size (``cube_pip_area``), clear of
    the crop's edge. A numeral's ink is one or two glyphs, each larger; a die's face shows up to six pips."""
    low, high = (a * cfg.px_per_mm ** 2 for a in cfg.cube_pip_area)
    _, _, stats, _ = cv2.connectedComponentsWithStats((ink > 0.5).astype(np.uint8), connectivity=8)
    side = ink.shape[0]
    # round: at most 1.6 times as long as wide, filling over half its box (a disc fills 0.79, a stroke's bend less)
    return sum(1 for x, y, w, h, area in stats[1:]
               if low <= area <= high and max(w, h) <= 1.6 * min(w, h) and area >= 0.55 * w * h
               and x > 0 and y > 0 and x + w < side and y + h < side)


def _is_centre(cfg: ReaderConfig, xy: tuple[float, float]) -> bool:
    geo: BoardGeometry = cfg.geometry
    b0, b1 = geo.bar_x
    m = cfg.cube_centre_margin
    return b0 - m <= xy[0] <= b1 + m and abs(xy[1] - geo.depth / 2) <= cfg.cube_centre_radius


def find_cube(cfg: ReaderConfig, cal: Calibration, image: Image, lab: Image, bright: NDArray[np.uint8],
              blobs: list[WhiteBlob], strips: list[OutlineBand], detail: Warp | None = None,
              base: NDArray[np.float32] | None = None) -> dict[str, Any] | None:
    """The cube: of the light blobs off the playing surface (bar and frame), the one whose numeral matches
    best; when none matches surely, also of those the looser test of the cube's colour finds there (its
    ivory turns cream under a warm lamp) and of those in the strips past the outline (a cube on the frame
    is seen shifted outwards). ``base``: the lightness :func:`white_mask` judged the frame against, if at hand."""
    geo = cfg.geometry
    found = [read_cube(cfg, cal, image, b, bright, detail) for b in blobs if half_of(geo, cal.layout, b.centre) == "off"]
    if max((c["confidence"] for c in found), default=0.0) < cfg.cube_sure:
        cream, _ = white_mask(cfg, cal, lab, cream=True, base=base)
        found += [read_cube(cfg, cal, image, b, cream, detail) for b in white_blobs(cfg, cal, lab, cream) if half_of(geo, cal.layout, b.centre) == "off"]
        past = cube_past_outline(cfg, cal, image, cream, strips, detail)
        found += [past] if past is not None else []
    found = [c for c in found if c["confidence"] >= cfg.cube_min_score]
    return max(found, key=lambda c: c["confidence"]) if found else None


def _is_cube(cfg: ReaderConfig, cube: dict[str, Any] | None, xy: tuple[float, float]) -> bool:
    return cube is not None and float(np.hypot(xy[0] - cube["xy_mm"][0], xy[1] - cube["xy_mm"][1])) < cfg.geometry.cube_edge
