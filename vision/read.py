"""Read a calibrated frame: checkers on points and bar, dice and the cube.

The reading is made stage by stage, each in its own module:

1. :mod:`vision.windows` warps the frame to a top-down (canonical) view of the board;
   :mod:`vision.light` divides the lamp out of it.
2. :mod:`vision.blobs` finds the light blobs (dice and the cube) and what they hide;
   :mod:`vision.occlusion` finds an arm or hand over the board.
3. :mod:`vision.points` reads the checkers on each point and on the bar.
4. :mod:`vision.cube` finds the doubling cube and reads its numeral;
   :mod:`vision.dice_board` reads the dice (value, flat or cocked, which half).
5. :func:`read_board` (here) puts them together as one :class:`vision.reading.Reading`.
"""

from __future__ import annotations

from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.blobs import _grown, die_footprint, tinted_blobs, white_blobs, white_mask
from vision.board import to_canonical
from vision.calibration import Calibration, warp_maps
from vision.config import ReaderConfig
from vision.cube import find_cube
from vision.dice_board import BoardLook, FineLook, find_dice
from vision.errors import BoardNotFoundError, CalibrationError
from vision.light import camera_view, normalise_gains, unclipped_gains
from vision.occlusion import arm_over_board
from vision.point_strips import learned_counts, strip_maps
from vision.points import StackReading, layer_steps, point_label_tables, read_bar, read_points
from vision.pose import Viewpoint
from vision.profiles import lab8_image, sample_mask, sample_profiles
from vision.reading import CHECKERS, Colour, Confidence, Cube, CubePosition, Die, Half, PerColour, Reading
from vision.windows import Maps, Warp, band_maps, cube_pad, outline_bands

Image = NDArray[np.uint8]


def check_frame(cfg: ReaderConfig, cal: Calibration, image: Image) -> None:
    if image is None or image.ndim != 3 or image.shape[2] != 3:
        raise BoardNotFoundError("not a colour image")
    h, w = image.shape[:2]
    if (w, h) != cal.image_size:
        raise CalibrationError(f"frame is {w}x{h} but the calibration was made at {cal.image_size[0]}x{cal.image_size[1]}")


def read_board(cfg: ReaderConfig, cal: Calibration, image: Image, maps: Maps | None = None,
               bands: list[tuple[float, Maps]] | None = None, detail: Warp | None = None,
               detail_bands: list[tuple[float, Maps]] | None = None, view: Viewpoint | None = None,
               point_strips: Maps | None = None) -> Reading:
    """One board-spec reading (plus confidences and ``occluded``; JSON by ``Reading.to_json``) of a calibrated frame (``maps`` and ``bands``:
    the canonical image's and the outline strips' warps, if already made (``maps`` may be in OpenCV's fixed-point
    form); ``detail`` and ``detail_bands``: the same at the resolution dice and the cube are read at, if made
    (``detail`` as a float :class:`Warp`): else each die's and the cube's window is warped alone;
    ``view``: the camera's viewpoint, if already worked out; ``point_strips``: the points' strips' remap tables
    (:func:`vision.point_strips.strip_maps`), if made)."""
    check_frame(cfg, cal, image)
    maps = warp_maps(cfg, cal) if maps is None else maps
    raw = to_canonical(image, maps)
    gains = normalise_gains(cfg, cal, raw)
    canon = cv2.multiply(raw, gains, dtype=cv2.CV_8U)
    lab = lab8_image(canon)
    prof = sample_profiles(cfg, lab, cal.layout)
    bright, base = white_mask(cfg, cal, lab)
    blobs = [die_footprint(cfg, lab, base, b) for b in white_blobs(cfg, cal, lab, bright)]
    blobs_of_dice = blobs + tinted_blobs(cfg, cal, lab, base, bright, blobs)
    tops = [b.contour for b in blobs_of_dice if b.fill >= cfg.min_fill]  # not a copper rim's highlight, an arc
    # where dice or the cube may hide checkers: their colours say nothing of checkers within a margin round a die's
    # light top (parallax shows its side faces, often in shade, toward the camera's foot); a copper ring is still
    # looked for nearer, where its bright arc outshines what a die casts
    near_white, near_die = _grown(cfg, tops, bright.shape, (cfg.rim_white_margin, cfg.white_margin))
    skip_pts, skip_dark, skip_light = sample_mask(cfg, near_die, cal.layout)
    arm = arm_over_board(cfg, cal, lab, near_white)
    arm_pts, arm_dark, arm_light = (None, None, None) if arm is None else sample_mask(cfg, arm, cal.layout)
    view = camera_view(cfg, cal) if view is None else view
    points = read_points(cfg, cal, prof.points, skip_pts, arm_pts, view)
    bar = read_bar(cfg, cal, (prof.bar_dark, prof.bar_light), (skip_dark, skip_light),
                   None if arm_dark is None or arm_light is None else (arm_dark, arm_light))
    on_bar = (bar[Colour.DARK].count or 0, bar[Colour.LIGHT].count or 0)
    points = learned_counts(cfg, cal, image, points, skip_pts.any(axis=1), point_strips, on_bar)
    foreign = float(np.mean([p.foreign for p in points]))
    hidden = sum(p.count is None for p in points) / len(points)
    if foreign > cfg.max_foreign_share or hidden > cfg.max_hidden_share:
        raise BoardNotFoundError(
            f"the calibrated board is not in view or mostly covered ({100 * foreign:.0f}% unrecognised, "
            f"{100 * hidden:.0f}% of the points hidden)"
        )
    strips = outline_bands(cfg, cal, image, bands)
    same = cfg.detail_px_per_mm == cfg.px_per_mm
    cube = find_cube(cfg, cal, image, lab, bright, blobs, strips, detail, base)
    look = BoardLook(canon, lab, base)
    dice_gains = unclipped_gains(cfg, raw, gains)
    if dice_gains is not gains:  # the light normalisation would clip the leather: dice are looked for in light that does not
        gains = dice_gains
        look, blobs_of_dice = dice_look(cfg, cal, raw, gains)
    fine = None if same else FineLook(cfg.detail(), cal, image, gains, look.base, detail, detail_bands)
    return _assemble(points, bar, find_dice(cfg, cal, look, raw, view, blobs_of_dice, strips, cube, fine, gains), cube)


def dice_look(cfg: ReaderConfig, cal: Calibration, raw: Image, gains: NDArray[np.float32]) -> tuple[BoardLook, list[Any]]:
    """The canonical view lit by ``gains`` (see :func:`vision.light.unclipped_gains`) as the dice stage sees it, and its light blobs."""
    canon = cv2.multiply(raw, gains, dtype=cv2.CV_8U)
    lab = lab8_image(canon)
    bright, base = white_mask(cfg, cal, lab)
    blobs = [die_footprint(cfg, lab, base, b) for b in white_blobs(cfg, cal, lab, bright)]
    return BoardLook(canon, lab, base), blobs + tinted_blobs(cfg, cal, lab, base, bright, blobs)


def _assemble(points: list[StackReading], bar: dict[str, StackReading], dice: list[dict[str, Any]], cube: dict[str, Any] | None) -> Reading:
    occluded = [f"point:{i + 1}" for i, p in enumerate(points) if p.count is None]
    occluded += [f"bar:{k}" for k, v in bar.items() if v.count is None]
    counts = [p.count for p in points]
    dark, light = bar[Colour.DARK], bar[Colour.LIGHT]
    off: PerColour[int | None] = PerColour(None, None)
    if not occluded:
        on_dark = sum(c for c in counts if c and c > 0) + (dark.count or 0)
        on_light = sum(-c for c in counts if c and c < 0) + (light.count or 0)
        off = PerColour(CHECKERS - on_dark, CHECKERS - on_light)
    if (off.dark is not None and off.dark < 0) or (off.light is not None and off.light < 0):
        off = PerColour(None, None)
    return Reading(
        points=tuple(counts),
        bar=PerColour(dark.count, light.count),
        off=off,
        dice=tuple(Die(d["value"], d["flat"], Half(d["half"])) for d in dice),
        cube=None if cube is None else Cube(cube["value"], CubePosition(cube["position"])),
        confidence=Confidence(
            points=tuple(round(p.confidence, 3) for p in points),
            bar=PerColour(round(dark.confidence, 3), round(light.confidence, 3)),
            dice=tuple(d["confidence"] for d in dice),
            cube=None if cube is None else cube["confidence"],
        ),
        occluded=tuple(occluded),
        extra={"image": {"dice_mm": [d["xy_mm"] for d in dice], "cube_mm": None if cube is None else cube["xy_mm"]}},
    )


class BoardReader:
    """Holds a calibration and its precomputed warp; ``reader(frame)`` reads one frame."""

    def __init__(self, cal: Calibration, cfg: ReaderConfig | None = None) -> None:
        self.cfg = cfg or ReaderConfig()
        self.cal = cal
        maps = warp_maps(self.cfg, cal)
        # the canonical warp in OpenCV's fixed-point form: remapped in half the time, to within a level
        self.maps = cv2.convertMaps(maps[0], maps[1], cv2.CV_16SC2)
        self.bands = band_maps(self.cfg, cal)
        fine = self.cfg.detail()  # the same configuration when dice are read at the board's resolution
        self.detail = Warp(maps) if fine is self.cfg else Warp(warp_maps(fine, cal, cube_pad(fine)), cube_pad(fine))
        self.detail_bands = None if fine is self.cfg else band_maps(fine, cal)
        self.view = camera_view(self.cfg, cal)
        self.point_strips = strip_maps(cal.lens, cal.homography, self.cfg.geometry, cal.layout) if self.cfg.learned_points else None
        point_label_tables(self.cfg, layer_steps(self.cfg, cal.layout, self.view))  # worked out now, not on the first frame

    def __call__(self, image: Image) -> Reading:
        return read_board(self.cfg, self.cal, image, self.maps, self.bands, self.detail, self.detail_bands, self.view,
                          self.point_strips)


# names the stages' modules now hold, as tests and benchmarks import them from here
from vision.blobs import WhiteBlob, _blob, _column_medians  # noqa: E402,F401
from vision.cube import _face_mask, _read_numeral, _square_centre, cube_past_outline, face_square  # noqa: E402,F401
from vision.dice_board import (  # noqa: E402,F401
    TopFace, cocked_look, counts_as_die, face_marked, greyer_than_dice, lit_as_board, one_is_a_pip,
    read_die, read_top_face, same_face,
)
from vision.light import normalise_light  # noqa: E402,F401
from vision.points import (  # noqa: E402,F401
    _TABLES, _borrowed_shade, neighbour_points, class_loglik, covered_points, extra_checkers, overcounted, rim_strengths,
)
from vision.windows import board_window, window_maps  # noqa: E402,F401
