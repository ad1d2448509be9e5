"""The layout from the start position's pattern of checkers, seen on the canonical plane.

The board's outline fixes the canonical plane only up to its four symmetries (either end, either
long side); :class:`vision.geometry.Layout` names them. The start position tells them apart:

- *Occupancy* (which places hold a checker) depends only on which end holds the home boards:
  the home end's corner points hold 2 checkers, the outer end's 5, and the five-stacks by the bar
  sit on the home side, the threes one point off the bar on the outer side. Places occupied in the
  one case and empty in the other are compared with places that are occupied, or empty, in both
  (the corners' first two checkers; the points two to four off either end), so no threshold on how
  much a checker stands out from the leather is needed.
- *Colour*: the checkers in the two corners of a long side are one player's, the other side's
  corners the other's. Which of the two inlay colours is dark's is the set's own description
  (``docs/board-spec.md``: dark's inlay is olive, light's burnt orange): the greener of the two
  (Lab a), a lamp's colour shifting both alike; for a set whose inlays do not differ in hue, the darker.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.errors import StartPositionNotFoundError
from vision.geometry import START_POINTS, BoardGeometry, Layout, checker_centre

Lab = NDArray[np.float32]
STANDARD = Layout(True, True)


@dataclass(frozen=True, slots=True)
class PatternConfig:
    """How the start position's pattern is read."""

    px_per_mm: float = 1.0  # the canonical image is looked at this finely (a checker's disc: 30 px across)
    blur_mm: float = 1.5  # smoothing before places are compared: a fit a few mm off still compares like with like
    disc_radius: float = 1.0  # of a checker's radius: the disc each place is compared on
    min_agreement: float = 0.7  # of the places that tell the ends apart, read as the chosen end has them
    min_corner_checkers: int = 6  # of the 8 corner checkers every layout has, that must look like checkers
    inlay_radius: float = 0.5  # of a checker's radius: its inlay
    min_separation: float = 12.0  # Lab distance between the two inlay colours (8-bit Lab)
    dark_inlay: str = "olive"  # "olive" (the set: the greener; the darker if they do not differ in hue), "darker", "greener", "redder"
    min_hue_gap: float = 6.0  # Lab a (8-bit) apart for the inlays to differ in hue


@dataclass(frozen=True, slots=True)
class LayoutFinding:
    """The layout and how surely the pattern says it."""

    layout: Layout
    agreement: float  # share of the telling places read as the layout has them
    corners_seen: int  # of the 8 corner checkers, those that look like checkers
    separation: float  # Lab distance between the two inlay colours
    dark_inlay: tuple[float, float, float]  # median Lab of dark's inlays
    light_inlay: tuple[float, float, float]


def mirrored_point(point: int) -> int:
    """The point at the other end of the same long side (the standard layout mirrored end for end)."""
    return 13 - point if point <= 12 else 37 - point


def _places(geo: BoardGeometry) -> list[tuple[int, int, tuple[float, float]]]:
    """(point, slot, centre mm) of every first-layer place, on the standard layout's plane."""
    return [(p, i, checker_centre(geo, STANDARD, p, i)[:2]) for p in range(1, 25) for i in range(5)]


def _count(point: int, mirrored: bool) -> int:
    """Checkers (signed: + dark in the standard layout) the start puts at the standard place of ``point``."""
    return START_POINTS[(mirrored_point(point) if mirrored else point) - 1]


def _disc_offsets(radius_px: float) -> tuple[NDArray[np.intp], NDArray[np.intp]]:
    r = int(np.ceil(radius_px))
    yy, xx = np.mgrid[-r:r + 1, -r:r + 1]
    keep = np.hypot(xx, yy) <= radius_px
    return yy[keep], xx[keep]


def _patches(lab: Lab, ppm: float, centres: list[tuple[float, float]], radius_mm: float) -> NDArray[np.float32]:
    """The Lab pixels of a disc about each centre, (places, pixels, 3)."""
    dy, dx = _disc_offsets(radius_mm * ppm)
    h, w = lab.shape[:2]
    out = []
    for cx, cy in centres:
        rows = np.clip(int(round(cy * ppm - 0.5)) + dy, 0, h - 1)
        cols = np.clip(int(round(cx * ppm - 0.5)) + dx, 0, w - 1)
        out.append(lab[rows, cols])
    return np.array(out, np.float32)


def _distance(a: NDArray[np.float32], b: NDArray[np.float32]) -> NDArray[np.float32]:
    """Mean Lab distance, pixel by pixel, between every patch of ``a`` and every patch of ``b``: (len a, len b)."""
    return np.sqrt(((a[:, None] - b[None]) ** 2).sum(axis=-1)).mean(axis=-1)


def _inlay(lab: Lab, ppm: float, centres: list[tuple[float, float]], radius_mm: float) -> NDArray[np.float32]:
    return np.median(_patches(lab, ppm, centres, radius_mm).reshape(-1, 3), axis=0)


def find_layout(cfg: PatternConfig, geo: BoardGeometry, lab: Lab, ppm: float) -> LayoutFinding:
    """The layout the start position shows on the canonical Lab image ``lab`` (``ppm`` px per mm).

    Raises :class:`StartPositionNotFoundError` naming what was not seen: the corners' checkers, the
    pattern that tells the ends apart, or two inlay colours.
    """
    scale = cfg.px_per_mm / ppm
    small = cv2.resize(lab, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA) if scale < 1 else lab
    sppm = ppm * (small.shape[1] / lab.shape[1])
    small = cv2.GaussianBlur(small, (0, 0), cfg.blur_mm * sppm)
    places = _places(geo)
    patches = _patches(small, sppm, [c for _, _, c in places], geo.checker_diameter / 2 * cfg.disc_radius)
    index = {(p, i): k for k, (p, i, _) in enumerate(places)}
    occupied = {m: {(p, i) for p, i, _ in places if i < abs(_count(p, m))} for m in (False, True)}
    sure = sorted(occupied[False] & occupied[True])  # the corners' first two: a checker whatever the layout
    telling = sorted(occupied[False] ^ occupied[True])
    empty = [(p, i) for p, i, _ in places if (p, i) not in occupied[False] | occupied[True]]

    def row(p: int) -> int:
        return 0 if p <= 12 else 1

    checker_refs = patches[[index[k] for k in sure]]

    def empty_distance(keys: list[tuple[int, int]]) -> NDArray[np.float32]:
        """Each place's distance to the nearest empty place of its slot, long side and leather (every other point)."""
        out = []
        for p, i in keys:
            refs = [index[(q, i)] for q, j in empty if j == i and row(q) == row(p) and (q - p) % 2 == 0 and q != p]
            out.append(_distance(patches[[index[(p, i)]]], patches[refs]).min())
        return np.array(out, np.float32)

    # the corner checkers, each against the other seven and against bare leather of its slot
    own = _distance(checker_refs, checker_refs)
    np.fill_diagonal(own, np.inf)
    corners_seen = int((own.min(axis=1) < empty_distance(sure)).sum())
    if corners_seen < cfg.min_corner_checkers:
        raise StartPositionNotFoundError(
            f"the board does not show the start position: no checkers seen in its corners ({corners_seen} of 8 look like "
            "checkers), where the start puts them; set up the start position, or give the frame's four outer corners with --corners")
    # the places that tell the ends apart: more like a corner checker than like bare leather?
    checkerish = empty_distance(telling) - _distance(patches[[index[k] for k in telling]], checker_refs).min(axis=1)
    standard_has = np.array([k in occupied[False] for k in telling])
    votes = np.where(standard_has, checkerish > 0, checkerish < 0)
    score = float(np.where(standard_has, checkerish, -checkerish).sum())
    mirrored = score < 0
    agreement = float(1.0 - votes.mean()) if mirrored else float(votes.mean())
    if agreement < cfg.min_agreement:
        raise StartPositionNotFoundError(
            f"the board does not show the start position: the checkers are not where it puts them ({agreement:.0%} of the "
            f"{len(telling)} places that tell the home boards' end agree, {cfg.min_agreement:.0%} needed); set up the start "
            "position, or give the frame's four outer corners with --corners")
    # colour: the checkers the start gives the standard layout's light (the bottom corners and the top's middle stacks)
    r_inlay = geo.checker_diameter / 2 * cfg.inlay_radius
    groups: dict[bool, list[tuple[float, float]]] = {True: [], False: []}
    for p, i, c in places:
        n = _count(p, mirrored)
        if i < abs(n):
            groups[n < 0].append(c)
    bottom_corner_colour = _inlay(lab, ppm, groups[True], r_inlay)  # standard light's places
    other = _inlay(lab, ppm, groups[False], r_inlay)
    separation = float(np.linalg.norm(bottom_corner_colour - other))
    if separation < cfg.min_separation:
        raise StartPositionNotFoundError(
            f"cannot tell dark checkers from light ones: their inlays' colours are {separation:.1f} apart in Lab "
            f"({cfg.min_separation:g} needed); light the board more evenly, or give the frame's four outer corners with --corners")
    bottom_is_dark = is_darks(cfg, bottom_corner_colour, other)
    dark_bottom = not bottom_is_dark
    layout = Layout(dark_bottom if not mirrored else not dark_bottom, dark_bottom)
    dark, light = (bottom_corner_colour, other) if bottom_is_dark else (other, bottom_corner_colour)
    return LayoutFinding(layout, agreement, corners_seen, separation,
                         tuple(float(v) for v in dark), tuple(float(v) for v in light))  # type: ignore[arg-type]


def is_darks(cfg: PatternConfig, inlay: NDArray[np.float32], other: NDArray[np.float32]) -> bool:
    """Whether ``inlay`` (median Lab, 8-bit) rather than ``other`` is dark's, by ``cfg.dark_inlay``."""
    rule = cfg.dark_inlay
    if rule == "olive":
        rule = "greener" if abs(float(inlay[1] - other[1])) >= cfg.min_hue_gap else "darker"
    if rule == "greener":  # Lab a: lower is greener
        return bool(inlay[1] < other[1])
    if rule == "redder":
        return bool(inlay[1] > other[1])
    if rule == "darker":
        return bool(inlay[0] < other[0])
    raise ValueError(f"dark_inlay must be olive, darker, greener or redder, not {rule!r}")
