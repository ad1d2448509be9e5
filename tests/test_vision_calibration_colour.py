"""Calibration whatever the colours: a warm lamp, a table cloth of the leather's or the walnut's hue, and refusals
that name what was not seen and what to do.

The boards are drawn by ``test_vision_calibration_layout`` from board-spec.md's numbers and lit here; where the
frame's corners are comes from that drawing, never from the finder. A 2700 K bulb's light on a camera balanced for
daylight is about (0.35, 0.66, 1.0) BGR; a camera that meters on green exposes it half again, (0.53, 1.0, 1.5), so
the red of the leather, the copper and a red cloth clips.
"""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np
import pytest

from test_vision_calibration_layout import FRAME, W, _board_in_frame
from vision.board import board_candidates, check_aspect, inner_rectangle
from vision.calibrate import calibrate
from vision.config import CalibrationConfig
from vision.errors import BoardNotFoundError, VisionError
from vision.geometry import BoardGeometry, Layout
from vision.render import random_scene, random_setup, render

WARM = (0.35, 0.66, 1.0)
WARM_METERED = (0.53, 1.0, 1.5)
# cloths (BGR) near the set's own colours: the drawn orange leather itself, a rust red, an orange-brown
LEATHER_ORANGE, RUST, ORANGE_BROWN = (40, 95, 190), (30, 60, 150), (60, 90, 170)


def _no_hue_window() -> CalibrationConfig:
    """Calibration that assumes nothing of the leather's hue: no leather prior, the board found by its frame alone."""
    cfg = CalibrationConfig()
    return replace(cfg, finder=replace(cfg.finder, priors=(), fallback_priors=()))


def _inner_corners(hom: np.ndarray) -> np.ndarray:
    return cv2.perspectiveTransform(inner_rectangle(BoardGeometry()).reshape(-1, 1, 2), np.linalg.inv(hom)).reshape(-1, 2)


@pytest.mark.parametrize(("light", "cloth"), [(WARM, ORANGE_BROWN), (WARM_METERED, RUST), (WARM_METERED, LEATHER_ORANGE),
                                              (WARM_METERED, ORANGE_BROWN)])
def test_the_frame_is_found_on_a_cloth_of_the_leathers_hue_without_any_hue_window(light: tuple[float, float, float],
                                                                                   cloth: tuple[int, int, int]) -> None:
    """The cloth is the orange leather's hue (and the lamp makes everything orange): the leather's points are holes in
    what stands out from the cloth, but the walnut frame rings them. Among the board's fits is one whose playing
    surface's corners lie where they were drawn (within a fifth of the frame's width, as the other finder tests)."""
    image, truth = _board_in_frame(10.0, 700.0, light, False, cloth=cloth)
    fits = board_candidates(_no_hue_window().finder, image, BoardGeometry(), True)
    misses = [float(np.hypot(*(_inner_corners(hom)[:, None] - truth[None]).transpose(2, 0, 1)).min(axis=0).max())
              for _, _, hom in fits]
    assert min(misses) < 0.2 * FRAME * 700 / W + 3, misses


@pytest.mark.slow  # a calibration: tens of seconds
def test_the_start_calibrates_by_the_frame_alone_under_a_metered_warm_lamp_on_a_leather_orange_cloth() -> None:
    """No hue window at all, a clipping warm lamp, a cloth of the leather's own orange: the start position is read
    back where it was drawn (home boards at the right-hand end, dark at the bottom)."""
    image, _ = _board_in_frame(10.0, 700.0, WARM_METERED, False, cloth=LEATHER_ORANGE)
    cal = calibrate(_no_hue_window(), image)
    assert cal.layout == Layout(home_right=True, dark_bottom=True)
    assert cal.start_misread == ()


def test_no_board_in_view_says_what_was_not_seen_and_to_give_the_corners() -> None:
    """A plain grey picture: the refusal says no board was found and names the --corners fallback."""
    image = np.full((360, 640, 3), 128, np.uint8)
    with pytest.raises(BoardNotFoundError) as exc:
        calibrate(CalibrationConfig(), image)
    text = str(exc.value)
    assert text.startswith("no board found") and "--corners" in text


def test_corners_given_on_no_board_say_to_check_them_not_to_give_them() -> None:
    """The corners were given: the refusal does not ask for them again, it asks to check them."""
    image = np.full((360, 640, 3), 128, np.uint8)
    corners = np.array([[100.0, 60.0], [540.0, 60.0], [540.0, 300.0], [100.0, 300.0]])
    with pytest.raises(VisionError) as exc:
        calibrate(CalibrationConfig(), image, corners)
    text = str(exc.value)
    assert "check the corners given" in text and "with --corners" not in text


def test_a_region_of_the_wrong_shape_is_named_with_its_shape_and_the_fallback() -> None:
    """Something three times as long as wide is no board (480 x 340 mm: 1.41): the refusal gives that ratio, the
    range a board has, and the --corners fallback."""
    quad = np.array([[0.0, 0.0], [300.0, 0.0], [300.0, 100.0], [0.0, 100.0]])
    with pytest.raises(BoardNotFoundError) as exc:
        check_aspect(CalibrationConfig().finder, quad)
    text = str(exc.value)
    assert "3.00 times as long as wide" in text and "--corners" in text


def test_a_camera_exposed_brighter_clips_the_warm_lamps_red() -> None:
    """Exposure scales the light the sensor records: under a 2700 K bulb, half again as much clips more of the red
    channel (the leather's, the copper's) at 255, and blue, a third of red, stays clear of it."""
    rng = np.random.default_rng(5)
    setup = random_setup(rng, size=(480, 270))
    setup = replace(setup, camera=replace(setup.camera, lamp_kelvin=2700.0, lamp="warm", noise=0.0))
    scene = random_scene(np.random.default_rng(6), setup.layout, start=True)
    plain, _ = render(scene, setup, 7)
    bright, _ = render(scene, replace(setup, camera=replace(setup.camera, exposure=1.5)), 7)
    assert (bright[..., 2] >= 250).mean() > (plain[..., 2] >= 250).mean() + 0.01
    assert bright[..., 1].mean() > 1.3 * plain[..., 1].mean()
    assert (bright[..., 0] >= 250).mean() < 0.01
