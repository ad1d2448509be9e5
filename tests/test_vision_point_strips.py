"""The learned counter's strips: where they lie on the board, and how they are lit (values by hand from
board-spec.md's nominal set: 480 x 340 mm, frame 20 mm, points 205 / 6 mm wide, 125 mm long)."""

from __future__ import annotations

import numpy as np

from vision.geometry import BoardGeometry, Layout
from vision.point_strips import STRIP_SIZE, _median_u8, strip_grid, strip_input


def test_dark_point_one_runs_from_its_base_on_the_frame_towards_the_middle() -> None:
    # home boards on the right, dark at the bottom: dark's point 1 is the bottom right corner point; its base
    # lies on the frame's inner edge (y = 320 mm), its centre line 20 + 205 / 12 mm in from the right edge
    w, h = STRIP_SIZE
    grid = strip_grid(BoardGeometry(), Layout(home_right=True, dark_bottom=True)).reshape(24, h, w, 2)
    centre = (grid[0, :, w // 2 - 1] + grid[0, :, w // 2]) / 2
    x_line = 480 - 20 - 205 / 12
    assert np.allclose(centre[:, 0], x_line, atol=0.01)
    assert abs(centre[0, 1] - (320 + 6)) < 1.0  # the strip starts 6 mm past the base (the frame's edge)
    assert abs(centre[-1, 1] - (320 - 168)) < 1.0  # and ends 168 mm along, past five checkers (150 mm)
    across = grid[0, h // 2, :, 0]
    assert abs((across.max() - across.min()) - 52) < 1.5  # 26 mm either side of the centre line


def test_dark_point_thirteen_faces_point_twelve_across_the_board() -> None:
    # point 13 is dark's outer-board point at the top left, its base on the top frame (y = 20 mm); 12 is below it
    w, h = STRIP_SIZE
    grid = strip_grid(BoardGeometry(), Layout(home_right=True, dark_bottom=True)).reshape(24, h, w, 2)
    x_line = 20 + 205 / 12
    for point, base_y, step in ((13, 20.0, 1.0), (12, 320.0, -1.0)):
        centre = (grid[point - 1, :, w // 2 - 1] + grid[point - 1, :, w // 2]) / 2
        assert np.allclose(centre[:, 0], x_line, atol=0.01)
        assert abs(centre[0, 1] - (base_y - 6 * step)) < 1.0


def test_a_lamp_twice_as_bright_gives_the_network_the_same_input() -> None:
    rng = np.random.default_rng(3)
    strips = rng.integers(10, 120, (24, STRIP_SIZE[1], STRIP_SIZE[0], 3)).astype(np.uint8)
    a, b = strip_input(strips), strip_input(strips * 2)
    assert np.abs(a - b).mean() < 0.05  # (the +4 in the divisor keeps a black frame from blowing up)


def test_histogram_median_is_numpys() -> None:
    rng = np.random.default_rng(5)
    for n in (1, 2, 9, 10, 4097):
        values = rng.integers(0, 256, n).astype(np.uint8)
        assert _median_u8(values) == float(np.median(values))
