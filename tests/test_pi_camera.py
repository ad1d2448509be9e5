"""The Pi camera source against a fake picamera2 module (hardware we do not have here).

Sensor modes below are the Camera Module 3's (IMX708) as `rpicam-hello --list-cameras` lists them:
4608x2592 full, 2304x1296 2x2 binned (full field), 1536x864 a centre crop.
"""

from __future__ import annotations

import builtins
import sys
import types
from typing import Any

import numpy as np
import pytest

from vision.sources import CameraError, CameraLostError, PiCameraSource, full_view_mode, lens_dioptres, load_picamera2

IMX708_ARRAY = (4608, 2592)
IMX708_MODES = [
    {"size": (1536, 864), "bit_depth": 10, "fps": 120.13, "crop_limits": (768, 432, 3072, 1728)},
    {"size": (2304, 1296), "bit_depth": 10, "fps": 56.03, "crop_limits": (0, 0, 4608, 2592)},
    {"size": (4608, 2592), "bit_depth": 10, "fps": 14.35, "crop_limits": (0, 0, 4608, 2592)},
]
# Camera Module 2 (IMX219): 3280x2464 full; 1640x1232 binned full field; 1920x1080 a crop; 640x480 cropped binned
IMX219_ARRAY = (3280, 2464)
IMX219_MODES = [
    {"size": (640, 480), "bit_depth": 10, "fps": 103.33, "crop_limits": (1000, 752, 1280, 960)},
    {"size": (1640, 1232), "bit_depth": 10, "fps": 41.85, "crop_limits": (0, 0, 3280, 2464)},
    {"size": (1920, 1080), "bit_depth": 10, "fps": 47.57, "crop_limits": (680, 692, 1920, 1080)},
    {"size": (3280, 2464), "bit_depth": 10, "fps": 21.19, "crop_limits": (0, 0, 3280, 2464)},
]


class FakeCamera:
    def __init__(self, modes=IMX708_MODES, array=IMX708_ARRAY, autofocus=True, fail_start=None, fail_capture_after=None):
        self.sensor_modes = modes
        self.camera_properties = {"PixelArraySize": array}
        self.camera_controls = {"LensPosition": (0.0, 15.0, 1.0), "AfMode": (0, 2, 0)} if autofocus else {"ExposureTime": (1, 1, 1)}
        self.controls: dict[str, Any] = {}
        self.configured: dict[str, Any] | None = None
        self.started = self.closed = False
        self.fail_start = fail_start
        self.fail_capture_after = fail_capture_after
        self.captured = 0

    def create_video_configuration(self, main, sensor=None, raw=None, controls=None):
        return {"main": main, "sensor": sensor, "raw": raw}

    def configure(self, config):
        self.configured = config

    def set_controls(self, controls):
        self.controls.update(controls)

    def start(self):
        if self.fail_start:
            raise self.fail_start
        self.started = True

    def capture_array(self, name="main"):
        if self.fail_capture_after is not None and self.captured >= self.fail_capture_after:
            raise RuntimeError("Camera frontend has timed out!")
        self.captured += 1
        w, h = self.configured["main"]["size"]
        return np.full((h, w, 3), 7, np.uint8)

    def capture_metadata(self):
        return {"ExposureTime": 16634, "AnalogueGain": 2.5, "ColourGains": (1.9, 1.6), "Lux": 300.0}

    def stop(self):
        self.started = False

    def close(self):
        self.closed = True


def fake_module(camera: Any = None, error: Exception | None = None) -> types.ModuleType:
    module = types.ModuleType("picamera2")

    def make():
        if error is not None:
            raise error
        return camera

    module.Picamera2 = make  # type: ignore[attr-defined]
    return module


def test_the_full_field_binned_mode_is_chosen_not_the_centre_crop() -> None:
    assert full_view_mode(IMX708_MODES, IMX708_ARRAY, (1280, 720))["size"] == (2304, 1296)
    assert full_view_mode(IMX219_MODES, IMX219_ARRAY, (1280, 720))["size"] == (1640, 1232)
    # an output bigger than the binned mode needs the full-resolution mode
    assert full_view_mode(IMX708_MODES, IMX708_ARRAY, (2560, 1440))["size"] == (4608, 2592)
    assert full_view_mode([], IMX708_ARRAY, (1280, 720)) is None


def test_focus_is_set_in_dioptres_for_the_mount_height() -> None:
    assert lens_dioptres(540) == pytest.approx(1.852, abs=1e-3)  # 1 / 0.54 m
    assert lens_dioptres(1000) == pytest.approx(1.0)
    with pytest.raises(CameraError, match="positive"):
        lens_dioptres(0)


def test_open_asks_for_the_full_field_mode_and_fixed_focus() -> None:
    camera = FakeCamera()
    source = PiCameraSource(height_mm=500, module=fake_module(camera))
    source.open()
    assert camera.configured == {"main": {"size": (1280, 720), "format": "RGB888"}, "sensor": {"output_size": (2304, 1296), "bit_depth": 10}, "raw": None}
    assert camera.controls == {"AfMode": 0, "LensPosition": pytest.approx(2.0)}
    t, frame = next(source.frames())
    assert frame.shape == (720, 1280, 3)
    source.close()
    assert camera.closed


def test_a_fixed_focus_camera_gets_no_focus_controls() -> None:
    camera = FakeCamera(IMX219_MODES, IMX219_ARRAY, autofocus=False)
    source = PiCameraSource(module=fake_module(camera))
    source.open()
    assert camera.controls == {}
    assert camera.configured["sensor"]["output_size"] == (1640, 1232)


def test_exposure_and_white_balance_lock_and_hold_across_a_reopen() -> None:
    camera = FakeCamera()
    source = PiCameraSource(module=fake_module(camera))
    assert source.lock_exposure() is None  # not running: nothing to lock
    source.open()
    locked = source.lock_exposure()
    assert locked == {"AeEnable": False, "AwbEnable": False, "ExposureTime": 16634, "AnalogueGain": 2.5, "ColourGains": (1.9, 1.6)}
    assert camera.controls["AeEnable"] is False and camera.controls["ColourGains"] == (1.9, 1.6)
    source.close()
    again = FakeCamera()
    source._module = fake_module(again)
    source.open()
    assert again.controls["ExposureTime"] == 16634 and again.controls["AwbEnable"] is False


@pytest.mark.parametrize("error", [IndexError("list index out of range"), RuntimeError("Camera __init__ sequence did not complete.")])
def test_no_camera_is_a_clear_camera_error(error: Exception) -> None:
    with pytest.raises(CameraError, match="no Pi camera found.*ribbon cable"):
        PiCameraSource(module=fake_module(error=error)).open()


def test_a_camera_in_use_is_a_camera_error_and_is_closed() -> None:
    camera = FakeCamera(fail_start=RuntimeError("Failed to acquire camera: Device or resource busy"))
    with pytest.raises(CameraError, match="cannot be started.*another program"):
        PiCameraSource(module=fake_module(camera)).open()
    assert camera.closed


def test_a_camera_that_stops_is_lost_not_a_crash() -> None:
    camera = FakeCamera(fail_capture_after=2)
    source = PiCameraSource(module=fake_module(camera))
    source.open()
    frames = source.frames()
    next(frames), next(frames)
    with pytest.raises(CameraLostError, match="timed out"):
        next(frames)
    assert camera.closed


def _import_failing(monkeypatch: pytest.MonkeyPatch, error: Exception) -> None:
    real = builtins.__import__

    def fake_import(name, *args, **kwargs):
        if name == "picamera2":
            raise error
        return real(name, *args, **kwargs)

    monkeypatch.delitem(sys.modules, "picamera2", raising=False)
    monkeypatch.setattr(builtins, "__import__", fake_import)


def test_numpy_mismatch_at_import_is_explained(monkeypatch: pytest.MonkeyPatch) -> None:
    # what apt's picamera2 raises when pip put numpy 2 in the venv
    _import_failing(monkeypatch, ValueError("numpy.dtype size changed, may indicate binary incompatibility. Expected 96 from C header, got 88 from PyObject"))
    with pytest.raises(CameraError, match=r"ValueError: numpy.dtype size changed.*pip uninstall -y numpy"):
        load_picamera2()
    with pytest.raises(CameraError, match="dtype size changed"):
        PiCameraSource().open()


def test_missing_picamera2_says_how_to_install_it(monkeypatch: pytest.MonkeyPatch) -> None:
    _import_failing(monkeypatch, ModuleNotFoundError("No module named 'picamera2'"))
    with pytest.raises(CameraError, match="apt install python3-picamera2.*system-site-packages"):
        load_picamera2()


def test_live_watch_retries_a_failing_pi_camera_instead_of_crashing() -> None:
    from referee.pipeline import FramePipeline, not_calibrated, run_source

    attempts = []

    class Broken:
        def Picamera2(self):  # noqa: N802 - picamera2's name
            attempts.append(1)
            if len(attempts) < 3:
                raise RuntimeError("Camera __init__ sequence did not complete.")
            return FakeCamera(fail_capture_after=1)

    faults: list[bool] = []
    source = PiCameraSource(module=Broken())

    class Stop(Exception):
        pass

    def sleep(seconds: float) -> None:
        if len(attempts) >= 4:
            raise Stop

    pipeline = FramePipeline(not_calibrated, service=None)  # type: ignore[arg-type]
    with pytest.raises(Stop):
        run_source(source, pipeline, on_camera_fault=faults.append, live=True, sleep=sleep)
    assert len(attempts) == 4  # failed, failed, ran and was lost, tried again
    assert faults[0] is True and False in faults
