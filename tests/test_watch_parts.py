"""The pieces of `bgref watch` on a Pi, one at a time: a calibration followed by the LEDs, the
referee's halves and the camera's exposure; an unusable calibration set aside; the clean stop;
the LED pump and systemd's watchdog."""

from __future__ import annotations

import contextlib
import json
import signal
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from engine.game import Rules
from firmware_bridge import Layout, Signals, SimulatedBoard
from referee.core import Settings
from referee.journal import recover
from referee.pipeline import FramePipeline, not_calibrated
from referee.service import RefereeService
from referee.watch import Devices, FollowCalibration, Pump, StopRequested, Stopping, saved_calibration


def calibration(home_right: bool, dark_bottom: bool):
    from vision.board import Lens, homography_from_corners, order_corners
    from vision.calibrate import Calibration
    from vision.geometry import BoardGeometry
    from vision.geometry import Layout as BoardLayout

    quad = np.array([[100, 80], [1180, 80], [1180, 640], [100, 640]], np.float64)
    hom = homography_from_corners(order_corners(quad), BoardGeometry())
    return Calibration((1280, 720), Lens(0.0, (640, 360), 1280.0), hom, BoardLayout(home_right, dark_bottom), {}, (), (0.0, 0.0, 0.0), 0.0)


class FakeCamera:
    def __init__(self) -> None:
        self.locks = 0

    def lock_exposure(self):
        self.locks += 1
        return {"AeEnable": False}


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def follower(tmp_path: Path, clock: Clock):
    board = SimulatedBoard()
    devices = Devices(signals=Signals(board, clock=clock), board=board)
    service = RefereeService(Settings(rules=Rules(), players=("Ann", "Bob")), tmp_path / "match", devices.signals)
    pipeline = FramePipeline(not_calibrated, service)
    camera = FakeCamera()
    follow = FollowCalibration(pipeline, devices, lambda: service, contextlib.nullcontext(), camera, "bottom", clock)
    return follow, board, service, pipeline, camera


def test_a_calibration_sets_the_strip_order_the_halves_and_ends_the_setup_signal(tmp_path) -> None:
    clock = Clock()
    follow, board, service, pipeline, camera = follower(tmp_path, clock)
    follow.devices.signals.setup_needed(True)
    assert set(board.current.lit()) == {"bar-dark", "bar-light", "turn-dark", "turn-light"}
    # home boards on dark's left, dark at the top of the image: dark sits at the strip's end edge
    follow.adopt(calibration(False, False))
    assert board.layout == Layout("left", "end")
    assert board.current.lit() == {}
    assert service.settings.dark_right_half == "outer"  # dark's right is the outer board
    assert pipeline.reader.cal.layout.home_right is False
    # the change of halves is in the journal, so a restart resumes with it
    service.close()
    assert recover(service.journal.path).settings.dark_right_half == "outer"
    # the exposure is held once it has had time to settle, once
    follow.tick()
    clock.now = 2.0
    follow.tick()
    assert camera.locks == 0
    clock.now = 3.5
    follow.tick()
    follow.tick()
    assert camera.locks == 1


def test_an_unusable_calibration_is_set_aside_and_learnt_again(tmp_path) -> None:
    path = tmp_path / "calibration.json"
    assert saved_calibration(path) is None
    path.write_text("{not json")
    assert saved_calibration(path) is None
    assert not path.exists() and (tmp_path / "calibration.json.unusable").read_text() == "{not json"
    good = calibration(True, True)
    path.write_text(json.dumps(good.to_json()))
    assert saved_calibration(path).layout == good.layout


def test_sigterm_is_raised_only_where_the_loop_checks() -> None:
    stopping = Stopping()
    before = signal.getsignal(signal.SIGTERM)
    try:
        stopping.install()
        stopping.check()  # nothing yet
        signal.raise_signal(signal.SIGTERM)
        assert stopping.signal == signal.SIGTERM  # noted, not raised inside whatever was running
        with pytest.raises(StopRequested):
            stopping.check()
        with pytest.raises(StopRequested):
            stopping.sleep(30)  # a retry wait ends at once
    finally:
        signal.signal(signal.SIGTERM, before)
        signal.signal(signal.SIGINT, signal.default_int_handler)


def test_pump_feeds_the_watchdog_only_while_the_main_loop_moves() -> None:
    clock = Clock()
    serviced: list[float] = []
    notes: list[str] = []

    class Counting(Devices):
        def service(self) -> None:
            serviced.append(clock.now)

    pump = Pump(Counting(signals=None), contextlib.nullcontext(), notes.append, interval=0.001, stall_seconds=60, clock=clock)
    pump.beat()
    pump.start()
    try:
        for _ in range(200):
            if notes:
                break
            pump._stop.wait(0.005)
        assert notes == ["WATCHDOG=1"] and serviced
        clock.now = 61.0  # the main loop has not moved for a minute: systemd should restart us
        count = len(notes)
        clock.now = 100.0
        pump._stop.wait(0.05)
        assert len(notes) == count
    finally:
        pump.stop()


def test_devices_follow_a_layout_everywhere() -> None:
    board = SimulatedBoard()
    devices = Devices(signals=None, board=board)
    devices.set_layout(replace(Layout(), home="left"))
    assert board.layout == Layout("left")


def test_a_missing_led_controller_shows_on_the_status_led() -> None:
    from gpiozero.pins.mock import MockFactory

    from firmware_bridge import LedController, StatusLight, open_status_led
    from firmware_bridge.errors import ControllerNotFoundError

    clock = Clock()

    def no_pico():
        raise ControllerNotFoundError("no LED controller found")

    factory = MockFactory()
    led = open_status_led(pin_factory=factory)
    controller = LedController(no_pico, clock=clock, report=lambda text: None)
    devices = Devices(signals=Signals(controller, clock=clock, status=StatusLight(led, clock)), controller=controller, status=led)
    devices.service()
    assert devices.signals.scene.controller_fault
    assert [factory.pin(n).state for n in (17, 27, 22)] == [0, 1, 1]  # red (common anode: low = lit), fast blink on
    devices.close()
