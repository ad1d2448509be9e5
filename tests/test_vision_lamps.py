"""Calibration under any lamp colour, white balance and table cloth.

Expected values come from the physical picture: a white cube under a lamp of colour t (a gain per BGR channel) is
seen as t itself, so the gains that make it grey again are 1/t (up to brightness); a board lies inside its frame
wherever the cloth's hue is; a start position under a 2700 K bulb, or on a red cloth, is still the start position.
The drawn boards come from ``test_vision_calibration_layout`` (drawn there from board-spec.md's numbers).
"""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np
import pytest

from test_vision_calibration_layout import FRAME, OLIVE_GREY, PALE_ORANGE, PPM, D, W, _board_in_frame, draw_start
from vision.calibrate import balanced, calibrate, lamp_balance
from vision.config import CalibrationConfig, ReaderConfig
from vision.read import read_board
from vision.geometry import BoardGeometry
from vision.render import kelvin_bgr, random_scene, random_setup, render

WARM = (0.35, 0.66, 1.0)  # BGR of a 2700 K bulb's light on a camera balanced for daylight (blue about a third of red)


def _cfg() -> CalibrationConfig:
    cfg = CalibrationConfig()
    return replace(cfg, reader=replace(cfg.reader, px_per_mm=PPM))


def _with_cube(board: np.ndarray) -> np.ndarray:
    """The drawn board with a white cube (20 mm, board-spec) in the middle, a dark numeral on its face."""
    out = board.copy()
    c, half = (int(W / 2 * PPM), int(D / 2 * PPM)), int(10 * PPM)
    cv2.rectangle(out, (c[0] - half, c[1] - half), (c[0] + half, c[1] + half), (240, 240, 240), -1)
    cv2.putText(out, "64", (c[0] - half + 4, c[1] + 6), cv2.FONT_HERSHEY_SIMPLEX, 0.5, (30, 30, 30), 2)
    return out


def _lit(image: np.ndarray, light: tuple[float, float, float]) -> np.ndarray:
    return np.clip(image.astype(np.float32) * np.asarray(light, np.float32), 0, 255).astype(np.uint8)


def _cast(bgr: np.ndarray) -> np.ndarray:
    """A colour's log about its mean: zero for grey, its length how far from grey."""
    log = np.log(np.asarray(bgr, np.float64))
    return log - log.mean()


@pytest.mark.parametrize("light", [WARM, (1.0, 0.75, 0.4), (0.4, 0.7, 1.0), (0.5, 1.0, 0.55)])
def test_the_lamps_colour_is_undone_on_the_white_cube_down_to_an_ivory_cube_s(light: tuple[float, float, float]) -> None:
    """A white cube seen under the lamp has the lamp's colour; after balancing, what is left of that cast points the
    lamp's way but is no larger than an ivory cube's (which a faintly warm lamp's white cube cannot be told from)."""
    cfg = _cfg()
    canon = _lit(_with_cube(draw_start(True, True, OLIVE_GREY, PALE_ORANGE)), light)
    c = (int(W / 2 * PPM), int(D / 2 * PPM))
    face = balanced(cfg, canon)[c[1] - 18:c[1] - 12, c[0] - 15:c[0] + 15].reshape(-1, 3).astype(np.float64)
    left, lamp = _cast(np.median(face, axis=0)), _cast(light)
    assert np.linalg.norm(lamp) > cfg.balance_ivory + 0.1  # a cast well past an ivory cube's: these lamps are far from white
    assert abs(np.linalg.norm(left) - cfg.balance_ivory) < 0.04, left
    assert float(left @ lamp) > 0
    gains = lamp_balance(cfg, canon)
    assert float(_cast(gains) @ lamp) < 0, "the gains go against the lamp's colour"


def test_a_lamp_near_white_leaves_the_colours_alone() -> None:
    """A cast no larger than an ivory cube's is not undone: the cube may be ivory."""
    canon = _lit(_with_cube(draw_start(True, True, OLIVE_GREY, PALE_ORANGE)), (0.95, 1.0, 1.0))
    assert np.array_equal(lamp_balance(_cfg(), canon), np.ones(3, np.float32))


def test_without_a_cube_in_the_middle_nothing_is_undone() -> None:
    """The wood where the cube should stand is brown, not the lamp's colour: no gains are taken from it."""
    canon = _lit(draw_start(True, True, OLIVE_GREY, PALE_ORANGE), WARM)
    assert np.array_equal(lamp_balance(_cfg(), canon), np.ones(3, np.float32))


def test_a_lamp_s_colour_temperature() -> None:
    """A 2700 K bulb is orange (red > green > blue, blue about a third of red), 6500 K is the daylight the camera is
    balanced for (grey), and a 9000 K sky is blue."""
    b, g, r = kelvin_bgr(2700)
    assert r == 1.0 and r > g > b and 0.25 < b < 0.45
    assert np.allclose(kelvin_bgr(6500), 1.0, atol=0.03)
    b, g, r = kelvin_bgr(9000)
    assert b == 1.0 and b > g > r


def test_any_light_keeps_the_setup_and_draws_lamps_from_2700_to_6500_kelvin() -> None:
    for seed in range(6):
        plain = random_setup(np.random.default_rng(seed), size=(480, 270))
        wide = random_setup(np.random.default_rng(seed), size=(480, 270), any_light=True)
        assert wide.layout == plain.layout and wide.board_seed == plain.board_seed
        assert replace(wide.camera, lamp_kelvin=0.0, white_balance=(1.0, 1.0, 1.0)) == plain.camera
        assert 2700 <= wide.camera.lamp_kelvin <= 6500


@pytest.mark.parametrize(("cloth", "light"), [((40, 50, 190), (1.0, 1.0, 1.0)), ((40, 50, 190), WARM), ((150, 60, 40), (0.5, 0.5, 0.5))])
def test_the_board_stands_out_from_a_cloth_of_any_hue(cloth: tuple[int, int, int], light: tuple[float, float, float]) -> None:
    """A red cloth (the leather's hue), under a neutral or a 2700 K lamp, or a dim blue one: the frame's outer edge
    is found where the board was drawn, so the inner playing surface's corners follow from the spec's frame."""
    from vision.board import estimate_lens, homography_from_corners, inner_rectangle, off_table_outline, order_corners

    image, truth = _board_in_frame(10.0, 700.0, light, False, cloth=cloth)
    finder = CalibrationConfig().finder
    lens, quad = estimate_lens(finder, off_table_outline(finder, image), (1280, 720))
    hom = homography_from_corners(order_corners(quad), BoardGeometry(), outer=True)
    found = cv2.perspectiveTransform(inner_rectangle(BoardGeometry()).reshape(-1, 1, 2), np.linalg.inv(hom)).reshape(-1, 2)
    miss = np.hypot(*(found[:, None] - truth[None]).transpose(2, 0, 1)).min(axis=0)
    assert miss.max() < 0.2 * FRAME * 700 / W + 3, miss


@pytest.mark.slow  # a calibration: tens of seconds
@pytest.mark.parametrize(("kelvin", "cloth"), [(2700.0, None), (2700.0, (0.15, 0.3, 0.75)), (4000.0, (0.6, 0.25, 0.2))])
def test_the_start_calibrates_and_reads_under_a_warm_lamp_and_on_a_coloured_cloth(kelvin: float, cloth: tuple[float, float, float] | None) -> None:
    """The product's renderer's start scene under a 2700 K bulb (on its own table, or a red cloth) and under a 4000 K
    lamp on a blue cloth: calibration reads back the start position, and a later frame's cube is read at its value."""
    rng = np.random.default_rng(3)
    setup = random_setup(rng)
    setup = replace(setup, camera=replace(setup.camera, lamp_kelvin=kelvin),
                    palette=setup.palette if cloth is None else replace(setup.palette, table=cloth))
    image, _ = render(random_scene(rng, setup.layout, start=True), setup, 3)
    cal = calibrate(CalibrationConfig(), image)
    assert cal.start_misread == ()  # read back as the start position, every point
    scene = random_scene(rng, setup.layout)
    frame, truth = render(scene, setup, 4)
    reading = read_board(ReaderConfig(), cal, frame)
    assert list(reading.points) == truth["points"]
    assert reading.cube is not None and truth["cube"] is not None and reading.cube.value == truth["cube"]["value"]  # type: ignore[index]
