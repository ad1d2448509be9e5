"""The canonical top-down board and where things sit on it.

Canonical coordinates are millimetres on the board's plane: ``x`` along the long side
(0 … ``BoardGeometry.width``), ``y`` across it (0 … ``depth``), origin at a corner of the
outer frame. The numbers are the nominal ones from ``docs/board-spec.md``; calibration
maps any camera image onto this plane with a homography fitted to the board it sees, so
only the set's proportions are assumed, and the layout (which side holds the home
boards, where dark sits) is learned from the start position, never fixed.

A :class:`Layout` says how dark's numbering lies on the canonical plane:
``home_right`` (home boards at large ``x``) and ``dark_bottom`` (dark sits at large ``y``).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from engine.colour import Colour


@dataclass(frozen=True, slots=True)
class BoardGeometry:
    """Nominal proportions of the set, in millimetres (docs/board-spec.md)."""

    frame: float = 20.0
    half_width: float = 205.0
    bar_width: float = 30.0
    depth_inner: float = 300.0
    point_length: float = 125.0
    checker_diameter: float = 30.0
    checker_thickness: float = 7.0
    die_edge: float = 16.0
    cube_edge: float = 20.0
    layer_offset: float = 10.0  # a second/third-layer checker sits this much further along the point
    # heights above the leather (the spec gives none; a medium set's): where a die or the cube rests off the points
    frame_height: float = 12.0
    bar_height: float = 10.0

    @property
    def width(self) -> float:
        return 2 * self.frame + 2 * self.half_width + self.bar_width

    @property
    def depth(self) -> float:
        return 2 * self.frame + self.depth_inner

    @property
    def point_width(self) -> float:
        return self.half_width / 6.0

    @property
    def bar_x(self) -> tuple[float, float]:
        left = self.frame + self.half_width
        return (left, left + self.bar_width)

    @property
    def centre(self) -> tuple[float, float]:
        return (self.width / 2.0, self.depth / 2.0)


@dataclass(frozen=True, slots=True)
class Layout:
    """Where dark's numbering lies on the canonical plane (learned at calibration)."""

    home_right: bool = True
    dark_bottom: bool = True

    def to_json(self) -> dict[str, bool]:
        return {"home_right": bool(self.home_right), "dark_bottom": bool(self.dark_bottom)}


def _standard_point(geo: BoardGeometry, point: int) -> tuple[float, bool, int]:
    """(centre x, base at bottom?, column) of dark's point 1..24 for home right, dark bottom."""
    pw = geo.point_width
    right0 = geo.bar_x[1]
    left0 = geo.frame
    if 1 <= point <= 6:  # bottom right, 1 at the far right
        return right0 + geo.half_width - pw * (point - 0.5), True, point
    if 7 <= point <= 12:  # bottom left, 7 next to the bar
        return left0 + geo.half_width - pw * (point - 6 - 0.5), True, point
    if 13 <= point <= 18:  # top left, 13 at the far left
        return left0 + pw * (point - 12 - 0.5), False, point
    if 19 <= point <= 24:  # top right, 19 next to the bar
        return right0 + pw * (point - 18 - 0.5), False, point
    raise ValueError(f"point must be 1..24, got {point!r}")


def transform(geo: BoardGeometry, layout: Layout, xy: tuple[float, float]) -> tuple[float, float]:
    """Map a position of the standard layout (home right, dark bottom) to ``layout``."""
    x, y = xy
    if not layout.home_right:
        x = geo.width - x
    if not layout.dark_bottom:
        x, y = geo.width - x, geo.depth - y
    return (x, y)


def point_axis(geo: BoardGeometry, layout: Layout, point: int) -> tuple[tuple[float, float], tuple[float, float]]:
    """(base, unit direction towards the tip) of dark's ``point`` in canonical mm."""
    cx, bottom, _ = _standard_point(geo, point)
    base_y = geo.frame + geo.depth_inner if bottom else geo.frame
    direction = (0.0, -1.0) if bottom else (0.0, 1.0)
    base = transform(geo, layout, (cx, base_y))
    tip = transform(geo, layout, (cx, base_y + direction[1]))
    return base, (tip[0] - base[0], tip[1] - base[1])


def checker_centre(geo: BoardGeometry, layout: Layout, point: int, index: int) -> tuple[float, float, int]:
    """Centre (x, y) and layer of the ``index``-th (0-based) checker on dark's ``point``."""
    layer, slot = divmod(index, 5)
    if layer > 2:
        raise ValueError(f"at most 15 checkers on a point, got index {index!r}")
    (bx, by), (dx, dy) = point_axis(geo, layout, point)
    along = geo.checker_diameter * (slot + 0.5) + geo.layer_offset * layer
    return bx + dx * along, by + dy * along, layer


def bar_centre(geo: BoardGeometry, layout: Layout, dark: bool, index: int) -> tuple[float, float]:
    """Centre of the ``index``-th checker on the bar, on its owner's half of the ridge."""
    x = sum(geo.bar_x) / 2.0
    step = geo.checker_diameter
    gap = geo.cube_edge  # keep the middle free for the cube
    y_std = geo.depth / 2.0 + gap / 2.0 + step * (index + 0.5)  # towards dark (bottom)
    if not dark:
        y_std = geo.depth - y_std
    return transform(geo, layout, (x, y_std))


def half_of(geo: BoardGeometry, layout: Layout, xy: tuple[float, float]) -> str:
    """'home', 'outer' or 'off' for a position on the canonical plane."""
    x, y = xy
    f = geo.frame
    if not (f <= y <= geo.depth - f) or not (f <= x <= geo.width - f):
        return "off"
    b0, b1 = geo.bar_x
    if b0 <= x <= b1:
        return "off"
    right = x > b1
    home_on_right = layout.home_right == layout.dark_bottom  # turning the board moves the home side too
    return "home" if right == home_on_right else "outer"


def surface_height(geo: BoardGeometry, xy: tuple[float, float]) -> float:
    """Height above the leather of what lies at ``xy`` rests on: the leather, the bar ridge or the frame."""
    x, y = xy
    f = geo.frame
    if not (f <= y <= geo.depth - f) or not (f <= x <= geo.width - f):
        return geo.frame_height
    b0, b1 = geo.bar_x
    return geo.bar_height if b0 <= x <= b1 else 0.0


def side_of(geo: BoardGeometry, layout: Layout, xy: tuple[float, float]) -> Colour:
    """Whose side of the board (across the long axis) ``xy`` is on."""
    bottom = xy[1] > geo.depth / 2.0
    return Colour.DARK if bottom == layout.dark_bottom else Colour.LIGHT


def corners(geo: BoardGeometry) -> NDArray[np.float32]:
    """Outer corners of the frame, clockwise from (0, 0)."""
    w, d = geo.width, geo.depth
    return np.array([[0, 0], [w, 0], [w, d], [0, d]], np.float32)


START_POINTS: tuple[int, ...] = (
    -2, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, -5, 5, 0, 0, 0, -3, 0, -5, 0, 0, 0, 0, 2,
)
