"""`bgref snapshot` (one frame through watch's camera pipeline, as a JPEG) and `bgref selfcheck`
(what works on this Pi: camera, pin factory, buttons, status LED, LED controller or strip).

Both read the same configuration as `bgref watch` and open the same devices the same way, so what
they report is what the service will meet.  Stop the service first: the camera and the serial port
are one program's at a time.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any, Callable

from .commands import load_config, merged

WARM_UP_SECONDS = 1.5  # a live camera's exposure and white balance settle in this long


def register(subparsers: Any) -> None:
    snap = subparsers.add_parser("snapshot", help="save one camera frame (the pipeline `watch` uses) as a JPEG")
    _camera_flags(snap)
    snap.add_argument("-o", "--output", type=Path, default=Path("snapshot.jpg"), help="the JPEG to write (default snapshot.jpg)")
    snap.set_defaults(func=run_snapshot)
    check = subparsers.add_parser("selfcheck", help="say what works: camera, GPIO pin factory, buttons, status LED, LEDs")
    _camera_flags(check)
    check.add_argument("--leds", choices=["pico", "spi", "simulate"], help="which LEDs to check (default: the configuration's, else pico)")
    check.add_argument("--led-port", help="serial port of the LED controller (default: found by USB id)")
    check.set_defaults(func=run_selfcheck)


def _camera_flags(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--config", type=Path, help="TOML configuration (as for `bgref watch`)")
    parser.add_argument("--camera", help="picamera, usb:N, a video file or a folder of images (default: the configuration's)")
    parser.add_argument("--camera-height-mm", type=float, help="Pi camera lens above the board (default 540)")


def _options(args: argparse.Namespace) -> dict[str, Any]:
    config, _ = load_config(args.config)
    options = merged(config, args)
    options.setdefault("camera", "picamera")
    return options


def grab(options: dict[str, Any], warm_up: float = WARM_UP_SECONDS, clock: Callable[[], float] = time.monotonic) -> tuple[Any, Any]:
    """(frame, source) from the configured camera: a live camera after ``warm_up`` seconds, a
    recording's first frame.  CameraError when there is none."""
    from vision.sources import CameraError, FolderSource, VideoFileSource, open_source

    source = open_source(str(options["camera"]), height_mm=float(options.get("camera_height_mm", 540)))
    source.open()
    try:
        recorded = isinstance(source, (FolderSource, VideoFileSource))
        started, frame = clock(), None
        for _, frame in source.frames():  # noqa: B007 - the last frame read is the one kept
            if recorded or clock() - started >= warm_up:
                break
        if frame is None:
            raise CameraError(f"{source.name} gave no frame")
        return frame, source
    finally:
        source.close()


def _describe(frame: Any, source: Any) -> str:
    text = f"{frame.shape[1]}x{frame.shape[0]} from {source.name}"
    mode = getattr(source, "mode", None)
    if mode:
        text += f" (sensor mode {mode['size'][0]}x{mode['size'][1]}, whole field of view)"
    return text


def run_snapshot(args: argparse.Namespace) -> int:
    import cv2

    from vision.sources import CameraError

    try:
        frame, source = grab(_options(args))
    except CameraError as exc:
        print(f"bgref snapshot: {exc}", file=sys.stderr)
        return 2
    if not cv2.imwrite(str(args.output), frame, [cv2.IMWRITE_JPEG_QUALITY, 92]):
        print(f"bgref snapshot: {args.output} cannot be written (a .jpg in a folder that exists?)", file=sys.stderr)
        return 2
    print(f"wrote {args.output}: {_describe(frame, source)}")
    return 0


def run_selfcheck(args: argparse.Namespace) -> int:
    options = _options(args)
    results: list[tuple[str, bool, str]] = []

    def report(what: str, ok: bool, text: str) -> None:
        results.append((what, ok, text))
        print(f"{'ok  ' if ok else 'FAIL'}  {what:<14} {text}", flush=True)

    report(*_check_camera(options))
    report(*_check_pins())
    kind = "simulate" if options.get("simulate_leds") else str(options.get("leds") or "pico")
    report(*_check_leds(kind, options))
    failed = [what for what, ok, _ in results if not ok]
    print("all works" if not failed else f"not working: {', '.join(failed)} (hardware/README.md, 'Trouble-shooting')")
    return 0 if not failed else 1


def _check_camera(options: dict[str, Any]) -> tuple[str, bool, str]:
    from vision.sources import CameraError

    try:
        frame, source = grab(options)
    except CameraError as exc:
        return "camera", False, str(exc)
    return "camera", True, _describe(frame, source)


def _check_pins() -> tuple[str, bool, str]:
    """The pin factory, the buttons and the status LED (shown red, green, blue: look at it)."""
    from .watch import gpio_environment, state_dir

    gpio_environment(state_dir())
    try:
        from gpiozero import Device

        from firmware_bridge import open_buttons, open_status_led

        buttons = open_buttons()
        factory = type(Device.pin_factory).__name__
        pressed = [name for name, button in buttons.items() if button.is_pressed]
        for button in buttons.values():
            button.close()
        led = open_status_led()
        for colour in ((1, 0, 0), (0, 1, 0), (0, 0, 1)):
            led.color = colour
            time.sleep(0.4)
        led.close()
    except Exception as exc:  # noqa: BLE001 - gpiozero has many ways to say there is no GPIO
        return "GPIO", False, (f"{type(exc).__name__}: {exc}; on a Pi 5 lgpio needs a writable working directory "
                               "or LG_WD, and the user in the gpio group")
    stuck = f"; held down now (wiring?): {', '.join(pressed)}" if pressed else ""
    return "GPIO", True, f"pin factory {factory}; buttons on GPIO 5, 6, 13, 19; status LED showed red, green, blue{stuck}"


def _check_leds(kind: str, options: dict[str, Any]) -> tuple[str, bool, str]:
    """Every LED lit white, one after another round the frame, then all off."""
    from firmware_bridge import LedState, Light, LinkStatus
    from firmware_bridge.leds import WHITE, Pattern
    from firmware_bridge.layout import LED_NAMES

    if kind == "simulate":
        return "LEDs", True, "simulated on the console (leds = \"simulate\")"
    sink: Any
    if kind == "spi":
        from firmware_bridge.spi_strip import SpiStrip, open_spi

        try:
            sink = SpiStrip(open_spi(), clock=time.monotonic)
        except OSError as exc:
            return "LEDs", False, str(exc)
        what = "WS2812 strip on SPI (GPIO10)"
    else:
        from firmware_bridge import LedController, SerialConnector

        problems: list[str] = []
        sink = LedController(SerialConnector(options.get("led_port")), clock=time.monotonic, report=problems.append)
        deadline = time.monotonic() + 4.0
        while sink.status is not LinkStatus.READY and time.monotonic() < deadline:
            sink.service()
            time.sleep(0.02)
        if sink.status is not LinkStatus.READY:
            sink.close()
            return "LEDs", False, f"LED controller: {problems[-1] if problems else 'no answer'}"
        what = f"LED controller, firmware {sink.firmware.firmware if sink.firmware else '?'}"
    try:
        for name in LED_NAMES:
            sink.show(LedState().with_lights({name: Light(WHITE, Pattern.SOLID)}))
            end = time.monotonic() + 0.08
            while time.monotonic() < end:
                sink.service()
                time.sleep(0.01)
        sink.show(LedState())
        sink.service()
    finally:
        sink.close()
    return "LEDs", True, f"{what}: each of the {len(LED_NAMES)} LEDs lit white in turn"
