"""Numbering and layout on the canonical board."""

from __future__ import annotations

import itertools

import pytest

from vision.geometry import BoardGeometry, Layout, bar_centre, checker_centre, half_of, point_axis, side_of, transform

GEO = BoardGeometry()
LAYOUTS = [Layout(h, d) for h, d in itertools.product((True, False), repeat=2)]


@pytest.mark.parametrize("layout", LAYOUTS)
def test_home_board_is_one_half_and_dark_sits_on_one_side(layout: Layout) -> None:
    homes = {half_of(GEO, layout, checker_centre(GEO, layout, p, 0)[:2]) for p in range(1, 7)}
    homes |= {half_of(GEO, layout, checker_centre(GEO, layout, p, 0)[:2]) for p in range(19, 25)}
    outers = {half_of(GEO, layout, checker_centre(GEO, layout, p, 0)[:2]) for p in range(7, 19)}
    assert homes == {"home"} and outers == {"outer"}
    dark_side = {side_of(GEO, layout, checker_centre(GEO, layout, p, 0)[:2]) for p in range(1, 13)}
    assert dark_side == {"dark"}
    assert side_of(GEO, layout, bar_centre(GEO, layout, True, 0)) == "dark"
    assert side_of(GEO, layout, bar_centre(GEO, layout, False, 0)) == "light"
    assert half_of(GEO, layout, bar_centre(GEO, layout, True, 0)) == "off"


@pytest.mark.parametrize("layout", LAYOUTS)
def test_points_are_distinct_and_on_the_surface(layout: Layout) -> None:
    bases = {tuple(round(v, 3) for v in point_axis(GEO, layout, p)[0]) for p in range(1, 25)}
    assert len(bases) == 24
    for p in range(1, 25):
        x, y, layer = checker_centre(GEO, layout, p, 14)
        assert layer == 2 and GEO.frame < x < GEO.width - GEO.frame and GEO.frame < y < GEO.depth - GEO.frame
    # point p and 25 - p face each other across the board
    for p in range(1, 13):
        (ax, _), _ = point_axis(GEO, layout, p)
        (bx, _), _ = point_axis(GEO, layout, 25 - p)
        assert ax == pytest.approx(bx)


def test_transform_is_an_involution_per_layout() -> None:
    for layout in LAYOUTS:
        for xy in ((30.0, 40.0), (250.0, 300.0)):
            assert transform(GEO, layout, transform(GEO, layout, xy)) == pytest.approx(xy)


def test_bad_point_number() -> None:
    with pytest.raises(ValueError):
        point_axis(GEO, Layout(), 25)
    with pytest.raises(ValueError):
        checker_centre(GEO, Layout(), 1, 15)
