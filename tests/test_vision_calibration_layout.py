"""Calibration's layout from the start position's pattern, on boards drawn here by hand from board-spec.md.

The drawing below shares nothing with the product: the places of points and checkers are worked out
from the spec's numbers (480 x 340 mm, frame 20, halves 205 wide, bar 30, checkers 30 mm stacked from
each point's base) and its numbering (dark's 1-6 home board on dark's side of the home half, 1 at the
corner; 7-12 on dark's side of the outer half, 7 by the bar; 13-18 across from them, 13 at the corner;
19-24 across from 1-6, 19 by the bar). The expected layouts are written from the seating each board
shows: ``home_right`` says the home boards are on dark's right hand as dark sits, ``dark_bottom`` that
dark sits at the bottom edge of the (canonical) picture.
"""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.calibrate import fit_lens
from vision.calibration import Calibration
from vision.config import CalibrationConfig
from vision.errors import StartPositionNotFoundError
from vision.geometry import BoardGeometry, Layout
from vision.render import Setup
from vision.start_layout import PatternConfig, find_layout

PPM = 2.0  # px per mm of the drawn canonical board
W, D, FRAME, HALF, BAR, PW, CHECKER = 480.0, 340.0, 20.0, 205.0, 30.0, 205.0 / 6, 30.0
# BGR colours of a set
WALNUT, FIELD, OLIVE, ORANGE, COPPER = (40, 70, 110), (150, 180, 200), (45, 100, 95), (40, 95, 190), (70, 120, 200)
START_DARK = {24: 2, 13: 5, 8: 3, 6: 5}  # dark's start in dark's numbers; light's point n is dark's 25 - n


def _column_x(point: int, home_at_right_end: bool) -> tuple[float, str]:
    """(x of a point's centre line, 'near' or 'far' side from dark) for a board with the home boards at the
    right-hand end (large x) of the picture or the left."""
    if point <= 6:
        k, side, half = 6 - point, "near", "home"  # k: points from the bar
    elif point <= 12:
        k, side, half = point - 7, "near", "outer"
    elif point <= 18:
        k, side, half = 18 - point, "far", "outer"
    else:
        k, side, half = point - 19, "far", "home"
    right = (half == "home") == home_at_right_end
    bar_edge = W / 2 + BAR / 2 if right else W / 2 - BAR / 2
    x = bar_edge + (k + 0.5) * PW if right else bar_edge - (k + 0.5) * PW
    return x, side


def draw_start(home_at_right_end: bool, dark_at_bottom: bool, dark_inlay: tuple[int, int, int],
               light_inlay: tuple[int, int, int], checkers: bool = True) -> np.ndarray:
    """The start position on the canonical board, BGR, PPM px per mm."""
    img = np.zeros((int(D * PPM), int(W * PPM), 3), np.uint8)
    img[:] = WALNUT
    for x0 in (FRAME, W / 2 + BAR / 2):
        cv2.rectangle(img, (int(x0 * PPM), int(FRAME * PPM)), (int((x0 + HALF) * PPM), int((D - FRAME) * PPM)), FIELD, -1)
        for c in range(6):
            for base, tip in ((FRAME, FRAME + 125), (D - FRAME, D - FRAME - 125)):
                colour = OLIVE if (c + (base > D / 2)) % 2 else ORANGE
                xa = x0 + c * PW
                tri = np.array([[xa, base], [xa + PW, base], [xa + PW / 2, tip]]) * PPM
                cv2.fillConvexPoly(img, np.round(tri).astype(np.int32), colour)
    if not checkers:
        return img
    for point, n in START_DARK.items():
        for colour, p in (("dark", point), ("light", 25 - point)):  # light's start mirrors dark's: dark's 25 - n
            x, side = _column_x(p, home_at_right_end)
            on_bottom = (side == "near") == dark_at_bottom
            for i in range(n):
                along = FRAME + CHECKER / 2 + CHECKER * i
                y = D - along if on_bottom else along
                centre = (int(round(x * PPM)), int(round(y * PPM)))
                cv2.circle(img, centre, int(CHECKER / 2 * PPM), COPPER, -1, cv2.LINE_AA)
                cv2.circle(img, centre, int(CHECKER / 2 * 0.78 * PPM), dark_inlay if colour == "dark" else light_inlay, -1, cv2.LINE_AA)
    return img


def _lab(bgr: np.ndarray) -> np.ndarray:
    return cv2.cvtColor(bgr, cv2.COLOR_BGR2LAB).astype(np.float32)


OLIVE_GREY, PALE_ORANGE = (98, 132, 120), (60, 105, 190)  # inlays about as light as each other


def test_the_two_inlays_are_about_as_light_but_far_apart_in_colour() -> None:
    dark, light = _lab(np.array([[OLIVE_GREY, PALE_ORANGE]], np.uint8))[0]
    assert abs(dark[0] - light[0]) < 3 and np.linalg.norm(dark - light) > 30


@pytest.mark.parametrize(("home_at_right_end", "dark_at_bottom", "expected"), [
    (True, True, Layout(home_right=True, dark_bottom=True)),  # dark faces up the picture: the right end is dark's right
    (False, True, Layout(home_right=False, dark_bottom=True)),
    (False, False, Layout(home_right=True, dark_bottom=False)),  # dark faces down the picture: the left end is dark's right
    (True, False, Layout(home_right=False, dark_bottom=False)),
])
def test_every_seating_is_told_from_the_start_pattern(home_at_right_end: bool, dark_at_bottom: bool, expected: Layout) -> None:
    board = draw_start(home_at_right_end, dark_at_bottom, OLIVE_GREY, PALE_ORANGE)
    found = find_layout(PatternConfig(), BoardGeometry(), _lab(board), PPM)
    assert found.layout == expected
    assert found.agreement > 0.9 and found.corners_seen == 8


def test_dark_is_the_olive_even_when_it_looks_the_lighter() -> None:
    """The spec's dark is the olive inlay; a lamp may make it the lighter of the two."""
    light_olive, deep_orange = (120, 160, 150), (30, 70, 160)
    dark, light = _lab(np.array([[light_olive, deep_orange]], np.uint8))[0]
    assert dark[0] > light[0] + 10  # the olive is the lighter here
    board = draw_start(True, True, light_olive, deep_orange)
    assert find_layout(PatternConfig(), BoardGeometry(), _lab(board), PPM).layout == Layout(True, True)
    # told to take the darker, the players come out swapped: the same pattern turned end for end
    assert find_layout(PatternConfig(dark_inlay="darker"), BoardGeometry(), _lab(board), PPM).layout == Layout(False, False)


def test_inlays_of_one_hue_the_darker_is_dark_s() -> None:
    """A set whose inlays do not differ in hue (black and white, say): the darker is dark's."""
    black, white = (40, 40, 40), (220, 220, 220)
    board = draw_start(False, True, black, white)
    assert find_layout(PatternConfig(), BoardGeometry(), _lab(board), PPM).layout == Layout(False, True)


def test_a_board_without_checkers_is_refused_naming_what_was_not_seen() -> None:
    board = draw_start(True, True, OLIVE_GREY, PALE_ORANGE, checkers=False)
    with pytest.raises(StartPositionNotFoundError, match="corners"):
        find_layout(PatternConfig(), BoardGeometry(), _lab(board), PPM)


def test_checkers_all_of_one_colour_are_refused() -> None:
    board = draw_start(True, True, PALE_ORANGE, PALE_ORANGE)
    with pytest.raises(StartPositionNotFoundError, match="cannot tell dark checkers from light ones"):
        find_layout(PatternConfig(), BoardGeometry(), _lab(board), PPM)


@pytest.mark.parametrize("k1", [0.08, -0.06])
def test_the_lens_fit_measures_barrel_and_pincushion_and_ignores_a_checker_on_the_wrong_place(k1: float) -> None:
    """Thirty marks on the board seen through a known lens and camera; one of them matched to its neighbour's place."""
    size = (1280, 720)
    board = np.array([[x, y] for x in np.linspace(40, 440, 6) for y in np.linspace(40, 300, 5)], np.float64)
    # the camera: a homography of the plane (board mm -> undistorted px), then the lens bends it
    to_image = np.array([[2.0, 0.15, 150.0], [-0.1, 1.9, 60.0], [0.0002, 0.0001, 1.0]])
    und = cv2.perspectiveTransform(board.reshape(-1, 1, 2), to_image).reshape(-1, 2)
    centre, norm = np.array([640.0, 360.0]), 1280.0
    # distort: solve d (1 + k1 |d|^2) = u by fixed point, each point along its own ray
    u = (und - centre) / norm
    d = u.copy()
    for _ in range(50):
        d = u / (1 + k1 * (d ** 2).sum(axis=1, keepdims=True))
    seen = centre + d * norm
    want = board.copy()
    want[7] += (0.0, 30.0)  # this checker was found on its neighbour's place
    lens, hom, rms = fit_lens(CalibrationConfig(), seen, want, size)
    assert lens.k1 == pytest.approx(k1, abs=0.006)
    back = cv2.perspectiveTransform(lens.undistort(seen).reshape(-1, 1, 2), hom).reshape(-1, 2)
    assert np.abs(np.delete(back - board, 7, axis=0)).max() < 0.5


def _assert_start_corners_where_drawn(setup: Setup, cal: Calibration) -> None:
    """Dark's first checker on point 24 and light's on point 1, placed by the calibration, land within 10 px of where
    the renderer drew them."""
    from vision.geometry import checker_centre
    from vision.render import image_point

    geo = BoardGeometry()
    for point in (24, 1):
        drawn = np.array(image_point(setup, checker_centre(geo, setup.layout, point, 0)[:2]))
        mm = np.array([[checker_centre(geo, cal.layout, point, 0)[:2]]], np.float64)
        seen = cal.lens.distort(cv2.perspectiveTransform(mm, np.linalg.inv(cal.homography)).reshape(-1, 2))[0]
        assert np.hypot(*(seen - drawn)) < 10, (point, seen, drawn)


def test_a_camera_turned_half_round_calibrates_with_the_players_where_they_sit() -> None:
    """The footage's camera seed 11 looks at the board turned 178° (``referee.footage``'s default camera). The
    canonical plane follows the picture, so its ``dark_bottom`` is the renderer's turned over (dark sits at the
    top of the picture), which read as "dark and light swapped" when compared field by field; the check is where
    dark's checkers are seen: dark's point 24, where two dark checkers start, is found where the renderer drew it,
    and light's point 1 likewise."""
    from referee.footage import FootageConfig, footage, game_items, scripted_setup
    from vision.calibrate import calibrate

    setup = scripted_setup(11, (1280, 720))
    assert abs(setup.camera.yaw_deg - 180) < 10
    frame = next(iter(footage(game_items(7, setup.layout, None, 0)[:1], setup, 11, FootageConfig())))[1]
    cal = calibrate(CalibrationConfig(), frame)
    _assert_start_corners_where_drawn(setup, cal)
    assert cal.layout.home_right == setup.layout.home_right  # the seating: home boards on dark's right, or not
    assert cal.layout.dark_bottom != setup.layout.dark_bottom  # dark at the picture's top, the renderer's bottom


# ----------------------------------------------------------------------------- the board found small, dim and edged


def _board_in_frame(turn_deg: float, board_px: float, light: tuple[float, float, float], edge_line: bool,
                    defocus: float = 0.0, seed: int = 3, cloth: tuple[int, int, int] = (45, 85, 35)) -> tuple[np.ndarray, np.ndarray]:
    """The drawn start position put into a 1280x720 frame on a dark green cloth, its long side ``board_px`` long and
    turned ``turn_deg``, lit by ``light`` (a gain per BGR channel: a dim lamp, a cool one), with sensor noise; with
    ``edge_line``, a thin line of the olive leather's colour round the frame's outer edge (where a cloth meets the
    frame, their blend and a JPEG's ringing can take the leather's hues), out of focus by ``defocus`` px. Returns the frame and where the playing
    surface's four corners are in it (px)."""
    board = draw_start(True, True, OLIVE_GREY, PALE_ORANGE)
    mm_per_px = 1 / PPM
    scale = board_px / W  # image px per mm
    t = np.radians(turn_deg)
    rot = np.array([[np.cos(t), -np.sin(t)], [np.sin(t), np.cos(t)]])

    def to_frame(mm: np.ndarray) -> np.ndarray:  # board mm -> frame px: about the board's centre, then to (640, 370)
        return (mm - (W / 2, D / 2)) @ rot.T * scale + (640.0, 370.0)

    outer_mm = np.array([[0, 0], [W, 0], [W, D], [0, D]], np.float64)
    inner_mm = np.array([[FRAME, FRAME], [W - FRAME, FRAME], [W - FRAME, D - FRAME], [FRAME, D - FRAME]], np.float64)
    hom = cv2.getPerspectiveTransform((outer_mm / mm_per_px).astype(np.float32), to_frame(outer_mm).astype(np.float32))
    frame = np.zeros((720, 1280, 3), np.uint8)
    frame[:] = cloth  # green unless told
    warped = cv2.warpPerspective(board, hom, (1280, 720))
    inside = cv2.warpPerspective(np.full(board.shape[:2], 255, np.uint8), hom, (1280, 720)) > 0
    frame[inside] = warped[inside]
    if edge_line:
        cv2.polylines(frame, [np.round(to_frame(outer_mm)).astype(np.int32)], True, OLIVE, 5, cv2.LINE_AA)
    if defocus:
        frame = cv2.GaussianBlur(frame, (0, 0), defocus)
    rng = np.random.default_rng(seed)
    lit = frame.astype(np.float32) * np.array(light, np.float32) + rng.normal(0, 2.0, frame.shape)
    return np.clip(lit, 0, 255).astype(np.uint8), to_frame(inner_mm)


@pytest.mark.parametrize(("turn_deg", "board_px", "light", "edge_line", "defocus"), [
    (84.0, 300.0, (0.5, 0.42, 0.34), False, 0.0),  # fill about 42% of the frame's height, turned across it, a dim cool lamp
    (12.0, 420.0, (0.4, 0.33, 0.27), True, 1.5),  # oblique, fill about half the height, dimmer, soft, a leather-hued edge
    (0.0, 1000.0, (1.0, 1.0, 1.0), True, 0.0),  # a large board under a neutral lamp: the edge line must not shrink it
])
@pytest.mark.slow  # seconds each (calibration tries more fits since s37): in the slow step, keeping the default suite under 4 minutes
def test_the_board_is_found_small_dim_and_edged_in_the_leathers_hue(turn_deg: float, board_px: float,
                                                                      light: tuple[float, float, float], edge_line: bool,
                                                                      defocus: float) -> None:
    """The playing surface's corners are found where the frame was drawn, whether the leather covers only a
    sliver of the frame and whether a line of its hue runs round the frame's outer edge (which the finder
    took for the leather's outline: the board then came out a frame's width too large)."""
    from vision.board import board_candidates, inner_rectangle

    image, truth = _board_in_frame(turn_deg, board_px, light, edge_line, defocus)
    geo = BoardGeometry()
    _, lens, hom = board_candidates(CalibrationConfig().finder, image, geo)[0]
    found = lens.distort(cv2.perspectiveTransform(inner_rectangle(geo).reshape(-1, 1, 2), np.linalg.inv(hom)).reshape(-1, 2))
    # the corners in any order (the canonical plane's orientation is calibration's to settle)
    miss = np.hypot(*(found[:, None] - truth[None]).transpose(2, 0, 1)).min(axis=0)
    assert miss.max() < 0.01 * board_px + 2, miss


@pytest.mark.parametrize("across", [True, False])
def test_the_start_pattern_is_read_under_a_dim_lamp_and_hard_shadow_bands(across: bool) -> None:
    """A dim lamp (half the light) and two hard-edged shadow bands (a further 0.55) over the board, across its
    length or along it: the corners' checkers are still seen and the seating still told."""
    board = draw_start(True, True, OLIVE_GREY, PALE_ORANGE).astype(np.float32) * 0.5
    for a, b in ((60, 140), (300, 380)):  # mm along the board's length, or (scaled to its depth) across it
        if across:
            board[:, int(a * PPM):int(b * PPM)] *= 0.55
        else:
            board[int(a * PPM * D / W):int(b * PPM * D / W)] *= 0.55
    found = find_layout(PatternConfig(), BoardGeometry(), _lab(np.clip(board, 0, 255).astype(np.uint8)), PPM)
    assert found.layout == Layout(home_right=True, dark_bottom=True)
    assert found.corners_seen >= 6


# ----------------------------------------------------------------------------- a small board turned askew


@pytest.mark.parametrize("turn_deg", [30.0, 45.0, 60.0])
@pytest.mark.slow  # tens of seconds each: a board this small tries many fits
def test_a_small_board_turned_askew_calibrates_with_its_checkers_where_drawn(turn_deg: float) -> None:
    """A camera turned obliquely over a board that fills under half the frame sees it at about 0.6 image pixels per
    mm (turned 45°, the board's 480 x 340 mm need a square of about 580 mm on the frame's 720 pixels' side at 45%):
    a copper rim's 1.5 mm edge then spans one pixel and blurs, so a fit can be right while a third of the start
    checkers' rims are not found and the rest are found a pixel or two (2-3 mm) off. It must calibrate, with dark's
    two checkers on point 24 and light's on point 1 found where the renderer drew them (within about a checker's radius)."""
    from vision.calibrate import calibrate
    from vision.geometry import START_POINTS
    from vision.render import Camera, Palette, Scene, render

    setup = Setup(Camera(yaw_deg=turn_deg, fill=0.45, lamp="cool"), Palette(), Layout(), 5)
    frame, _ = render(Scene(START_POINTS, (0, 0), setup.layout), setup, 5)
    _assert_start_corners_where_drawn(setup, calibrate(CalibrationConfig(), frame))  # 10 px: a checker's radius is 9


def test_the_image_s_pixels_per_mm_are_measured_where_the_board_is_seen() -> None:
    """A board turned 45° at 0.6 px per mm (image = 0.6 R(45°) mm + (640, 360)) is seen at 0.6 px per mm everywhere;
    a camera tilted so the far end is at half the near end's scale is seen at the scale of each place."""
    from vision.calibrate import image_px_per_mm

    t = np.radians(45.0)
    to_image = np.array([[0.6 * np.cos(t), -0.6 * np.sin(t), 640.0], [0.6 * np.sin(t), 0.6 * np.cos(t), 360.0], [0, 0, 1]])
    places = np.array([[0.0, 0.0], [240.0, 170.0], [480.0, 340.0]])
    assert np.allclose(image_px_per_mm(np.linalg.inv(to_image), places), 0.6)
    # image = board mm / (1 + y / 340): 1 px per mm at y = 0, half that (each way) at y = 340
    tilted = np.array([[1.0, 0, 0], [0, 1.0, 0], [0, 1 / 340, 1.0]])
    near_far = image_px_per_mm(np.linalg.inv(tilted), np.array([[240.0, 0.0], [240.0, 340.0]]))
    assert near_far == pytest.approx([1.0, 0.5 ** 1.5], rel=5e-3)  # measured over a mm
