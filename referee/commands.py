"""`bgref watch` (live) and `bgref replay` (offline): frames to a refereed, recorded match.

Configuration for `watch` is TOML, read from the first of ``--config``,
``$BGREF_CONFIG``, ``$XDG_CONFIG_HOME/bgref/config.toml`` (``~/.config/…``) and
``/etc/bgref/config.toml``; flags override it.  Keys are the long flag names
with underscores (``camera = "picamera"``, ``calibration = "…"``,
``match_dir = "…"``, ``led_port = "/dev/ttyACM0"``, ``players = ["Ann", "Bob"]``,
``match_length = 5``, ``mode = "teach"``, ``jacoby = true`` …).
"""

from __future__ import annotations

import argparse
import contextlib
import logging
import os
import sys
import threading
import tomllib
from pathlib import Path
from typing import Any, Callable

from engine.game import AcceptIllegal, Rules

from .core import Mode, Note, Settings
from .seating import Seating
from .service import RefereeService

log = logging.getLogger("bgref")

_RULE_KEYS = ("match_length", "crawford", "jacoby", "beavers", "raccoons", "automatic_doubles", "max_cube")


def register(subparsers: Any) -> None:
    watch = subparsers.add_parser("watch", help="referee a live game from the camera")
    watch.add_argument("--config", type=Path, help="TOML configuration (see `bgref watch --help`)")
    watch.add_argument("--camera", help="picamera, usb:N, a video file or a folder of images")
    watch.add_argument("--calibration", type=Path, help="calibration.json (default: in the state folder); "
                       "when there is none yet, made from the first start position the camera sees")
    watch.add_argument("--match-dir", type=Path, help="folder of this match (journal, .mat, SGF); resumed if it holds one")
    watch.add_argument("--led-port", help="serial port of the LED controller (default: found by USB id)")
    watch.add_argument("--simulate-leds", action="store_true", default=None, help="print the LEDs instead of driving a controller")
    watch.add_argument("--leds", choices=["pico", "spi", "simulate"], help="LEDs on a Pico over USB (default), a strip on the Pi's SPI, or simulated")
    watch.add_argument("--strip-start", choices=["bottom", "top"], help="edge of the camera image the LED strip's first pixels run along (default bottom)")
    watch.add_argument("--camera-height-mm", type=float, help="Pi camera lens above the board, for its focus (default 540)")
    watch.add_argument("--web", help="[HOST:]PORT of the live web page (default 0.0.0.0:8080), or 'off'")
    _match_flags(watch)
    watch.set_defaults(func=run_watch)
    replay = subparsers.add_parser("replay", help="referee a recorded video or folder of frames offline")
    replay.add_argument("recording", help="a video file or a folder of images")
    replay.add_argument("--calibration", type=Path, required=True)
    replay.add_argument("--out", type=Path, required=True, help="folder for the journal and match files")
    replay.add_argument("--fps", type=float, default=10.0, help="frame rate of a folder of images")
    _match_flags(replay)
    replay.set_defaults(func=run_replay)


def _match_flags(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--players", nargs=2, metavar=("DARK", "LIGHT"))
    parser.add_argument("--match-length", type=int, help="points to win (0 = money)")
    parser.add_argument("--mode", choices=[m.value for m in Mode])
    parser.add_argument("--no-crawford", dest="crawford", action="store_false", default=None)
    parser.add_argument("--jacoby", action="store_true", default=None)
    parser.add_argument("--beavers", action="store_true", default=None)
    parser.add_argument("--raccoons", action="store_true", default=None)
    parser.add_argument("--automatic-doubles", type=int)
    parser.add_argument("--accept-illegal", choices=[a.value for a in AcceptIllegal])


def config_paths(explicit: Path | None, environ: dict[str, str] | os._Environ[str] = os.environ) -> list[Path]:
    """Where the configuration is looked for, first match wins."""
    paths = [explicit] if explicit else []
    if environ.get("BGREF_CONFIG"):
        paths.append(Path(environ["BGREF_CONFIG"]))
    xdg = environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    paths += [Path(xdg) / "bgref" / "config.toml", Path("/etc/bgref/config.toml")]
    return paths


def load_config(explicit: Path | None) -> tuple[dict[str, Any], Path | None]:
    for path in config_paths(explicit):
        if path.is_file():
            try:
                return tomllib.loads(path.read_text(encoding="utf-8")), path
            except (tomllib.TOMLDecodeError, OSError) as exc:
                raise SystemExit(f"bgref: the configuration {path} cannot be read: {exc}") from None
        if explicit and path == explicit:
            raise SystemExit(f"bgref: no configuration file at {explicit}")
    return {}, None


def merged(config: dict[str, Any], args: argparse.Namespace) -> dict[str, Any]:
    """Configuration with the flags given on the command line on top."""
    out = dict(config)
    for key, value in vars(args).items():
        if value is not None and key not in ("func", "config", "command"):
            out[key] = value
    return out


def settings_from(options: dict[str, Any], dark_right_half: str = "home") -> Settings:
    rules_kw = {k: options[k] for k in _RULE_KEYS if k in options}
    if "accept_illegal" in options:
        rules_kw["accept_illegal"] = AcceptIllegal(options["accept_illegal"])
    try:
        rules = Rules(**rules_kw)
    except (TypeError, ValueError) as exc:
        raise SystemExit(f"bgref: the rules asked for do not fit together: {exc}") from None
    players = tuple(options.get("players") or ("Dark", "Light"))
    return Settings(rules=rules, players=(str(players[0]), str(players[1])), mode=Mode(options.get("mode", "referee")), dark_right_half=dark_right_half)


def _calibration(path: Path) -> Any:
    from vision import load_calibration
    from vision.errors import VisionError

    try:
        return load_calibration(path)
    except VisionError as exc:
        raise SystemExit(f"bgref: {exc} (make one with `bgref calibrate IMAGE -o calibration.json`)") from None


def _reader(calibration: Path) -> tuple[Callable[..., Any], str]:
    from vision import BoardReader

    cal = _calibration(calibration)
    return BoardReader(cal), Seating.from_layout(cal.layout).dark_right


def web_address(text: str) -> tuple[str, int]:
    """``[HOST:]PORT`` as (host, port)."""
    host, _, port = text.rpartition(":")
    host = host.strip("[]") or "0.0.0.0"
    if not port.isdigit() or not 0 <= int(port) <= 65535:
        raise argparse.ArgumentTypeError(f"{text!r} is not [HOST:]PORT with PORT a number from 0 to 65535")
    return host, int(port)


def default_match_dir(environ: dict[str, str] | os._Environ[str] = os.environ) -> Path:
    """Under systemd (``StateDirectory=bgref``) the state folder, else ``~/bgref-matches``; ``current`` in it."""
    state = environ.get("STATE_DIRECTORY", "").split(":")[0]
    base = Path(state) if state else Path.home() / "bgref-matches"
    return base / "current"


def _setup_logging() -> None:
    # Under systemd, stderr goes to journald, which stamps the time itself.
    fmt = "%(levelname)s %(message)s" if os.environ.get("JOURNAL_STREAM") else "%(asctime)s %(message)s"
    logging.basicConfig(level=logging.INFO, format=fmt, datefmt="%H:%M:%S")


def run_replay(args: argparse.Namespace) -> int:
    from vision.sources import CameraError, open_source

    from .pipeline import FramePipeline, run_source

    _setup_logging()
    reader, dark_right = _reader(args.calibration)
    settings = settings_from(merged({}, args), dark_right)
    if (args.out / "match.journal").exists():
        print(f"bgref replay: {args.out} already holds a match; give another --out folder", file=sys.stderr)
        return 2
    try:
        source = open_source(args.recording, fps=args.fps)
        service = RefereeService(settings, args.out, signals=None)
    except (CameraError, OSError) as exc:
        print(f"bgref replay: {exc}", file=sys.stderr)
        return 2
    pipeline = FramePipeline(reader, service)
    status = 0
    try:
        stats = run_source(source, pipeline, live=False)
        print(f"refereed {args.recording}: {stats.summary()}")
    except CameraError as exc:
        print(f"bgref replay: {exc}; the match so far is kept", file=sys.stderr)
        status = 2
    except Exception as exc:  # noqa: BLE001 - a fault of ours must still leave the records of what was refereed
        log.debug("replay fault", exc_info=True)
        print(f"bgref replay: refereeing stopped at {service.t:.1f} s by a fault ({type(exc).__name__}: {exc}); "
              "the match so far is kept (please report this with the footage)", file=sys.stderr)
        status = 1
    written = _finish(service, "bgref replay")
    print(f"score {settings.players[0]} {service.ref.match.score[0]}, {settings.players[1]} {service.ref.match.score[1]}")
    print("wrote " + ", ".join(str(p) for p in [args.out / 'match.journal', *written]))
    return status


def _finish(service: RefereeService, who: str) -> list[Path]:
    """Write the records and close the match folder; a record that cannot be written is reported, and the
    journal (from which `bgref` can write it again) is kept whatever happens."""
    written: list[Path] = []
    try:
        written = service.write_records()
    except Exception as exc:  # noqa: BLE001 - the journal holds the match; say what failed, never lose it
        log.debug("records fault", exc_info=True)
        print(f"{who}: the match records could not be written ({type(exc).__name__}: {exc}); "
              f"the journal {service.journal.path} holds every event", file=sys.stderr)
    finally:
        service.close()
    calls = service.calls.path
    return written + ([calls] if calls.exists() else [])


def run_watch(args: argparse.Namespace) -> int:
    """Referee live: camera frames in, LEDs and records out, until SIGTERM (or the recording's end)."""
    from firmware_bridge import sdnotify
    from vision.sources import CameraError, open_source

    from .pipeline import FramePipeline, not_calibrated, run_source
    from .watch import (SETUP_TEXT, Buttons, FirstCalibration, FollowCalibration, Locked, PinUnlocks, Pump, Stopping,
                        StopRequested, open_devices, saved_calibration, state_dir)

    _setup_logging()
    stopping = Stopping()
    stopping.install()  # before anything slow: a stop during start-up is clean too
    config, path = load_config(args.config)
    options = merged(config, args)
    if path:
        log.info("configuration: %s", path)
    if not options.get("camera"):
        print("bgref watch: no camera given (flag --camera or `camera = …` in the configuration)", file=sys.stderr)
        return 2
    calibration_path = Path(options.get("calibration") or state_dir() / "calibration.json")
    try:
        source: Any = open_source(str(options["camera"]), height_mm=float(options.get("camera_height_mm", 540)))
    except (CameraError, ValueError) as exc:
        print(f"bgref watch: {exc}", file=sys.stderr)
        return 2
    cal = saved_calibration(calibration_path)
    settings = settings_from(options, Seating.from_layout(cal.layout).dark_right if cal is not None else "home")
    folder = Path(options.get("match_dir") or default_match_dir())
    service = RefereeService(settings, folder, None)
    if service.resumed_message():
        log.warning(service.resumed_message())
    devices = open_devices(options)
    leds_lock = threading.RLock()
    devices.signals = Locked(devices.signals, leds_lock)  # the pump thread animates the LEDs meanwhile
    service.signals = devices.signals
    pump = Pump(devices, leds_lock, sdnotify.notify)
    pipeline = FramePipeline(not_calibrated, service)
    web = _start_web(options, service, devices, pipeline, cal, calibration_path)
    target: Any = web if web is not None else service  # every reading and press goes through the page's lock
    lock: Any = web.lock if web is not None else contextlib.nullcontext()
    current = (lambda: web.service) if web is not None else (lambda: service)
    seating = FollowCalibration(pipeline, devices, current, lock, source, str(options.get("strip_start", "bottom")))
    if web is not None:
        web.camera.on_apply = seating.adopt  # a calibration made on the page is followed like any other
        web.guard = PinUnlocks(web.guard)

    def first_calibration(new_cal: Any) -> None:
        _save_calibration(new_cal, calibration_path, web)
        seating.adopt(new_cal)
        seating.lock_exposure()  # the colours just learnt hold from now on
        with lock:
            current().tell(Note(f"calibrated from the start position (saved to {calibration_path}); the game can start"))

    if cal is not None:
        seating.adopt(cal)
    else:
        pipeline.reader = FirstCalibration(first_calibration)
        devices.signals.setup_needed(True)
        with lock:
            current().tell(Note(SETUP_TEXT, "warning"))
            if web is not None:
                web.live.refresh()  # on the page from the start, not only after the first reading
    pipeline.service = target
    pipeline.on_bare_board = lambda learnt: _use_bare_board(learnt, web, pipeline, calibration_path)
    buttons = Buttons(target.handle, current, lock, web.guard if web is not None else None)
    if web is not None:
        from .web import KeptSource

        source = KeptSource(source, web.camera)
    pump.start()
    sdnotify.notify("READY=1")
    log.info("refereeing %s vs %s from %s; match folder %s", *settings.players, source.name, folder)

    def idle() -> None:
        stopping.check()
        pump.beat()
        seating.tick()
        if devices.buttons is not None:
            for press in devices.buttons.poll():
                buttons.press(press.button)

    how = "the recording ended"
    try:
        run_source(source, pipeline, on_camera_fault=devices.signals.camera_fault, live=True, idle=idle, sleep=stopping.sleep)
    except StopRequested:
        how = "stopped by signal %d" % (stopping.signal or 0)
    finally:
        sdnotify.notify("STOPPING=1")
        pump.stop()
        if web is not None:
            web.stop()
        service = current()  # a new match may have been started from the page
        _finish(service, "bgref watch")
        devices.close()
    log.info("%s: %s", how, pipeline.stats.summary())
    return 0


def _save_calibration(cal: Any, path: Path, web: Any) -> None:
    """Write a calibration atomically (and show it on the page's calibration view)."""
    from .web import FrameKeeper

    keeper = web.camera if web is not None and web.camera is not None else FrameKeeper(save_to=path)
    on_apply, keeper.on_apply = keeper.on_apply, None  # the caller adopts it
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        keeper.apply(cal)
    finally:
        keeper.on_apply = on_apply


def _use_bare_board(learnt: Any, web: Any, pipeline: Any, calibration_path: Path) -> None:
    """A calibration that has learnt the bare board: saved over the old one and read with from now on."""
    from vision import BoardReader

    from .web import FrameKeeper

    if web is not None and web.camera is not None:
        web.camera.apply(learnt)  # saves it and swaps the pipeline's reader
        return
    FrameKeeper(save_to=calibration_path).apply(learnt)
    pipeline.reader = BoardReader(learnt)


def _start_web(options: dict[str, Any], service: RefereeService, devices: Any, pipeline: Any, cal: Any, calibration_path: Path) -> Any:
    """The live page on the local network (None when turned off or its port is taken)."""
    spec = str(options.get("web") or "0.0.0.0:8080")
    if spec == "off":
        return None
    from .web import FrameKeeper, WebServer

    try:
        host, port = web_address(spec)
    except argparse.ArgumentTypeError as exc:
        raise SystemExit(f"bgref watch: --web {exc}") from None
    keeper = FrameKeeper(calibration=cal, save_to=calibration_path)
    web = WebServer(service, host, port, calibration_source=keeper, devices={"leds": devices.check})
    try:
        web.start()
    except OSError as exc:
        log.warning("the web page cannot be served on %s: %s; refereeing goes on without it", spec, exc)
        return None
    log.warning(web.banner())
    return web
