"""LEDs on a Pi: the strip map for every seating and mounting, the WS2812-over-SPI encoder and strip,
and the status LED.  Expected strip indices are written by hand from the wiring in hardware/README.md
(strip starts at one end of an edge, runs along it, up the rail, back along the other edge)."""

from __future__ import annotations

import pytest

from firmware_bridge import Layout, Signals
from firmware_bridge.leds import RED, LedState, Light, Pattern
from firmware_bridge.spi_strip import RESET_BYTES, SpiStrip, frame_at, within_budget, ws2812_spi_bytes

# home (seen from dark's seat), the frame edge dark sits at (the strip's start edge or its end edge),
# the camera mounting (0: the strip's start edge at the bottom of the image, 180: at the top),
# what calibration then reports (home_right, dark_bottom), and where point 1, point 24, bar-dark,
# turn-dark and cube-owner-dark are on the strip.
MOUNTINGS = [
    ("right", "start", 0, (True, True), {"1": 12, "6": 7, "7": 5, "24": 23, "13": 35, "bar-dark": 6, "turn-dark": 13, "cube-owner-dark": 14}),
    ("right", "start", 180, (True, False), {"1": 12, "6": 7, "7": 5, "24": 23, "13": 35, "bar-dark": 6, "turn-dark": 13, "cube-owner-dark": 14}),
    ("right", "end", 0, (True, False), {"1": 35, "6": 30, "7": 28, "24": 0, "13": 12, "bar-dark": 29, "turn-dark": 22, "cube-owner-dark": 21}),
    ("right", "end", 180, (True, True), {"1": 35, "6": 30, "7": 28, "24": 0, "13": 12, "bar-dark": 29, "turn-dark": 22, "cube-owner-dark": 21}),
    ("left", "start", 0, (False, True), {"1": 0, "6": 5, "7": 7, "24": 35, "13": 23, "bar-dark": 6, "turn-dark": 13, "cube-owner-dark": 14}),
    ("left", "start", 180, (False, False), {"1": 0, "6": 5, "7": 7, "24": 35, "13": 23, "bar-dark": 6, "turn-dark": 13, "cube-owner-dark": 14}),
    ("left", "end", 0, (False, False), {"1": 23, "6": 28, "7": 30, "24": 12, "13": 0, "bar-dark": 29, "turn-dark": 22, "cube-owner-dark": 21}),
    ("left", "end", 180, (False, True), {"1": 23, "6": 28, "7": 30, "24": 12, "13": 0, "bar-dark": 29, "turn-dark": 22, "cube-owner-dark": 21}),
]


@pytest.mark.parametrize("home, dark_edge, camera, calibrated, where", MOUNTINGS)
def test_leds_follow_the_calibrated_seating(home, dark_edge, camera, calibrated, where) -> None:
    layout = Layout.seen(*calibrated, strip_start="bottom" if camera == 0 else "top")
    assert layout == Layout(home, dark_edge)
    assert {name: layout.index(name) for name in where} == where
    assert sorted(layout.order) == sorted(Layout().order)  # every LED once


def test_the_cube_ladder_stays_in_place_for_either_seat() -> None:
    for edge in ("start", "end"):
        assert [Layout("right", edge).index("cube-%d" % v) for v in (2, 4, 8, 16, 32, 64)] == [15, 16, 17, 18, 19, 20]


def test_a_bad_image_edge_is_refused() -> None:
    with pytest.raises(ValueError, match="'left' is not an edge"):
        Layout.seen(True, True, "left")


def test_ws2812_bits_at_three_spi_bits_each() -> None:
    # 0xFF: 110 x 8 = 110110110110110110110110; 0x00: 100 x 8; 0x80: 110 then 100 x 7
    ff, zero, msb = bytes([0xDB, 0x6D, 0xB6]), bytes([0x92, 0x49, 0x24]), bytes([0xD2, 0x49, 0x24])
    latch = bytes(RESET_BYTES)
    assert ws2812_spi_bytes([(255, 0, 0)]) == latch + zero + ff + zero + latch  # green first, then red, blue
    assert ws2812_spi_bytes([(0, 128, 255)]) == latch + msb + zero + ff + latch
    assert len(ws2812_spi_bytes([(1, 2, 3)] * 36)) == 2 * RESET_BYTES + 36 * 9
    with pytest.raises(ValueError, match="0..255"):
        ws2812_spi_bytes([(256, 0, 0)])


def test_latch_is_long_enough() -> None:
    assert RESET_BYTES * 8 / 2.4e6 >= 280e-6


def test_the_current_cap_dims_a_full_white_strip() -> None:
    white = [(255, 255, 255)] * 36  # 36 x 60 mA = 2.16 A
    dimmed = within_budget(white)
    assert sum(sum(p) for p in dimmed) * 20 / 255 <= 1500
    assert within_budget([(255, 0, 0)] * 2) == [(255, 0, 0)] * 2


class FakeSpi:
    def __init__(self) -> None:
        self.writes: list[bytes] = []
        self.closed = False

    def writebytes2(self, data: bytes) -> None:
        self.writes.append(bytes(data))

    def close(self) -> None:
        self.closed = True


def test_spi_strip_blinks_and_writes_only_changes() -> None:
    now = [0.0]
    spi = FakeSpi()
    strip = SpiStrip(spi, clock=lambda: now[0], layout=Layout("left"))
    state = LedState(brightness=255).with_lights({"1": Light(RED, Pattern.BLINK_FAST)})
    strip.show(state)
    first = frame_at(state, Layout("left"), 0)
    assert first[0] == (255, 0, 0) and all(p == (0, 0, 0) for p in first[1:])  # point 1 is pixel 0 with home left
    assert spi.writes == [ws2812_spi_bytes(first)]
    strip.service()
    assert len(spi.writes) == 1  # nothing changed
    now[0] = 0.2  # fast blink (4 Hz) is off in the second half of its period
    strip.service()
    assert spi.writes[-1] == ws2812_spi_bytes([(0, 0, 0)] * 36)
    strip.close()
    assert spi.closed


def test_status_led_is_driven_through_gpiozero_mock_pins() -> None:
    from gpiozero.pins.mock import MockFactory

    from firmware_bridge import SimulatedBoard, StatusLight, open_status_led

    factory = MockFactory()
    led = open_status_led(pin_factory=factory)
    signals = Signals(SimulatedBoard(), clock=lambda: 0.0, status=StatusLight(led, clock=lambda: 0.0))
    signals.your_turn("dark")
    # common anode: a lit channel is a low pin
    assert [factory.pin(n).state for n in (17, 27, 22)] == [1, 0, 1]  # green: referee running
    signals.camera_fault(True)
    assert [factory.pin(n).state for n in (17, 27, 22)] == [0, 0, 1]  # amber (red + green) triple flash, first flash on
    led.close()


def test_setup_signal_asks_for_the_start_position() -> None:
    from firmware_bridge import SimulatedBoard

    board = SimulatedBoard()
    signals = Signals(board, clock=lambda: 0.0)
    signals.setup_needed()
    lit = board.current.lit()
    assert set(lit) == {"bar-dark", "bar-light", "turn-dark", "turn-light"}
    assert {(light.colour.name, light.pattern.label) for light in lit.values()} == {("blue", "blink-slow")}
    signals.setup_needed(False)
    assert board.current.lit() == {}


# The independent world's eight mountings (benchmarks/world: home boards on the image's right or left,
# dark on the camera mount's side or the far side, camera turned 0 or 180 degrees), with the LED strip
# starting along the mount's side.  Where point 1's LED is, by hand: dark at the bottom of the image
# (near and 0, or far and 180) has the image's right on their right; at the top, the image's left.
WORLD_POINT_1 = {
    ("right", "near", 0): 12,   # home on dark's right, dark at the strip's start edge
    ("right", "near", 180): 0,  # dark at the top: home on dark's left; start edge
    ("right", "far", 0): 23,    # dark at the top: home on dark's left; end edge
    ("right", "far", 180): 35,  # dark at the bottom: home on dark's right; end edge
    ("left", "near", 0): 0,
    ("left", "near", 180): 12,
    ("left", "far", 0): 35,
    ("left", "far", 180): 23,
}


@pytest.mark.slow
@pytest.mark.parametrize("key", sorted(WORLD_POINT_1))
def test_leds_follow_calibration_on_the_independent_world(tmp_path, key) -> None:
    """Calibrated on a start position rendered by benchmarks.world (no product code), the strip
    order the LEDs get puts point 1 where the mounting says."""
    import cv2

    from benchmarks.world.footage import FootageMounting, write_footage
    from vision import CalibrationConfig, calibrate

    home, dark, turn = key
    write_footage(tmp_path, 1, FootageMounting(home, dark, turn), seed=5, plays=0, fouls=False)
    cal = calibrate(CalibrationConfig(), cv2.imread(str(tmp_path / "frame00000.jpg")))
    layout = Layout.seen(cal.layout.home_right, cal.layout.dark_bottom, "bottom" if turn == 0 else "top")
    assert layout.index("1") == WORLD_POINT_1[key]
