"""The doubling cube: found among the light blobs off the playing surface, its value read from the numeral on its top face."""

from __future__ import annotations

from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.blobs import WhiteBlob, _densest_square, _densest_squares, _morph, white_blobs, white_mask
from vision.calibration import Calibration
from vision.config import ReaderConfig
from vision.cube_cnn import CROP_SPAN, CUBE_FACES, load_cube_reader
from vision.geometry import BoardGeometry, half_of, side_of
from vision.windows import OutlineBand, Warp, _crop, _on_canonical, _remap_window, outline_bands, window_maps

Image = NDArray[np.uint8]


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
    """The cube's face value read by the learned face reader (:func:`_read_numeral`).

    Read on a patch of the camera image around the blob, so a cube whose top overhangs the
    board's outline is read whole; where the outline cuts the blob, the face is looked for on
    the patch, at the few likeliest places, and the one whose numeral reads most surely is kept. The patch is
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
    for p in places:  # every place is read: a blob the outline cuts may be the cube's side face, whose own numeral
        # reads surely too, with the top (the numeral that counts) seen past the outline by parallax; the top, seen
        # square rather than squashed, reads surer
        score, value = _read_numeral(fine, patch, face, blob, p)
        if score > best:
            best, best_face, (px, py) = score, value, p
    cx, cy = x0 + px, y0 + py
    geo = cfg.geometry
    centre = _is_centre(cfg, (cx / ppm, cy / ppm))
    value = None if best < cfg.cube_value_min else 1 if (best_face == 64 and centre) else best_face
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
    """(probability, face value) of the cube's face centred near patch pixel ``at``, read by the learned
    reader (``vision.cube_cnn``: any typeface, any turn) on crops turned as the blob's outline and, where
    the light face's own outline is a square, as that square and about its centre. The crops are sorted out
    at one quarter turn each; the likeliest is then read at all four, and that reading stands (the network
    was trained on crops a little off the face's centre: a search about it found wrong numerals surer than
    the face's own). (0.0, None) when what lies there is no cube's face (a die's, wood, a blank square)."""
    edge = cfg.geometry.cube_edge * cfg.px_per_mm
    span = (edge * CROP_SPAN,) * 2
    out = int(round(span[0]))
    views = [(at, (blob.angle + 45.0) % 90.0 - 45.0)]
    square = face_square(cfg, face, at)
    if square is not None:  # the face's square, where it lies and as it is turned (a blob's outline is bent by highlights)
        m = cv2.moments(square[1], binaryImage=True)
        if m["m00"] > 0:
            views.append(((m["m10"] / m["m00"], m["m01"] / m["m00"]), square[0]))
    reader = load_cube_reader()
    crops = [_crop(patch, c, span, angle, out) for c, angle in views]
    if len(crops) > 1:
        glance = reader.probabilities(crops, turns=1)
        crops = [crops[int(np.argmax(glance[:, 1:].max(axis=1)))]]
    best = reader.probabilities(crops)[0]
    k = int(np.argmax(best[1:])) + 1
    if best[k] <= best[0]:
        return 0.0, None
    return float(best[k]), CUBE_FACES[k - 1]


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
