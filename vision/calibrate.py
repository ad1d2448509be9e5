"""Calibration: from one image of the start position, learn where and what everything is.

1. Find the board and fit lens + homography (:mod:`vision.board`), or take four corners
   given by hand.
2. Learn the layout: which side holds the home boards (the start position's occupancy
   pattern is a mirror image for the two choices) and where dark sits (dark's inlay is
   the darker of the two checker colours).
3. Learn colour classes from the now-known start position: copper rims, dark and light
   inlays, each point's leather, the wood of the field and of the bar.
4. Read the calibration image back; if it does not read as the start position, refuse.
"""

from __future__ import annotations

from dataclasses import replace
from functools import lru_cache
from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.board import (
    Lens,
    board_candidates,
    canonical_maps,
    homography_from_corners,
    image_px_per_mm,
    order_corners,
    refine_homography,
    rescaled,
    to_canonical,
)
from vision.calibration import Calibration, load_calibration, parabola_vertex, warp_maps
from vision.config import CalibrationConfig, ReaderConfig
from vision.errors import (
    BoardNotFoundError,
    CalibrationError,
    StartPositionNotFoundError,
    VisionError,
)
from vision.geometry import START_POINTS, BoardGeometry, Layout, checker_centre
from vision.pose import estimate_pose
from vision.start_layout import find_layout
from vision.profiles import (
    ColourClass,
    flatten_light,
    frame_band,
    lab_image,
    sample_profiles,
)
from vision.read import read_board
from vision.reading import PerColour, Reading
from vision.light import normalise_light
from vision.points import rim_strengths

Image = NDArray[np.uint8]


def parse_corners(text: str) -> NDArray[np.float64]:
    """``x1,y1,x2,y2,x3,y3,x4,y4`` (the board's outer corners in image pixels, any order)."""
    try:
        values = [float(v) for v in text.replace(";", ",").split(",") if v.strip()]
    except ValueError:
        raise ValueError(f"corners must be 8 numbers x1,y1,...,x4,y4, got {text!r}") from None
    if len(values) != 8:
        raise ValueError(f"corners must be 8 numbers x1,y1,...,x4,y4, got {len(values)} in {text!r}")
    return np.array(values, np.float64).reshape(4, 2)


# ----------------------------------------------------------------------------- layout


def _start_slots(geo: BoardGeometry, layout: Layout) -> tuple[list[tuple[float, float]], list[tuple[float, float]], list[tuple[float, float]]]:
    """Centres of dark's and light's start checkers and of the empty first slots."""
    dark, light, empty = [], [], []
    for p, n in enumerate(START_POINTS, start=1):
        if n == 0:
            empty += [checker_centre(geo, layout, p, i)[:2] for i in range(2)]
        for i in range(abs(n)):
            (dark if n > 0 else light).append(checker_centre(geo, layout, p, i)[:2])
    return dark, light, empty


def _start_stacks(geo: BoardGeometry, layout: Layout) -> dict[str, list[list[tuple[float, float]]]]:
    """Centres of each start stack's checkers, dark's and light's."""
    stacks: dict[str, list[list[tuple[float, float]]]] = {"dark": [], "light": []}
    for p, n in enumerate(START_POINTS, start=1):
        if n:
            stacks["dark" if n > 0 else "light"].append([checker_centre(geo, layout, p, i)[:2] for i in range(abs(n))])
    return stacks


def learn_layout(cfg: CalibrationConfig, lab: NDArray[np.float32]) -> Layout:
    """Which end holds the home boards and where dark sits, from the start position's pattern of checkers
    (:mod:`vision.start_layout`) on the canonical Lab image ``lab``."""
    return find_layout(cfg.pattern, cfg.reader.geometry, lab, cfg.reader.px_per_mm).layout


def _disc_pixels(lab: NDArray[np.float32], ppm: float, centres: list[tuple[float, float]], r0: float, r1: float) -> NDArray[np.float32]:
    out = []
    h, w = lab.shape[:2]
    for cx, cy in centres:
        x0, x1 = max(0, int((cx - r1) * ppm)), min(w, int((cx + r1) * ppm) + 1)
        y0, y1 = max(0, int((cy - r1) * ppm)), min(h, int((cy + r1) * ppm) + 1)
        yy, xx = np.mgrid[y0:y1, x0:x1]
        rad = np.hypot((xx + 0.5) / ppm - cx, (yy + 0.5) / ppm - cy)
        out.append(lab[y0:y1, x0:x1][(rad >= r0) & (rad <= r1)])
    return np.concatenate(out) if out else np.zeros((0, 3), np.float32)


# ----------------------------------------------------------------------------- colour classes


def colour_parts(pixels: NDArray[np.float32], k: int, min_std: tuple[float, float, float], rounds: int = 12) -> list[ColourClass]:
    """``k`` colour classes that split ``pixels`` (k-means in Lab, started from lightness quantiles)."""
    px = np.asarray(pixels, np.float32).reshape(-1, 3)
    order = np.argsort(px[:, 0])
    centres = px[order[((np.arange(k) + 0.5) / k * len(px)).astype(int)]]
    for _ in range(rounds):
        nearest = np.argmin(((px[:, None, :] - centres[None]) ** 2).sum(axis=2), axis=1)
        centres = np.array([px[nearest == j].mean(axis=0) if (nearest == j).any() else centres[j] for j in range(k)])
    nearest = np.argmin(((px[:, None, :] - centres[None]) ** 2).sum(axis=2), axis=1)
    return [ColourClass.fit(px[nearest == j], min_std) for j in range(k) if (nearest == j).sum() >= 3]


def learn_classes(cfg: CalibrationConfig, lab: NDArray[np.float32], layout: Layout) -> tuple[dict[str, ColourClass], tuple[ColourClass, ...], NDArray[np.float32]]:
    """Colour classes, each point's leather, and each empty point's colour profile (its local shading)."""
    geo, ppm, rcfg = cfg.reader.geometry, cfg.reader.px_per_mm, cfg.reader
    r = geo.checker_diameter / 2
    dark, light, _ = _start_slots(geo, layout)
    classes = {
        "copper": ColourClass.fit(_disc_pixels(lab, ppm, dark + light, r * cfg.rim_band[0], r * cfg.rim_band[1]), rcfg.min_std),
        "dark": ColourClass.fit(_disc_pixels(lab, ppm, dark, 0.0, r * cfg.inlay_radius), rcfg.min_std),
        "light": ColourClass.fit(_disc_pixels(lab, ppm, light, 0.0, r * cfg.inlay_radius), rcfg.min_std),
    }
    rim = _disc_pixels(lab, ppm, dark + light, r * cfg.rim_band[0], r * cfg.rim_band[1])
    for k, part in enumerate(colour_parts(rim, cfg.copper_parts, rcfg.min_std)):
        classes[f"copper_{k}"] = part  # highlight, lit copper, shade: each far tighter than copper as a whole
    if cfg.inlay_parts:
        # each start stack's inlays apart: a stack in a corner's shade or under the lamp's hot spot shows its
        # colour darker and duller, or lighter, than the rest, and one class for all would be broad and cheap
        for name, stacks in _start_stacks(geo, layout).items():
            for k, stack in enumerate(stacks):
                classes[f"{name}_{k}"] = ColourClass.fit(_disc_pixels(lab, ppm, stack, 0.0, r * cfg.inlay_radius), rcfg.min_std)
    profiles = sample_profiles(rcfg, lab, layout)
    steps = profiles.positions  # the centre line comes first in each point's profile
    empty = [i for i, n in enumerate(START_POINTS) if n == 0]
    centre = {i: profiles.points[i][: len(steps)] for i in range(24)}
    leather_px = {i: centre[i][(steps > 5) & (steps < 0.75 * geo.point_length)] for i in range(24)}
    field_px = np.concatenate([centre[i][(steps > geo.point_length + 5)] for i in empty])
    classes["field"] = ColourClass.fit(field_px, rcfg.min_std)
    classes["bar"] = ColourClass.fit(np.concatenate([profiles.bar_dark, profiles.bar_light]), rcfg.min_std)
    cube = _disc_pixels(lab, ppm, [geo.centre], 0.0, geo.cube_edge * 0.4)
    classes["white"] = ColourClass.fit(cube[cube[:, 0] >= np.percentile(cube[:, 0], 40)], rcfg.min_std)
    leather, background = [], []
    for i in range(24):
        j = i
        if START_POINTS[i] != 0:  # hidden under checkers: the nearest empty point of the same colour (every other point)
            same = [k for k in empty if (k - i) % 2 == 0 and (k < 12) == (i < 12)]
            j = min(same, key=lambda k: abs(k - i))
        leather.append(ColourClass.fit(leather_px[j], rcfg.min_std))
        background.append(profiles.points[j])
    return classes, tuple(leather), np.array(background, np.float32)


# ----------------------------------------------------------------------------- the lamp's colour


def lamp_balance(cfg: CalibrationConfig, canon: Image) -> NDArray[np.float32]:
    """Per-channel (BGR) gains that make the cube grey: the colour of the lamp (a 2700 K bulb's orange, a cool
    LED's blue) and of a camera's white balance off, measured on the one white thing the start position puts in a
    known place, the cube in the middle (canonical image ``canon``, BGR). Ones when no cube is seen there (nothing
    brighter than the frame's wood) or the gains are no lamp's.

    A cast no larger than an ivory cube's (``balance_ivory``) is left, since the cube's own tint cannot be told from
    the lamp's; a larger one is undone down to that. The gains keep the cube's mean brightness, so the wood's level is
    about kept as well.
    """
    geo, ppm = cfg.reader.geometry, cfg.reader.px_per_mm
    ones = np.ones(3, np.float32)
    px = _disc_pixels(canon.astype(np.float32), ppm, [geo.centre], 0.0, geo.cube_edge * cfg.balance_radius)
    px = px[px.max(axis=1) < cfg.balance_clip]  # a clipped channel tells the sensor's limit, not the lamp's colour
    if len(px) < 8:
        return ones
    bright = px.mean(axis=1)
    face = px[bright >= np.quantile(bright, 1.0 - cfg.balance_share)]
    white = np.median(face, axis=0)
    wood = float(np.median(frame_band(cfg.reader, canon).astype(np.float32).mean(axis=1)))
    if float(white.mean()) < cfg.balance_min_contrast * max(wood, 1.0) or float(white.min()) < 1.0:
        return ones  # no cube in the middle: the wood's or a leather's colour is not the lamp's
    cast = np.log(white) - float(np.log(white).mean())
    size = float(np.linalg.norm(cast))
    if size <= cfg.balance_ivory:
        return ones  # an ivory cube, or a lamp too near white to tell from one
    if float(np.exp(np.abs(cast)).max()) > cfg.balance_max_gain:
        return ones
    gains = np.exp(-cast * (1.0 - cfg.balance_ivory / size))  # the cast undone down to an ivory cube's
    return (gains * float(white.mean()) / float((white * gains).mean())).astype(np.float32)


def balanced(cfg: CalibrationConfig, canon: Image) -> Image:
    """The canonical image (its light flattened) with the lamp's colour divided out (:func:`lamp_balance`)."""
    gains = lamp_balance(cfg, canon)
    if bool(np.all(gains == 1.0)):
        return canon
    return cv2.multiply(canon, cv2.merge([np.full(canon.shape[:2], float(g), np.float32) for g in gains]), dtype=cv2.CV_8U)


# ----------------------------------------------------------------------------- lens, from the start position


@lru_cache(maxsize=4)
def _ring_template(geo: BoardGeometry, ppm: float, cfg: CalibrationConfig) -> NDArray[np.float32]:
    """A checker's edges as rings (1 on its outline and on its rim's inner edge, 0 elsewhere): whatever the colours
    of inlay, copper and leather, and however the lamp makes them stand out, a checker is edged there."""
    r = geo.checker_diameter / 2
    half = int(np.ceil((r + cfg.ring_margin) * ppm))
    yy, xx = np.mgrid[-half:half + 1, -half:half + 1] / ppm
    rad = np.hypot(xx, yy)
    ring = cfg.ring_edge_width / 2
    return ((np.abs(rad - r) <= ring) | (np.abs(rad - r * cfg.rim_band[0]) <= ring)).astype(np.float32)


def edge_strength(lab: NDArray[np.float32], ppm: float, blur_mm: float) -> NDArray[np.float32]:
    """How sharply the colour changes at each pixel (Lab gradient magnitude, all three channels)."""
    smooth = cv2.GaussianBlur(lab, (0, 0), max(0.5, blur_mm * ppm))
    gx, gy = cv2.Sobel(smooth, cv2.CV_32F, 1, 0), cv2.Sobel(smooth, cv2.CV_32F, 0, 1)
    return np.sqrt((gx * gx + gy * gy).sum(axis=2))


def find_start_checkers(cfg: CalibrationConfig, lab: NDArray[np.float32], layout: Layout) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """Where each start checker of the first layer is seen on the canonical plane (Lab image ``lab``), and where it
    should be (both mm)."""
    geo, ppm = cfg.reader.geometry, cfg.reader.px_per_mm
    tmpl = _ring_template(geo, ppm, cfg)
    half, reach = tmpl.shape[0] // 2, int(round(cfg.ring_search * ppm))
    pad = half + reach  # a checker by the frame is looked for past the board's edge too
    edges = cv2.copyMakeBorder(edge_strength(lab, ppm, cfg.ring_blur_mm), pad, pad, pad, pad, cv2.BORDER_CONSTANT, value=0)
    dark, light, _ = _start_slots(geo, layout)
    seen, want = [], []
    for cx, cy in dark + light:
        x, y = int(round(cx * ppm)) + pad, int(round(cy * ppm)) + pad
        x0, y0 = x - half - reach, y - half - reach
        window = edges[y0:y + half + reach + 1, x0:x + half + reach + 1]
        score = cv2.matchTemplate(window, tmpl, cv2.TM_CCOEFF_NORMED)
        _, best, _, (bx, by) = cv2.minMaxLoc(score)
        if best < cfg.ring_min_score or not (0 < bx < score.shape[1] - 1 and 0 < by < score.shape[0] - 1):
            continue
        # sub-pixel: a parabola through the peak and its neighbours, each way
        px = x0 - pad + bx + half + float(parabola_vertex(score[by, bx - 1], best, score[by, bx + 1]))
        py = y0 - pad + by + half + float(parabola_vertex(score[by - 1, bx], best, score[by + 1, bx]))
        seen.append(((px + 0.5) / ppm, (py + 0.5) / ppm))
        want.append((cx, cy))
    return np.array(seen, np.float64).reshape(-1, 2), np.array(want, np.float64).reshape(-1, 2)


def fit_lens(cfg: CalibrationConfig, image_points: NDArray[np.float64], board_mm: NDArray[np.float64],
             size: tuple[int, int]) -> tuple[Lens, NDArray[np.float64], float]:
    """Radial coefficient (barrel > 0, pincushion < 0) and homography that best carry the seen checkers (image
    pixels) onto their places (mm), a checker looked for on a neighbour's place left out.

    Each coefficient's homography is fitted robustly (RANSAC, then refitted to the checkers within
    ``fit_outlier_mm``), and the coefficients are compared by the misfit each checker adds, capped at that
    distance: a checker matched to its neighbour's place costs the same under every lens.
    Returns the lens, the homography and the RMS misfit (mm, each checker's capped at ``fit_outlier_mm``).
    """
    w, h = size
    cap = cfg.fit_outlier_mm
    best: tuple[float, Lens, NDArray[np.float64], float] | None = None
    for k1 in np.arange(-cfg.max_pincushion, cfg.max_barrel + 1e-9, cfg.barrel_step):
        lens = Lens(float(k1), (w / 2.0, h / 2.0), float(max(w, h)))
        und = lens.undistort(image_points)
        hom, inliers = cv2.findHomography(und, board_mm, cv2.RANSAC, cap)
        if hom is None or inliers is None or int(inliers.sum()) < 4:
            continue
        keep = inliers.ravel() > 0
        refit, _ = cv2.findHomography(und[keep], board_mm[keep], 0)
        hom = refit if refit is not None else hom
        fit = cv2.perspectiveTransform(und.reshape(-1, 1, 2), hom).reshape(-1, 2)
        d2 = ((fit - board_mm) ** 2).sum(axis=1)
        cost = float(np.minimum(d2, cap * cap).mean())
        if best is None or cost < best[0]:
            best = (cost, lens, hom)
    if best is None:
        raise StartPositionNotFoundError("no board found: too few of the start checkers are seen where a board would put them "
                                         "(four needed); set up the start position, or give the frame's four outer corners with --corners")
    return best[1], best[2], float(np.sqrt(best[0]))


def refit_on_start(cfg: CalibrationConfig, image: Image, lens: Lens, hom: NDArray[np.float64],
                   searches: tuple[float, ...] | None = None) -> tuple[Lens, NDArray[np.float64]]:
    """Lens and homography refitted to the start checkers themselves: thirty known marks spread over the board.

    The leather outline cannot measure barrel distortion; the checkers can. Keeps the given fit
    when too few checkers are found or the refit is no better. With ``searches`` (mm), one refit
    for each, each checker looked for that far from its place, and every refit kept (the start
    position's read-back judges the result).
    """
    geo, rcfg = cfg.reader.geometry, cfg.reader
    h, w = image.shape[:2]
    rounds: tuple[float | None, ...] = tuple(searches) if searches else (None,) * cfg.refit_rounds
    for search in rounds:
        look = cfg if search is None else replace(cfg, ring_search=search)
        canon = flatten_light(rcfg, to_canonical(image, canonical_maps(lens, hom, geo, rcfg.px_per_mm)), rcfg.wood_level)
        lab = lab_image(canon)
        # where the checkers stand depends only on which end holds the home boards (the colours do not enter):
        # both ends are tried, so a fit too rough for the layout to be told yet is drawn to the checkers all the same
        seen, want = max((find_start_checkers(look, lab, Layout(home_right, True)) for home_right in (True, False)),
                         key=lambda found: len(found[0]))
        if len(seen) < (cfg.min_start_checkers if search is None else cfg.min_wide_checkers):
            return lens, hom
        before = float(np.sqrt(np.minimum(((seen - want) ** 2).sum(axis=1), cfg.fit_outlier_mm ** 2).mean()))
        image_points = lens.distort(cv2.perspectiveTransform(seen.reshape(-1, 1, 2), np.linalg.inv(hom)).reshape(-1, 2))
        new_lens, new_hom, rms = fit_lens(cfg, image_points, want, (w, h))
        if search is None and rms >= before * cfg.min_refit_gain:
            return lens, hom
        lens, hom = new_lens, new_hom
    return lens, hom


# ----------------------------------------------------------------------------- calibrate


def camera_of(cfg: CalibrationConfig, cal: Calibration) -> dict[str, Any]:
    """The camera's tilt off vertical and height over the board, as the calibration implies them
    (``focal`` says whether the lens's focal length was measured from the image or assumed)."""
    pose, measured = estimate_pose(cal.homography, cal.image_size, cfg.reader.focal_per_width * cal.image_size[0])
    return {"tilt_deg": round(pose.tilt_deg, 1), "height_mm": round(pose.height), "focal_px": round(pose.focal),
            "focal": "measured" if measured else "assumed"}


def calibrate(cfg: CalibrationConfig, image: Image, corners: NDArray[np.float64] | None = None) -> Calibration:
    """Calibrate on one image of the start position (no dice, cube in the middle).

    The board's fits (each leather prior, then each slightly rescaled) are tried in turn; the
    first that reads back as the start position is kept, since the position is known; failing that, the
    one that reads back with the fewest points amiss, where every checker read is where the start puts it
    and its player's (see :func:`_calibrate_on`; the calibration names those points in ``start_misread``);
    failing both, the fits of the fallback priors (greyer leather) are tried in the same way.
    Raises :class:`BoardNotFoundError` or :class:`StartPositionNotFoundError`.
    """
    if image is None or image.ndim != 3 or image.shape[2] != 3 or min(image.shape[:2]) < 64:
        raise BoardNotFoundError("not a colour image of a usable size (a colour picture at least 64 pixels each way is needed)")
    # learnt at the finer resolution dice are read at: it is done once, and what it learns (colours, the
    # frame's tint, the points' bare look) is in mm and Lab, the same for a reader at any resolution; the
    # start position is read back as the reader will read
    reader, cfg = cfg.reader, replace(cfg, reader=cfg.reader.detail())
    geo = cfg.reader.geometry
    failure: BoardNotFoundError | StartPositionNotFoundError | None = None
    nearly: tuple[tuple[int, int], Calibration] | None = None
    tried: list[list[NDArray[np.float64]]] = []
    # a second look without the leather-coloured patches of a table cloth around the board; last, the
    # fallback priors (a cool or dim lamp's greyer leather), only once nothing else calibrated
    looks = [(False, False), (True, False), (False, True), (True, True)] if corners is None else [(False, False)]
    for drop_islands, fallback in looks:
        if fallback and nearly is not None:
            break
        try:
            fits = _board_fits(cfg, image, corners, drop_islands, fallback)
        except BoardNotFoundError as exc:
            failure = failure or exc
            continue
        homs = [hom for _, hom in fits]
        if any(len(t) == len(homs) and all(np.array_equal(a, b) for a, b in zip(t, homs)) for t in tried):
            continue  # no patch was dropped: these fits have failed already
        tried.append(homs)
        # the best fit drawn to the start checkers, looked for near their places, then farther afield: where a
        # column is covered end to end by the two five-stacks (no leather shows there), or the table's colour joins
        # the leather's, the outline misses and the fit lies up to a point's width off at that end of the board
        # the fit drawn is the best aligned whose start pattern reads (a dim, small board's alignments may all
        # fail to converge, and their order then says nothing)
        base = next((fit for fit in fits if _start_pattern_reads(cfg, image, *fit)), fits[0])
        drawn = [refit_on_start(cfg, image, *base)]
        if cfg.wide_refit_searches:
            drawn.append(refit_on_start(cfg, image, *base, cfg.wide_refit_searches))
        fits = drawn + fits
        tries = fits + [(lens, rescaled(hom, geo, f, d)) for f, d in cfg.perturbations for lens, hom in fits[:1]]
        for lens, hom in tries:
            try:
                cal, rank = _calibrate_on(cfg, image, lens, hom, reader)
            except (StartPositionNotFoundError, BoardNotFoundError) as exc:  # this fit is wrong; the next may not be
                if failure is None or (isinstance(failure, BoardNotFoundError) and not fallback):
                    failure = exc  # a fallback's failure is not reported: with no board in view, "no board" says more
                continue
            if rank == (0, 0):
                return cal
            if nearly is None or rank < nearly[0]:
                nearly = (rank, cal)
    if nearly is not None:
        return nearly[1]  # no fit read back exactly: the one that read back with the fewest points amiss
    assert failure is not None
    if corners is not None:  # the corners were given: the advice is to check them, not to give them
        raise type(failure)(str(failure).replace("give the frame's four outer corners with --corners",
                                                 "check the corners given (the frame's four outer corners, in image pixels)"))
    raise failure


def _start_pattern_reads(cfg: CalibrationConfig, image: Image, lens: Lens, hom: NDArray[np.float64]) -> bool:
    """Whether the start position's pattern (:mod:`vision.start_layout`) reads on the board seen through this fit."""
    rcfg = cfg.reader
    canon = balanced(cfg, flatten_light(rcfg, to_canonical(image, canonical_maps(lens, hom, rcfg.geometry, rcfg.px_per_mm)),
                                        rcfg.wood_level))
    try:
        learn_layout(cfg, lab_image(canon))
    except StartPositionNotFoundError:
        return False
    return True


def _board_fits(cfg: CalibrationConfig, image: Image, corners: NDArray[np.float64] | None,
                drop_islands: bool, fallback: bool = False) -> list[tuple[Lens, NDArray[np.float64]]]:
    """The board's fits to try, best first (by the fallback priors if ``fallback``)."""
    geo = cfg.reader.geometry
    h, w = image.shape[:2]
    if corners is None:
        finder = replace(cfg.finder, priors=cfg.finder.fallback_priors) if fallback else cfg.finder
        return [(lens, hom) for _, lens, hom in board_candidates(finder, image, geo, drop_islands)]
    lens = Lens(0.0, (w / 2.0, h / 2.0), float(max(w, h)))
    hom = homography_from_corners(order_corners(corners), geo, outer=True)
    return [(lens, refine_homography(cfg.finder, image, lens, hom, geo)[0])]


def _calibrate_on(cfg: CalibrationConfig, image: Image, lens: Lens, hom: NDArray[np.float64],
                  reader: ReaderConfig | None = None) -> tuple[Calibration, tuple[int, int]]:
    """Learn the set from the start position seen through one fit of the board, and check it with ``reader``
    (``cfg.reader`` by default): the calibration, and how far it read back from the start position (points
    amiss as read with a lone dim point allowed, then as read strictly; (0, 0): exactly)."""
    geo, rcfg = cfg.reader.geometry, cfg.reader
    h, w = image.shape[:2]
    maps = canonical_maps(lens, hom, geo, rcfg.px_per_mm)
    canon = to_canonical(image, maps)
    canon = flatten_light(rcfg, canon, rcfg.wood_level)  # every set is read at one standard brightness, falloff and all
    # ... and under a grey lamp: the frame's colour (``ref`` below) is taken balanced, so the reader, which brings
    # each frame's wood to that colour, sees every frame with the lamp's colour divided out as well
    canon = balanced(cfg, canon)
    lab = lab_image(canon)
    layout = learn_layout(cfg, lab)
    classes, leather, background = learn_classes(cfg, lab, layout)
    band = frame_band(rcfg, canon)
    ref = tuple(float(v) for v in np.median(band, axis=0))
    wood_l = float(np.median(lab_image(band.reshape(-1, 1, 3))[..., 0]))
    cal = Calibration((w, h), lens, hom, layout, classes, leather, ref, wood_l, background)  # type: ignore[arg-type]
    if reader is not None and reader != rcfg:
        rcfg, maps = reader, canonical_maps(lens, hom, geo, reader.px_per_mm)
    # read back strictly: a point explained badly, even alone, says the fit is off; by colour alone, since
    # the rims are looked for a little off their places and would pass a fit that is off ...
    strict = replace(rcfg, learned_points=False)  # what the colours alone read
    reading = read_board(replace(strict, lone_min_fit=strict.min_mean_fit), cal, image, maps=maps)
    amiss = _amiss(reading)
    rank = (len(amiss), len(amiss))
    if amiss:  # ... though a lone point left unread may be a corner the lamp barely reaches
        relaxed = read_board(strict, cal, image, maps=maps)
        if len(_amiss(relaxed)) < len(amiss):
            reading, amiss = relaxed, _amiss(relaxed)
            rank = (len(amiss), rank[1])
    # a fit that is off puts checkers where the start has none, or a player's where the other's stand; a steep
    # camera's start stacks misread (a five read as ten: their sides seen as a second layer), or left unread,
    # are the reader's to judge while it reads, and a few are borne
    rings = _rings_in_place(cfg, lab, layout, hom) if amiss else None
    if amiss and not (_placed(reading) and len(amiss) <= cfg.max_start_amiss and rings is not None and rings[0] >= rings[1]):
        amiss_text = ", ".join(f"{i + 1} ({'nothing' if reading.points[i] is None else reading.points[i]} for {START_POINTS[i]})"
                               for i in amiss if i < 24)
        rings_text = f"; {rings[0]} start checkers' rims seen where the fit puts them, {rings[1]} needed" if rings else ""
        raise StartPositionNotFoundError(
            f"the board does not read as the start position: points {list(reading.points)!r} (dark's numbers, + dark; "
            f"amiss: {amiss_text or 'checkers on the bar'}{rings_text}); set up the start position, light the board evenly, "
            "or give the frame's four outer corners with --corners")
    # the fit is kept: the rings its bare places show, as the reader measures them
    bare = rim_strengths(rcfg, cal, to_canonical(image, maps))
    bare[np.array([[abs(n) > k for k in range(bare.shape[1])] for n in START_POINTS])] = np.nan  # under a start checker
    return replace(cal, bare_rims=bare, start_misread=tuple(i + 1 for i in amiss)), rank


def _rings_in_place(cfg: CalibrationConfig, lab: NDArray[np.float32], layout: Layout,
                    hom: NDArray[np.float64]) -> tuple[int, int]:
    """How many start checkers' copper rings the fit puts where they are seen, and how many it must: one that misses
    an end of the board by a point's width still reads most of the start position back.

    "Where" allows a ring's own uncertainty: ``ring_in_place_mm``, or ``ring_in_place_px`` image pixels where the
    camera sees fewer pixels per mm than that (a small board, or one turned askew, which fills the frame less).
    On a board seen that coarsely a rim's edge spans under two pixels and blurs away, so a ring not found at all
    is no evidence against the fit, whereas one found astray is: the rings not found are excused, down to
    ``min_start_checkers`` in place."""
    seen, want = find_start_checkers(cfg, lab, layout)
    slots = sum(len(s) for s in _start_slots(cfg.reader.geometry, layout)[:2])
    if not len(seen):
        return 0, cfg.min_rings_in_place
    ppm = image_px_per_mm(hom, want)
    near = np.hypot(*(seen - want).T) <= np.maximum(cfg.ring_in_place_mm, cfg.ring_in_place_px / ppm)
    need = cfg.min_rings_in_place
    if float(np.median(ppm)) < cfg.ring_coarse_px_per_mm:
        need = max(need - (slots - len(seen)), cfg.min_start_checkers)
    return int(near.sum()), need


def _amiss(reading: Reading) -> list[int]:
    """Indices of the points a reading of the start position gets wrong (the bar's checkers count as point 25's)."""
    wrong = [i for i, (got, want) in enumerate(zip(reading.points, START_POINTS)) if got != want]
    return wrong + ([24] if reading.bar != PerColour(0, 0) else [])


def _placed(reading: Reading) -> bool:
    """Whether every checker a reading of the start position sees is where the start puts one of its player's."""
    return reading.bar == PerColour(0, 0) and all(
        got is None or int(np.sign(got)) == int(np.sign(want)) for got, want in zip(reading.points, START_POINTS))


def learn_empty_board(cfg: CalibrationConfig, cal: Calibration, empty: Image) -> Calibration:
    """The calibration with the look of the points the start position covers taken from an image of
    the empty board (same camera, same lamp), instead of borrowed from the nearest bare point of the
    same colour: the points beside the frame and the bar are shaded as no other point is.

    Raises :class:`CalibrationError` if the image is of another size, or shows checkers.
    """
    rcfg, geo = cfg.reader.detail(), cfg.reader.geometry  # at the finer resolution, as calibrate() learns
    if empty is None or empty.ndim != 3 or (empty.shape[1], empty.shape[0]) != tuple(cal.image_size):
        size = "no image" if empty is None else f"{empty.shape[1]}x{empty.shape[0]}"
        raise CalibrationError(f"the empty-board image is {size}, the start position's {cal.image_size[0]}x{cal.image_size[1]}: "
                               "take both with the same camera, unmoved")
    maps = warp_maps(rcfg, cal)

    def check(cal: Calibration, borrowed_may_differ: bool) -> None:
        reading = read_board(rcfg, cal, empty, maps=maps)
        if not looks_bare(reading, borrowed_may_differ):
            on = [i + 1 for i, n in enumerate(reading.points) if n]
            raise CalibrationError(f"the empty-board image does not show the empty board (checkers read on points {on}, "
                                   f"covered: {list(reading.occluded)}): clear the board, or calibrate without it")

    check(cal, True)
    lab = lab_image(normalise_light(rcfg, cal, to_canonical(empty, maps)))
    profiles = sample_profiles(rcfg, lab, cal.layout)
    steps = profiles.positions
    background = np.array(cal.background if cal.background is not None else profiles.points, np.float32)
    leather = list(cal.leather)
    for i, n in enumerate(START_POINTS):
        if n != 0:  # only these were borrowed: the others were seen bare beside the start checkers
            centre = profiles.points[i][: len(steps)]
            leather[i] = ColourClass.fit(centre[(steps > 5) & (steps < 0.75 * geo.point_length)], rcfg.min_std)
            background[i] = profiles.points[i]
    # every place's ring as the bare board shows it, at the reader's resolution (the rims' thresholds are its)
    bare = rim_strengths(cfg.reader, cal, to_canonical(empty, warp_maps(cfg.reader, cal)))
    learnt = replace(cal, leather=tuple(leather), background=background, bare_board_seen=True, bare_rims=bare)
    check(learnt, False)
    return learnt


def learn_bare_board(cal: Calibration, frame: Image, reading: Reading, cfg: CalibrationConfig | None = None) -> Calibration | str | None:
    """For a live camera: the calibration with the bare board learnt from ``frame`` when its ``reading``
    shows the board bare and the calibration has not seen it yet; None when there is nothing to learn,
    or why it could not be learnt."""
    if cal.bare_board_seen or not looks_bare(reading):
        return None
    try:
        return learn_empty_board(cfg or CalibrationConfig(), cal, frame)
    except VisionError as exc:
        return str(exc)


def looks_bare(reading: Reading, borrowed_may_differ: bool = True) -> bool:
    """Whether a reading is of the empty board: no checker, nothing covered. With ``borrowed_may_differ``
    (the bare board not learnt yet), checkers read on up to two of the points the start position
    covers are excused: their borrowed look may differ from their own. Dice on the board are not
    allowed (they would be learnt as the points' look); the cube may lie anywhere."""
    on = [i + 1 for i, n in enumerate(reading.points) if n]
    excused = borrowed_may_differ and len(on) <= 2 and all(START_POINTS[p - 1] != 0 for p in on)
    return (not on or excused) and not (reading.bar.dark or reading.bar.light) and not reading.occluded and not reading.dice


__all__ = [
    "Calibration",
    "parabola_vertex",
    "calibrate",
    "learn_bare_board",
    "learn_empty_board",
    "looks_bare",
    "load_calibration",
    "parse_corners",
    "warp_maps",
    "BoardNotFoundError",
    "StartPositionNotFoundError",
]

