"""The parts of `bgref watch` that meet the hardware: first-run calibration, the seating the LEDs
follow, the LED and GPIO devices, the buttons, and a clean stop on SIGTERM.

Nothing here decides the game (that is :mod:`referee.core`); each piece carries out one job for
:func:`referee.commands.run_watch` and can be driven on its own in tests.
"""

from __future__ import annotations

import contextlib
import logging
import os
import signal
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from .core import Note, Outcome, Press, Stage

log = logging.getLogger("bgref")

EXPOSURE_SETTLE_SECONDS = 3.0  # a camera's automatic exposure settles in this long after it starts
CONFIRM_SECONDS = 5.0  # the new-game button must be pressed twice within this long
UNLOCK_SECONDS = 120.0  # the mode button works this long after the page's PIN was given
SETUP_TEXT = "put the checkers in the start position: the referee learns the board from it (no calibration yet)"


def state_dir(environ: dict[str, str] | os._Environ[str] = os.environ) -> Path:
    """Under systemd (``StateDirectory=bgref``) /var/lib/bgref, else ``~/bgref-matches``."""
    state = environ.get("STATE_DIRECTORY", "").split(":")[0]
    return Path(state) if state else Path.home() / "bgref-matches"


# --- stopping --------------------------------------------------------------------------------------


class StopRequested(Exception):
    """SIGTERM or SIGINT arrived: leave the loop at the next safe point."""


class Stopping:
    """Turns SIGTERM/SIGINT into :class:`StopRequested`, raised only where the loop checks, so a
    journal line, a match file or a serial frame is never cut in half."""

    def __init__(self) -> None:
        self.event = threading.Event()
        self.signal: int | None = None

    def install(self) -> None:
        for sig in (signal.SIGTERM, signal.SIGINT):
            signal.signal(sig, self._on_signal)

    def _on_signal(self, signum: int, frame: Any) -> None:
        self.signal = signum
        self.event.set()

    def check(self) -> None:
        if self.event.is_set():
            raise StopRequested

    def sleep(self, seconds: float) -> None:
        """Wait ``seconds`` unless asked to stop first."""
        self.event.wait(seconds)
        self.check()


# --- devices ----------------------------------------------------------------------------------------


@dataclass
class Devices:
    """The LEDs (Pico over USB, a strip on the Pi's SPI, or simulated), the status LED and the buttons."""

    signals: Any
    controller: Any = None  # firmware_bridge.LedController
    strip: Any = None  # firmware_bridge.spi_strip.SpiStrip
    board: Any = None  # firmware_bridge.SimulatedBoard
    buttons: Any = None  # firmware_bridge.ButtonPanel
    status: Any = None  # the gpiozero RGBLED behind the StatusLight
    notes: list[str] = field(default_factory=list)  # what is missing, for the self-check and the page

    def set_layout(self, layout: Any) -> None:
        for sink in (self.controller, self.strip, self.board):
            if sink is not None:
                sink.layout = layout

    def service(self) -> None:
        """One round of LED I/O and animation (call every frame and while waiting)."""
        fault = False
        if self.controller is not None:
            self.controller.service()
            fault = self.controller.problem is not None
        if self.strip is not None:
            self.strip.service()
            fault = self.strip.problem is not None
        if fault != self.signals.scene.controller_fault:
            self.signals.controller_fault(fault)  # the status LED blinks red while the LEDs cannot be driven
        self.signals.tick()

    def check(self) -> tuple[bool, str]:
        """(working, what) for the page's device list."""
        if self.controller is not None:
            if self.controller.problem is not None:
                return False, f"LED controller: {self.controller.problem}"
            return True, f"LED controller {self.controller.status.value}"
        if self.strip is not None:
            return (self.strip.problem is None), f"LED strip on SPI{': ' + self.strip.problem if self.strip.problem else ''}"
        return False, "LEDs simulated on the console"

    def close(self) -> None:
        for device, step in ((self.buttons, "close"), (self.status, "close"), (self.strip, "close"), (self.controller, "close")):
            if device is None:
                continue
            try:
                if device is self.status:
                    device.off()
                getattr(device, step)()
            except Exception as exc:  # noqa: BLE001 - one device failing to close must not keep the others open
                log.info("closing %s: %s", type(device).__name__, exc)


def gpio_environment(state: Path, environ: dict[str, str] | os._Environ[str] = os.environ) -> None:
    """lgpio (gpiozero's pin factory on a Pi 5) makes its notification pipes in ``$LG_WD`` or the working
    directory; under ``ProtectSystem=strict`` only the state directory is writable."""
    if "LG_WD" not in environ and not os.access(os.getcwd(), os.W_OK) and state.is_dir():
        environ["LG_WD"] = str(state)


def open_devices(options: dict[str, Any], clock: Callable[[], float] = time.monotonic, pin_factory: Any = None) -> Devices:
    """The devices ``options`` ask for (``leds``: pico, spi or simulate); whatever is missing is said once
    and left out, never fatal: the page has the buttons, the console shows the LEDs."""
    from firmware_bridge import (
        ButtonPanel,
        LedController,
        SerialConnector,
        Signals,
        SimulatedBoard,
        StatusLight,
        open_buttons,
        open_status_led,
    )

    gpio_environment(state_dir())
    devices = Devices(signals=None)
    status = None
    try:
        devices.status = open_status_led(pin_factory=pin_factory)
        status = StatusLight(devices.status, clock=clock)
    except Exception as exc:  # noqa: BLE001 - gpiozero raises many kinds when there is no GPIO
        devices.notes.append(f"no status LED ({type(exc).__name__}: {exc})")
    kind = "simulate" if options.get("simulate_leds") else str(options.get("leds") or "pico")
    sink: Any = None
    if kind == "spi":
        from firmware_bridge.spi_strip import SpiStrip, open_spi

        try:
            devices.strip = sink = SpiStrip(open_spi(), clock=clock)
        except OSError as exc:
            devices.notes.append(f"no LED strip on SPI ({exc}); the LEDs are simulated")
    elif kind == "pico":
        devices.controller = sink = LedController(SerialConnector(options.get("led_port")), clock=clock, report=log.warning)
    elif kind != "simulate":
        raise SystemExit(f"bgref watch: leds = {kind!r}: use pico, spi or simulate")
    if sink is None:
        devices.board = sink = SimulatedBoard()
    devices.signals = Signals(sink, clock=clock, status=status)
    if kind != "simulate":
        try:
            devices.buttons = ButtonPanel(open_buttons(pin_factory=pin_factory), clock=clock)
        except Exception as exc:  # noqa: BLE001 - no GPIO here (a laptop): the web page has the buttons
            devices.notes.append(f"no GPIO buttons ({type(exc).__name__}: {exc}); use the web page's buttons")
    for note in devices.notes:
        log.warning(note)
    return devices


class Locked:
    """Every method call of ``target`` under ``lock`` (the LED pump runs in its own thread)."""

    def __init__(self, target: Any, lock: Any) -> None:
        self._target = target
        self._lock = lock

    def __getattr__(self, name: str) -> Any:
        attr = getattr(self._target, name)
        if not callable(attr):
            return attr

        def locked(*args: Any, **kwargs: Any) -> Any:
            with self._lock:
                return attr(*args, **kwargs)

        return locked


class Pump:
    """Keeps the LEDs animated and the link to the Pico alive while the main loop is busy (a first
    calibration takes seconds; the Pico shows its fault pattern after 3 s without a frame), and tells
    systemd's watchdog the service lives as long as the main loop has moved within ``stall_seconds``."""

    def __init__(self, devices: Devices, lock: Any, notify: Callable[[str], Any], interval: float = 0.02,
                 stall_seconds: float = 60.0, clock: Callable[[], float] = time.monotonic) -> None:
        self.devices = devices
        self.lock = lock
        self.notify = notify
        self.interval = interval
        self.stall_seconds = stall_seconds
        self.clock = clock
        self._beat = clock()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="bgref-leds", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def beat(self) -> None:
        """The main loop is alive."""
        self._beat = self.clock()

    def _run(self) -> None:
        next_watchdog = 0.0
        while not self._stop.wait(self.interval):
            try:
                with self.lock:
                    self.devices.service()
            except Exception as exc:  # noqa: BLE001 - the pump must outlive any one LED fault
                log.warning("LED update failed: %s", exc)
            now = self.clock()
            if now >= next_watchdog and now - self._beat < self.stall_seconds:
                self.notify("WATCHDOG=1")
                next_watchdog = now + 2.0

    def stop(self) -> None:
        self._stop.set()
        if self._thread.is_alive():
            self._thread.join(timeout=1.0)


# --- the seating, from calibration ---------------------------------------------------------------


class FollowCalibration:
    """Everything that follows a calibration: the reader, the LEDs' strip order, the referee's halves,
    the camera's exposure.  ``adopt`` is called with each calibration, first-run or from the page."""

    def __init__(self, pipeline: Any, devices: Devices, services: Callable[[], Any], lock: Any,
                 source: Any, strip_start: str = "bottom", clock: Callable[[], float] = time.monotonic) -> None:
        self.pipeline = pipeline
        self.devices = devices
        self.services = services  # the service in play (a new match from the page replaces it)
        self.lock = lock
        self.source = source
        self.strip_start = strip_start
        self.clock = clock
        self.cal: Any = None
        self._since: float | None = None
        self._lock_tried = False

    def adopt(self, cal: Any) -> None:
        from firmware_bridge import Layout
        from vision import BoardReader

        from .seating import Seating

        self.pipeline.reader = BoardReader(cal)
        self.devices.set_layout(Layout.seen(cal.layout.home_right, cal.layout.dark_bottom, self.strip_start))  # type: ignore[arg-type]
        dark_right = Seating.from_layout(cal.layout).dark_right
        with self.lock:
            service = self.services()
            if service.settings.dark_right_half != dark_right:  # journalled, as the referee's own seating calls are
                service.journal.seating(dark_right)
                service.ref = replace(service.ref, settings=replace(service.ref.settings, dark_right_half=dark_right))
        first = self.cal is None
        self.cal = cal
        log.warning("calibration in use: home boards on dark's %s, dark at the %s of the image, LED strip from the %s",
                    "right" if cal.layout.home_right else "left", "bottom" if cal.layout.dark_bottom else "top", self.strip_start)
        if first:
            self.devices.signals.setup_needed(False)

    def tick(self) -> None:
        """Lock the camera's exposure once it has settled under a calibration (the colours it learnt)."""
        if self.cal is None or self._lock_tried:
            return
        now = self.clock()
        self._since = now if self._since is None else self._since
        if now - self._since >= EXPOSURE_SETTLE_SECONDS:
            self.lock_exposure()

    def lock_exposure(self) -> None:
        from vision.sources import CameraError

        self._lock_tried = True
        if not hasattr(self.source, "lock_exposure"):
            return  # a USB camera, a recording: nothing to hold
        try:
            locked = self.source.lock_exposure()
        except CameraError as exc:
            log.warning("%s; the camera keeps adjusting its exposure", exc)
            return
        if locked:
            log.info("camera exposure and white balance locked: %s", locked)


class FirstCalibration:
    """The reader while there is no calibration: each settled frame is tried as the start position;
    the first that is one becomes the calibration (saved by ``save``), then it is read as usual."""

    def __init__(self, save: Callable[[Any], None]) -> None:
        self.save = save

    def __call__(self, frame: Any) -> Any:
        """The frame's reading (a ``vision.reading.Reading``) once it has calibrated."""
        from vision import BoardReader, CalibrationConfig, calibrate
        from vision.errors import VisionError

        started = time.perf_counter()
        try:
            cal = calibrate(CalibrationConfig(), frame)
        except VisionError as exc:
            raise type(exc)(f"not the start position yet ({exc}); {SETUP_TEXT.split(':')[0]}") from None
        log.warning("calibrated from the start position in %.1f s: home boards on dark's %s, dark at the %s of the image",
                    time.perf_counter() - started, "right" if cal.layout.home_right else "left",
                    "bottom" if cal.layout.dark_bottom else "top")
        self.save(cal)
        return BoardReader(cal)(frame)


def saved_calibration(path: Path) -> Any:
    """The calibration saved at ``path``; None when there is none yet, or when it cannot be used (then
    it is moved aside to ``<name>.unusable`` and said, so the next start position calibrates afresh)."""
    from vision import load_calibration
    from vision.errors import VisionError

    if not path.exists():
        return None
    try:
        return load_calibration(path)
    except (VisionError, OSError, ValueError, KeyError) as exc:
        aside = path.with_name(path.name + ".unusable")
        with contextlib.suppress(OSError):
            path.replace(aside)
        log.warning("the calibration %s cannot be used (%s); it was moved to %s and the board is learnt again", path, exc, aside)
        return None


# --- buttons ---------------------------------------------------------------------------------------


class PinUnlocks:
    """Stands in front of the page's PIN guard and remembers when the right PIN was last given."""

    def __init__(self, guard: Any, clock: Callable[[], float] = time.monotonic) -> None:
        self.guard = guard
        self.clock = clock
        self.last: float | None = None

    def check(self, given: str | None, client: str) -> None:
        self.guard.check(given, client)
        self.last = self.clock()

    def unlocked(self) -> bool:
        return self.last is not None and self.clock() - self.last <= UNLOCK_SECONDS

    def __getattr__(self, name: str) -> Any:
        return getattr(self.guard, name)


class Buttons:
    """What the four buttons on the mount do.

    accept: accept an illegal play as made.  take back: during an illegal play, show the points to
    correct again; otherwise undo the last play before the next roll.  new game: pressed twice within
    5 s, drop the game in play (the finished games of the match stay) and wait for the start position.
    mode: the next mode, only within two minutes of giving the page's PIN (the same PIN guards both)."""

    def __init__(self, handle: Callable[[Any], Outcome], services: Callable[[], Any], lock: Any,
                 unlocks: PinUnlocks | None, clock: Callable[[], float] = time.monotonic) -> None:
        self.handle = handle
        self.services = services
        self.lock = lock
        self.unlocks = unlocks
        self.clock = clock
        self._new_game_at: float | None = None

    def press(self, name: str) -> Outcome:
        if name == "accept":
            return self.handle(Press("accept"))
        if name == "take-back":
            with self.lock:
                service = self.services()
                if service.ref.stage is Stage.ILLEGAL:
                    return self.handle(Press("correct"))
                taken: Outcome = service.take_back()
                return taken
        if name == "new-game":
            return self._new_game()
        if name == "mode":
            if self.unlocks is None:
                return self._say("the mode is set in the configuration (the web page is off)")
            if not self.unlocks.unlocked():
                return self._say("the mode button needs the PIN: give it on the page, then press mode within two minutes")
            return self.handle(Press("mode"))
        return self._say(f"unknown button {name!r}")

    def _new_game(self) -> Outcome:
        now = self.clock()
        if self._new_game_at is None or now - self._new_game_at > CONFIRM_SECONDS:
            self._new_game_at = now
            return self._say(f"press new game again within {CONFIRM_SECONDS:.0f} s to drop the game in play")
        self._new_game_at = None
        with self.lock:
            dropped: Outcome = self.services().abandon_game()
            return dropped

    def _say(self, text: str) -> Outcome:
        note = Note(text, "warning")
        with self.lock:
            self.services().tell(note)
        return Outcome(notes=(note,))
