"""The learned counter's strips: where they lie on the board, and how they are lit (values by hand from
board-spec.md's nominal set: 480 x 340 mm, frame 20 mm, points 205 / 6 mm wide, 125 mm long)."""

from __future__ import annotations

import numpy as np

from vision.geometry import BoardGeometry, Layout
from vision.config import ReaderConfig
from vision.point_strips import CLASSES, STRIP_SIZE, _median_u8, beside_cover, fifteen_a_side, strip_grid, strip_input, strip_probabilities
from vision.points import neighbour_points


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


def _sure(n: int) -> np.ndarray:
    return np.eye(1, 16, n)[0]


def test_a_side_with_ten_elsewhere_has_room_for_five_not_ten() -> None:
    # dark's start: 2 on its 24 point, 3 on 8, 5 on 13 read surely; on 6 the network doubts a layer of five lies
    # over the row (a centred layer hides over it): 5 at 0.6, 6 at 0.2, 10 at 0.2. Ten are elsewhere, so 6 or 10
    # would make sixteen or twenty: five it is. Light's points do not enter dark's sum.
    counts = np.tile(_sure(0), (24, 1))
    sides = np.zeros(24, np.intp)
    for point, n in ((24, 2), (8, 3), (13, 5)):
        counts[point - 1] = _sure(n)
    counts[5] = 0.6 * _sure(5) + 0.2 * _sure(6) + 0.2 * _sure(10)
    counts[0], sides[0] = _sure(15), 1  # fifteen light checkers on dark's 1 point
    ruled = fifteen_a_side(counts, sides)
    assert np.allclose(ruled[5], _sure(5))
    assert np.allclose(ruled[[23, 7, 12]], counts[[23, 7, 12]])  # those read surely keep their counts


def test_two_doubted_points_share_the_room_they_have() -> None:
    # five dark elsewhere; two points each five or ten at even odds: ten on either leaves the other no room for
    # five (5 + 10 + 5 = 20, 5 + 10 + 10 = 25), so each is five: P(5) = 0.5 * P(other 5) / (0.5 * P(other 5) + 0) = 1
    counts = np.tile(_sure(0), (24, 1))
    counts[0] = _sure(5)
    counts[5] = counts[12] = 0.5 * _sure(5) + 0.5 * _sure(10)
    ruled = fifteen_a_side(counts, np.zeros(24, np.intp))
    assert np.allclose(ruled[5], _sure(5)) and np.allclose(ruled[12], _sure(5))


def test_checkers_on_the_bar_take_their_room() -> None:
    # nine light on the points and one on the bar: a doubted six (or five) on another point leaves room for five only
    counts = np.tile(_sure(0), (24, 1))
    counts[18] = _sure(9)
    counts[11] = 0.5 * _sure(5) + 0.5 * _sure(6)
    sides = np.ones(24, np.intp)
    assert np.allclose(fifteen_a_side(counts, sides)[11], counts[11])  # 9 + 6 = 15: both fit
    assert np.allclose(fifteen_a_side(counts, sides, bar=(0, 1))[11], _sure(5))  # 9 + 6 + 1 = 16: six does not


def test_a_side_with_no_room_keeps_its_readings() -> None:
    # sixteen read surely on the points: some reading is wrong, and the rule cannot say which
    counts = np.tile(_sure(0), (24, 1))
    counts[0], counts[1] = _sure(8), _sure(8)
    counts[2] = 0.7 * _sure(5) + 0.3 * _sure(6)
    ruled = fifteen_a_side(counts, np.zeros(24, np.intp))
    assert np.allclose(ruled, counts)


def test_the_points_beside_a_hidden_point_are_those_on_its_row_next_to_it() -> None:
    # home right, dark at the bottom: the bottom row runs 12..7 | bar | 6..1 from left to right, the top row
    # 13..18 | bar | 19..24. A sleeve over dark's 7 point reaches 8 and, across the bar, 6; over 12 (the bottom
    # left corner) only 11 (13 lies across the board, 30 mm of leather away); over 19 reaches 18 and 20
    near = neighbour_points(ReaderConfig(), Layout(home_right=True, dark_bottom=True))
    for hidden_point, beside in ((7, {6, 8}), (12, {11}), (19, {18, 20}), (1, {2})):
        hidden = np.zeros(24, bool)
        hidden[hidden_point - 1] = True
        assert set(np.flatnonzero(beside_cover(hidden, near)) + 1) == beside
    assert not beside_cover(np.zeros(24, bool), near).any()  # nothing hidden: nothing beside


class _LeftOrRight:
    """Stands in for the network (not under test here): class 0 where a strip's left half is the lighter, 1 where
    its right is, by a logit of 10 over the other classes' 0."""

    x: np.ndarray

    def setInput(self, x: np.ndarray) -> None:  # noqa: N802 (OpenCV's name)
        self.x = x

    def forward(self) -> np.ndarray:
        w = self.x.shape[-1]
        left = self.x[..., : w // 2].mean(axis=(1, 2, 3)) > self.x[..., w // 2 :].mean(axis=(1, 2, 3))
        logits = np.zeros((len(self.x), CLASSES), np.float32)
        logits[np.arange(len(self.x)), np.where(left, 0, 1)] = 10.0
        return logits


def test_a_strip_in_doubt_is_the_mean_of_its_look_and_its_mirrored_look() -> None:
    # a strip lighter on its left: the first look says class 0 at e^10 / (e^10 + 16) = 0.99927; mirrored, class 1.
    # Sure (above 0.9): one look. Asked again below 1.0: the mean, half each (0.4996 and 0.4996)
    strips = np.full((24, STRIP_SIZE[1], STRIP_SIZE[0], 3), 60, np.uint8)
    strips[:, :, : STRIP_SIZE[0] // 2] = 120
    once = strip_probabilities(_LeftOrRight(), strips, again_below=0.9)  # type: ignore[arg-type]
    assert np.allclose(once[:, 0], np.exp(10) / (np.exp(10) + 16), atol=1e-5)
    twice = strip_probabilities(_LeftOrRight(), strips, again_below=1.0)  # type: ignore[arg-type]
    assert np.allclose(twice[:, 0], twice[:, 1], atol=1e-6) and abs(float(twice[0, 0]) - 0.4996) < 1e-3
